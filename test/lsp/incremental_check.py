#!/usr/bin/env python3
"""ctest "lsp-incremental": the language server's incremental re-lint equals a
full lint after every edit.

    incremental_check.py SERVER MODULE... [--edits N] [--seed S]

Each MODULE is opened in ptxlint-lsp, then edited N times at random
(comments, deleted semicolons, changed qualifiers, inserted and deleted
instructions, mostly inside function bodies where the server re-lints one
function, sometimes at module scope where it re-lints everything). After
each edit the diagnostics the server publishes for the edited document must
equal the ones it publishes for a fresh document holding the same text (a
full lint). The server's trace (PTXLINT_LSP_TRACE=1) must show incremental
lints, or the check proves nothing.
"""
import json
import os
import random
import re
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replay import frame, read_message  # noqa: E402

QUALIFIER_SWAPS = [(".f16", ".f32"), (".shared::cta", ".shared::cluster"), (".bulk_group", ".mbarrier::complete_tx::bytes"),
                   (".tile", ".im2col"), (".2d", ".3d"), (".read", ""), (".add", ".min")]


def edit_for(lines, rng):
    """(line, start, end, text) of one edit, in the current text."""
    n = len(lines)
    kind = rng.random()
    if kind < 0.05:  # module scope: the first line
        return 0, 0, 0, "// edited\n"
    # Lines inside a function body (brace depth 1 or more), braces not on them.
    inside, depth = [], 0
    for i, line in enumerate(lines):
        code = line.split("//")[0]
        if depth > 0 and line.strip() and "{" not in code and "}" not in code:
            inside.append(i)
        depth += code.count("{") - code.count("}")
    i = rng.choice(inside)
    line = lines[i]
    r = rng.random()
    if r < 0.25:
        return i, len(line), len(line), " // x"
    if r < 0.28 and line.endswith(";"):
        # A syntax error: whole-module lints from here until an edit repairs
        # it, which the next edit here does.
        return i, len(line) - 1, len(line), ""
    if r < 0.75:
        for a, b in rng.sample(QUALIFIER_SWAPS, len(QUALIFIER_SWAPS)):
            for x, y in ((a, b), (b, a)):
                k = line.find(x) if x else -1
                if k >= 0:
                    return i, k, k + len(x), y
    if r < 0.9:
        return i, 0, 0, "\tcp.async.bulk.commit_group;\n"
    return i, 0, len(line) + 1, ""  # delete the line


def apply(text, line, start, end, new):
    lines = text.split("\n")
    off = sum(len(l) + 1 for l in lines[:line])
    return text[:off + start] + new + text[off + end:]


def position(text, off):
    before = text[:off]
    line = before.count("\n")
    return {"line": line, "character": off - (before.rfind("\n") + 1)}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--"))
    server, modules = args[0], args[1:]
    n_edits = int(opts.get("edits", 60))
    rng = random.Random(int(opts.get("seed", 1)))
    env = dict(os.environ, PTXLINT_LSP_TRACE="1")
    p = subprocess.Popen([server], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env)
    trace = []
    threading.Thread(target=lambda: trace.extend(l.decode() for l in p.stderr), daemon=True).start()
    timer = threading.Timer(600, p.kill)
    timer.start()

    def send(msg):
        p.stdin.write(frame(msg))
        p.stdin.flush()

    def diagnostics(uri):
        while True:
            m = read_message(p.stdout)
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                return sorted(json.dumps(d, sort_keys=True) for d in m["params"]["diagnostics"])

    send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
          "params": {"processId": None, "rootUri": None, "capabilities": {},
                     "initializationOptions": {"tensorBoxBytes": 4096}}})
    read_message(p.stdout)
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    failures, checked = 0, 0
    for path in modules:
        text = open(path).read()
        # The same folder for both documents: the same .ptxlint.yaml applies.
        uri = "file:///nonexistent-ptxlint-incremental/edited.ptx"
        send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
              "params": {"textDocument": {"uri": uri, "languageId": "ptx", "version": 1, "text": text}}})
        diagnostics(uri)
        for k in range(n_edits):
            line, start, end, new = edit_for(text.split("\n"), rng)
            lines = text.split("\n")
            off = sum(len(l) + 1 for l in lines[:line])
            rng_ = {"start": position(text, off + start), "end": position(text, off + end)}
            text = apply(text, line, start, end, new)
            send({"jsonrpc": "2.0", "method": "textDocument/didChange",
                  "params": {"textDocument": {"uri": uri, "version": k + 2},
                             "contentChanges": [{"range": rng_, "text": new}]}})
            got = diagnostics(uri)
            undo = None
            if new == "" and end == start + 1 and lines[line][start:end] == ";":
                undo = (line, start, start, ";")
            fresh = "file:///nonexistent-ptxlint-incremental/full.ptx"
            send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                  "params": {"textDocument": {"uri": fresh, "languageId": "ptx", "version": 1,
                                              "text": text}}})
            want = [d.replace("full.ptx", "edited.ptx") for d in diagnostics(fresh)]
            send({"jsonrpc": "2.0", "method": "textDocument/didClose",
                  "params": {"textDocument": {"uri": fresh}}})
            diagnostics(fresh)
            checked += 1
            if undo:
                line_, start_, end_, new_ = undo
                off_ = sum(len(l) + 1 for l in text.split("\n")[:line_])
                text = apply(text, *undo)
                send({"jsonrpc": "2.0", "method": "textDocument/didChange",
                      "params": {"textDocument": {"uri": uri, "version": k + 2},
                                 "contentChanges": [{"range": {"start": position(text, off_ + start_),
                                                               "end": position(text, off_ + start_)},
                                                     "text": ";"}]}})
                diagnostics(uri)
            if got != want:
                failures += 1
                print("%s: edit %d (line %d: %r) differs from a full lint:\n  only incremental: %s\n"
                      "  only full: %s" % (path, k, line, new, sorted(set(got) - set(want))[:3],
                                           sorted(set(want) - set(got))[:3]), file=sys.stderr)
        send({"jsonrpc": "2.0", "method": "textDocument/didClose",
              "params": {"textDocument": {"uri": uri}}})
        diagnostics(uri)
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
    read_message(p.stdout)
    send({"jsonrpc": "2.0", "method": "exit", "params": None})
    p.wait()
    timer.cancel()
    paths = [m.group(1) for m in (re.search(r": (incremental|full) [\d.]+ ms", l) for l in trace) if m]
    incremental = paths.count("incremental")
    print("lsp-incremental: %d edits checked, %d differ; %d incremental lints, %d full"
          % (checked, failures, incremental, paths.count("full")))
    if incremental == 0:
        print("lsp-incremental: no edit took the incremental path", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
