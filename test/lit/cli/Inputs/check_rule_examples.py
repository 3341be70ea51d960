"""Lint every rule's documented examples (RuleDocs.def, via --list-rules
--format=json): the bad example must report the rule, the good one must not
(and must have no error). Examples that are not whole modules are wrapped in
one: .version 9.1, .target sm_100a, a few variables (gbl, gmem, smem, shrd)
and registers (%r, %rd, %h, %f), in a kernel body; lines starting with '.'
go to module level. Examples written "(...)" are prose and skipped, and so
are the rules of groups whose examples are about files or tools (module,
suppression, config, library, assembler). The examples of the
inline-asm group are C++ sources, linted as they are with --lang=cuda. Usage: check_rule_examples.py PTXLINT"""
import json
import subprocess
import sys

PTXLINT = sys.argv[1]
SKIP_GROUPS = {"module", "suppression", "config", "library", "assembler"}


def wrap(example):
    if ".entry" in example or ".func" in example:
        return example + "\n"
    top = [l for l in example.split("\n") if l.startswith(".")]
    body = [l for l in example.split("\n") if not l.startswith(".")]
    version = [l for l in top if l.startswith(".version")] or [".version 9.1"]
    target = [l for l in top if l.startswith(".target")] or [".target sm_100a"]
    other = [l for l in top if not l.startswith((".version", ".target"))]
    declared = " ".join(other)
    decls = [d for name, d in [("gbl", ".global .b64 gbl;"), ("gmem", ".global .b8 gmem[64];"),
                               ("smem", ".shared .b64 smem;"), ("shrd", ".shared .b8 shrd[64];")]
             if name not in declared]
    return "\n".join(version + target + [".address_size 64"] + other + decls + [
        ".visible .entry k()", "{", "  .reg .b32 %r<9>;", "  .reg .b64 %rd<9>;",
        "  .reg .b16 %h<9>;", "  .reg .f32 %f<9>;"] + ["  " + l for l in body] + ["  ret;", "}", ""])


def lint(source, lang="ptx"):
    out = subprocess.run([PTXLINT, "--no-config", "--format=json", "--lang=" + lang, "-"],
                         input=source, capture_output=True, text=True).stdout
    return json.loads(out)["diagnostics"]


rules = json.loads(subprocess.run([PTXLINT, "--list-rules", "--format=json"],
                                  capture_output=True, text=True, check=True).stdout)
checked = failed = 0
for rule in rules:
    if rule["group"] in SKIP_GROUPS:
        continue
    for kind in ("bad", "good"):
        example = rule[kind]
        if not example or example.startswith("("):
            continue
        checked += 1
        if rule["group"] == "inline-asm":
            diags = lint(example + "\n", "cuda")
        else:
            diags = lint(wrap(example))
        codes = [d["code"] for d in diags]
        if kind == "bad":
            ok = rule["code"] in codes
        else:
            ok = rule["code"] not in codes and not any(d["severity"] == "error" for d in diags)
        if not ok:
            failed += 1
            print("%s %s example: got %s" % (rule["code"], kind,
                  [(d["code"], d["message"]) for d in diags]))
print("%d examples checked, %d wrong" % (checked, failed))
sys.exit(1 if failed else 0)
