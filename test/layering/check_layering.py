#!/usr/bin/env python3
"""Checks that lib/'s folders keep to the dependency graph their CMakeLists.txt
declare (ptxlint_folder_library(<Folder> DEPENDS ...), lib/CMakeLists.txt).

usage: check_layering.py LAYERING_TXT LIB_DIR [--nm NM]

LAYERING_TXT is written by lib/CMakeLists.txt at generate time: per folder its
declared dependencies and its object files. Fails (exit 1, one line per
finding) when
  - a folder of LIB_DIR with sources is not a library of the graph;
  - a dependency names no folder, or the graph has a cycle;
  - a file of folder F includes a private header "G/..." of a folder G that
    F does not declare;
  - an object of F refers to a symbol defined in the objects of a folder G
    that F does not declare (the link-level layering: a call upwards);
  - F declares G but neither includes a header of G's folder nor uses a
    symbol defined there (a dependency that is not true).
The public headers (include/ptxlint/) are the library's API; any folder may
include them. Objects missing (not built yet) are a failure, not a pass.
"""
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"(([A-Za-z0-9_]+)/[^"]+)"', re.M)
DEFINED = set("TDBRi")  # global text/data/bss/read-only/ifunc (not W/V: each user has a copy)


def read_graph(path):
    graph, objects, order = {}, {}, []
    folder = None
    with open(path) as f:
        for line in f:
            key, _, rest = line.rstrip("\n").partition(" ")
            if key == "folder":
                folder = rest.strip()
                order.append(folder)
                graph[folder], objects[folder] = [], []
            elif key == "depends":
                graph[folder] = [d for d in re.split(r"[;\s]+", rest) if d]
            elif key == "objects":
                objects[folder] = [o for o in rest.split(";") if o]
    return order, graph, objects


def find_cycle(graph):
    state = {}
    def visit(n, stack):
        state[n] = 1
        for d in graph.get(n, []):
            if state.get(d) == 1:
                return stack[stack.index(d):] + [d]
            if d not in state:
                c = visit(d, stack + [d])
                if c:
                    return c
        state[n] = 2
        return None
    for n in graph:
        if n not in state:
            c = visit(n, [n])
            if c:
                return c
    return None


def nm_symbols(nm, obj):
    out = subprocess.run([nm, "-P", obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind in DEFINED:
            defined.add(name)
    return defined, undefined


def demangle(name):
    try:
        return subprocess.run(["c++filt", name], capture_output=True, text=True).stdout.strip()
    except OSError:
        return name


def main(argv):
    args = argv[1:]
    nm = "nm"
    if "--nm" in args:
        i = args.index("--nm")
        nm = args[i + 1]
        del args[i:i + 2]
    layering, lib_dir = args
    order, graph, objects = read_graph(layering)
    errors = []

    folders_on_disk = sorted(
        d for d in os.listdir(lib_dir)
        if os.path.isdir(os.path.join(lib_dir, d))
        and any(f.endswith((".cpp", ".h")) for f in os.listdir(os.path.join(lib_dir, d))))
    for d in folders_on_disk:
        if d not in graph:
            errors.append(f"lib/{d}: a folder with sources but no library "
                          f"(add lib/{d}/CMakeLists.txt: ptxlint_folder_library({d} DEPENDS ...))")
    for f, deps in graph.items():
        for d in deps:
            if d not in graph:
                errors.append(f"lib/{f}: depends on '{d}', which is no folder library")
    cycle = find_cycle(graph)
    if cycle:
        errors.append("the folder graph has a cycle: " + " -> ".join(cycle))

    used = {f: set() for f in graph}  # the folders F really uses
    for f in graph:
        src = os.path.join(lib_dir, f)
        for name in sorted(os.listdir(src)):
            if not name.endswith((".cpp", ".h", ".inc")):
                continue
            text = open(os.path.join(src, name), encoding="utf-8", errors="replace").read()
            for m in INCLUDE.finditer(text):
                g = m.group(2)
                if g == f or g not in graph:
                    continue  # own header, public ptxlint/, llvm/, ...
                used[f].add(g)
                if g not in graph[f]:
                    line = text.count("\n", 0, m.start()) + 1
                    errors.append(f"lib/{f}/{name}:{line}: includes \"{m.group(1)}\" "
                                  f"but {f} does not depend on {g}")

    owner, undefined = {}, {}
    for f in order:
        if not objects[f]:
            errors.append(f"lib/{f}: no object files listed")
        for obj in objects[f]:
            if not os.path.exists(obj):
                errors.append(f"{obj}: missing (build the library first)")
                continue
            defined, undef = nm_symbols(nm, obj)
            for s in defined:
                owner.setdefault(s, f)
            undefined.setdefault(f, {}).update({s: obj for s in undef})
    for f, syms in undefined.items():
        for s, obj in sorted(syms.items()):
            g = owner.get(s)
            if g is None or g == f:
                continue
            used[f].add(g)
            if g not in graph[f]:
                errors.append(f"lib/{f} ({os.path.basename(obj)}): calls {demangle(s)}, defined in "
                              f"lib/{g}, but {f} does not depend on {g}")
    for f, deps in graph.items():
        for d in deps:
            if d in graph and d not in used[f]:
                errors.append(f"lib/{f}: declares a dependency on {d} but uses nothing of it")

    for e in errors:
        print("layering: " + e)
    if errors:
        return 1
    print(f"layering: {len(graph)} folder libraries, "
          f"{sum(len(d) for d in graph.values())} dependencies, no violation")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
