#!/usr/bin/env python3
"""Seeded-bug harness for ptxlint's flow rules (issue 11).

Takes real PTX modules, removes (or changes) one async-copy protocol step per
mutant, lints each mutant with `ptxlint --no-config --format=json` and counts
how many mutants get a new diagnostic of the rule family that covers that step
("caught"), and how many of those name the mutated place in the diagnostic or
one of its notes ("at the right line").

Mutant kinds (one protocol step each):
  bulk-commit      delete a cp.async.bulk.commit_group         (F402, F403, F406)
  proxy-fence      delete a fence.proxy.async before a bulk/TMA store (F405)
  bulk-wait        delete a cp.async.bulk.wait_group{.read}          (F406)
  consumer-wait    delete a consumer's mbarrier.try_wait/test_wait:
                   the whole inline spin loop, or the probe together
                   with its fallback spin loop                       (F407)
  expect-tx        add 16 to an expect_tx byte count whose copies'
                   sizes are known                                   (F404)
  cp-async-commit  delete a cp.async.commit_group               (F401, F403, F407)
  cp-async-wait    delete a cp.async.wait_group / wait_all            (F407)

A site whose mutation is provably harmless is excluded, with its reason, and
not counted as a miss. The reasons are decided on a statement-level control
flow graph of the function (labels and branches, inline-asm `{ }` scopes
resolved like ptxas does), "reaches" meaning "on some path, loops included":
  bulk-commit      no .bulk_group operation reaches it without passing
                   another commit (it commits an empty group)
  proxy-fence      no shared-memory write through the generic proxy (st,
                   red, atom to .shared or a generic address; stmatrix)
                   reaches it without passing another fence, or from it no
                   async-proxy read of shared memory (bulk/TMA store or
                   reduction) is reached, nor a hand-off to another role
                   (mbarrier.arrive, bar.arrive/bar.sync/barrier) in a
                   function that has such a read, before another fence
  bulk-wait        no bulk store/reduction reaches it, or no shared-memory
                   write (generic st included) nor a release of the buffer
                   to another role (mbarrier.arrive, bar.arrive) follows it
                   before a wait that covers as much
  consumer-wait    no copy in the function completes on an mbarrier, or no
                   shared-memory read (ld from .shared or a generic
                   address, ldmatrix, wgmma, tcgen05.mma/cp) follows it
                   before the next wait (a
                   producer's empty-slot wait, a release-only wait)
  expect-tx        a count that is not a constant, or a function whose
                   copies' sizes are not all constants (tensor copies: the
                   box size is in the host's tensor map)
  cp-async-commit  no cp.async reaches it without passing another commit
  cp-async-wait    no cp.async commit reaches it, or no shared-memory read
                   follows before a wait that covers as much

Mutants keep the module's line numbering (deleted text becomes blanks), so a
mutant's diagnostics compare with the unmodified module's by (code, line,
message). "At the right line" for a deletion: a location from the first
deleted line to the next instruction after the deletion that is not a
barrier, fence or register move (the place where the missing step belongs,
and the access it protected); for a change: the changed line.

Mutants in different functions of one module are linted in one run (the flow
rules analyse functions separately; --no-batch lints each mutant alone).
Sampling is deterministic: --limit sites per kind per module, chosen with
--seed.
"""

import argparse
import bisect
import collections
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

# Without inputs: $PTXLINT_REALKERNELS, the folder ../shared/realkernels/build.sh
# OUT_DIR writes its modules to (OUT_DIR/ptx: cutlass/, fa3/, tk/).
DEFAULT_MODULES = os.environ.get("PTXLINT_REALKERNELS", "")

KINDS = collections.OrderedDict([
    # F403: without the commit, two groups are one and a later
    # "wait_group N" counting them separately waits for nothing.
    ("bulk-commit", {"codes": {"F402", "F403", "F406"},
                     "what": "cp.async.bulk.commit_group deleted"}),
    ("proxy-fence", {"codes": {"F405"},
                     "what": "fence.proxy.async before a bulk/TMA store deleted"}),
    ("bulk-wait", {"codes": {"F406"},
                   "what": "cp.async.bulk.wait_group{.read} before a rewrite deleted"}),
    ("consumer-wait", {"codes": {"F407"},
                       "what": "consumer's mbarrier.try_wait spin/probe deleted"}),
    ("expect-tx", {"codes": {"F404"},
                   "what": "expect_tx byte count changed (+16)"}),
    ("cp-async-commit", {"codes": {"F401", "F403", "F407"},
                         "what": "cp.async.commit_group deleted"}),
    ("cp-async-wait", {"codes": {"F407"},
                       "what": "cp.async.wait_group/wait_all deleted"}),
])

