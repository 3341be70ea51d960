#!/usr/bin/env python3
"""ctest "lsp-replay": replays a recorded LSP session against ptxlint-lsp.

    replay.py SERVER SESSION.json            check: every server message must
                                             equal the recorded one
    replay.py SERVER SESSION.json --record   rewrite the recorded server
                                             messages from this run (review
                                             the diff before committing)

SESSION is a JSON list of steps: {"send": MESSAGE} writes a client message
(framed with Content-Length), {"raw": "TEXT"} writes bytes as they are (broken
input), {"expect": MESSAGE} reads the next server message and compares it,
{"exit_code": N} closes the input and checks the server's exit status.
"""
import json
import subprocess
import sys
import threading


def read_message(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            raise EOFError("the server closed its output")
        line = line.rstrip(b"\r\n")
        if not line:
            break
        key, _, value = line.partition(b":")
        if key.strip().lower() == b"content-length":
            length = int(value)
    if length is None:
        raise ValueError("server message without Content-Length")
    return json.loads(stream.read(length))


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def main():
    server, session_path = sys.argv[1], sys.argv[2]
    record = "--record" in sys.argv[3:]
    with open(session_path) as f:
        steps = json.load(f)
    proc = subprocess.Popen([server], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    # A hung server fails the test instead of hanging it.
    timer = threading.Timer(60, proc.kill)
    timer.start()
    failures = []
    try:
        for n, step in enumerate(steps):
            if "send" in step:
                proc.stdin.write(frame(step["send"]))
                proc.stdin.flush()
            elif "raw" in step:
                proc.stdin.write(step["raw"].encode())
                proc.stdin.flush()
            elif "expect" in step:
                got = read_message(proc.stdout)
                if record:
                    step["expect"] = got
                elif got != step["expect"]:
                    failures.append("step %d: expected\n  %s\ngot\n  %s" % (
                        n, json.dumps(step["expect"], sort_keys=True),
                        json.dumps(got, sort_keys=True)))
            elif "exit_code" in step:
                proc.stdin.close()
                code = proc.wait()
                if record:
                    step["exit_code"] = code
                elif code != step["exit_code"]:
                    failures.append("step %d: exit status %d, expected %d"
                                    % (n, code, step["exit_code"]))
    finally:
        timer.cancel()
        if proc.poll() is None:
            proc.kill()
    if record:
        with open(session_path, "w") as f:
            f.write("[\n" + ",\n".join(json.dumps(s, sort_keys=True) for s in steps) + "\n]\n")
        print("recorded", session_path)
        return 0
    for f in failures:
        print(f, file=sys.stderr)
    print("lsp-replay: %d steps, %d mismatches" % (len(steps), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
