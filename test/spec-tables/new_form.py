#!/usr/bin/env python3
"""A new async-copy form is one YAML edit (issue 12).

Copies spec-tables/ to a scratch folder, adds one form to cp.async.bulk
(.shared::cta.shared::cluster, builder enumerator
BulkDir::SharedClusterToSharedCta: a made-up direction, not PTX) and shows that every consumer sees it:

  default      runs ptxlint-spec-tblgen on the tables with and without the
               edit: the edit adds the form to the checker's table
               (SpecTables.inc), the enumerator with its spelling and
               completion to the builder/decoder/Python enums
               (BuilderEnums.inc: print, decode, allForms, bindEnum read
               only these), its operands to the builder struct's fields
               (BuilderFields.inc: print, decode and structuralErrors
               walk the form's slots through it), and the flow rules classify it as the BulkCopy
               it is named (FlowRoles.inc) -- and the unedited tables have
               none of it.
  --build DIR  configures and builds the project in DIR with the edited
               tables (PTXLINT_SPEC_DIR) and runs it: the checker lints the
               new form clean, the builder lists, prints and decodes it, the
               Python enum has it, and the flow rule F404 counts its bytes.

usage: new_form.py --src SRC --tblgen TBLGEN [--build DIR]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

FORM = """\
  - name: shared-cluster-to-shared-cta
    builder_enum: BulkDir
    builder_name: SharedClusterToSharedCta
    display: ".shared::cta.shared::cluster"
    spaces: [[".shared::cta"], [".shared::cluster"]]
    required: [completion_mechanism]
    only: [[completion_mechanism, ".mbarrier::complete_tx::bytes"]]
    operands:
    - {name: dstMem, builder_field: Dst, shape: address, space_index: 0, align: 16}
    - {name: srcMem, builder_field: Src, shape: address, space_index: 1, align: 16}
    - {name: size, builder_field: Size, regs: [.b32, .u32, .s32], imm: true, min: 0, max: 1048560,
       multiple_of: 16}
    - {name: mbar, builder_field: Mbar, shape: address, space: .shared, align: 8}
"""
ANCHOR = "  - name: shared-cta-to-global\n"   # the new form goes before it

# A module using the new form: 8192 bytes signalled, 16384 expected (F404).
MODULE = """\
.version 8.6
.target sm_90a
.address_size 64
.visible .entry k()
{
	.reg .pred %p<2>;
	.reg .b32 %r<5>;
	.reg .b64 %rd<2>;
	.shared .align 128 .b8 src[8192];
	.shared .align 128 .b8 dst[8192];
	.shared .align 8 .b64 full;
	mov.u32 %r2, full;
	mov.u32 %r3, dst;
	mov.u32 %r4, src;
	mbarrier.init.shared::cta.b64 [%r2], 1;
	fence.mbarrier_init.release.cluster;
	mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r2], 16384;
	cp.async.bulk.shared::cta.shared::cluster.mbarrier::complete_tx::bytes [%r3], [%r4], 8192, [%r2];