# ---------------------------------------------------------------------------
# Reading a module: statements, scopes, functions.

LABEL_RE = re.compile(r"([A-Za-z_$%][\w$%]*)\s*:(?!:)")
PRED_RE = re.compile(r"@!?%?[\w$]+\s+")
SPACE_RE = re.compile(r"[ \t\r\n]*")
SPECIAL_RE = re.compile(r"[;{}\"\n/]")
FUNC_RE = re.compile(r"\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([\w$]+)")


class Stmt:
    __slots__ = ("text", "start", "end", "line", "end_line", "scope",
                 "label", "op", "pred", "operands")

    def __init__(self, text, start, end, line, end_line, scope):
        self.text, self.start, self.end = text, start, end
        self.line, self.end_line, self.scope = line, end_line, scope
        self.label = None
        self.pred = None
        self.op = ""
        self.operands = ""
        m = LABEL_RE.match(text)
        if m and m.end() == len(text.rstrip()):
            self.label = m.group(1)
            return
        body = text.rstrip(";").rstrip()
        pm = PRED_RE.match(body)
        if pm:
            self.pred = pm.group(0).strip()
            body = body[pm.end():]
        parts = body.split(None, 1)
        if parts:
            self.op = parts[0]
            self.operands = parts[1].strip() if len(parts) > 1 else ""


class Function:
    def __init__(self, name, first_line):
        self.name = name
        self.first_line = first_line
        self.last_line = first_line
        self.stmts = []          # labels and instructions, in order
        self.scope_parent = {}   # scope id -> parent scope id
        self.scope_span = {}     # scope id -> [open offset, close offset]
        self.labels = {}         # (scope, name) -> stmt index
        self.scope_range = None  # scope id -> (first, last) stmt index


def scan_functions(text):
    """Splits a module into functions and their statements.

    A `{` or `}` where a statement would start opens or closes a scope (a
    function body, an inline-asm scope); inside a statement, braces are vector
    operands or initialisers. Comments and strings are skipped."""
    funcs = []
    i, n, line = 0, len(text), 1
    depth = 0
    cur = None                 # the function whose body we are in
    stmt_start = None          # offset where the current statement began
    stmt_line = 0
    scope_stack = []
    next_scope = 0
    header = None              # (name, line) of a function header just read
    while i < n:
        if stmt_start is None:
            m = SPACE_RE.match(text, i)
            if m.end() > i:
                line += text.count("\n", i, m.end())
                i = m.end()
                continue
        else:
            m = SPECIAL_RE.search(text, i)
            if not m:
                break
            line += text.count("\n", i, m.start())
            i = m.start()
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
            continue
        if c == '"':
            if stmt_start is None:
                stmt_start, stmt_line = i, line
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            line += text.count("\n", i, j)
            i = j + 1
            continue
        if stmt_start is None:
            if c == "{":
                if depth == 0:
                    cur = None
                    if header is not None:
                        cur = Function(header[0], header[1])
                        funcs.append(cur)
                        header = None
                    parent = None
                    scope_stack = []
                else:
                    parent = scope_stack[-1]
                if cur is not None:
                    cur.scope_parent[next_scope] = parent
                    cur.scope_span[next_scope] = [i, None]
                scope_stack.append(next_scope)
                next_scope += 1
                depth += 1
                i += 1
                continue
            if c == "}":
                if depth > 0:
                    depth -= 1
                    sid = scope_stack.pop()
                    if cur is not None:
                        cur.scope_span[sid][1] = i
                        if depth == 0:
                            cur.last_line = line
                            cur = None
                i += 1
                continue
            stmt_start, stmt_line = i, line
            if depth > 0:
                m = LABEL_RE.match(text, i)
                if m:
                    s = Stmt(text[i:m.end()], i, m.end(), line, line, scope_stack[-1])
                    if cur is not None:
                        cur.labels.setdefault((s.scope, s.label), len(cur.stmts))
                        cur.stmts.append(s)
                    stmt_start = None
                    i = m.end()
                    continue
            if c == ";":
                stmt_start = None
                i += 1
            continue
        # Inside a statement.
        if c == ";":
            end = i + 1
            if depth > 0 and cur is not None:
                cur.stmts.append(Stmt(" ".join(text[stmt_start:end].split()), stmt_start,
                                      end, stmt_line, line, scope_stack[-1]))
            elif depth == 0:
                header = None  # a prototype or a declaration
            stmt_start = None
            i = end
            continue
        if c == "{" and depth == 0:
            # Directives without ';' (.version, .target) run into the header.
            hdr = text[stmt_start:i]
            names = list(FUNC_RE.finditer(hdr))
            if names:
                m = names[-1]
                header = (m.group(1), stmt_line + hdr.count("\n", 0, m.start()))
                stmt_start = None
                continue  # the `{` opens the body
        i += 1
    return funcs


