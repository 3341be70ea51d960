"""ptxlint: lint, fix and build NVIDIA PTX asynchronous-copy instructions.

    import ptxlint
    result = ptxlint.lint(text, target="sm_90a", ptx_version="8.6")
    for d in result:
        print(d.line, d.column, d.severity, d.code, d.message)
    fixed = ptxlint.apply_fixes(text, result.diagnostics)

    from ptxlint import builder as b
    inst = b.CpAsyncBulk(dir=b.BulkDir.GLOBAL_TO_SHARED_CTA, dst="%rd1",
                         src="%rd2", size=4096, mbar="%rd3")
    print(b.print(inst))

Everything is implemented by the compiled extension ptxlint._ptxlint (the
C++ library); see its stubs (_ptxlint.pyi) for the signatures.
"""
from ._ptxlint import (  # noqa: F401
    Diagnostic,
    Fix,
    LintResult,
    LowerResult,
    Note,
    Range,
    __version__,
    apply_fixes,
    explain,
    fix,
    lint,
    lint_file,
    lower,
    rules,

)
from . import builder  # noqa: E402

__all__ = [
    "Diagnostic", "Fix", "LintResult", "LowerResult", "Note", "Range", "__version__",
    "apply_fixes", "builder", "explain", "fix", "lint", "lint_file", "lower", "rules",
]
