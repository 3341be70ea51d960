#!/usr/bin/env python3
"""Builds a seed corpus for the ptxlint fuzz targets.

Seeds are small (<= --max-len bytes) slices of real modules, cut at line
boundaries, so that libFuzzer starts from realistic PTX: every .ptx under the
given directories (the shared nvcc corpus, test/lit, examples) is split into
windows; each window that does not start the file gets the file's header
(.version/.target/.address_size) prepended so the directives parse. Small
files are also kept whole. Output names are content hashes (idempotent).

usage: make-seeds.py OUTDIR DIR_OR_FILE... [--max-len N] [--max-seeds N]
                     [--suffix .yaml]
With --suffix other than .ptx (the config fuzzer's .yaml seeds) files are
taken whole, cut at max-len, without the PTX header logic.
"""
import argparse
import hashlib
import os
import re
import sys


def ptx_files(paths, suffix=".ptx"):
    for p in paths:
        if os.path.isfile(p):
            yield p
        elif os.path.isdir(p):
            for root, _, files in sorted(os.walk(p)):
                for f in sorted(files):
                    if f.endswith(suffix):
                        yield os.path.join(root, f)


def windows(text, max_len):
    lines = text.splitlines(keepends=True)
    header = "".join(l for l in lines[:40]
                     if re.match(r"\s*\.(version|target|address_size)\b", l))
    cur, size, first = [], 0, True
    for line in lines:
        if size + len(line) > max_len - len(header) and cur:
            yield ("" if first else header) + "".join(cur)
            cur, size, first = [], 0, False
        if len(line) > max_len:  # a huge initialiser line: keep its start
            line = line[: max_len // 2] + "\n"
        cur.append(line)
        size += len(line)
    if cur:
        yield ("" if first else header) + "".join(cur)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("inputs", nargs="*")
    ap.add_argument("--max-len", type=int, default=4096)
    ap.add_argument("--max-seeds", type=int, default=3000)
    ap.add_argument("--suffix", default=".ptx")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    seeds = {}
    files = list(ptx_files(a.inputs, a.suffix))
    if a.suffix == ".ptx":
        # Round-robin over files so that a cap keeps every file represented.
        per_file = [list(windows(open(f, "rb").read().decode("latin-1"), a.max_len))
                    for f in files]
    else:
        per_file = [[open(f, "rb").read()[: a.max_len].decode("latin-1")] for f in files]
    i = 0
    while len(seeds) < a.max_seeds and any(i < len(w) for w in per_file):
        for w in per_file:
            if i < len(w) and len(seeds) < a.max_seeds:
                data = w[i].encode("latin-1")
                seeds[hashlib.sha1(data).hexdigest()] = data
        i += 1
    for h, data in seeds.items():
        path = os.path.join(a.outdir, h)
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(data)
    print(f"make-seeds: {len(seeds)} seeds from {len(files)} files in {a.outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
