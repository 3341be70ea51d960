#!/usr/bin/env python3
"""Property test of --fix (issue 13 item 12) over generated inputs.

usage: fix_convergence.py PTXLINT WORKDIR SEED_DIR... [--mutants N]

Every *.ptx under the seed folders (the project's own test inputs) is
mutated N times with a fixed random seed: a ';' removed, a comment added
after a statement, a token dropped, a qualifier misspelled, a line
duplicated, a ';' pushed into a trailing comment... Over all mutants:
  1. '--fix' twice changes nothing the second time (it converges at once);
  2. no file has more errors after '--fix' than before.
Prints each failing file with a reproduction and exits 1; exits 0 with a
count otherwise.
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys


def mutate(text, rng):
    lines = text.split("\n")
    if not lines:
        return text
    k = rng.randrange(len(lines))
    line = lines[k]
    op = rng.randrange(8)
    if op == 0 and ";" in line:  # drop a ';'
        i = rng.choice([m.start() for m in re.finditer(";", line)])
        line = line[:i] + line[i + 1:]
    elif op == 1 and ";" in line:  # drop the ';' and add a trailing comment
        line = line.replace(";", "", 1) + " // note; here"
    elif op == 2:  # a trailing comment
        line = line + " // ptxlint: keep"
    elif op == 3:  # drop a token
        toks = line.split(" ")
        if len(toks) > 1:
            del toks[rng.randrange(len(toks))]
        line = " ".join(toks)
    elif op == 4:  # misspell a qualifier: swap two letters
        quals = [m for m in re.finditer(r"\.[a-z_:0-9]{3,}", line)]
        if quals:
            m = rng.choice(quals)
            q = list(m.group(0))
            i = rng.randrange(1, len(q) - 1)
            q[i], q[i + 1] = q[i + 1], q[i]
            line = line[:m.start()] + "".join(q) + line[m.end():]
    elif op == 5:  # duplicate the line
        lines.insert(k, line)
    elif op == 6:  # join with the next line
        if k + 1 < len(lines):
            line = line + " " + lines.pop(k + 1)
    else:  # a suppression comment with a trailing comma
        line = line + " // ptxlint: disable=Q107,"
    lines[k] = line
    return "\n".join(lines)


def run(ptxlint, args):
    return subprocess.run([ptxlint, "--no-config", "--no-source-snippet"] + args,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)


def errors_per_file(ptxlint, folder):
    p = run(ptxlint, ["--format=json", folder])
    if p.returncode not in (0, 1):
        sys.exit("ptxlint failed (exit %d): %s" % (p.returncode, p.stderr.decode()[-2000:]))
    counts = {}
    for d in json.loads(p.stdout)["diagnostics"]:
        if d["severity"] in ("error", "fatal"):
            counts[d["file"]] = counts.get(d["file"], 0) + 1
    return counts


def snapshot(folder):
    out = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            out[name] = f.read()
    return out


def main():
    args = sys.argv[1:]
    mutants = 6
    if "--mutants" in args:
        i = args.index("--mutants")
        mutants = int(args[i + 1])
        del args[i:i + 2]
    ptxlint, work, seeds = args[0], args[1], args[2:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    rng = random.Random(13)
    n = 0
    for seed_dir in seeds:
        for root, _, files in sorted(os.walk(seed_dir)):
            for f in sorted(files):
                if not f.endswith(".ptx"):
                    continue
                with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                if len(text) > 200000:
                    continue
                for m in range(mutants):
                    t = text
                    for _ in range(rng.randrange(1, 4)):
                        t = mutate(t, rng)
                    with open(os.path.join(work, "m%05d.ptx" % n), "w") as out:
                        out.write(t)
                    n += 1
    if n == 0:
        print("fix_convergence: no seed inputs found")
        return 77
    originals = snapshot(work)
    before = errors_per_file(ptxlint, work)
    run(ptxlint, ["--fix", work])
    once = snapshot(work)
    run(ptxlint, ["--fix", work])
    twice = snapshot(work)
    after = errors_per_file(ptxlint, work)
    bad = 0
    for name in sorted(originals):
        path = os.path.join(work, name)
        if once[name] != twice[name]:
            bad += 1
            print("NOT CONVERGED: %s changed again on a second --fix" % path)
        if after.get(path, 0) > before.get(path, 0):
            bad += 1
            print("MORE ERRORS: %s has %d errors after --fix, %d before"
                  % (path, after.get(path, 0), before.get(path, 0)))
        if bad and bad <= 20 and (once[name] != twice[name] or
                                  after.get(path, 0) > before.get(path, 0)):
            with open(path + ".orig", "wb") as f:
                f.write(originals[name])
    fixed = sum(1 for k in originals if originals[k] != once[k])
    print("fix_convergence: %d inputs, %d changed by --fix, %d failures" % (n, fixed, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