$L_wait:
	mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], 0;
	@!%p1 bra $L_wait;
	ret;
}
"""


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def tables(src, edit):
    d = tempfile.mkdtemp(prefix="ptxlint-new-form.")
    for f in os.listdir(os.path.join(src, "spec-tables")):
        if f.endswith(".yaml"):
            shutil.copy(os.path.join(src, "spec-tables", f), d)
    if edit:
        p = os.path.join(d, "cp_async_bulk.yaml")
        text = open(p).read()
        if text.count(ANCHOR) != 1:
            fail("cp_async_bulk.yaml has no single '%s'" % ANCHOR.strip())
        open(p, "w").write(text.replace(ANCHOR, FORM + ANCHOR))
    return d


def generate(tblgen, d):
    out = os.path.join(d, "gen")
    yamls = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".yaml"))
    r = subprocess.run([tblgen, out] + yamls, capture_output=True, text=True)
    if r.returncode:
        fail("ptxlint-spec-tblgen: " + r.stderr)
    read = lambda f: open(os.path.join(out, f)).read()
    return (read("SpecTables.inc"), read("public/ptxlint/BuilderEnums.inc"),
            read("FlowRoles.inc"))


def seen(gen):
    spec, enums, roles = gen
    bulk = re.search(r"enum class BulkDir : unsigned \{([^}]*)\}", enums).group(1)
    names = [n.strip() for n in bulk.split(",")]
    k = names.index("SharedClusterToSharedCta") if "SharedClusterToSharedCta" in names else -1
    def entry(fn):
        m = re.search(r"inline const char \*%s\(BulkDir V\) \{\s*static const char \*const S\[\] = \{([^}]*)\}" % fn, enums)
        vals = [v.strip().strip('"') for v in m.group(1).split(",")]
        return vals[k] if 0 <= k < len(vals) else None
    return {
        "checker form": '"shared-cluster-to-shared-cta"' in spec,
        "builder enumerator": k >= 0,
        "spelling": entry("spelling") == ".shared::cta.shared::cluster",
        "completion": entry("completion") == ".mbarrier::complete_tx::bytes",
        "python name": entry("enumeratorName") == "SharedClusterToSharedCta",
        "flow role": '{"cp", {"async", "bulk"}, OpKind::BulkCopy}' in roles,
    }


def build_and_run(src, d, build):
    cfg = ["cmake", "-S", src, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
           "-DPTXLINT_SPEC_DIR=" + d]
    if shutil.which("ccache"):
        cfg += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
    subprocess.check_call(cfg, stdout=subprocess.DEVNULL)
    subprocess.check_call(["cmake", "--build", build, "-j2", "--target", "ptxlint-bin",
                           "ptxlint-python"], stdout=subprocess.DEVNULL)
    mod = os.path.join(d, "new-form.ptx")
    open(mod, "w").write(MODULE)
    r = subprocess.run([os.path.join(build, "bin", "ptxlint"), "--no-config",
                        "--no-source-snippet", mod], capture_output=True, text=True)
    out = r.stdout + r.stderr
    print(out.strip())
    checks = {
        "checker: no S/Q/O error on the new form": not re.search(r"error: .*\[[SQO]\d+\]", out),
        "flow: F404 counts its 8192 bytes": "[F404]" in out and "8192" in out,
    }
    py = (
        "import ptxlint.builder as b\n"
        "d = b.BulkDir.SHARED_CLUSTER_TO_SHARED_CTA\n"
        "forms = [f for f in b.all_forms() if '.shared::cta.shared::cluster.' in b.print(f)]\n"
        "assert forms, 'allForms has no new form'\n"
        "t = b.print(forms[0]); print(t)\n"
        "assert b.print(b.parse(t)) == t, 'decode round trip'\n"
        "print('builder ok')\n")
    r = subprocess.run([sys.executable, "-c", py], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.path.join(build, "python")))
    print((r.stdout + r.stderr).strip())
    checks["builder/decoder/python: listed, printed, decoded"] = r.returncode == 0
    return checks


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", required=True)
    ap.add_argument("--tblgen", required=True)
    ap.add_argument("--build", help="also build the project with the edited tables here")
    a = ap.parse_args()
    before = seen(generate(a.tblgen, tables(a.src, False)))
    d = tables(a.src, True)
    after = seen(generate(a.tblgen, d))
    ok = True
    for k in after:
        flow = k == "flow role"  # the role is the instruction's: there before too
        good = after[k] and (before[k] if flow else not before[k])
        print("%-20s without the edit: %-5s with it: %-5s %s" % (k, before[k], after[k],
                                                               "ok" if good else "WRONG"))
        ok &= good
    # The generator holds the builder to the tables: a slot of a builder
    # instruction with no struct field to hold it stops the build.
    bare = tables(a.src, False)
    p = os.path.join(bare, "cp_async_bulk.yaml")
    text = open(p).read()
    open(p, "w").write(text.replace(ANCHOR, re.sub(r"builder_field: \w+, ", "", FORM) + ANCHOR))
    r = subprocess.run([a.tblgen, os.path.join(bare, "gen")] +
                       sorted(os.path.join(bare, f) for f in os.listdir(bare) if f.endswith(".yaml")),
                       capture_output=True, text=True)
    refused = r.returncode != 0 and "needs builder_field" in r.stderr
    print("%-20s %s" % ("no builder_field", "refused by the generator: ok" if refused else "WRONG: accepted"))
    ok &= refused
    if a.build:
        for k, v in build_and_run(os.path.abspath(a.src), d, a.build).items():
            print("%-50s %s" % (k, "ok" if v else "WRONG"))
            ok &= v
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
