"""ptxlint.builder: typed async-copy instructions (include/ptxlint/Builder.h).

One class per instruction form with one field per qualifier group; print()
writes canonical PTX, validate() checks a form against a target with the
linter's own rules, wrap_in_module() makes a module ptxas can assemble.
Registers are given as strings ("%rd1", "!%p" for a negated predicate) and
immediates as ints; addresses as "%rd1" or Address("%rd1", 16).
"""
from . import _ptxlint as _ext

globals().update({k: v for k, v in vars(_ext.builder).items() if not k.startswith("__")})
__all__ = sorted(k for k in vars(_ext.builder) if not k.startswith("_"))