# ---------------------------------------------------------------------------
# Instruction classes (by opcode text).

def is_bulk_group_op(op):
    return (op.startswith("cp.async.bulk.") or op.startswith("cp.reduce.async.bulk.")) \
        and ".bulk_group" in op


def is_async_smem_read(op):
    """A bulk/TMA store, reduction or shared::cta->cluster copy: the async
    proxy reads shared memory."""
    if not (op.startswith("cp.async.bulk") or op.startswith("cp.reduce.async.bulk")):
        return False
    if "prefetch" in op or "commit_group" in op or "wait_group" in op:
        return False
    # Stores name the destination first: .global.shared::cta, .shared::cluster.shared::cta.
    return ".global.shared" in op or ".shared::cluster.shared::cta" in op


def is_bulk_wait(op):
    return op.startswith("cp.async.bulk.wait_group")


def is_bulk_commit(op):
    return op == "cp.async.bulk.commit_group"


def is_cp_async(op):
    return op.startswith("cp.async.ca.") or op.startswith("cp.async.cg.")


def is_cp_async_commit(op):
    return op == "cp.async.commit_group"


def is_cp_async_wait(op):
    return op.startswith("cp.async.wait_group") or op.startswith("cp.async.wait_all")


def is_proxy_fence(op):
    return op == "fence.proxy.async" or op.startswith("fence.proxy.async.shared")


NOT_SHARED = (".global", ".local", ".param", ".const")


def may_be_shared(op):
    """A memory access whose state space is .shared, or generic (nvcc writes
    and reads shared memory through cvta'd pointers: st.u32 [%rd])."""
    return ".shared" in op or not any(sp in op for sp in NOT_SHARED)


def is_generic_smem_write(op):
    if op.startswith("stmatrix"):
        return True
    if op.startswith(("st.async", "st.bulk")):
        return False
    return op.startswith(("st.", "red.", "atom.")) and may_be_shared(op)


def is_smem_read(op):
    if op.startswith("ld.") and may_be_shared(op):
        return True
    return op.startswith(("ldmatrix", "wgmma.mma_async", "tcgen05.mma", "tcgen05.cp"))


def is_mbar_wait(op):
    return op.startswith("mbarrier.try_wait") or op.startswith("mbarrier.test_wait")


def completes_on_mbarrier(op):
    return (op.startswith("cp.async.bulk") and "mbarrier::complete_tx" in op) \
        or op.startswith("cp.async.mbarrier.arrive")


def is_release(op):
    """Hands a buffer to another role: an mbarrier arrive that is not a
    producer's expect_tx, or a named-barrier arrive."""
    return (op.startswith("mbarrier.arrive") and "expect_tx" not in op) \
        or op.startswith(("bar.arrive", "barrier.arrive", "barrier.cta.arrive"))


def is_handoff(op):
    return is_release(op) or op.startswith(("bar.", "barrier."))


def is_expect_tx(op):
    return op.startswith("mbarrier.arrive.expect_tx") or op.startswith("mbarrier.expect_tx")


def wait_count(st):
    """N of a wait_group (0 for wait_all); None if not a constant."""
    if "wait_all" in st.op:
        return 0
    m = re.match(r"\s*(\d+)", st.operands)
    return int(m.group(1)) if m else None


# ---------------------------------------------------------------------------
# Control flow over statements.

