#!/usr/bin/env python3
"""race_truncate.py RUNS TOOL ARGS... FILE: runs TOOL on FILE RUNS times while
another thread keeps truncating FILE and writing it back; prints one line per
run, 'exit=N' or 'signal=S' (a file that changes under the linter must give
a clean diagnostic or exit 2, never a signal such as SIGBUS)."""
import subprocess
import sys
import threading
import time

runs, cmd = int(sys.argv[1]), sys.argv[2:]
path = cmd[-1]
with open(path, "rb") as f:
    data = f.read()
stop = threading.Event()


def churn():
    while not stop.is_set():
        with open(path, "r+b") as f:
            f.truncate(len(data) // 3)
        time.sleep(0.002)
        with open(path, "r+b") as f:
            f.seek(len(data) // 3)
            f.write(data[len(data) // 3:])
        time.sleep(0.002)


t = threading.Thread(target=churn)
t.start()
try:
    for _ in range(runs):
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=120)
        print(f"signal={-p.returncode}" if p.returncode < 0 else f"exit={p.returncode}")
finally:
    stop.set()
    t.join()
