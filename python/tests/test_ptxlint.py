"""ctest "python": the ptxlint package (python/src/module.cpp) through unittest.

Run from a build: PYTHONPATH=build/python python3 -m unittest discover -s python/tests
"""
import ast
import os
import subprocess
import sys
import tempfile
import threading
import unittest

import ptxlint
from ptxlint import builder as b

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.join(HERE, "..", "ptxlint")

# No .version (M001) and a missing ';' (S003, with a fix).
BAD = ".target sm_90a\n.address_size 64\n.entry k()\n{\n\tret\n}\n"
# A bulk reduction of .f16 without .noftz (Q107, fix inserts .noftz).
Q107 = """.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 p)
{
\t.reg .b32 %r<4>;
\t.reg .b64 %rd<3>;
\t.shared .align 128 .b8 tile[4096];
\tld.param.u64 %rd1, [p];
\tcvta.to.global.u64 %rd2, %rd1;
\tmov.u32 %r1, tile;
\tfence.proxy.async.shared::cta;
\tcp.reduce.async.bulk.global.shared::cta.bulk_group.add.f16 [%rd2], [%r1], 4096;
\tcp.async.bulk.commit_group;
\tcp.async.bulk.wait_group.read 0;
\tret;
}
"""


class LintTest(unittest.TestCase):
    def test_version(self):
        self.assertRegex(ptxlint.__version__, r"^\d+\.\d+\.\d+$")

    def test_diagnostics(self):
        r = ptxlint.lint(BAD, name="k.ptx")
        self.assertEqual(sorted(d.code for d in r), ["M001", "S003"])
        self.assertEqual((r.ok, len(r)), (False, 2))
        self.assertEqual(r.errors, sum(d.severity == "error" for d in r))
        self.assertEqual(r.warnings, sum(d.severity == "warning" for d in r))
        s003 = next(d for d in r if d.code == "S003")
        self.assertEqual((s003.severity, s003.line, s003.column), ("error", 5, 5))
        self.assertEqual((s003.range.line, s003.range.column), (5, 5))
        self.assertEqual(s003.fixes[0].replacement, ";")
        self.assertIn("k.ptx:5:5: error:", r.render())
        self.assertIs(type(r[0]), ptxlint.Diagnostic)
        self.assertEqual(r[-1].code, r.diagnostics[-1].code)
        with self.assertRaises(IndexError):
            r[2]

    def test_notes_and_fix(self):
        r = ptxlint.lint(Q107)
        self.assertEqual([d.code for d in r], ["Q107"])
        d = r[0]
        self.assertEqual((d.line, d.range.end_line), (13, 13))
        self.assertTrue(any("9.7.9.25" in n.message for n in d.notes), d.notes)
        fixed = ptxlint.apply_fixes(Q107, r.diagnostics)
        self.assertIn(".noftz", fixed)
        self.assertNotIn(".noftz", Q107)
        self.assertTrue(ptxlint.lint(fixed).ok)
        self.assertEqual(ptxlint.fix(Q107), fixed)

    def test_options(self):
        self.assertEqual(len(ptxlint.lint(BAD, ptx_version=(8, 0), ignore=["S003"])), 0)
        self.assertEqual(len(ptxlint.lint(BAD, ptx_version="8.0", ignore=["S"])), 0)
        self.assertEqual([d.code for d in ptxlint.lint(BAD, select=["M001"])], ["M001"])
        # A target that cannot take the instruction: T rules fire with override.
        r = ptxlint.lint(Q107.replace(".add.f16", ".add.noftz.f16"), target="sm_80",
                         override=True)
        self.assertFalse(r.ok)
        self.assertTrue(all(d.code.startswith("T") for d in r if d.severity == "error"), list(r))

    def test_errors_name_the_problem(self):
        with self.assertRaisesRegex(ValueError, "no-such-rule"):
            ptxlint.lint(BAD, ignore=["no-such-rule"])
        with self.assertRaisesRegex(ValueError, "ptx_version.*banana"):
            ptxlint.lint(BAD, ptx_version="banana")
        with self.assertRaisesRegex(ValueError, "target.*sm_0"):
            ptxlint.lint(BAD, target="sm_0")
        with self.assertRaises(FileNotFoundError):
            ptxlint.lint_file("/nonexistent/k.ptx")
        with self.assertRaisesRegex(ValueError, "Z999"):
            ptxlint.explain("Z999")
        with self.assertRaisesRegex(TypeError, "no field 'bogus'"):
            b.CpAsyncBulk(bogus=1)

    def test_lint_file(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "k.ptx")
            with open(p, "w") as f:
                f.write(BAD)
            r = ptxlint.lint_file(p)
            self.assertEqual(r.name, p)
            self.assertIn(p + ":5:5: error:", r.render())

    def test_cuda_sources(self):
        cu = ('__device__ void f(void *d, unsigned s) {\n'
              '  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f16 [%0], [%1], 64;"\n'
              '               :: "l"(d), "r"(s));\n}\n')
        codes = lambda r: [(d.code, d.line) for d in r.diagnostics]
        # By the name's extension, as the command; or forced either way.
        self.assertEqual(codes(ptxlint.lint(cu, name="k.cu", target="sm_90a")), [("Q107", 2)])
        self.assertNotIn(("Q107", 2), codes(ptxlint.lint(cu, target="sm_90a")))
        self.assertEqual(codes(ptxlint.lint(cu, target="sm_90a", language="cuda")), [("Q107", 2)])
        self.assertNotIn(("Q107", 2), codes(ptxlint.lint(cu, name="k.cu", language="ptx")))
        fixed = ptxlint.fix(cu, name="k.cu", target="sm_90a")
        self.assertIn(".add.noftz.f16", fixed)
        with self.assertRaisesRegex(ValueError, "language must be"):
            ptxlint.lint(cu, language="c++")
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "k.cuh")
            with open(p, "w") as f:
                f.write(cu)
            self.assertEqual(codes(ptxlint.lint_file(p, target="sm_90a")), [("Q107", 2)])

    def test_lower(self):
        mod = (".version 8.0\n.target sm_90a\n.address_size 64\n.entry k()\n{\n"
               "\t.reg .b64 %rd<4>;\n"
               "\tcp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%rd1], [%rd2], 16, [%rd3];\n"
               "\tret;\n}\n")
        out = ptxlint.lower(mod)
        self.assertTrue(out.ok)
        self.assertEqual(out.rewritten, 1)
        self.assertIn(".shared::cluster.global", out.text)

    def test_explain_and_rules(self):
        self.assertIn("Q107", ptxlint.rules())
        self.assertIn("noftz", ptxlint.explain("Q107"))

    def test_threads(self):
        results = []

        def work():
            for _ in range(20):
                results.append(sorted(d.code for d in ptxlint.lint(BAD)))
        ts = [threading.Thread(target=work) for _ in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(len(results), 80)
        self.assertTrue(all(r == ["M001", "S003"] for r in results))


class BuilderTest(unittest.TestCase):
    def tma_load(self):
        return b.CpAsyncBulkTensor(dir=b.TensorDir.GLOBAL_TO_SHARED_CLUSTER, dim=2,
                                   shared="%r1", tensor=b.TensorRef("%rd1", ["%r2", "%r3"]),
                                   mbar=b.Address("%r4"), cache_policy="%rd2")

    def test_print(self):
        text = b.print(self.tma_load())
        self.assertEqual(text, "cp.async.bulk.tensor.2d.shared::cluster.global.tile"
                               ".mbarrier::complete_tx::bytes.L2::cache_hint"
                               " [%r1], [%rd1, {%r2, %r3}], [%r4], %rd2;")
        self.assertEqual(b.instruction_name(self.tma_load()), "cp.async.bulk.tensor")
        red = b.CpReduceAsyncBulk(op=b.RedOp.ADD, type=b.RedType.F16, dst="%rd1",
                                  src="%r1", size=4096)
        self.assertIn(".add.noftz.f16", b.print(red))
        guarded = b.Inst(b.CpAsyncBulkWaitGroup(read=True, n=0), guard="!%p1")
        self.assertEqual(str(guarded), "@!%p1 cp.async.bulk.wait_group.read 0;")

    def test_parse_round_trip(self):
        inst = b.Inst(self.tma_load())
        self.assertEqual(b.parse(b.print(inst)), inst)
        for form in b.all_forms()[:200]:
            self.assertEqual(b.parse(b.print(form)), form, b.print(form))
        with self.assertRaisesRegex(ValueError, "cannot read"):
            b.parse("add.s32 %r1, %r2, %r3;")

    def test_validate(self):
        ok, diags = b.validate(self.tma_load(), "sm_90a", "8.0")
        self.assertTrue(ok, diags)
        ok, diags = b.validate(self.tma_load(), "sm_80")
        self.assertFalse(ok)
        self.assertTrue(diags and diags[0].code.startswith("T"), diags)
        self.assertEqual(b.structural_errors(b.CpAsync(cache=b.CacheOp.CG, dst="%r1",
                                                       src="%rd1", cp_size=8)) != [], True)

    def test_module_lints_clean(self):
        insts = [self.tma_load(), b.CpAsyncBulkCommitGroup(), b.CpAsyncBulkWaitGroup(n=0)]
        mod = b.wrap_in_module(insts, "sm_90a", "8.0", kernel_name="k")
        self.assertIn(".entry k", mod)
        r = ptxlint.lint(mod, select=["S", "M", "Q", "O", "T"])
        self.assertTrue(r.ok, r.render())
        self.assertIn(("%rd1", ".b64"), b.register_uses(self.tma_load()))
        self.assertIn("sm_90a", b.known_targets())


def public_names(module):
    return {k for k in vars(module) if not k.startswith("_")}


def stub_names(path):
    tree = ast.parse(open(path).read())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return names


class PackagingTest(unittest.TestCase):
    def test_stubs_cover_the_extension(self):
        ext = ptxlint._ptxlint
        self.assertEqual(public_names(ext) - stub_names(os.path.join(PKG, "_ptxlint.pyi")), set())
        self.assertEqual(public_names(ext.builder) - stub_names(os.path.join(PKG, "builder.pyi")),
                         set())
        for cls in ("CpAsyncBulkTensor", "CpAsync", "Diagnostic"):
            where = ext.builder if hasattr(ext.builder, cls) else ext
            pyi = "builder.pyi" if where is ext.builder else "_ptxlint.pyi"
            tree = ast.parse(open(os.path.join(PKG, pyi)).read())
            node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
            stubbed = {getattr(n, "name", None) or getattr(getattr(n, "target", None), "id", None)
                       for n in node.body}
            real = {k for k in dir(getattr(where, cls)) if not k.startswith("_")}
            self.assertEqual(real - stubbed, set(), cls)

    def test_python_m_ptxlint(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "k.ptx")
            with open(p, "w") as f:
                f.write(BAD)
            r = subprocess.run([sys.executable, "-m", "ptxlint", "--no-source-snippet", p],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn(p + ":5:5: error:", r.stdout + r.stderr)
            r = subprocess.run([sys.executable, "-m", "ptxlint", "--explain", "Q107"],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("noftz", r.stdout)


if __name__ == "__main__":
    unittest.main()