class Cfg:
    def __init__(self, fn):
        self.fn = fn
        n = len(fn.stmts)
        self.succ = [[] for _ in range(n)]
        self.pred = [[] for _ in range(n)]
        for i, s in enumerate(fn.stmts):
            falls = True
            if s.op.startswith("bra"):
                tgt = self.resolve(s.scope, s.operands.split(",")[0].strip())
                if tgt is not None:
                    self.add(i, tgt)
                falls = s.pred is not None
            elif s.op.startswith("brx.idx"):
                for (_, _), t in fn.labels.items():
                    self.add(i, t)
                falls = s.pred is not None
            elif s.op in ("ret", "exit", "trap") or s.op.startswith("ret.") \
                    or s.op.startswith("exit."):
                falls = s.pred is not None
            if falls and i + 1 < n:
                self.add(i, i + 1)

    def add(self, a, b):
        self.succ[a].append(b)
        self.pred[b].append(a)

    def resolve(self, scope, name):
        while scope is not None:
            t = self.fn.labels.get((scope, name))
            if t is not None:
                return t
            scope = self.fn.scope_parent.get(scope)
        return None

    def reaches(self, start, edges, found, stop):
        """Is a statement with found(s) reachable from `start` (exclusive)
        along edges, not passing a statement with stop(s)?"""
        seen = set()
        work = list(edges[start])
        stmts = self.fn.stmts
        while work:
            k = work.pop()
            if k in seen:
                continue
            seen.add(k)
            s = stmts[k]
            if found(s):
                return True
            if stop(s):
                continue
            work.extend(edges[k])
        return False

    def forward(self, start, found, stop):
        return self.reaches(start, self.succ, found, stop)

    def backward(self, start, found, stop):
        return self.reaches(start, self.pred, found, stop)


# ---------------------------------------------------------------------------
# Sites: what one mutant changes, or why it is excluded.

class Site:
    def __init__(self, kind, fn_index, fn, stmt_lo, stmt_hi, reason=None, change=None):
        self.kind = kind
        self.fn_index = fn_index
        self.fn = fn
        self.stmt_lo, self.stmt_hi = stmt_lo, stmt_hi   # statement index range
        self.reason = reason                             # None: a mutant
        self.change = change                             # (start, end, text) or None


def never(_s):
    return False


def find_sites(funcs, kinds):
    sites = []
    for fi, fn in enumerate(funcs):
        if not fn.stmts:
            continue
        cfg = None
        ops = [s.op for s in fn.stmts]
        has_async_read = any(is_async_smem_read(o) for o in ops)
        has_mbar_copy = any(completes_on_mbarrier(o) for o in ops)
        for i, s in enumerate(fn.stmts):
            op = s.op
            if not op:
                continue
            kind = next((k for k, is_site in SITE_OPS if is_site(op)), None)
            if kind is None or kind not in kinds:
                continue
            if cfg is None:
                cfg = Cfg(fn)
            site = classify(kind, fi, fn, cfg, i, has_async_read, has_mbar_copy)
            if site is not None:
                sites.append(site)
    return sites


# The statement each kind of mutant deletes or changes.
SITE_OPS = [
    ("bulk-commit", is_bulk_commit),
    ("proxy-fence", is_proxy_fence),
    ("bulk-wait", is_bulk_wait),
    ("consumer-wait", is_mbar_wait),
    ("expect-tx", is_expect_tx),
    ("cp-async-commit", is_cp_async_commit),
    ("cp-async-wait", is_cp_async_wait),
]
# Commits: (the operations a commit groups, the commit, what they are called).
COMMITS = {
    "bulk-commit": (is_bulk_group_op, is_bulk_commit, ".bulk_group operation"),
    "cp-async-commit": (is_cp_async, is_cp_async_commit, "cp.async"),
}
# Waits: (what must be in flight, the wait, the access it protects, its reasons).
WAITS = {
    "bulk-wait": (is_async_smem_read, is_bulk_wait,
                  lambda op: is_generic_smem_write(op) or is_release(op),
                  "no bulk store or reduction reaches it",
                  "no shared-memory write or buffer release follows it before a wait that "
                  "covers as much"),
    "cp-async-wait": (is_cp_async_commit, is_cp_async_wait, is_smem_read,
                      "no cp.async group committed before it",
                      "no shared-memory read follows it before a wait that covers as much"),
}


