"""examples/python/tma_generator.py: the generator's kernel lints clean, each
injected bug is caught with its rule, and ptxas assembles the clean module."""
import os
import subprocess
import sys
import tempfile
import unittest

import ptxlint

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                       "python", "tma_generator.py")
sys.path.insert(0, os.path.dirname(EXAMPLE))
import tma_generator  # noqa: E402


class GeneratorTest(unittest.TestCase):
    def test_clean(self):
        r = ptxlint.lint(tma_generator.kernel(), tensor_box_bytes=tma_generator.TILE_BYTES)
        self.assertEqual([d.code for d in r if d.severity in ("error", "warning")], [], r.render())

    def test_bugs_are_caught(self):
        for bug, code in (("no-commit", "F402"), ("no-init-fence", "F410"), ("expect-tx", "F404")):
            r = ptxlint.lint(tma_generator.kernel(bug), tensor_box_bytes=tma_generator.TILE_BYTES)
            self.assertIn(code, [d.code for d in r if d.severity in ("error", "warning")],
                          (bug, r.render()))

    def test_script(self):
        ptxas = tma_generator.find_ptxas(None)
        r = subprocess.run([sys.executable, EXAMPLE], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("ptxlint: clean", r.stdout)
        if ptxas:
            self.assertIn("ptxas: assembled", r.stdout)
        r = subprocess.run([sys.executable, EXAMPLE, "--bug", "no-commit"], capture_output=True,
                           text=True)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("[F402]", r.stdout)
        self.assertIn("not assembling", r.stdout)

    @unittest.skipUnless(tma_generator.find_ptxas(None), "ptxas not found")
    def test_ptxas_accepts_every_bug(self):
        # Why lint before ptxas: ptxas takes the broken kernels too.
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "k.ptx")
            with open(src, "w") as f:
                f.write(tma_generator.kernel("no-commit"))
            r = subprocess.run([tma_generator.find_ptxas(None), "-arch=sm_90a", src, "-o",
                                os.path.join(d, "k.cubin")], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)


if __name__ == "__main__":
    unittest.main()
