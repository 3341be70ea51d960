#!/usr/bin/env python3
"""Compile some of ptxlint's own sources with clang++-14 -fsyntax-only, with
the exact flags (warnings, -Werror, defines, include paths) of an existing
build, read from its compile_commands.json. A gcc build thus checks that the
code still compiles with clang (the fuzz preset's compiler) without a second
build: no code generation, no linking.

  scripts/clang-syntax.py BUILD_DIR [SOURCE ...]   sources relative to the
                                                    source tree
  scripts/clang-syntax.py BUILD_DIR --all [-j N]    every source of ours (a
                                                    few minutes on one core)

ctest "clang14-syntax" (test/CMakeLists.txt) runs it with --all. A source
that passed is not checked again while its command and the text of the files it
includes (Ninja's dependency log of the build) are unchanged:
BUILD_DIR/clang-syntax.cache, written after every source that passes, so a run
stopped by ctest's timeout on a busy machine still saves its progress and a git
checkout or merge that rewrites a file without changing it costs nothing;
--no-cache checks everything. Exit status: 0 all compiled, 1 some did not, 77
clang++-14 is not installed (ctest reports "skipped").
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def clang_command(entry, clang, build_dir):
    """The build's command for one source, run by clang, syntax only, and the
    object file the build makes of it."""
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    out = [clang]
    obj = None
    skip = False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MT", "-MF", "-MQ"):
            skip = True
            if a == "-o":
                obj = args[args.index("-o") + 1]
            continue
        if a in ("-c", "-MD", "-MMD"):
            continue
        if a == "/usr/include/antlr4-runtime" and out[-1] == "-isystem":
            # Debian's ANTLR 4.9 headers need the patched copy in front of
            # them under clang (cmake/PtxlintDependencies.cmake).
            out += [os.path.join(build_dir, "antlr4-clang-shim"), "-isystem"]
        out.append(a)
    out.append("-fsyntax-only")
    return out, obj


def ninja_deps(build_dir):
    """Object file -> the files it was compiled from (source and headers),
    from Ninja's dependency log; {} for other generators."""
    try:
        r = subprocess.run(["ninja", "-C", build_dir, "-t", "deps"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
    except OSError:
        return {}
    deps, cur = {}, None
    for line in r.stdout.splitlines():
        if line and not line[0].isspace():
            obj, _, info = line.partition(": #deps")
            cur = deps.setdefault(obj, []) if "(VALID)" in info else None
        elif line.strip() and cur is not None:
            cur.append(line.strip())
    return deps


_file_ids = {}


def file_id(path):
    """What identifies one input's text: a hash of the contents for the
    project's own files (checkouts and merges rewrite them unchanged), the
    size and time for system headers (only a package update changes those)."""
    if path not in _file_ids:
        try:
            if path.startswith("/usr/"):
                st = os.stat(path)
                _file_ids[path] = f"{st.st_mtime_ns}:{st.st_size}"
            else:
                with open(path, "rb") as f:
                    _file_ids[path] = hashlib.sha1(f.read()).hexdigest()
        except OSError:
            _file_ids[path] = None
    return _file_ids[path]


def cache_key(clang, cmd, inputs):
    h = hashlib.sha1("\0".join([clang] + cmd).encode())
    for f in inputs:
        fid = file_id(f)
        if fid is None:
            return None
        h.update(f"\0{f}\0{fid}".encode())
    return h.hexdigest()


def save_cache(cache_file, cache):
    """Written whole to a temporary file and renamed: a run killed mid-write
    leaves the previous cache, never a torn one."""
    tmp = cache_file + ".tmp"
    try:
        with open(tmp, "w") as f:
            json.dump(cache, f, indent=0, sort_keys=True)
        os.replace(tmp, cache_file)
    except OSError:
        pass


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("build_dir")
    p.add_argument("sources", nargs="*", help="paths relative to the source tree")
    p.add_argument("--all", action="store_true", help="every source of ours in the build")
    p.add_argument("--clang", default="clang++-14")
    p.add_argument("-j", "--jobs", type=int, default=1)
    p.add_argument("--no-cache", action="store_true", help="check sources that passed before too")
    o = p.parse_args()

    clang = shutil.which(o.clang)
    if not clang:
        print(f"{o.clang} not found: skipped")
        return 77
    build_dir = os.path.abspath(o.build_dir)
    with open(os.path.join(build_dir, "compile_commands.json")) as f:
        entries = json.load(f)
    by_file = {}
    for e in entries:
        path = os.path.normpath(os.path.join(e["directory"], e["file"]))
        rel = os.path.relpath(path, SOURCE_DIR)
        # Ours only: not the generated ANTLR parser or tables in the build.
        if rel.startswith("..") or path.startswith(build_dir + os.sep):
            continue
        by_file.setdefault(rel, e)

    if o.all:
        wanted = sorted(by_file)
    else:
        wanted = [os.path.normpath(s) for s in o.sources]
        missing = [s for s in wanted if s not in by_file]
        if missing:
            print("not in compile_commands.json: " + ", ".join(missing))
            return 1
    if not wanted:
        print("nothing to check")
        return 1

    cache_file = os.path.join(build_dir, "clang-syntax.cache")
    cache = {}
    if not o.no_cache:
        try:
            with open(cache_file) as f:
                cache = json.load(f)
        except (OSError, ValueError):
            cache = {}
    deps = ninja_deps(build_dir)

    def check(rel):
        e = by_file[rel]
        cmd, obj = clang_command(e, clang, build_dir)
        key = cache_key(clang, cmd, deps[obj]) if obj in deps else None
        if key and cache.get(rel) == key:
            return rel, None, "", 0.0, cmd, key
        t = time.monotonic()
        r = subprocess.run(cmd, cwd=e["directory"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        return rel, r.returncode, r.stdout, time.monotonic() - t, cmd, key

    failed = cached = 0
    with concurrent.futures.ThreadPoolExecutor(max(1, o.jobs)) as pool:
        for rel, rc, text, secs, cmd, key in pool.map(check, wanted):
            if rc is None:
                cached += 1
                continue
            print(f"{'ok  ' if rc == 0 else 'FAIL'} {rel} ({secs:.1f} s)")
            if rc != 0:
                failed += 1
                cache.pop(rel, None)
                print("  $ " + " ".join(shlex.quote(a) for a in cmd))
                print(text.rstrip())
            elif key:
                cache[rel] = key
                save_cache(cache_file, cache)
    save_cache(cache_file, cache)
    print(f"{len(wanted) - failed} of {len(wanted)} sources compile with {o.clang}"
          + (f" ({cached} unchanged since they last passed)" if cached else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