def classify(kind, fi, fn, cfg, i, has_async_read, has_mbar_copy):
    if kind in COMMITS:
        grouped, commit, what = COMMITS[kind]
        ok = cfg.backward(i, lambda t: grouped(t.op), lambda t: commit(t.op))
        return Site(kind, fi, fn, i, i, None if ok else
                    "empty group: no %s reaches it since the previous commit" % what)
    if kind in WAITS:
        return classify_wait(kind, fi, fn, cfg, i)
    if kind == "proxy-fence":
        stop = lambda t: is_proxy_fence(t.op)
        if not cfg.backward(i, lambda t: is_generic_smem_write(t.op), stop):
            return Site(kind, fi, fn, i, i,
                        "no generic shared-memory write reaches it (not a write->async-read fence)")
        if cfg.forward(i, lambda t: is_async_smem_read(t.op), stop):
            return Site(kind, fi, fn, i, i)
        if has_async_read and cfg.forward(i, lambda t: is_handoff(t.op), stop):
            return Site(kind, fi, fn, i, i)
        return Site(kind, fi, fn, i, i,
                    "no async-proxy read of shared memory (nor a hand-off to one) follows it")
    if kind == "consumer-wait":
        return classify_mbar_wait(fi, fn, cfg, i, has_mbar_copy)
    if kind == "expect-tx":
        return classify_expect_tx(fi, fn, i)
    return None


def classify_wait(kind, fi, fn, cfg, i):
    """A wait matters if something it waits for reaches it and the access it
    protects follows it before another wait that waits for as much (the same
    or a smaller N)."""
    in_flight, wait, access, none_in_flight, none_after = WAITS[kind]
    n = wait_count(fn.stmts[i])
    if not cfg.backward(i, lambda t: in_flight(t.op), never):
        return Site(kind, fi, fn, i, i, none_in_flight)
    covers = lambda t: wait(t.op) and n is not None and \
        wait_count(t) is not None and wait_count(t) <= n
    if not cfg.forward(i, lambda t: access(t.op), covers):
        return Site(kind, fi, fn, i, i, none_after)
    return Site(kind, fi, fn, i, i)


def scope_stmts(fn, scope):
    """First and last statement index of an inline scope (its own
    statements), or None for an empty scope."""
    if fn.scope_range is None:
        fn.scope_range = {}
        for k, t in enumerate(fn.stmts):
            r = fn.scope_range.get(t.scope)
            fn.scope_range[t.scope] = (k, k) if r is None else (r[0], k)
    return fn.scope_range.get(scope)


def wait_region(fn, i):
    """The statements that implement one wait: its inline scope (a spin loop
    or a probe); a probe's fallback spin loop on the same barrier, a few
    statements later, belongs to it. None if the shape is not recognised."""
    s = fn.stmts[i]
    if fn.scope_parent.get(s.scope) is None:
        # Not in an inline scope: `L: try_wait P, ...; @!P bra L;`
        lo, hi = i, i
        if i > 0 and fn.stmts[i - 1].label:
            lo = i - 1
        for k in range(i + 1, min(i + 3, len(fn.stmts))):
            t = fn.stmts[k]
            if t.op.startswith("bra") and t.pred:
                hi = k
                break
        return (lo, hi) if hi > i else None
    lo, hi = scope_stmts(fn, s.scope)
    has_branch = any(fn.stmts[k].op.startswith("bra") for k in range(lo, hi + 1))
    if not has_branch:
        bar = barrier_operand(s)
        for k in range(hi + 1, min(hi + 12, len(fn.stmts))):
            t = fn.stmts[k]
            if is_mbar_wait(t.op):
                if barrier_operand(t) == bar and fn.scope_parent.get(t.scope) is not None:
                    hi = scope_stmts(fn, t.scope)[1]
                break
    return lo, hi


def barrier_operand(s):
    m = re.search(r"\[[^\]]*\]", s.operands)
    return m.group(0) if m else None


def classify_mbar_wait(fi, fn, cfg, i, has_mbar_copy):
    # The fallback spin of a probe is part of the probe's site.
    for k in range(i - 1, max(i - 14, -1), -1):
        t = fn.stmts[k]
        if is_mbar_wait(t.op):
            r = wait_region(fn, k)
            if r and r[0] <= i <= r[1]:
                return None
            break
    r = wait_region(fn, i)
    if r is None:
        return Site("consumer-wait", fi, fn, i, i, "unrecognised wait shape")
    lo, hi = r
    if not has_mbar_copy:
        return Site("consumer-wait", fi, fn, lo, hi,
                    "no copy in the function completes on an mbarrier")
    if not cfg.forward(hi, lambda t: is_smem_read(t.op), lambda t: is_mbar_wait(t.op)):
        return Site("consumer-wait", fi, fn, lo, hi,
                    "no shared-memory read follows before the next wait (producer or release wait)")
    return Site("consumer-wait", fi, fn, lo, hi)


