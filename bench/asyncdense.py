#!/usr/bin/env python3
"""Builds the benchmark's async-dense module: real nvcc output of the toolkit's
CCCL cuda::ptx bulk/tensor/mbarrier wrappers, replicated to a given size.

Compiles bench/asyncdense.cu with `nvcc -arch=compute_100a -ptx` (once, into
WORK/asyncdense-src/), then replicates its functions like bench/replicate.py
(every defined name renamed per copy) until OUT reaches SIZE_MB. About 40 %
of the statements are async-copy, mbarrier and fence instructions, the ones
ptxlint parses in full: the opposite of a math-heavy module.

usage: asyncdense.py NVCC WORK OUT.ptx SIZE_MB
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from replicate import load_units, write_replicated  # noqa: E402


def compile_source(nvcc, work):
    """The wrapper module, compiled once; returns its folder."""
    src = os.path.join(work, "asyncdense-src")
    ptx = os.path.join(src, "asyncdense.ptx")
    if not os.path.exists(ptx):
        os.makedirs(src, exist_ok=True)
        subprocess.check_call([nvcc, "-std=c++17", "-arch=compute_100a", "-ptx",
                               "-o", ptx + ".tmp", os.path.join(HERE, "asyncdense.cu")])
        os.replace(ptx + ".tmp", ptx)
    return src


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    nvcc, work, out, size_mb = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    units, version, target = load_units(compile_source(nvcc, work))
    size, copies = write_replicated(units, version, target, out, size_mb,
                                    "bench/asyncdense.cu (CCCL cuda::ptx wrappers)")
    print(f"asyncdense.py: {out}: {size / 1048576:.1f} MB, {copies} copies")


if __name__ == "__main__":
    main()
