#!/usr/bin/env python3
"""ptxas.py PTXAS ARCH FILE: assemble FILE's front end (-arch=compute_XX)
under a 4 GB address-space limit and a 60 s timeout; exit with ptxas's
status. ptxas can exhaust memory on malformed tensor operands."""
import resource
import subprocess
import sys

ptxas, arch, path = sys.argv[1:4]


def limit():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


r = subprocess.run([ptxas, "-arch=" + arch, "-o", "/dev/null", path],
                   preexec_fn=limit, timeout=60)
sys.exit(r.returncode)