def mov_constant(fn, reg):
    """The value of a register defined once, by `mov` of an integer."""
    val = None
    for t in fn.stmts:
        if not t.op or not t.operands:
            continue
        head = t.operands.split(",")[0].strip()
        if head == reg and not t.op.startswith("st") and not t.op.startswith("cp."):
            m = re.match(r"mov\.[usb]\d+$", t.op)
            parts = [p.strip() for p in t.operands.split(",")]
            if val is not None or not m or len(parts) != 2 or not re.fullmatch(r"-?\d+", parts[1]):
                return None
            val = int(parts[1])
    return val


def copy_size_known(fn, s):
    if not completes_on_mbarrier(s.op):
        return True
    if ".tensor" in s.op or s.op.startswith("cp.async.mbarrier.arrive"):
        return False
    parts = split_operands(s.operands)
    if len(parts) < 3:
        return False
    size = parts[2]
    return bool(re.fullmatch(r"\d+", size)) or mov_constant(fn, size) is not None


def split_operands(text):
    out, depth, cur = [], 0, ""
    for c in text:
        if c in "[{(":
            depth += 1
        elif c in "]})":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def classify_expect_tx(fi, fn, i):
    s = fn.stmts[i]
    parts = split_operands(s.operands)
    count = parts[-1] if parts else ""
    if not re.fullmatch(r"\d+", count):
        val = mov_constant(fn, count)
        if val is None:
            return Site("expect-tx", fi, fn, i, i, "byte count is not a constant")
    else:
        val = int(count)
    if not all(copy_size_known(fn, t) for t in fn.stmts if t.op):
        return Site("expect-tx", fi, fn, i, i,
                    "copy sizes unknown (tensor copies: box size in the host's tensor map)")
    # Replace the last operand of the statement by the changed constant.
    cut = s.text.rstrip(";").rstrip()
    cut = cut[:len(cut) - len(count)]
    return Site("expect-tx", fi, fn, i, i, change=(cut + str(val + 16) + ";"))


# ---------------------------------------------------------------------------
# Mutating, linting, judging.

def mutate(text, sites):
    """Applies the sites' changes to text; every edit keeps newlines, so
    line numbers stay those of the unmodified module. A deletion blanks the
    inline scopes that lie wholly in it (braces, scoped labels and all) and
    its other instructions; labels outside those scopes stay, as branches
    from elsewhere may target them."""
    edits = []
    for st in sites:
        fn = st.fn
        if st.change is not None:
            edits.append((fn.stmts[st.stmt_lo].start, fn.stmts[st.stmt_hi].end, st.change))
            continue
        inner = set()
        for sc, (a, b) in fn.scope_span.items():
            if fn.scope_parent.get(sc) is None or b is None:
                continue
            r = scope_stmts(fn, sc)
            if r and st.stmt_lo <= r[0] and r[1] <= st.stmt_hi:
                inner.add(sc)
                edits.append((a, b + 1))
        for k in range(st.stmt_lo, st.stmt_hi + 1):
            t = fn.stmts[k]
            if t.op and t.scope not in inner:
                edits.append((t.start, t.end))
    out, pos = [], 0
    for e in sorted(edits):
        a, b = e[0], e[1]
        if a < pos:  # inside an inline scope blanked already
            continue
        out.append(text[pos:a])
        out.append(e[2] if len(e) > 2 else re.sub(r"[^\n]", " ", text[a:b]))
        pos = b
    out.append(text[pos:])
    return "".join(out)


def right_lines(site):
    fn = site.fn
    lo = fn.stmts[site.stmt_lo].line
    if site.change is not None:
        return lo, fn.stmts[site.stmt_hi].end_line
    hi = fn.stmts[site.stmt_hi].end_line
    for t in fn.stmts[site.stmt_hi + 1:]:
        if t.op and not is_sync_only(t.op):
            hi = t.line
            break
    return lo, hi


