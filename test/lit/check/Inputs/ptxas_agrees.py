#!/usr/bin/env python3
"""ptxas_agrees.py PTXAS FILE...: ptxas 13.0 must reject exactly the lines of
each file test that carry an expected-error comment (unless the line is
marked "ptxas-accepts", a documented disagreement, see
test/diff/exceptions.txt) and accept every other instruction line.

The module is assembled with -arch=compute_XX of its .target (sm_101* as
sm_110*) under a memory limit and a timeout. Rejected lines are blanked and
the module assembled again until ptxas rejects no new line (a syntax error
stops it; some errors it reports once per file)."""
import os
import re
import resource
import subprocess
import sys
import tempfile

LINE = re.compile(r"^ptxas [^,]*, line (\d+); (error|fatal)\s*: (.*)$")


def limit():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def rejected_lines(ptxas, arch, lines):
    """The lines ptxas rejects. ptxas stops at a syntax error, and reports
    some errors only once per file (its internal "Arguments mismatch for
    instruction 'mov'" of a widened address): every rejected line is blanked
    and the module assembled again, until no new line is rejected."""
    errors = {}
    lines = list(lines)
    for _ in range(len(lines)):
        with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
            f.write("\n".join(lines) + "\n")
        r = subprocess.run([ptxas, "-arch=" + arch, "-o", "/dev/null", f.name],
                           preexec_fn=limit, timeout=120, capture_output=True,
                           text=True)
        os.unlink(f.name)
        new = []
        for l in (r.stdout + r.stderr).splitlines():
            m = LINE.match(l)
            if m and int(m.group(1)) not in errors:
                n = int(m.group(1))
                errors[n] = m.group(3)
                new.append(n)
        if not new:
            return errors
        for n in new:
            if not lines[n - 1].startswith("."):  # keep .version/.target
                lines[n - 1] = "// (blanked: rejected)"
    return errors


def main():
    ptxas, files = sys.argv[1], sys.argv[2:]
    bad = 0
    for path in files:
        lines = open(path).read().split("\n")
        target = next(l.split()[1].rstrip(",") for l in lines
                      if l.startswith(".target"))
        if target.startswith("sm_101"):
            target = "sm_110" + target[6:]
        arch = target.replace("sm_", "compute_")
        errors = rejected_lines(ptxas, arch, lines)
        for n, l in enumerate(lines, 1):
            code = l.split("//")[0].strip()
            if not code.endswith(";") or code.startswith("."):
                continue
            want = "expected-error" in l and "ptxas-accepts" not in l
            if want != (n in errors):
                bad += 1
                print("%s:%d: ptxas %s: %s" % (
                    os.path.basename(path), n,
                    "rejects (%s)" % errors[n] if n in errors else "accepts",
                    code))
    print("%d disagreements" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
