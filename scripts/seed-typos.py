#!/usr/bin/env python3
"""Seeded-typo harness for the C++ front end (docs/inline-asm.md).

Over the asm statements of real headers, seeds one typo at a time into a copy
of a file and lints the copy with `ptxlint --lang=cuda`:
  misspell   a qualifier of an async-copy mnemonic loses a letter
  add        a qualifier is written twice
  drop       a qualifier is removed
  drop-op    the last operand of the instruction is removed
  add-op     an operand (%0) is added before the ';'
  swap       an "r" / "l" constraint of the statement becomes "l" / "r"
A typo counts only when ptxas 13.0 rejects the statement's snippet
(`ptxlint --print-asm-snippets`) while accepting the original: a typo that
yields valid PTX (.read dropped from a wait) is no error anyone can report.
It is "reported" when a new diagnostic (its caret, a note or a fix-it)
appears at the exact line and column of the change, and "elsewhere" when new diagnostics
appear only at other places. A ptxlint error on a typo ptxas accepts is
listed as a false error.

Usage: seed-typos.py --ptxlint BIN [--ptxas PTXAS] [--sites N] [--seed S]
                     [--jobs J] [--show-missed] DIR_OR_FILE...
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

EXTS = (".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc", ".inl")
MNEMONIC = re.compile(r"cp\.(?:reduce\.)?async[A-Za-z0-9_.:]*")
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
KINDS = ["misspell", "add", "drop", "drop-op", "add-op", "swap"]
# The instruction names of the family, longest first.
OPCODES = sorted(["cp.async", "cp.async.bulk", "cp.async.bulk.tensor", "cp.reduce.async.bulk",
                  "cp.reduce.async.bulk.tensor", "cp.async.bulk.prefetch",
                  "cp.async.bulk.prefetch.tensor", "cp.async.commit_group", "cp.async.wait_group",
                  "cp.async.wait_all", "cp.async.bulk.commit_group", "cp.async.bulk.wait_group",
                  "cp.async.mbarrier.arrive"], key=len, reverse=True)


def files_under(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for root, dirs, names in os.walk(p):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for n in sorted(names):
                if n.endswith(EXTS):
                    yield os.path.join(root, n)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def lint(ptxlint, path):
    out = run([ptxlint, "--no-config", "--lang=cuda", "--format=json", path]).stdout
    found = set()
    errors = set()
    for d in json.loads(out)["diagnostics"]:
        loc = d["range"]["start"]
        key = (d["code"], loc["line"], loc["column"])
        found.add(key)
        if d["severity"] == "error":
            errors.add(key)
        # A note or a fix-it (the insertion point of a dropped qualifier)
        # at the change counts as pointing at it.
        for n in d.get("notes", []) + d.get("fixes", []):
            if n.get("range"):
                nl = n["range"]["start"]
                found.add((d["code"], nl["line"], nl["column"]))
    return found, errors


def snippets(ptxlint, path):
    """line -> (target, ptx, module) of each checked statement."""
    out = run([ptxlint, "--no-config", "--lang=cuda", "--print-asm-snippets", path]).stdout
    result = {}
    for block in out.split("\n// ")[0:]:
        block = block[3:] if block.startswith("// ") else block
        head, _, module = block.partition("\n")
        m = re.match(r"(.*):(\d+):(\d+) target=(\S*) ptx=(\S*)", head)
        if m:
            result[int(m.group(2))] = (m.group(4), m.group(5), module)
    return result


def ptxas_accepts(ptxas, target, ptx, module, work):
    target = target or "sm_100a"
    head = ""
    if ".version" not in module:
        head += ".version 8.8\n"
    if ".target" not in module:
        head += ".target %s\n" % target
    fd, path = tempfile.mkstemp(suffix=".ptx", dir=work)
    with os.fdopen(fd, "w") as f:
        f.write(head + module)
    r = run([ptxas, "-arch=" + target, path, "-o", os.devnull])
    os.unlink(path)
    return r.returncode == 0


def statement_line(snips, line):
    """The statement (by its first line) that holds a literal on line."""
    best = None
    for start in snips:
        if start <= line <= start + 15 and (best is None or start > best):
            best = start
    return best


def sites_of(path, snips):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    out = []
    for i, text in enumerate(lines, 1):
        s = text.lstrip()
        if s.startswith("//") or s.startswith("*"):
            continue
        for lit in LITERAL.finditer(text):
            for m in MNEMONIC.finditer(lit.group(1)):
                start = statement_line(snips, i)
                if start is None or m.group(0) not in snips[start][2]:
                    continue
                out.append((i, lit.start(1) + m.start(), m.group(0), start))
    return lines, out


def mutate(kind, lines, site, rng):
    """(new lines, line, 1-based column of the change) or None."""
    line, col0, mnem, start = site
    text = lines[line - 1]
    # Qualifiers only: the components after the instruction's own name.
    name = next((o for o in OPCODES if mnem == o or mnem.startswith(o + ".")), mnem)
    quals = [q for q in re.finditer(r"\.[A-Za-z0-9_:]+", mnem) if q.start() >= len(name)]
    new = list(lines)
    if kind in ("misspell", "add", "drop"):
        if not quals:
            return None
        q = rng.choice(quals)
        at = col0 + q.start()
        word = q.group(0)
        if kind == "misspell":
            if len(word) < 4:
                return None
            k = rng.randrange(1, len(word))
            if word[k] == ":":
                return None
            new[line - 1] = text[:at] + word[:k] + word[k + 1:] + text[at + len(word):]
            return new, line, at + 1
        if kind == "add":
            new[line - 1] = text[:at + len(word)] + word + text[at + len(word):]
            return new, line, at + len(word) + 1
        new[line - 1] = text[:at] + text[at + len(word):]
        return new, line, at + 1
    # Operands: the literal that ends the instruction (';'), on this line or
    # the next few.
    for l in range(line, min(line + 4, len(lines) + 1)):
        t = new[l - 1]
        from_col = col0 + len(mnem) if l == line else 0
        for lit in LITERAL.finditer(t):
            if lit.end() <= from_col:
                continue
            semi = t.find(";", max(lit.start(1), from_col), lit.end(1))
            if semi < 0:
                continue
            if kind == "add-op":
                new[l - 1] = t[:semi] + ", %0" + t[semi:]
                return new, l, semi + 3
            m = None
            for m in re.finditer(r",\s*(\[[^\]]*\]|\{[^}]*\}|%\d+|%\[\w+\]|-?\w+)\s*(?=;)",
                                 t[:semi + 1]):
                pass
            if kind == "drop-op" and m:
                new[l - 1] = t[:m.start()] + t[m.end():]
                return new, l, m.start() + 1
            break
        if kind in ("add-op", "drop-op") and ";" in new[l - 1][from_col:]:
            break
    if kind == "swap":
        found = []
        for l in range(start, min(start + 15, len(lines) + 1)):
            for m in re.finditer(r'"(=?\+?)([rl])"\s*\(', new[l - 1]):
                found.append((l, m))
            if ");" in new[l - 1]:
                break
        if found:
            l, m = rng.choice(found)
            t = new[l - 1]
            c = m.start(2)
            other = "l" if m.group(2) == "r" else "r"
            new[l - 1] = t[:c] + other + t[c + 1:]
            return new, l, m.start() + 1
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxlint", required=True)
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    ap.add_argument("--sites", type=int, default=60, help="sites sampled per input")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--show-missed", action="store_true")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    if not os.path.exists(a.ptxas):
        print("seed-typos: ptxas not found; it decides which typos are errors")
        return 77
    rng = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix="seed-typos-")
    jobs = []
    for root in a.paths:
        all_sites = []
        for f in files_under([root]):
            src = open(f, encoding="utf-8", errors="replace").read()
            if "cp.async" not in src and "cp.reduce.async" not in src:
                continue
            snips = snippets(a.ptxlint, f)
            lines, sites = sites_of(f, snips)
            all_sites += [(f, lines, snips, s) for s in sites]
        rng.shuffle(all_sites)
        for (f, lines, snips, s) in all_sites[:a.sites]:
            for kind in KINDS:
                m = mutate(kind, lines, s, rng)
                if m:
                    jobs.append((root, kind, f, lines, snips, s, m))

    base_cache = {}

    def one(job):
        root, kind, f, lines, snips, site, (new, line, col) = job
        d = tempfile.mkdtemp(dir=work)
        path = os.path.join(d, os.path.basename(f))
        if f not in base_cache:
            base_cache[f] = lint(a.ptxlint, f)
        base, _ = base_cache[f]
        with open(path, "w") as out:
            out.write("\n".join(new))
        t, v, module = snips[site[3]]
        if not ptxas_accepts(a.ptxas, t, v, module, d):
            return (root, kind, "original-rejected", f, line, col)
        after = snippets(a.ptxlint, path).get(site[3])
        found, errors = lint(a.ptxlint, path)
        shutil.rmtree(d)
        new_diags = found - base
        if after is None:
            return (root, kind, "unchecked", f, line, col)
        if ptxas_accepts(a.ptxas, after[0], after[1], after[2], work):
            false_error = bool(errors - base)
            return (root, kind, "valid-false-error" if false_error else "valid", f, line, col)
        if any(l == line and c == col for (_, l, c) in new_diags):
            return (root, kind, "exact", f, line, col)
        if new_diags:
            return (root, kind, "elsewhere:" + ",".join("%d:%d" % (l, c) for (_, l, c) in sorted(new_diags)), f, line, col)
        return (root, kind, "missed", f, line, col)

    with ThreadPoolExecutor(a.jobs) as ex:
        results = list(ex.map(one, jobs))
    shutil.rmtree(work, ignore_errors=True)

    print("%-40s %-9s %6s %6s %6s %6s %6s %8s" % ("tree", "kind", "typos", "exact", "elsew.", "missed", "valid", "false-E"))
    tot = {"typos": 0, "exact": 0}
    for root in a.paths:
        for kind in KINDS:
            rs = [r for r in results if r[0] == root and r[1] == kind]
            exact = sum(r[2] == "exact" for r in rs)
            elsewhere = sum(r[2].startswith("elsewhere") for r in rs)
            missed = sum(r[2] == "missed" for r in rs)
            valid = sum(r[2].startswith("valid") for r in rs)
            false_e = sum(r[2] == "valid-false-error" for r in rs)
            typos = exact + elsewhere + missed
            tot["typos"] += typos
            tot["exact"] += exact
            print("%-40s %-9s %6d %6d %6d %6d %6d %8d" % (root[-40:], kind, typos, exact, elsewhere, missed, valid, false_e))
    if a.show_missed:
        for r in results:
            if r[2] == "missed" or r[2].startswith("elsewhere") or r[2] == "valid-false-error":
                print("  %s %s:%d:%d %s" % (r[1], r[3], r[4], r[5], r[2]))
    pct = 100.0 * tot["exact"] / tot["typos"] if tot["typos"] else 0.0
    print("total: %d typos ptxas rejects, %d reported at the exact line and column (%.1f%%)"
          % (tot["typos"], tot["exact"], pct))
    return 0


if __name__ == "__main__":
    sys.exit(main())