def is_sync_only(op):
    """Statements between a step and what it protects that do not end the
    place where the step belongs: barriers, fences, register moves."""
    return op.startswith(("bar.", "barrier.", "fence.", "membar.", "mov.", ".reg"))


def run_ptxlint(ptxlint, path, threads):
    cmd = [ptxlint, "--no-config", "--format=json", "--no-source-snippet", path]
    if threads:
        cmd[1:1] = ["-j", str(threads)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1):
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
    return json.loads(p.stdout)["diagnostics"]


def diag_key(d):
    r = d.get("range") or {}
    return (d["code"], (r.get("start") or {}).get("line"), d["message"])


def diag_lines(d):
    lines = []
    for x in [d] + list(d.get("notes") or []):
        r = x.get("range")
        if r and r.get("start"):
            lines.append(r["start"]["line"])
    return lines


def judge(site, new_diags):
    codes = KINDS[site.kind]["codes"]
    fam = [d for d in new_diags if d["code"] in codes]
    lo, hi = right_lines(site)
    at = [d for d in fam if any(lo <= ln <= hi for ln in diag_lines(d))]
    return {"caught": bool(fam), "at_line": bool(at),
            "new": sorted({d["code"] for d in new_diags})}


def fn_of_line(funcs, line):
    starts = [f.first_line for f in funcs]
    k = bisect.bisect_right(starts, line) - 1
    if k >= 0 and funcs[k].first_line <= line <= funcs[k].last_line:
        return k
    return None


def batches(sample, batch):
    """Groups mutants so that each batch mutates each function at most once."""
    if not batch:
        return [[s] for s in sample]
    out = []
    for s in sample:
        for b in out:
            if all(x.fn_index != s.fn_index for x in b):
                b.append(s)
                break
        else:
            out.append([s])
    return out


