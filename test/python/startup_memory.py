#!/usr/bin/env python3
"""ctest startup-memory: the ptxlint command's resident memory stays small.

usage: startup_memory.py MEASURE PTXLINT EXAMPLE

The command is one static executable with its code in the order a lint
runs it (tools/ptxlint/CMakeLists.txt): `ptxlint --version` peaks at ~1.9 MB
and a lint of the bundled example at ~2.7 MB, where a dynamically linked
command with its code in link order took 4.8 and 6.2 MB (the program's own
file pages: the kernel maps each one touched with the rest of its 64 KB).
This fails when either peak passes its limit, e.g. when the link order or
the static link is lost. Peaks from MEASURE (bench/measure.c), best of 3.
"""
import subprocess
import sys

LIMITS_KB = {"--version": 3000, "example": 4000}


def peak_kb(measure, cmd):
    best = None
    for _ in range(3):
        out = subprocess.run([measure, "--"] + cmd, capture_output=True, text=True,
                             check=True).stdout.split()
        best = int(out[2]) if best is None else min(best, int(out[2]))
    return best


def main():
    measure, ptxlint, example = sys.argv[1:4]
    failed = False
    for what, cmd in (("--version", [ptxlint, "--version"]),
                      ("example", [ptxlint, "--no-config", example])):
        kb = peak_kb(measure, cmd)
        ok = kb <= LIMITS_KB[what]
        failed |= not ok
        print(f"{'ok' if ok else 'FAIL'}: ptxlint {what}: peak {kb} KB (limit {LIMITS_KB[what]} KB)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
