#!/usr/bin/env python3
"""ctest "readme-examples-*": README "Use as a library", built as written.

Copies every block marked <!-- example: DIR/FILE --> out of README.md and
builds it out of tree against an install staged in WORK/stage:

    readme_examples.py install BUILD_DIR SOURCE_DIR WORK   (fixture: the staged install)
    readme_examples.py cmake|pkgconfig|python SOURCE_DIR WORK

Exit status 77 (skipped) when the tool an example needs is missing (pkg-config,
the Python package); 1 when an example fails or its output is not the
expected one.
"""
import os
import re
import shutil
import subprocess
import sys
import sysconfig

PREFIX = "/usr/local"  # the staged install's prefix, under WORK/stage (DESTDIR)


def run(cmd, cwd=None, env=None, expect_rc=0):
    print("$", " ".join(cmd), flush=True)
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    print(r.stdout + r.stderr, flush=True)
    if r.returncode != expect_rc:
        sys.exit("readme-examples: exit status %d, expected %d" % (r.returncode, expect_rc))
    return r.stdout


def blocks(source_dir):
    text = open(os.path.join(source_dir, "README.md")).read()
    found = re.findall(r"<!-- example: (\S+) -->\n```\w*\n(.*?)\n```", text, re.S)
    if not found:
        sys.exit("readme-examples: README.md has no marked examples")
    return dict(found)


def write_example(source_dir, work, folder):
    out = os.path.join(work, folder)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    files = {k: v for k, v in blocks(source_dir).items() if k.startswith(folder + "/")}
    if not files:
        sys.exit("readme-examples: no README example under %s/" % folder)
    for name, body in files.items():
        with open(os.path.join(work, name), "w") as f:
            f.write(body + "\n")
    return out


def main():
    mode = sys.argv[1]
    if mode == "install":
        build, source, work = sys.argv[2:5]
        shutil.rmtree(work, ignore_errors=True)
        env = dict(os.environ, DESTDIR=os.path.join(work, "stage"))
        run(["cmake", "--install", build, "--prefix", PREFIX], env=env)
        return 0
    source, work = sys.argv[2:4]
    stage = os.path.join(work, "stage")
    prefix = stage + PREFIX
    if not os.path.isdir(prefix):
        sys.exit("readme-examples: no staged install (the readme-examples-install fixture)")
    if mode == "cmake":
        d = write_example(source, work, "cmake")
        run(["cmake", "-S", d, "-B", d + "/build", "-DCMAKE_PREFIX_PATH=" + prefix])
        run(["cmake", "--build", d + "/build"])
        out = run([d + "/build/my_generator"])
        for want in ("cp.async.bulk.tensor.2d.shared::cluster.global.tile", "valid on sm_90a",
                     "0 errors"):
            if want not in out:
                sys.exit("readme-examples: output lacks %r" % want)
    elif mode == "pkgconfig":
        if not shutil.which("pkg-config"):
            print("pkg-config not found; skipped")
            return 77
        d = write_example(source, work, "c")
        env = dict(os.environ, PKG_CONFIG_PATH=prefix + "/lib/pkgconfig")
        flags = run(["pkg-config", "--cflags", "--libs", "ptxlint"], env=env).split()
        run(["cc", "main.c", "-o", "lint_c", "-Wl,-rpath," + prefix + "/lib"] + flags, cwd=d)
        out = run([d + "/lint_c"], expect_rc=1)
        for want in ("[Q107]", "fix: insert '.noftz'", "1 error(s)"):
            if want not in out:
                sys.exit("readme-examples: output lacks %r" % want)
    elif mode == "python":
        site = os.path.join(stage, os.environ["PTXLINT_PYTHON_INSTALL_DIR"].lstrip("/"))
        if not os.path.isdir(os.path.join(site, "ptxlint")):
            print("the Python package was not installed (PTXLINT_PYTHON=OFF); skipped")
            return 77
        d = write_example(source, work, "python")
        # Only the staged package: not the build tree's, not an installed one.
        env = dict(os.environ, PYTHONPATH=site, PYTHONNOUSERSITE="1")
        out = run([sys.executable, "-S", "example.py"], cwd=d, env=env)
        for want in ("generated module: ok", "[Q107] ['.noftz']", "after fix: ok"):
            if want not in out:
                sys.exit("readme-examples: output lacks %r" % want)
        # The installed package runs its own copy of the command.
        out = run([sys.executable, "-S", "-m", "ptxlint", "--explain", "Q107"], env=env)
        if "noftz" not in out:
            sys.exit("readme-examples: python3 -m ptxlint --explain Q107 did not explain")
    else:
        sys.exit("readme-examples: unknown mode " + mode)
    return 0


if __name__ == "__main__":
    sys.exit(main())
