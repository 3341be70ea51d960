#!/usr/bin/env python3
"""Differential test: ptxlint's verdicts against ptxas's, per instruction.

ptxlint-diffgen prints variants generated from spec-tables/ as
"TARGET<TAB>VERSION<TAB>TAG<TAB>INSTRUCTION". They are grouped by target and
version into modules of one kernel with one instruction per line, assembled
with `ptxas -arch=compute_XX` (its front end only; under a memory limit and a
timeout) and linted with ptxlint. For every line the verdicts must agree:
ptxas reports an error on the line exactly when ptxlint does. Warnings do
not count. A disagreement matching a line of the exceptions file is counted
as explained (each one is documented there and has a file test).

ptxas stops a file at its first syntax error ("fatal"), and reports some
errors once per file: rejected lines are counted as errors, blanked, and the
module assembled again until ptxas rejects no new line.

Exit status: 0 agreement, 1 unexplained disagreements, 77 ptxas not found
(ctest reports the test as skipped).
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter, defaultdict

DECLS = """\
  .reg .b16 %h<8>; .reg .u16 %uh<8>; .reg .s16 %sh<8>;
  .reg .b32 %r<8>; .reg .u32 %ur<8>; .reg .s32 %sr<8>;
  .reg .b64 %rd<8>; .reg .u64 %urd<8>; .reg .s64 %srd<8>;
  .reg .f32 %f<8>; .reg .f64 %fd<8>; .reg .pred %p<8>;
  .shared .align 128 .b8 smem[4096];
