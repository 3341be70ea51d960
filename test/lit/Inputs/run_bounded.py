#!/usr/bin/env python3
"""Runs ptxlint on every file of a folder under a memory and time limit and
prints 'NAME exit=N' (or 'NAME signal=S') per file, sorted by name."""
import os
import resource
import subprocess
import sys

tool, folder = sys.argv[1], sys.argv[2]

def limit():
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

for name in sorted(os.listdir(folder)):
    p = subprocess.run([tool, "--no-source-snippet", os.path.join(folder, name)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       preexec_fn=limit, timeout=120)
    if p.returncode < 0:
        print(f"{name} signal={-p.returncode}")
    else:
        print(f"{name} exit={p.returncode}")
