#!/usr/bin/env python3
"""A tiny PTX generator: a Hopper TMA kernel made with ptxlint.builder, linted
before ptxas sees it.

The kernel loads a 32x32 f32 tile with cp.async.bulk.tensor (completing on an
mbarrier), computes 2x+1 in shared memory, and stores the tile back with a
bulk tensor store (bulk_group). Every async copy comes from the typed
builder; the rest is plain text, as in any generator. The module is linted
with ptxlint (all rules, flow rules included) and handed to ptxas only when
it is clean.

    tma_generator.py [-o kernel.ptx] [--ptxas PATH] [--bug NAME]

--bug injects one of the mistakes ptxas accepts and a kernel hangs or races
on: "no-commit" (the store is never committed: F402), "no-init-fence" (the
mbarrier.init is not made visible to the async proxy before the copy that
signals it: the F410 warning), "expect-tx" (the mbarrier expects the wrong
byte count: F404). Exit status: 0 clean (and assembled, when ptxas is
found), 1 lint errors or warnings (generated code should have neither),
2 ptxas failed.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import ptxlint
from ptxlint import builder as b

BOX = 32                    # the tile: BOX x BOX f32
TILE_BYTES = BOX * BOX * 4
THREADS = 128


def kernel(bug=None):
    load = b.Inst(b.CpAsyncBulkTensor(
        dir=b.TensorDir.GLOBAL_TO_SHARED_CLUSTER, dim=2, shared="%r1",
        tensor=b.TensorRef("%rd1", ["%r6", "%r7"]), mbar="%r2"), guard="%p1")
    store = b.Inst(b.CpAsyncBulkTensor(
        dir=b.TensorDir.SHARED_CTA_TO_GLOBAL, dim=2, shared="%r1",
        tensor=b.TensorRef("%rd2", ["%r6", "%r7"])), guard="%p1")
    commit = b.Inst(b.CpAsyncBulkCommitGroup(), guard="%p1")
    wait = b.Inst(b.CpAsyncBulkWaitGroup(n=0), guard="%p1")
    for inst in (load, store, commit, wait):
        ok, diags = b.validate(inst, "sm_90a", "8.0")
        assert ok, (b.print(inst), diags)   # each instruction is right for the target

    expect = TILE_BYTES // 2 if bug == "expect-tx" else TILE_BYTES
    body = [
        ".reg .pred %p<3>;", ".reg .b32 %r<12>;", ".reg .b64 %rd<4>;", ".reg .f32 %f<3>;",
        ".shared .align 128 .b8 tile[%d];" % TILE_BYTES, ".shared .align 8 .b64 bar;",
        "mov.b64 %rd3, k_in;", "cvta.param.u64 %rd1, %rd3;",
        "mov.b64 %rd3, k_out;", "cvta.param.u64 %rd2, %rd3;",
        "mov.u32 %r1, tile;", "mov.u32 %r2, bar;", "mov.u32 %r3, %tid.x;",
        "mov.u32 %r4, %ctaid.x;", "mov.u32 %r5, %ctaid.y;",
        "shl.b32 %r6, %r4, 5;", "shl.b32 %r7, %r5, 5;",
        "setp.eq.u32 %p1, %r3, 0;",
        "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;",
    ]
    if bug != "no-init-fence":
        body += ["@%p1 fence.mbarrier_init.release.cluster;", "bar.sync 0;"]
    body += [
        "@%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], " + str(expect) + ";",
        b.print(load),
        "$L_wait:",
        "mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], 0;",
        "@!%p2 bra $L_wait;",
        "shl.b32 %r8, %r3, 2;", "add.u32 %r9, %r1, %r8;",
    ]
    for e in range(BOX * BOX // THREADS):
        a = "[%%r9+%d]" % (e * THREADS * 4)
        body += ["ld.shared.f32 %f1, " + a + ";",
                 "fma.rn.f32 %f2, %f1, 0f40000000, 0f3F800000;",
                 "st.shared.f32 " + a + ", %f2;"]
    body.append("fence.proxy.async.shared::cta;")   # generic writes -> async proxy
    body += ["bar.sync 0;", b.print(store)]
    if bug != "no-commit":
        body.append(b.print(commit))
    body += [b.print(wait), "ret;"]
    lines = [".version 8.0", ".target sm_90a", ".address_size 64", "",
             ".visible .entry tma_kernel(",
             "\t.param .align 64 .b8 k_in[128],",
             "\t.param .align 64 .b8 k_out[128]",
             ")", ".maxntid %d, 1, 1" % THREADS, "{"]
    lines += [("" if l.endswith(":") else "\t") + l for l in body]
    return "\n".join(lines + ["}", ""])


def find_ptxas(explicit):
    if explicit:
        return explicit
    for c in (os.environ.get("PTXAS"), os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"),
                                                    "bin", "ptxas"), shutil.which("ptxas")):
        if c and os.access(c, os.X_OK):
            return c
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--output", help="write the module here")
    ap.add_argument("--ptxas", help="ptxas to assemble with (default: $PTXAS, CUDA, PATH)")
    ap.add_argument("--bug", choices=["no-commit", "no-init-fence", "expect-tx"])
    args = ap.parse_args()

    ptx = kernel(args.bug)
    name = args.output or "tma_kernel.ptx"
    if args.output:
        with open(args.output, "w") as f:
            f.write(ptx)
    # The box is what each tensor copy moves: the mbarrier accounting (F404)
    # needs it, since the tensor map is only known at run time.
    result = ptxlint.lint(ptx, name=name, tensor_box_bytes=TILE_BYTES)
    if result.errors or result.warnings:
        sys.stdout.write(result.render())
        print("tma_generator: ptxlint found %d error(s), %d warning(s); not assembling"
              % (result.errors, result.warnings))
        return 1
    print("tma_generator: ptxlint: clean")
    ptxas = find_ptxas(args.ptxas)
    if not ptxas:
        print("tma_generator: ptxas not found; module not assembled")
        return 0
    with tempfile.TemporaryDirectory() as d:
        src, cubin = os.path.join(d, "k.ptx"), os.path.join(d, "k.cubin")
        with open(src, "w") as f:
            f.write(ptx)
        r = subprocess.run([ptxas, "-arch=sm_90a", src, "-o", cubin], capture_output=True, text=True)
        if r.returncode != 0:
            sys.stdout.write(r.stdout + r.stderr)
            print("tma_generator: ptxas failed")
            return 2
        print("tma_generator: ptxas: assembled %d bytes of sm_90a code" % os.path.getsize(cubin))
    return 0


if __name__ == "__main__":
    sys.exit(main())
