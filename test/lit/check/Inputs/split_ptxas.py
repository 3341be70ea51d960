#!/usr/bin/env python3
"""split_ptxas.py PTXAS ARCH FILE: FILE has a header up to the line
"// --- cases ---" and one case per line after it, each marked with an
"expected-error" comment. Assemble header + each case on its own and fail
unless ptxas rejects every case (under a memory limit and a timeout)."""
import os
import resource
import subprocess
import sys
import tempfile

ptxas, arch, path = sys.argv[1:4]
text = open(path).read().split("\n")
cut = text.index("// --- cases ---")
header, rest = text[:cut], text[cut + 1:]
end = rest.index("// --- end ---")
cases = [l for l in rest[:end] if "expected-error" in l]


def limit():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


bad = 0
for case in cases:
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write("\n".join(header + [case, "  ret;", "}", ""]))
    r = subprocess.run([ptxas, "-arch=" + arch, "-o", "/dev/null", f.name],
                       preexec_fn=limit, timeout=60, capture_output=True)
    os.unlink(f.name)
    if r.returncode == 0:
        print("ptxas accepts: " + case.strip())
        bad += 1
print("%d cases, %d accepted by ptxas" % (len(cases), bad))
sys.exit(1 if bad or not cases else 0)
