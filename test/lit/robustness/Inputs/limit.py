#!/usr/bin/env python3
"""Runs a command under resource limits and checks how it ended.

usage: limit.py [--as-mb N] [--rss-mb N] [--timeout S] [--exit N] -- CMD...

--as-mb   address-space limit (ulimit -v), skipped for sanitizer builds
          (ASan reserves terabytes of virtual memory);
--rss-mb  the peak resident set size must stay below this (skipped likewise);
--timeout the command must finish within S seconds;
--exit    the exit status the command must have (default 0).
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
    ap.add_argument("--exit", type=int, default=0)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    san = sanitized(cmd[0])

    def preexec():
        if a.as_mb and not san:
            lim = a.as_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (lim, lim))

    p = subprocess.Popen(cmd, preexec_fn=preexec)
    try:
        p.wait(timeout=a.timeout * (5 if san else 1))
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        print(f"limit.py: TIMEOUT after {a.timeout} s: {' '.join(cmd)}")
        return 1
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode < 0:
        print(f"limit.py: CRASH (signal {-p.returncode}): {' '.join(cmd)}")
        return 1
    if p.returncode != a.exit:
        print(f"limit.py: exit status {p.returncode}, expected {a.exit}")
        return 1
    if a.rss_mb and not san and ru.ru_maxrss > a.rss_mb * 1024:
        print(f"limit.py: peak RSS {ru.ru_maxrss // 1024} MB > {a.rss_mb} MB")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