"""
HEADER_LINES = 12  # lines before the first instruction (see module_text)

PTXAS_LINE = re.compile(r"^ptxas [^,]*, line (\d+); (error|fatal)\s*: (.*)$")
LINT_LINE = re.compile(r"^[^:]*:(\d+):\d+: (error|fatal error): (.*)$")
FLOW_CODE = re.compile(r"\[F\d+\]$")


def find_ptxas(explicit):
    for cand in [explicit, os.environ.get("PTXAS"),
                 os.path.join(os.environ.get("CUDA_HOME", "/nonexistent"), "bin", "ptxas"),
                 "/usr/local/cuda/bin/ptxas", shutil.which("ptxas")]:
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


def arch_of(target):
    # ptxas 13.0 has no sm_101*: a module for it assembles as sm_110*.
    if target.startswith("sm_101"):
        target = "sm_110" + target[6:]
    return target.replace("sm_", "compute_")


def module_text(target, version, instructions):
    lines = [".version " + version, ".target " + target, ".address_size 64",
             ".global .align 128 .b8 gmem[4096];",
             ".const .align 64 .b8 cmap[128];",
             ".visible .entry k(.param .u64 pm)", "{"]
    lines += DECLS.rstrip("\n").split("\n")
    assert len(lines) == HEADER_LINES, len(lines)
    lines += ["  " + i for i in instructions]
    lines += ["  ret;", "}", ""]
    return "\n".join(lines)


def run_ptxas(ptxas, path, arch, timeout):
    cmd = "ulimit -v 4000000; exec timeout %d %s -arch=%s -o /dev/null %s" % (
        timeout, ptxas, arch, path)
    r = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def cache_key(target, version, instructions):
    # v2: rejected lines are blanked until no new one is rejected.
    return hashlib.sha1(("v2|%s|%s|%s" % (target, version, "\n".join(instructions))).encode()).hexdigest()


def cache_path(work, key):
    return os.path.join(work, "ptxas-cache", key + ".json")


def ptxas_verdicts(ptxas, target, version, instructions, work, timeout):
    """{line index: first message} for the lines ptxas rejects."""
    key = cache_key(target, version, instructions)
    cache = cache_path(work, key)
    if os.path.exists(cache):
        with open(cache) as f:
            return {int(k): v for k, v in json.load(f).items()}
    errors = {}
    live = list(instructions)
    path = os.path.join(work, "ptxas-%s.ptx" % key)
    for _ in range(len(instructions) + 1):
        with open(path, "w") as f:
            f.write(module_text(target, version, live))
        rc, out = run_ptxas(ptxas, path, arch_of(target), timeout)
        fatal_line = None
        new = []
        for line in out.splitlines():
            m = PTXAS_LINE.match(line)
            if not m:
                continue
            idx = int(m.group(1)) - HEADER_LINES - 1
            if 0 <= idx < len(live) and idx not in errors:
                errors[idx] = m.group(3)
                new.append(idx)
                if m.group(2) == "fatal":
                    fatal_line = idx
        if fatal_line is not None:
            live[fatal_line] = "// removed after a syntax error"
            continue
        if new:
            # Some errors ptxas reports once per file (its internal "mov" of a
            # widened 16-bit address): blank the rejected lines, assemble again.
            for i in new:
                live[i] = "// removed: rejected"
            continue
        if rc != 0:
            # No line to blame (a crash, the memory limit, the timeout):
            # judge each remaining instruction on its own.
            if sum(1 for ins in live if not ins.startswith("//")) > 1:
                for i, ins in enumerate(live):
                    if ins.startswith("//"):
                        continue
                    sub = ptxas_verdicts(ptxas, target, version, [ins], work, timeout)
                    if 0 in sub:
                        errors[i] = sub[0]
            else:
                for i, ins in enumerate(live):
                    if not ins.startswith("//"):
                        errors[i] = "ptxas failed without a message (rc %d): %s" % (rc, out.strip()[:200])
        break
    os.unlink(path)
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    with open(cache, "w") as f:
        json.dump(errors, f)
    return errors


def ptxlint_verdicts(ptxlint, target, version, instructions, work):
    key = hashlib.sha1(("%s|%s|%s" % (target, version, "\n".join(instructions))).encode()).hexdigest()
    path = os.path.join(work, "lint-%s.ptx" % key)
    with open(path, "w") as f:
        f.write(module_text(target, version, instructions))
    r = subprocess.run([ptxlint, "--no-source-snippet", "--max-diagnostics=0", path],
                       capture_output=True, text=True,
                       env=dict(os.environ, NO_COLOR="1"))
    os.unlink(path)
    if r.returncode not in (0, 1):
        raise SystemExit("ptxlint failed (%d) on a module of %s %s:\n%s" % (
            r.returncode, target, version, r.stdout + r.stderr))
    errors = {}
    for line in r.stdout.splitlines() + r.stderr.splitlines():
        m = LINT_LINE.match(line)
        # Flow rules (F4xx) judge instruction sequences, which ptxas never
        # checks: they are not single-instruction verdicts.
        if m and not FLOW_CODE.search(m.group(3)):
            idx = int(m.group(1)) - HEADER_LINES - 1
            if 0 <= idx < len(instructions):
                errors.setdefault(idx, m.group(3))
    return errors


def load_exceptions(path):
    rules = []
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                if not line.strip() or line.startswith("#"):
                    continue
                verdict, regex, reason = line.split("\t", 2)
                rules.append((verdict, re.compile(regex), reason))
    return rules


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gen", required=True, help="ptxlint-diffgen binary")
    ap.add_argument("--ptxlint", required=True, help="ptxlint binary")
    ap.add_argument("--ptxas", help="ptxas binary (default: $PTXAS, "
                    "$CUDA_HOME/bin, /usr/local/cuda/bin, PATH)")
    ap.add_argument("--quick", action="store_true", help="the CI subset")
    ap.add_argument("--exceptions", help="documented disagreements")
    ap.add_argument("--work", default="diff-work", help="scratch folder")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=400,
                    help="instructions per module")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--show", type=int, default=40,
                    help="disagreements to print")
    ap.add_argument("--cached-only", action="store_true",
                    help="judge only the modules whose ptxas verdicts are "
                    "already in --work's cache (a partial run's figure)")
    ap.add_argument("--progress", action="store_true",
                    help="a line on stderr as each (target, version) is done, "
                    "and every 20 modules")
    args = ap.parse_args()

    ptxas = find_ptxas(args.ptxas)
    if not ptxas:
        print("SKIPPED: ptxas not found (set $PTXAS or install CUDA); "
              "the differential test needs it")
        return 77
    os.makedirs(args.work, exist_ok=True)

    gen = subprocess.run([args.gen] + (["--quick"] if args.quick else []),
                         capture_output=True, text=True, check=True)
    variants = [l.split("\t", 3) for l in gen.stdout.splitlines() if l]
    groups = defaultdict(list)
    for target, version, tag, text in variants:
        groups[(target, version)].append((tag, text))

    jobs = []
    for (target, version), items in sorted(groups.items()):
        for k in range(0, len(items), args.chunk):
            jobs.append((target, version, items[k:k + args.chunk]))
    uncached = 0
    if args.cached_only:
        cached = [j for j in jobs if os.path.exists(cache_path(
            args.work, cache_key(j[0], j[1], [t for _, t in j[2]])))]
        uncached = sum(len(j[2]) for j in jobs) - sum(len(j[2]) for j in cached)
        jobs = cached
        variants = [(t, v, tag, text) for t, v, items in jobs
                    for tag, text in items]

    def judge(job):
        target, version, items = job
        texts = [t for _, t in items]
        px = ptxas_verdicts(ptxas, target, version, texts, args.work,
                            args.timeout)
        pl = ptxlint_verdicts(args.ptxlint, target, version, texts, args.work)
        # ptxas reports some errors once per file (the internal "mov" of a
        # widened 16-bit address): a line only ptxlint rejects is assembled
        # again on its own before it counts as a disagreement.
        for i in sorted(set(pl) - set(px)):
            alone = ptxas_verdicts(ptxas, target, version, [texts[i]],
                                   args.work, args.timeout)
            if 0 in alone:
                px[i] = alone[0]
        return job, px, pl

    exceptions = load_exceptions(args.exceptions)
    used = Counter()
    bad = []
    by_tag = Counter()
    rejected = 0
    slice_done = Counter()
    slice_size = Counter((t, v) for t, v, _, _ in variants)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for done, ((target, version, items), px, pl) in enumerate(pool.map(judge, jobs), 1):
            slice_done[(target, version)] += len(items)
            if args.progress and done % 20 == 0:
                print("%d of %d modules judged" % (done, len(jobs)), file=sys.stderr, flush=True)
            if args.progress and slice_done[(target, version)] == slice_size[(target, version)]:
                print("done %s %s: %d variants; %d unexplained so far"
                      % (target, version, slice_size[(target, version)], len(bad)),
                      file=sys.stderr, flush=True)
            for i, (tag, text) in enumerate(items):
                by_tag[tag] += 1
                p_err, l_err = i in px, i in pl
                rejected += p_err
                if p_err == l_err:
                    continue
                subject = "%s %s %s" % (target, version, text)
                verdict = "ptxas-rejects" if p_err else "ptxas-accepts"
                reason = next((r for v, rx, r in exceptions
                               if v == verdict and rx.search(subject)), None)
                if reason:
                    used[reason] += 1
                    continue
                bad.append((target, version, tag, text, px.get(i), pl.get(i)))

    targets = sorted({t for t, _, _, _ in variants})
    print("ptxas: %s" % ptxas)
    print("variants: %d (%d rejected by ptxas) in %d modules; %d targets (%s); "
          "%d PTX versions" % (len(variants), rejected, len(jobs), len(targets),
                               " ".join(targets),
                               len({v for _, v, _, _ in variants})))
    if args.cached_only:
        print("not judged (ptxas verdicts not cached): %d variants" % uncached)
    print("by kind: " + ", ".join("%s %d" % kv for kv in sorted(by_tag.items())))
    for reason, n in sorted(used.items()):
        print("explained (%d): %s" % (n, reason))
    print("unexplained disagreements: %d" % len(bad))
    for target, version, tag, text, pmsg, lmsg in bad[:args.show]:
        print("  [%s] %s %s: %s" % (tag, target, version, text))
        print("      ptxas:   %s" % (pmsg or "accepts"))
        print("      ptxlint: %s" % (lmsg or "no error"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
