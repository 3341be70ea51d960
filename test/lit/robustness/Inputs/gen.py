#!/usr/bin/env python3
"""Generates pathological PTX inputs for the robustness tests (at test time,
so that no big file is committed).

usage: gen.py KIND OUT [SIZE]
"""
import random
import sys

HEAD = ".version 8.6\n.target sm_90a\n.address_size 64\n"
KERNEL_OPEN = (".visible .entry k(.param .u64 p)\n{\n"
               "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p<4>;\n")
KERNEL_CLOSE = "\tret;\n}\n"


def big_module(mb):
    """A valid module of about mb MB: many kernels of ordinary (unparsed)
    arithmetic with a few parsed instructions and labels in each."""
    body = "".join("\tadd.s32 %%r1, %%r1, %d;\n\tmul.lo.s32 %%r2, %%r1, %%r3;\n" % i
                   for i in range(200))
    kernel = (KERNEL_OPEN + "$L_top:\n" + body +
              "\tsetp.ne.s32 %p1, %r1, 0;\n\t@%p1 bra $L_top;\n" + KERNEL_CLOSE)
    out = [HEAD]
    size, n = len(HEAD), 0
    while size < mb * 1000000:
        k = kernel.replace(".entry k(", ".entry k%d(" % n)
        out.append(k)
        size += len(k)
        n += 1
    return "".join(out)


def main():
    kind, out = sys.argv[1], sys.argv[2]
    arg = float(sys.argv[3]) if len(sys.argv) > 3 else 0
    data = None
    if kind == "empty":
        data = b""
    elif kind == "big":  # a valid module of arg MB
        data = big_module(arg).encode()
    elif kind == "long-line-init":  # a valid arg-MB .global initialiser on one line
        n = int(arg * 1000000) // 2
        data = (HEAD + ".global .align 1 .b8 blob[%d] = {" % n +
                ",".join(["0"] * n) + "};\n").encode()
    elif kind == "long-line-junk":  # arg MB of identifier soup, no ';' or newline
        rnd = random.Random(1)
        words = ["cp.async", "%r1", "[%rd1]", "mbarrier", ",", "{", "}", "(", ")"]
        parts, size = [HEAD, KERNEL_OPEN], 0
        while size < arg * 1000000:
            w = rnd.choice(words)
            parts.append(w + " ")
            size += len(w) + 1
        data = "".join(parts).encode()
    elif kind == "functions":  # arg small functions (a quadratic lookup shows)
        n = int(arg)
        data = (HEAD + "".join(".func f%d(.param .b32 a)\n{\n\tret;\n}\n" % i
                               for i in range(n))).encode()
    elif kind == "labels":  # arg labels in one kernel, a branch to each tenth
        n = int(arg)
        lines = [HEAD, KERNEL_OPEN]
        for i in range(n):
            lines.append("L%d:\n" % i)
            if i % 10 == 0:
                lines.append("\t@%%p1 bra L%d;\n" % i)
        lines.append(KERNEL_CLOSE)
        data = "".join(lines).encode()
    elif kind == "nested-braces":  # arg nested { } blocks inside a kernel
        n = int(arg)
        data = (HEAD + KERNEL_OPEN + "{\n" * n + "\tadd.s32 %r1, %r1, 1;\n" +
                "}\n" * n + KERNEL_CLOSE).encode()
    elif kind == "open-braces":  # arg '{' never closed
        data = (HEAD + KERNEL_OPEN + "{" * int(arg)).encode()
    elif kind == "close-braces":  # arg stray '}'
        data = (HEAD + "}" * int(arg) + "\n").encode()
    elif kind == "nested-operand":  # one instruction with arg nested '{' in an operand
        n = int(arg)
        data = (HEAD + KERNEL_OPEN + "\tmov.b32 %r1, " + "{" * n + "%r2" + "}" * n +
                ";\n\tcp.async.bulk.tensor.1d.shared::cluster.global.tile."
                "mbarrier::complete_tx::bytes [%r1], [%rd1, " + "{" * n + "%r2" +
                "}" * n + "], [%r3];\n" + KERNEL_CLOSE).encode()
    elif kind == "binary":  # arg MB of random bytes
        rnd = random.Random(7)
        data = bytes(rnd.getrandbits(8) for _ in range(int(arg * 1000000)))
    elif kind == "utf8":  # invalid UTF-8 in a comment, a string and an operand
        data = (HEAD.encode() + b"// caf\xc3\xa9 \xff\xfe\xc0\x80 overlong\n" +
                KERNEL_OPEN.encode() +
                b"\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                b" [%r1], [%rd1\xff], 16, [%r2];\n" +
                b"\tadd.s32 %r1, %r1, 1; // \xed\xa0\x80 surrogate\n" +
                KERNEL_CLOSE.encode())
    elif kind == "crlf":  # a valid module with CRLF line ends (and a lone CR)
        text = (HEAD + ".extern .shared .align 16 .b8 smem[];\n" + KERNEL_OPEN +
                "\tmov.u32 %r1, smem;\n"
                "\tmbarrier.init.shared::cta.b64 [%r1], 1;\n"
                "\tfence.proxy.async.shared::cta;\n"  # correct code: F405 stays quiet
                "\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                " [%r1], [%rd1], 16, [%r1];\r"
                "\tadd.s32 %r2, %r2, 1;\n" + KERNEL_CLOSE)
        data = text.replace("\n", "\r\n").encode()
    elif kind == "crlf-error":  # CRLF module, a missing ']' on line 9
        text = (HEAD + KERNEL_OPEN + "\tcp.async.bulk.commit_group;\n"
                "\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                " [%r1, [%rd1], 16, [%r2];\n" + KERNEL_CLOSE)
        data = text.replace("\n", "\r\n").encode()
    elif kind == "nul":  # NUL bytes inside statements
        data = (HEAD + KERNEL_OPEN + "\tadd.s32 %r1,\0 %r1, 1;\n"
                "\tcp.async.bulk.commit_group\0;\n" + KERNEL_CLOSE).encode()
    else:
        sys.exit("gen.py: unknown kind " + kind)
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
