#!/usr/bin/env python3
"""Runs a command under resource limits and checks how it ended.

usage: limit.py [--as-mb N] [--rss-mb N] [--timeout S] [--exit N] -- CMD...

--as-mb   address-space limit (ulimit -v), skipped for sanitizer builds
          (ASan reserves terabytes of virtual memory);
--rss-mb  the peak resident set size must stay below this (skipped likewise);
--timeout the command must finish within S seconds;
--cpu-seconds the command's CPU time (user + system) must stay below S: a
          cost bound that a loaded machine does not make flaky, unlike the
          wall-clock --timeout;
--exit    the exit status the command must have (default 0; a list: 0,1,2);
--max-out the command's standard output must be at most N bytes (a
          diagnostic must not echo a 10 MB line).
A command killed by a signal (a crash, std::bad_alloc) always fails the test.
The command's stdout and stderr pass through.
"""
import argparse
import os
import resource
import subprocess
import sys


def sanitized(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
        return b"__asan_init" in data or b"__ubsan_handle" in data
    except OSError:
        return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--as-mb", type=int)
    ap.add_argument("--rss-mb", type=int)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--cpu-seconds", type=float)
    ap.add_argument("--exit", default="0",
                    help="expected exit status, or a comma-separated list")
    ap.add_argument("--max-out", type=int)
    ap.add_argument("--skip-if-sanitized", action="store_true",
                    help="print 'limit.py: skipped under sanitizers' and succeed")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    san = sanitized(cmd[0])
    if san and a.skip_if_sanitized:
        print("limit.py: skipped under sanitizers")
        return 0

    def preexec():
        if a.as_mb and not san:
            lim = a.as_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (lim, lim))

    p = subprocess.Popen(cmd, preexec_fn=preexec,
                         stdout=subprocess.PIPE if a.max_out else None)
    try:
        out, _ = p.communicate(timeout=a.timeout * (5 if san else 1))
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        print(f"limit.py: TIMEOUT after {a.timeout} s: {' '.join(cmd)}")
        return 1
    if out is not None:
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
        if len(out) > a.max_out:
            print(f"limit.py: {len(out)} bytes of output > {a.max_out}")
            return 1
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode < 0:
        print(f"limit.py: CRASH (signal {-p.returncode}): {' '.join(cmd)}")
        return 1
    if p.returncode not in [int(x) for x in a.exit.split(",")]:
        print(f"limit.py: exit status {p.returncode}, expected {a.exit}")
        return 1
    cpu = ru.ru_utime + ru.ru_stime
    if a.cpu_seconds and not san and cpu > a.cpu_seconds:
        print(f"limit.py: {cpu:.2f} s of CPU time > {a.cpu_seconds} s")
        return 1
    if a.rss_mb and not san and ru.ru_maxrss > a.rss_mb * 1024:
        print(f"limit.py: peak RSS {ru.ru_maxrss // 1024} MB > {a.rss_mb} MB")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
