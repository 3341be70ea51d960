#!/usr/bin/env python3
"""ctest "ctypes": the C API through examples/python/ptxlint_ctypes.py."""
import os
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "python"))
import ptxlint_ctypes  # noqa: E402

lib = ptxlint_ctypes.PtxLint(sys.argv[1])
assert lib.version == "0.1.0", lib.version

BAD = ".target sm_90a\n.address_size 64\n.entry k()\n{\n\tret\n}\n"
diags = lib.lint(BAD, "k.ptx")
codes = sorted(d.code for d in diags)
assert codes == ["M001", "S003"], codes
s003 = next(d for d in diags if d.code == "S003")
assert (s003.severity, s003.line, s003.column) == ("error", 5, 5), s003
assert s003.fixes and s003.fixes[0][2] == ";", s003.fixes
assert "k.ptx:5:5: error:" in lib.render(BAD, "k.ptx")

# Options: a PTX version for modules without .version, a disabled rule.
assert lib.lint(BAD, ptx_version=(8, 0), disable=["S003"]) == []
try:
    lib.lint(BAD, disable=["no-such-rule"])
    raise AssertionError("expected PtxLintError")
except ptxlint_ctypes.PtxLintError as e:
    assert "unknown rule" in str(e), e

# Lowering.
MOD = (".version 8.0\n.target sm_90a\n.address_size 64\n.entry k()\n{\n"
       "\t.reg .b64 %rd<4>;\n"
       "\tcp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%rd1], [%rd2], 16, [%rd3];\n"
       "\tret;\n}\n")
out, ldiags = lib.lower(MOD)
assert ".shared::cluster.global" in out and not ldiags, (out, ldiags)

# Several Python threads at once (ctypes releases the GIL during calls).
results = []
def work():
    for _ in range(20):
        results.append(sorted(d.code for d in lib.lint(BAD)))
threads = [threading.Thread(target=work) for _ in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert len(results) == 80 and all(r == ["M001", "S003"] for r in results)

# The command-line entry point.
with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
    f.write(BAD)
try:
    assert ptxlint_ctypes.main(["--lib", sys.argv[1], f.name]) == 1
finally:
    os.unlink(f.name)
print("ctypes: ok")
