#!/usr/bin/env python3
"""Edit-to-diagnostics latency of ptxlint-lsp on a large module.

Opens MODULE in the language server (as an editor would, LSP over a pipe),
then makes ROUNDS small incremental edits in the middle of the file (type a
character into a comment, delete it again) and times each one from writing
the didChange message to reading the publishDiagnostics that answers it:
what an editor user waits for. Prints the median, 90th percentile and worst.

    lsp_incremental.py SERVER MODULE [--rounds N]
    lsp_incremental.py SERVER --make-10mb CORPUS_DIR OUT.ptx   (via replicate.py)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "lsp"))
from replay import frame, read_message  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("server")
    ap.add_argument("module", nargs="?")
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--make-10mb", nargs=2, metavar=("CORPUS_DIR", "OUT"))
    a = ap.parse_args()
    if a.make_10mb:
        subprocess.check_call([sys.executable, os.path.join(HERE, "replicate.py"),
                               a.make_10mb[0], a.make_10mb[1], "10"])
        a.module = a.make_10mb[1]
    text = open(a.module).read()
    lines = text.split("\n")
    # An edit site in the middle of the module: the end of an instruction
    # line inside a function body (what a user edits).
    depth, mid = 0, None
    for i, line in enumerate(lines):
        code = line.split("//")[0]
        if i >= len(lines) // 2 and depth > 0 and code.strip().endswith(";") and \
                "{" not in code and "}" not in code:
            mid = i
            break
        depth += code.count("{") - code.count("}")
    col = len(lines[mid])

    p = subprocess.Popen([a.server], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(msg):
        p.stdin.write(frame(msg))
        p.stdin.flush()

    def wait_diagnostics():
        while True:
            m = read_message(p.stdout)
            if m.get("method") == "textDocument/publishDiagnostics":
                return m["params"]

    uri = "file://" + os.path.abspath(a.module)
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
          "params": {"processId": None, "rootUri": None,
                     "capabilities": {"general": {"positionEncodings": ["utf-8", "utf-16"]}}}})
    read_message(p.stdout)
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    t0 = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
          "params": {"textDocument": {"uri": uri, "languageId": "ptx", "version": 1,
                                      "text": text}}})
    first = wait_diagnostics()
    t_open = time.perf_counter() - t0
    times = []
    version = 1
    for k in range(a.rounds):
        version += 1
        if k % 2 == 0:
            change = {"range": {"start": {"line": mid, "character": col},
                                "end": {"line": mid, "character": col}}, "text": " // x"}
        else:
            change = {"range": {"start": {"line": mid, "character": col},
                                "end": {"line": mid, "character": col + 5}}, "text": ""}
        t = time.perf_counter()
        send({"jsonrpc": "2.0", "method": "textDocument/didChange",
              "params": {"textDocument": {"uri": uri, "version": version},
                         "contentChanges": [change]}})
        d = wait_diagnostics()
        times.append(time.perf_counter() - t)
        assert d["version"] == version, d["version"]
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
    read_message(p.stdout)
    send({"jsonrpc": "2.0", "method": "exit", "params": None})
    p.wait()
    times.sort()
    mb = len(text.encode()) / 1e6
    print("module %s: %.1f MB, %d lines, %d diagnostics" % (a.module, mb, len(lines),
                                                             len(first["diagnostics"])))
    print("open (didOpen -> diagnostics): %.1f ms" % (1000 * t_open))
    print("edit -> diagnostics over %d edits: median %.1f ms, p90 %.1f ms, worst %.1f ms" % (
        len(times), 1000 * statistics.median(times), 1000 * times[int(0.9 * (len(times) - 1))],
        1000 * times[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
