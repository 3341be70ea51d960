#!/usr/bin/env python3
"""expect_exit.py N CMD ARGS...: runs CMD, passes its output through, and
succeeds only if it exited with status N (lit's 'not' accepts any failure)."""
import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    sys.stderr.write(f"expect_exit: {sys.argv[2]} exited {got}, expected {want}\n")
    sys.exit(1)
