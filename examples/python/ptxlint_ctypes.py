#!/usr/bin/env python3
"""Lint PTX from Python through libptxlint's C API (ptxlint/ptxlint.h), with ctypes.

    python3 ptxlint_ctypes.py [--lib path/to/libptxlint.so] [--target sm_90a] file.ptx...
    python3 ptxlint_ctypes.py --lower file.ptx      # print the lowered module

As a module:
    lib = PtxLint("build/lib/libptxlint.so")
    for d in lib.lint(text, name="k.ptx", target="sm_90a"):
        print(d)
"""
import argparse
import ctypes
import os
import sys
from dataclasses import dataclass, field
from typing import List, Optional

SEVERITIES = ["ignored", "note", "remark", "warning", "error", "fatal"]


@dataclass
class Diagnostic:
    severity: str
    code: str
    message: str
    line: int
    column: int
    begin: int
    end: int
    notes: List[str] = field(default_factory=list)
    fixes: List[tuple] = field(default_factory=list)  # (begin, end, text)

    def __str__(self):
        return f"{self.line}:{self.column}: {self.severity}: {self.message} [{self.code}]"


class PtxLintError(RuntimeError):
    pass


class PtxLint:
    """A thin, safe wrapper: every handle is destroyed, every string copied."""

    def __init__(self, path: Optional[str] = None):
        path = path or os.environ.get("PTXLINT_LIB") or "libptxlint.so"
        self.lib = lib = ctypes.CDLL(path)
        P, S, U, I = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint, ctypes.c_int
        Z, U32 = ctypes.c_size_t, ctypes.c_uint32

        def sig(name, res, *args):
            f = getattr(lib, name)
            f.restype, f.argtypes = res, list(args)

        sig("ptxlint_version", S)
        sig("ptxlint_last_error", S)
        sig("ptxlint_options_create", P)
        sig("ptxlint_options_destroy", None, P)
        sig("ptxlint_options_set_target", I, P, S, I)
        sig("ptxlint_options_set_ptx_version", I, P, U, U, I)
        sig("ptxlint_options_set_severity", I, P, S, I)
        sig("ptxlint_lint_string", P, S, S, Z, P)
        sig("ptxlint_lower_string", P, S, S, Z, P)
        sig("ptxlint_result_destroy", None, P)
        sig("ptxlint_result_count", Z, P)
        sig("ptxlint_result_errors", U, P)
        sig("ptxlint_result_render", S, P)
        sig("ptxlint_result_text", S, P)
        sig("ptxlint_diag_severity", I, P, Z)
        sig("ptxlint_diag_code", S, P, Z)
        sig("ptxlint_diag_message", S, P, Z)
        sig("ptxlint_diag_line", U, P, Z)
        sig("ptxlint_diag_column", U, P, Z)
        sig("ptxlint_diag_begin", U32, P, Z)
        sig("ptxlint_diag_end", U32, P, Z)
        sig("ptxlint_diag_note_count", Z, P, Z)
        sig("ptxlint_diag_note", S, P, Z, Z)
        sig("ptxlint_diag_fix_count", Z, P, Z)
        sig("ptxlint_diag_fix_text", S, P, Z, Z)
        sig("ptxlint_diag_fix_begin", U32, P, Z, Z)
        sig("ptxlint_diag_fix_end", U32, P, Z, Z)

    @property
    def version(self) -> str:
        return self.lib.ptxlint_version().decode()

    def _options(self, target, ptx_version, disable):
        lib = self.lib
        opts = lib.ptxlint_options_create()
        if not opts:
            raise PtxLintError(lib.ptxlint_last_error().decode())
        try:
            if target and lib.ptxlint_options_set_target(opts, target.encode(), 0):
                raise PtxLintError(lib.ptxlint_last_error().decode())
            if ptx_version:
                major, minor = ptx_version
                lib.ptxlint_options_set_ptx_version(opts, major, minor, 0)
            for rule in disable or ():
                if lib.ptxlint_options_set_severity(opts, rule.encode(), 0):
                    raise PtxLintError(lib.ptxlint_last_error().decode())
        except Exception:
            lib.ptxlint_options_destroy(opts)
            raise
        return opts

    def _run(self, fn, text, name, target, ptx_version, disable):
        lib = self.lib
        data = text.encode() if isinstance(text, str) else bytes(text)
        opts = self._options(target, ptx_version, disable)
        try:
            res = fn(name.encode(), data, len(data), opts)
        finally:
            lib.ptxlint_options_destroy(opts)
        if not res:
            raise PtxLintError(lib.ptxlint_last_error().decode())
        return res

    def _diagnostics(self, res) -> List[Diagnostic]:
        lib, out = self.lib, []
        for i in range(lib.ptxlint_result_count(res)):
            d = Diagnostic(
                SEVERITIES[lib.ptxlint_diag_severity(res, i)],
                lib.ptxlint_diag_code(res, i).decode(),
                lib.ptxlint_diag_message(res, i).decode(),
                lib.ptxlint_diag_line(res, i),
                lib.ptxlint_diag_column(res, i),
                lib.ptxlint_diag_begin(res, i),
                lib.ptxlint_diag_end(res, i))
            d.notes = [lib.ptxlint_diag_note(res, i, n).decode()
                       for n in range(lib.ptxlint_diag_note_count(res, i))]
            d.fixes = [(lib.ptxlint_diag_fix_begin(res, i, n),
                        lib.ptxlint_diag_fix_end(res, i, n),
                        lib.ptxlint_diag_fix_text(res, i, n).decode())
                       for n in range(lib.ptxlint_diag_fix_count(res, i))]
            out.append(d)
        return out

    def lint(self, text, name="<python>", target=None, ptx_version=None, disable=()):
        res = self._run(self.lib.ptxlint_lint_string, text, name, target, ptx_version, disable)
        try:
            return self._diagnostics(res)
        finally:
            self.lib.ptxlint_result_destroy(res)

    def render(self, text, name="<python>", target=None, ptx_version=None):
        res = self._run(self.lib.ptxlint_lint_string, text, name, target, ptx_version, ())
        try:
            return self.lib.ptxlint_result_render(res).decode()
        finally:
            self.lib.ptxlint_result_destroy(res)

    def lower(self, text, name="<python>", target=None, ptx_version=None):
        """Returns (lowered text, diagnostics)."""
        res = self._run(self.lib.ptxlint_lower_string, text, name, target, ptx_version, ())
        try:
            return self.lib.ptxlint_result_text(res).decode(), self._diagnostics(res)
        finally:
            self.lib.ptxlint_result_destroy(res)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--lib", help="path to libptxlint.so ($PTXLINT_LIB)")
    ap.add_argument("--target")
    ap.add_argument("--lower", action="store_true", help="print the lowered module")
    args = ap.parse_args(argv)
    lib = PtxLint(args.lib)
    errors = 0
    for path in args.files:
        with open(path, "rb") as f:
            text = f.read()
        if args.lower:
            out, diags = lib.lower(text, path, args.target)
            sys.stdout.write(out)
        else:
            diags = lib.lint(text, path, args.target)
        for d in diags:
            print(f"{path}:{d}")
        errors += sum(d.severity in ("error", "fatal") for d in diags)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
