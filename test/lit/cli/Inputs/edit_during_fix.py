#!/usr/bin/env python3
"""edit_during_fix.py FILE CMD...: starts CMD (a ptxlint --fix on FILE), waits
until it has read FILE (it opened and closed it, seen in /proc), appends an
edit to FILE as an editor would, and waits for CMD. Prints 'edited' when the
edit is still in FILE at the end (ptxlint must not overwrite it), 'lost'
otherwise, or 'too-late' when CMD finished before the edit could be made
(the test then proves nothing and fails)."""
import os
import subprocess
import sys
import time

path, cmd = os.path.realpath(sys.argv[1]), sys.argv[2:]
edit = b"// an edit made while ptxlint --fix ran\n"
p = subprocess.Popen(cmd)
fd_dir = "/proc/%d/fd" % p.pid
seen = False
while p.poll() is None:
    try:
        targets = [os.readlink(os.path.join(fd_dir, f)) for f in os.listdir(fd_dir)]
    except OSError:
        targets = []
    if path in targets:
        seen = True
    elif seen:
        break
    time.sleep(0.001)
if p.poll() is not None:
    print("too-late")
    sys.exit(1)
with open(path, "ab") as f:
    f.write(edit)
p.wait()
with open(path, "rb") as f:
    print("edited" if f.read().endswith(edit) else "lost")
sys.exit(0)
