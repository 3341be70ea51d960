#!/usr/bin/env python3
"""Cross-check CCCL's generated cuda::ptx wrappers: each async-copy asm
statement is judged at the lowest target and PTX version its guards admit
(`#if __cccl_ptx_isa >= N` around `#if __CUDA_ARCH__ >= M` or
`__CUDA_ARCH_FEAT_SMxx_ALL`), once by ptxlint's spec tables and once by
ptxas. Prints the statements where the two (or the guard and either) disagree.

Usage: cccl-guard-check.py PTXLINT [CCCL_PTX_DIR] [--ptxas PTXAS]
  CCCL_PTX_DIR defaults to /usr/local/cuda/include/cccl/cuda/__ptx
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ASYNC = re.compile(r"\b(cp\.async|cp\.reduce\.async)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ptxlint")
    ap.add_argument("root", nargs="?", default="/usr/local/cuda/include/cccl/cuda/__ptx")
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    a = ap.parse_args()
    if not os.path.exists(a.ptxas) or not os.path.isdir(a.root):
        print("cccl-guard-check: ptxas or %s not found" % a.root)
        return 77
    gen = os.path.join(a.root, "instructions", "generated")
    work = tempfile.mkdtemp(prefix="cccl-guard-")
    total = guarded = agree = 0
    rows = []
    for name in sorted(os.listdir(gen)):
        path = os.path.join(gen, name)
        out = subprocess.run([a.ptxlint, "--no-config", "--lang=cuda", "--print-asm-snippets", path],
                             capture_output=True, text=True).stdout
        lint = json.loads(subprocess.run([a.ptxlint, "--no-config", "--lang=cuda", "--format=json", path],
                                         capture_output=True, text=True).stdout)["diagnostics"]
        for block in out.split("\n// ")[0:]:
            block = block[3:] if block.startswith("// ") else block
            head, _, module = block.partition("\n")
            m = re.match(r"(.*):(\d+):(\d+) target=(\S*) ptx=(\S*)", head)
            if not m or not ASYNC.search(module):
                continue
            total += 1
            line, target, ptx = int(m.group(2)), m.group(4), m.group(5)
            if not target or not ptx:
                continue
            guarded += 1
            f = os.path.join(work, "s.ptx")
            open(f, "w").write(module)
            r = subprocess.run([a.ptxas, "-arch=" + target, f, "-o", os.devnull],
                               capture_output=True, text=True)
            accepted = r.returncode == 0
            # The statement's diagnostics: from its first line to the next
            # statement's (a statement spans a few lines).
            mine = [d for d in lint if line <= d["range"]["start"]["line"] < line + 12]
            errors = [d for d in mine if d["severity"] == "error" or d["code"] == "C002"]
            ok = accepted == (not errors)
            agree += ok
            if not ok or mine:
                rows.append((name, line, target, ptx, "accepts" if accepted else "rejects",
                             ", ".join("%s %s" % (d["code"], d["message"][:90]) for d in mine) or "clean",
                             "" if accepted else r.stderr.strip().split("\n")[0][:120]))
    shutil.rmtree(work, ignore_errors=True)
    print("async-copy asm statements: %d; judged at a guard's target and PTX version: %d; "
          "ptxlint and ptxas agree on %d" % (total, guarded, agree))
    for r in rows:
        print("%s:%d %s PTX %s: ptxas %s; ptxlint: %s %s" % r)
    return 0 if agree == guarded else 1


if __name__ == "__main__":
    sys.exit(main())
