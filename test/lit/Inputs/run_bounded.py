#!/usr/bin/env python3
"""Runs ptxlint on every file of a folder under a memory and time limit and
prints 'NAME exit=N' (or 'NAME signal=S') per file, sorted by name."""
import os
import resource
import subprocess
import sys

tool, folder = sys.argv[1], sys.argv[2]

def sanitized(path):
    # ASan reserves terabytes of address space for its shadow memory: an
    # RLIMIT_AS makes it abort at start-up (the 'asan' preset runs this test).
    with open(path, "rb") as f:
        data = f.read()
    return b"__asan_init" in data or b"__ubsan_handle" in data

SANITIZED = sanitized(tool)

def limit():
    if not SANITIZED:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

for name in sorted(os.listdir(folder)):
    p = subprocess.run([tool, "--no-source-snippet", os.path.join(folder, name)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       preexec_fn=limit, timeout=120)
    if p.returncode < 0:
        print(f"{name} signal={-p.returncode}")
    else:
        print(f"{name} exit={p.returncode}")
