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

if os.path.isdir(config.corpus_dir):
    config.available_features.add("corpus")
else:
    lit_config.note("../shared/corpus not found: corpus tests are skipped")
ptxas = os.environ.get("PTXAS") or shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
else:
    lit_config.note("ptxas not found: ptxas cross-check tests are skipped")
