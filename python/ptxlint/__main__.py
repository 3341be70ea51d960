"""python3 -m ptxlint [options] FILE...: the ptxlint command.

Runs the ptxlint executable that ships inside this package (bin/ptxlint, with
its own libptxlint in lib/), so the command and the module are always the
same version; falls back to `ptxlint` on PATH for a package without one.
"""
import os
import shutil
import sys


def executable():
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "ptxlint")
    if os.access(here, os.X_OK):
        return here
    return shutil.which("ptxlint")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    exe = executable()
    if exe is None:
        sys.stderr.write("python3 -m ptxlint: the ptxlint executable was found neither "
                         "in the package nor on PATH\n")
        return 2
    # exec: exit status, signals and the terminal (colours) are the command's own.
    os.execv(exe, [exe] + list(argv))
    return 2  # not reached


if __name__ == "__main__":
    sys.exit(main())
