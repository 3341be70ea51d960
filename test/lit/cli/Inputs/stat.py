"""Print a file's mode, size and inode-independent identity for comparisons."""
import os
import stat
import sys

st = os.stat(sys.argv[1])
print("mode=%s size=%d mtime=%d" % (oct(stat.S_IMODE(st.st_mode)), st.st_size, st.st_mtime_ns))
