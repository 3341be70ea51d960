#!/usr/bin/env python3
"""Writes the malformed inputs of the robustness tests into a folder.

Generated at test time so the repository carries no large or binary files.
"""
import os
import random
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
header = ".version 8.0\n.target sm_90a\n.address_size 64\n"
rng = random.Random(42)

def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())

write("empty.ptx", b"")
write("binary.ptx", bytes(rng.randrange(256) for _ in range(200_000)))
write("long-line.ptx", header + ".global .b8 data[%d] = {%s};\n" % (
    2_500_000, ",".join(["0"] * 2_500_000)))
write("long-instruction.ptx", header + ".visible .entry k()\n{\n mov.b32 %r1, " +
      "+".join(["1"] * 2_000_000) + ";\n}\n")
write("unbalanced-open.ptx", header + ".visible .entry k()\n{\n{\n ret;\n")
write("unbalanced-close.ptx", header + "}}}\n.visible .entry k()\n{\n ret;\n}\n")
write("nested-braces.ptx", header + "{" * 100_000 + "}" * 100_000)
write("nested-in-statement.ptx", header + ".visible .entry k()\n{\n mov.b32 " +
      "{" * 100_000 + ";\n}\n")
write("nested-parens.ptx", header + ".visible .entry k()\n{\n cp.async.wait_group " +
      "(" * 100_000 + "0" + ")" * 100_000 + ";\n}\n")
write("invalid-utf8.ptx", header.encode() +
      b".visible .entry k()\n{\n // caf\xc3\xa9 \xff\xfe\n cp.async.wait_all\xff;\n ret;\n}\n")
write("crlf.ptx", (header + ".visible .entry k()\n{\n cp.async.commit_group;\n"
                   " cp.async.wait_group 0;\n ret;\n}\n").replace("\n", "\r\n"))
write("nul-bytes.ptx", header.encode() + b"\x00" * 1000 + b"\n")
write("unterminated-comment.ptx", header + "/* never closed\n.visible .entry k()\n")
write("unterminated-string.ptx", header + '.pragma "nounroll;\n')
