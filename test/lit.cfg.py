# lit configuration for ptxlint's file tests.
import os
import shutil
import lit.formats

config.name = "ptxlint"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ptx", ".test"]
config.test_source_root = os.path.join(config.ptxlint_src_root, "test", "lit")
config.test_exec_root = os.path.join(config.ptxlint_obj_root, "test", "lit")
config.excludes = ["Inputs"]

inputs = os.path.join(config.test_source_root, "Inputs")
# Longest names first: lit substitutes in order.
config.substitutions.append(("%expect_exit", "%s %s" % (
    config.python, os.path.join(inputs, "expect_exit.py"))))
config.substitutions.append(("%ptxlint", config.ptxlint_bin))
config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append(("FileCheck", config.filecheck))
config.substitutions.append(("%corpus", config.corpus_dir))
config.substitutions.append(("%python", config.python))
config.environment["NO_COLOR"] = "1"
# An XFAIL test that passes must fail the run: the flow reproducers in
# test/lit/flow/shapes are XFAIL until the flow rules handle them, and whoever
# makes one pass removes its XFAIL line. Upstream lit counts XPASS as a
# failure; Debian's lit 14 does not, so say it here.
import lit.Test
lit.Test.XPASS.isFailure = True

if os.path.isdir(config.corpus_dir):
    config.available_features.add("corpus")
else:
    lit_config.note(config.corpus_dir + " not found: corpus tests are skipped")
# Real CUTLASS/FA3/ThunderKittens modules (third-party output, never
# committed) for scripts/seed-bugs.py: see test/lit/flow/shapes.
realkernels = getattr(config, "realkernels_dir", "")
if realkernels and os.path.isdir(realkernels) and any(
        f.endswith(".ptx") for _, _, fs in os.walk(realkernels) for f in fs):
    config.available_features.add("realkernels")
    config.substitutions.append(("%realkernels", realkernels))
else:
    lit_config.note("real kernel modules not found in %r (PTXLINT_REALKERNELS_DIR, "
                    "build.sh's OUT_DIR/ptx): seed-bugs-real is skipped" % realkernels)
ptxas = os.environ.get("PTXAS") or shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
else:
    lit_config.note("ptxas not found: ptxas cross-check tests are skipped")

# Integration tests (test/lit/cli): a JSON-schema validator for SARIF, and the
# tools of the pre-commit end-to-end test.
import subprocess
config.substitutions.append(("%src_root", config.ptxlint_src_root))
config.substitutions.append(("%bindir", os.path.dirname(config.ptxlint_bin)))
for _py in [config.python, "/usr/bin/python3"]:
    if _py and os.path.exists(_py) and subprocess.call(
            [_py, "-c", "import jsonschema"], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL) == 0:
        config.available_features.add("jsonschema")
        config.substitutions.append(("%jsonschema_python", _py))
        break
else:
    lit_config.note("python3-jsonschema not found: the SARIF schema test is skipped")
if shutil.which("pre-commit") and shutil.which("git"):
    config.available_features.add("pre-commit")
else:
    lit_config.note("pre-commit or git not found: the pre-commit test is skipped")
for _var in ["HOME", "PATH"]:
    if _var in os.environ:
        config.environment[_var] = os.environ[_var]

# Permission tests: root reads and writes whatever the mode bits say, so as
# root they run the tool as 'nobody' (setpriv); where that is impossible
# they are unsupported.
if hasattr(os, "geteuid") and os.geteuid() == 0:
    config.available_features.add("root")
if hasattr(os, "geteuid") and os.geteuid() != 0:
    config.available_features.add("unprivileged")
    config.substitutions.append(("%unprivileged", ""))
elif shutil.which("setpriv"):
    config.available_features.add("unprivileged")
    config.substitutions.append((
        "%unprivileged",
        "setpriv --reuid=65534 --regid=65534 --clear-groups"))
else:
    lit_config.note("root without setpriv: the permission tests are skipped")

# A C compiler for the C API header's example.
_cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
if _cc:
    config.available_features.add("cc")
    config.substitutions.append(("%cc", _cc))
else:
    lit_config.note("no C compiler: the C header example test is skipped")