def run_module(path, args, pool, tmpdir):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    funcs = scan_functions(text)
    sites = find_sites(funcs, args.kinds)
    by_kind = collections.defaultdict(list)
    for s in sites:
        by_kind[s.kind].append(s)
    sample, excluded = [], []
    for kind in args.kinds:
        elig = [s for s in by_kind[kind] if s.reason is None]
        excluded += [s for s in by_kind[kind] if s.reason is not None]
        rng = random.Random("%s:%s:%s" % (args.seed, os.path.basename(path), kind))
        if args.limit and len(elig) > args.limit:
            elig = sorted(rng.sample(elig, args.limit), key=lambda s: s.fn.stmts[s.stmt_lo].line)
        sample += elig
    results = []
    if sample:
        base_f = pool.submit(run_ptxlint, args.ptxlint, path, args.threads)
        groups = batches(sample, not args.no_batch)
        futs = []
        for gi, g in enumerate(groups):
            mpath = os.path.join(tmpdir, "%s.m%d.ptx" % (os.path.basename(path)[:-4], gi))
            with open(mpath, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(mutate(text, g))
            futs.append((g, mpath, pool.submit(run_ptxlint, args.ptxlint, mpath, args.threads)))
        base = collections.Counter(diag_key(d) for d in base_f.result())
        for g, mpath, fut in futs:
            diags = fut.result()
            if not args.keep:
                os.unlink(mpath)
            seen = collections.Counter()
            per_fn = collections.defaultdict(list)
            for d in diags:
                k = diag_key(d)
                seen[k] += 1
                if seen[k] <= base[k]:
                    continue
                fi = fn_of_line(funcs, k[1] or 0)
                per_fn[fi].append(d)
            for s in g:
                v = judge(s, per_fn.get(s.fn_index, []))
                lo, hi = right_lines(s)
                results.append(dict(module=path, kind=s.kind, function=s.fn.name,
                                    line=s.fn.stmts[s.stmt_lo].line, gap=[lo, hi],
                                    mutant=mpath if args.keep else None, **v))
    excl = [dict(module=path, kind=s.kind, function=s.fn.name,
                 line=s.fn.stmts[s.stmt_lo].line, reason=s.reason) for s in excluded]
    return results, excl, collections.Counter(s.kind for s in sites if s.reason is None)


def pct(a, b):
    return "%5.1f%%" % (100.0 * a / b) if b else "    -"


def report(results, excl, eligible, kinds, out):
    print("%-16s %8s %8s %8s %7s %7s %7s %7s" % (
        "kind", "sites", "excluded", "mutants", "caught", "%", "at-line", "%"), file=out)
    for k in kinds:
        rs = [r for r in results if r["kind"] == k]
        ex = sum(1 for e in excl if e["kind"] == k)
        c = sum(r["caught"] for r in rs)
        a = sum(r["at_line"] for r in rs)
        print("%-16s %8d %8d %8d %7d %7s %7d %7s" % (
            k, eligible[k] + ex, ex, len(rs), c, pct(c, len(rs)), a, pct(a, len(rs))), file=out)
    reasons = collections.Counter((e["kind"], e["reason"]) for e in excl)
    if reasons:
        print("\nexcluded (provably harmless or out of scope):", file=out)
        for (k, r), n in sorted(reasons.items()):
            print("  %-16s %6d  %s" % (k, n, r), file=out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("inputs", nargs="*", help="PTX files or folders (default: $PTXLINT_REALKERNELS)")
    ap.add_argument("--ptxlint", default=None, help="the ptxlint binary (default: build/bin/ptxlint, PATH)")
    ap.add_argument("--kinds", default=",".join(KINDS), help="comma-separated mutant kinds")
    ap.add_argument("--limit", type=int, default=10, help="mutants per kind per module (0: all)")
    ap.add_argument("--seed", default="11", help="sampling seed")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="ptxlint runs at once")
    ap.add_argument("--json", action="store_true", help="print one JSON document instead of the table")
    ap.add_argument("--per-module", action="store_true", help="also print a table per module")
    ap.add_argument("--no-batch", action="store_true", help="lint each mutant alone")
    ap.add_argument("--keep", metavar="DIR", help="keep the mutants in DIR")
    args = ap.parse_args()
    args.kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    for k in args.kinds:
        if k not in KINDS:
            ap.error("unknown kind %r (kinds: %s)" % (k, ", ".join(KINDS)))
    if args.ptxlint is None:
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "bin", "ptxlint")
        args.ptxlint = here if os.path.exists(here) else shutil.which("ptxlint")
    if not args.ptxlint or not os.path.exists(args.ptxlint):
        ap.error("ptxlint not found (--ptxlint PATH)")
    if not args.inputs and not DEFAULT_MODULES:
        print("seed-bugs: skipped: no modules given and PTXLINT_REALKERNELS is not set "
              "(build.sh's OUT_DIR/ptx)", file=sys.stderr)
        return 0
    inputs = args.inputs or [DEFAULT_MODULES]
    files = []
    for p in inputs:
        if os.path.isdir(p):
            for root, _, names in sorted(os.walk(p)):
                files += sorted(os.path.join(root, n) for n in names if n.endswith(".ptx"))
        elif os.path.isfile(p):
            files.append(p)
        else:
            print("seed-bugs: %s: no such file or folder" % p, file=sys.stderr)
            return 2
    files = [f for f in files if os.path.getsize(f) > 0]
    if not files:
        print("seed-bugs: no PTX modules in %s" % " ".join(inputs), file=sys.stderr)
        return 2
    # One ptxlint thread each when several run at once.
    args.threads = 1 if args.jobs > 1 else 0
    results, excl = [], []
    eligible = collections.Counter()
    per_module = []
    tmpdir = args.keep or tempfile.mkdtemp(prefix="seed-bugs.")
    os.makedirs(tmpdir, exist_ok=True)
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for f in files:
                r, e, el = run_module(f, args, pool, tmpdir)
                results += r
                excl += e
                eligible += el
                per_module.append((f, r, e, el))
    finally:
        if not args.keep:
            shutil.rmtree(tmpdir, ignore_errors=True)
    if args.json:
        summary = {}
        for k in args.kinds:
            rs = [r for r in results if r["kind"] == k]
            summary[k] = {"eligible": eligible[k],
                          "excluded": sum(1 for e in excl if e["kind"] == k),
                          "mutants": len(rs), "caught": sum(r["caught"] for r in rs),
                          "at_line": sum(r["at_line"] for r in rs)}
        json.dump({"modules": files, "seed": args.seed, "limit": args.limit,
                   "summary": summary, "mutants": results, "excluded": excl},
                  sys.stdout, indent=1)
        print()
        return 0
    if args.per_module:
        for f, r, e, el in per_module:
            print("== %s" % f)
            report(r, e, el, args.kinds, sys.stdout)
            print()
        print("== all %d modules" % len(files))
    report(results, excl, eligible, args.kinds, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
