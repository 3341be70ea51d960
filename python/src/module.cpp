//===- module.cpp - The ptxlint Python module (pybind11) --------------------===//
//
// ptxlint._ptxlint: lint, fixes, lowering and the typed builder of
// include/ptxlint/Builder.h. The package's __init__.py re-exports it; the
// type stubs are python/ptxlint/_ptxlint.pyi (keep them in step: the unittest
// checks that every public name here has a stub).
//
// Diagnostics are plain value objects with 1-based lines and columns (bytes)
// computed once, here, so that Python never needs the SourceBuffer. Bad
// arguments raise ValueError naming the argument and what was wrong with it;
// unreadable files raise OSError.
//
//===----------------------------------------------------------------------===//

#include "ptxlint/Builder.h"
#include "ptxlint/Config.h"
#include "ptxlint/Driver.h"
#include "ptxlint/InlineAsm.h"
#include "ptxlint/Linter.h"
#include "ptxlint/Lower.h"
#include "ptxlint/Render.h"
#include "ptxlint/RuleDocs.h"
#include "ptxlint/RuleRegistry.h"
#include "ptxlint/ptxlint.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cctype>
#include <fstream>
#include <sstream>

namespace py = pybind11;
using namespace ptxlint;
namespace b = ptxlint::build;

namespace {

struct PyRange {
  unsigned Line = 0, Column = 0, EndLine = 0, EndColumn = 0; // 1-based
  uint32_t Begin = 0, End = 0;                               // byte offsets
};

PyRange toRange(const SourceBuffer &B, SourceRange R) {
  SourceBuffer::LineCol S = B.lineCol(R.Begin), E = B.lineCol(R.End);
  return {S.Line, S.Column, E.Line, E.Column, R.Begin, R.End};
}

struct PyNote {
  std::string Message;
  std::optional<PyRange> Range;
};
struct PyFix {
  PyRange Range;
  std::string Replacement;
};
struct PyDiagnostic {
  std::string Code, Severity, Message;
  PyRange Range;
  std::vector<PyNote> Notes;
  std::vector<PyFix> Fixes;
};

PyDiagnostic toPy(const SourceBuffer &B, const Diagnostic &D) {
  PyDiagnostic P{D.Code, severityName(D.Level), D.Message, toRange(B, D.Range), {}, {}};
  for (const DiagNote &N : D.Notes)
    P.Notes.push_back({N.Message, N.Range ? std::optional<PyRange>(toRange(B, *N.Range))
                                          : std::nullopt});
  for (const FixIt &F : D.Fixes)
    P.Fixes.push_back({toRange(B, F.Range), F.Replacement});
  return P;
}

std::vector<PyDiagnostic> toPy(const SourceBuffer &B, const std::vector<Diagnostic> &Ds) {
  std::vector<PyDiagnostic> Out;
  Out.reserve(Ds.size());
  for (const Diagnostic &D : Ds)
    Out.push_back(toPy(B, D));
  return Out;
}

/// The severity back from its name ("error"); for apply_fixes.
Severity severityFromName(const std::string &S) {
  for (Severity V : {Severity::Ignored, Severity::Note, Severity::Remark,
                     Severity::Warning, Severity::Error, Severity::Fatal})
    if (S == severityName(V))
      return V;
  throw py::value_error("unknown severity '" + S + "'");
}

/// A PTX version given as "8.6" or (8, 6).
std::optional<std::pair<unsigned, unsigned>> ptxVersionArg(const py::object &V) {
  if (V.is_none())
    return std::nullopt;
  if (py::isinstance<py::str>(V)) {
    std::string S = V.cast<std::string>();
    if (auto P = parseVersionPair(S))
      return P;
    throw py::value_error("ptx_version: '" + S + "' is not a PTX version like \"8.6\"");
  }
  try {
    return V.cast<std::pair<unsigned, unsigned>>();
  } catch (const py::cast_error &) {
    throw py::value_error("ptx_version: expected \"M.m\" or (M, m), got " +
                          std::string(py::str(py::repr(V))));
  }
}

std::optional<std::string> targetArg(const std::optional<std::string> &T) {
  if (T && !isValidTargetName(*T))
    throw py::value_error("target: '" + *T + "' is not a target ptxlint knows "
                          "(e.g. \"sm_90a\")");
  return T;
}

void checkSelectors(const char *Arg, const std::vector<std::string> &Sel) {
  for (const std::string &S : Sel) {
    std::string Why;
    if (!isValidSelector(S, &Why))
      throw py::value_error(std::string(Arg) + ": " + (Why.empty() ? "unknown rule '" + S + "'" : Why));
  }
}

/// The library's options from the keyword arguments every entry point takes.
LintOptions lintOptions(const std::optional<std::string> &Target, const py::object &Version,
                        const std::optional<std::vector<std::string>> &Select,
                        const std::vector<std::string> &Ignore, bool Override,
                        bool WarningsAsErrors, std::optional<uint64_t> TensorBoxBytes = {}) {
  ConfigLayer Cli;
  Cli.Target = targetArg(Target);
  Cli.PtxVersion = ptxVersionArg(Version);
  if (Select)
    checkSelectors("select", *Select);
  checkSelectors("ignore", Ignore);
  Cli.Select = Select;
  Cli.Ignore = Ignore;
  if (WarningsAsErrors)
    Cli.WarningsAsErrors = true;
  LintOptions Base;
  Base.OverrideTarget = Override;
  Base.OverridePtxVersion = Override;
  Base.TensorBoxBytes = TensorBoxBytes;
  return resolveOptions(nullptr, "", Cli, Base);
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    PyErr_SetFromErrnoWithFilename(PyExc_OSError, Path.c_str());
    throw py::error_already_set();
  }
  std::ostringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

struct PyLintResult {
  std::string Name;
  std::vector<PyDiagnostic> Diagnostics;
  unsigned Errors = 0, Warnings = 0;
  std::string Rendered; ///< clang-style text, no colour
};

/// language="ptx" | "cuda" | None (by the name's extension, as the command).
SourceLanguage languageArg(const std::string &Name, const std::optional<std::string> &Language) {
  if (!Language)
    return languageOfPath(Name).value_or(SourceLanguage::Ptx);
  if (*Language == "ptx")
    return SourceLanguage::Ptx;
  if (*Language == "cuda")
    return SourceLanguage::Cuda;
  throw py::value_error("language must be 'ptx', 'cuda' or None, not '" + *Language + "'");
}

PyLintResult lintText(const std::string &Name, std::string Text, const LintOptions &O,
                      SourceLanguage Lang) {
  SourceBuffer B(Name, std::move(Text));
  LintResult R;
  {
    py::gil_scoped_release Unlocked; // other Python threads run meanwhile
    R = lintAs(Lang, B, O);
  }
  TextStyle Plain;
  return {Name, toPy(B, R.Diagnostics), R.Errors, R.Warnings,
          renderText(B, R.Diagnostics, Plain)};
}

/// Diagnostics from Python back into the library's form, for applyFixes.
std::vector<Diagnostic> fromPy(const std::vector<PyDiagnostic> &Ds) {
  std::vector<Diagnostic> Out;
  for (const PyDiagnostic &P : Ds) {
    Diagnostic D;
    D.Level = severityFromName(P.Severity);
    D.Code = P.Code;
    D.Message = P.Message;
    D.Range = {P.Range.Begin, P.Range.End};
    for (const PyFix &F : P.Fixes)
      D.Fixes.push_back({{F.Range.Begin, F.Range.End}, F.Replacement});
    Out.push_back(std::move(D));
  }
  return Out;
}

/// A Value from Python: "%r1", "!%p" or an int.
b::Value valueFrom(const std::string &S) {
  if (S.empty())
    throw py::value_error("a register name must not be empty");
  return S[0] == '!' ? b::notReg(S.substr(1)) : b::reg(S);
}

/// Keyword-argument constructor for a builder struct: every keyword names a
/// field (an unknown one raises AttributeError naming it).
template <typename T> T fromKwargs(const py::kwargs &Kw) {
  T X{};
  py::object Ref = py::cast(&X, py::return_value_policy::reference);
  for (auto Item : Kw) {
    std::string Key = py::str(Item.first);
    if (!py::hasattr(Ref, Key.c_str()))
      throw py::type_error(std::string(py::str(Ref.get_type().attr("__name__"))) +
                           "() has no field '" + Key + "'");
    py::setattr(Ref, Item.first, Item.second);
  }
  return X;
}

/// The Python name of a builder enumerator: the generated C++ name in
/// UPPER_SNAKE_CASE (GlobalToSharedCta -> GLOBAL_TO_SHARED_CTA, Im2colW128
/// -> IM2COL_W_128, BF16 -> BF16, TileGather4 -> TILE_GATHER4).
std::string pythonName(std::string_view Cxx) {
  std::string Out;
  auto lower = [&](size_t K) { return std::islower(static_cast<unsigned char>(Cxx[K])); };
  auto upper = [&](size_t K) { return std::isupper(static_cast<unsigned char>(Cxx[K])); };
  auto digit = [&](size_t K) { return std::isdigit(static_cast<unsigned char>(Cxx[K])); };
  for (size_t K = 0; K < Cxx.size(); ++K) {
    bool Split = K > 0 && ((upper(K) && (lower(K - 1) || digit(K - 1))) ||
                           (digit(K) && K > 1 && upper(K - 1) && lower(K - 2)));
    if (Split)
      Out += '_';
    Out += char(std::toupper(static_cast<unsigned char>(Cxx[K])));
  }
  return Out;
}

/// A builder enum with every enumerator BuilderEnums.inc generates.
template <typename E> void bindEnum(py::module_ &B, const char *Name) {
  py::enum_<E> P(B, Name);
  for (unsigned K = 0; K < b::enumSize(E{}); ++K)
    P.value(pythonName(b::enumeratorName(E(K))).c_str(), E(K));
}

} // namespace

// py::self == py::self needs operators.h; written out instead.
#define PTXLINT_EQ(C, T)                                                        \
  C.def("__eq__", [](const T &A, const T &B) { return A == B; })                \
      .def("__ne__", [](const T &A, const T &B) { return !(A == B); })           \
      .def("__repr__", [](const T &X) { return "<" + b::print(b::Inst(X)) + ">"; }) \
      .def("__str__", [](const T &X) { return b::print(b::Inst(X)); });

PYBIND11_MODULE(_ptxlint, M) {
  M.doc() = "ptxlint: lint, fix and build PTX asynchronous-copy instructions";
  M.attr("__version__") = ptxlint_version();

  // --- diagnostics ------------------------------------------------------------
  py::class_<PyRange>(M, "Range", "A source range: 1-based lines and byte columns, "
                                  "and byte offsets [begin, end)")
      .def_readonly("line", &PyRange::Line)
      .def_readonly("column", &PyRange::Column)
      .def_readonly("end_line", &PyRange::EndLine)
      .def_readonly("end_column", &PyRange::EndColumn)
      .def_readonly("begin", &PyRange::Begin)
      .def_readonly("end", &PyRange::End)
      .def("__repr__", [](const PyRange &R) {
        return "Range(" + std::to_string(R.Line) + ":" + std::to_string(R.Column) + "-" +
               std::to_string(R.EndLine) + ":" + std::to_string(R.EndColumn) + ")";
      });
  py::class_<PyNote>(M, "Note")
      .def_readonly("message", &PyNote::Message)
      .def_readonly("range", &PyNote::Range)
      .def("__repr__", [](const PyNote &N) { return "Note(" + N.Message + ")"; });
  py::class_<PyFix>(M, "Fix", "Replace range by replacement (an empty range inserts)")
      .def_readonly("range", &PyFix::Range)
      .def_readonly("replacement", &PyFix::Replacement)
      .def("__repr__", [](const PyFix &F) { return "Fix(" + F.Replacement + ")"; });
  py::class_<PyDiagnostic>(M, "Diagnostic")
      .def_readonly("code", &PyDiagnostic::Code)
      .def_readonly("severity", &PyDiagnostic::Severity)
      .def_readonly("message", &PyDiagnostic::Message)
      .def_readonly("range", &PyDiagnostic::Range)
      .def_property_readonly("line", [](const PyDiagnostic &D) { return D.Range.Line; })
      .def_property_readonly("column", [](const PyDiagnostic &D) { return D.Range.Column; })
      .def_readonly("notes", &PyDiagnostic::Notes)
      .def_readonly("fixes", &PyDiagnostic::Fixes)
      .def("__repr__", [](const PyDiagnostic &D) {
        return "<" + std::to_string(D.Range.Line) + ":" + std::to_string(D.Range.Column) +
               ": " + D.Severity + ": " + D.Message + " [" + D.Code + "]>";
      });
  py::class_<PyLintResult>(M, "LintResult", "Diagnostics of one module (a sequence)")
      .def_readonly("name", &PyLintResult::Name)
      .def_readonly("diagnostics", &PyLintResult::Diagnostics)
      .def_readonly("errors", &PyLintResult::Errors)
      .def_readonly("warnings", &PyLintResult::Warnings)
      .def_property_readonly("ok", [](const PyLintResult &R) { return R.Errors == 0; })
      .def("render", [](const PyLintResult &R) { return R.Rendered; },
           "The diagnostics as ptxlint prints them (clang style, no colour)")
      .def("__len__", [](const PyLintResult &R) { return R.Diagnostics.size(); })
      .def("__getitem__", [](const PyLintResult &R, py::ssize_t I) {
        py::ssize_t N = py::ssize_t(R.Diagnostics.size());
        if (I < 0)
          I += N;
        if (I < 0 || I >= N)
          throw py::index_error("diagnostic index out of range");
        return R.Diagnostics[size_t(I)];
      })
      .def("__iter__", [](const PyLintResult &R) {
        return py::make_iterator(R.Diagnostics.begin(), R.Diagnostics.end());
      }, py::keep_alive<0, 1>());

  auto Lint = [](const std::string &Text, const std::string &Name,
                 const std::optional<std::string> &Target, const py::object &Version,
                 const std::optional<std::vector<std::string>> &Select,
                 const std::vector<std::string> &Ignore, bool Override, bool Werror,
                 std::optional<uint64_t> Box, const std::optional<std::string> &Language) {
    return lintText(Name, Text,
                    lintOptions(Target, Version, Select, Ignore, Override, Werror, Box),
                    languageArg(Name, Language));
  };
  M.def("lint", Lint, py::arg("text"), py::kw_only(), py::arg("name") = "<string>",
        py::arg("target") = py::none(), py::arg("ptx_version") = py::none(),
        py::arg("select") = py::none(), py::arg("ignore") = std::vector<std::string>(),
        py::arg("override") = false, py::arg("warnings_as_errors") = false,
        py::arg("tensor_box_bytes") = py::none(), py::arg("language") = py::none(),
        "Lint PTX text. target/ptx_version apply to modules without .target/"
        ".version (override=True: to every module); select/ignore take rule "
        "codes, prefixes, names or groups as on the command line; "
        "tensor_box_bytes is the bytes one tensor copy moves (the tensor map's "
        "box), for the mbarrier byte accounting (F404), as --tensor-box-bytes. "
        "language='cuda' lints the asm statements of CUDA C++ text instead; "
        "None chooses by the name's extension ('.cu', '.cuh', '.h', ...), as "
        "the command does.");
  M.def("lint_file",
        [Lint](const std::string &Path, const std::optional<std::string> &Target,
               const py::object &Version, const std::optional<std::vector<std::string>> &Select,
               const std::vector<std::string> &Ignore, bool Override, bool Werror,
               std::optional<uint64_t> Box, const std::optional<std::string> &Language) {
          return Lint(readFile(Path), Path, Target, Version, Select, Ignore, Override, Werror, Box,
                      Language);
        },
        py::arg("path"), py::kw_only(), py::arg("target") = py::none(),
        py::arg("ptx_version") = py::none(), py::arg("select") = py::none(),
        py::arg("ignore") = std::vector<std::string>(), py::arg("override") = false,
        py::arg("warnings_as_errors") = false, py::arg("tensor_box_bytes") = py::none(),
        py::arg("language") = py::none(), "lint() on a file's text");
  M.def("apply_fixes",
        [](const std::string &Text, const std::vector<PyDiagnostic> &Diags) {
          SourceBuffer B("<string>", Text);
          std::vector<AppliedFix> Applied;
          return applyFixes(B, fromPy(Diags), Applied);
        },
        py::arg("text"), py::arg("diagnostics"),
        "Apply the certain fix-its of diagnostics (from lint() of this text) "
        "that do not overlap; one round, as one --fix pass");
  M.def("fix",
        [](const std::string &Text, const std::string &Name,
           const std::optional<std::string> &Target, const py::object &Version,
           const std::optional<std::string> &Language) {
          LintOptions O = lintOptions(Target, Version, std::nullopt, {}, false, false);
          SourceLanguage Lang = languageArg(Name, Language);
          LintResult Final;
          std::vector<AppliedFix> Applied;
          py::gil_scoped_release Unlocked;
          return fixToFixpoint(Name, Text, O, Final, Applied, 8, Lang);
        },
        py::arg("text"), py::kw_only(), py::arg("name") = "<string>",
        py::arg("target") = py::none(), py::arg("ptx_version") = py::none(),
        py::arg("language") = py::none(),
        "Lint and apply fixes until nothing changes (ptxlint --fix); the new text");

  struct PyLowerResult {
    std::string Text;
    std::vector<PyDiagnostic> Diagnostics;
    unsigned Rewritten, Refused;
    bool Ok;
  };
  py::class_<PyLowerResult>(M, "LowerResult")
      .def_readonly("text", &PyLowerResult::Text)
      .def_readonly("diagnostics", &PyLowerResult::Diagnostics)
      .def_readonly("rewritten", &PyLowerResult::Rewritten)
      .def_readonly("refused", &PyLowerResult::Refused)
      .def_readonly("ok", &PyLowerResult::Ok);
  M.def("lower",
        [](const std::string &Text, const std::string &Name,
           const std::optional<std::string> &Target, const py::object &Version) {
          LowerOptions O;
          O.Target = targetArg(Target);
          O.PtxVersion = ptxVersionArg(Version);
          SourceBuffer B(Name, Text);
          LowerResult R = lowerModule(B, O);
          return PyLowerResult{std::move(R.Text), toPy(B, R.Diagnostics), R.Rewritten,
                               R.Refused, R.Ok};
        },
        py::arg("text"), py::kw_only(), py::arg("name") = "<string>",
        py::arg("target") = py::none(), py::arg("ptx_version") = py::none(),
        "Rewrite the module's async copies for its target (ptxlint/Lower.h)");
  M.def("explain",
        [](const std::string &Code) {
          const RuleInfo *R = findRule(Code);
          if (!R)
            throw py::value_error("unknown rule '" + Code + "'");
          return renderRuleExplanation(*R);
        },
        py::arg("code"), "The --explain text of a rule (code or name)");
  M.def("rules", [] {
    std::vector<std::string> Codes;
    for (const RuleDoc &D : allRuleDocs())
      Codes.emplace_back(D.Code);
    return Codes;
  }, "Every rule code");

  // --- the builder ------------------------------------------------------------
  py::module_ B = M.def_submodule("builder", "Typed async-copy instructions (Builder.h)");
  bindEnum<b::CacheOp>(B, "CacheOp");
  bindEnum<b::PrefetchSize>(B, "PrefetchSize");
  bindEnum<b::LoadMode>(B, "LoadMode");
  bindEnum<b::CtaGroup>(B, "CtaGroup");
  bindEnum<b::RedOp>(B, "RedOp");
  bindEnum<b::RedType>(B, "RedType");
  bindEnum<b::BulkDir>(B, "BulkDir");
  bindEnum<b::ReduceDir>(B, "ReduceDir");
  bindEnum<b::TensorDir>(B, "TensorDir");

  py::class_<b::Value>(B, "Value", "A register (\"%r1\", \"!%p\" negated) or an immediate")
      .def(py::init(&valueFrom), py::arg("name"))
      .def(py::init([](int64_t V) { return b::imm(V); }), py::arg("imm"))
      .def_readwrite("name", &b::Value::Name)
      .def_readwrite("imm", &b::Value::Imm)
      .def_readwrite("is_imm", &b::Value::IsImm)
      .def_readwrite("negated", &b::Value::Negated)
      .def("__eq__", [](const b::Value &X, const b::Value &Y) { return X == Y; })
      .def("__repr__", [](const b::Value &V) {
        return V.IsImm ? "Value(" + std::to_string(V.Imm) + ")"
                       : "Value('" + std::string(V.Negated ? "!" : "") + V.Name + "')";
      });
  py::implicitly_convertible<py::str, b::Value>();
  py::implicitly_convertible<py::int_, b::Value>();
  py::class_<b::Address>(B, "Address", "[base] or [base+offset]")
      .def(py::init([](b::Value Base, int64_t Off) { return b::Address{std::move(Base), Off}; }),
           py::arg("base"), py::arg("offset") = 0)
      .def_readwrite("base", &b::Address::Base)
      .def_readwrite("offset", &b::Address::Offset)
      .def("__eq__", [](const b::Address &X, const b::Address &Y) { return X == Y; });
  py::implicitly_convertible<py::str, b::Address>();
  py::class_<b::TensorRef>(B, "TensorRef", "[tensor_map, {coords...}]")
      .def(py::init([](b::Value Map, std::vector<b::Value> C) {
             return b::TensorRef{std::move(Map), std::move(C)};
           }),
           py::arg("map"), py::arg("coords"))
      .def_readwrite("map", &b::TensorRef::Map)
      .def_readwrite("coords", &b::TensorRef::Coords);

  {
    py::class_<b::CpAsync> C(B, "CpAsync");
    C.def(py::init(&fromKwargs<b::CpAsync>));
    PTXLINT_EQ(C, b::CpAsync)
    C.def_readwrite("cache", &b::CpAsync::Cache).def_readwrite("dst_shared_cta", &b::CpAsync::DstSharedCta)
        .def_readwrite("prefetch", &b::CpAsync::Prefetch).def_readwrite("dst", &b::CpAsync::Dst)
        .def_readwrite("src", &b::CpAsync::Src).def_readwrite("cp_size", &b::CpAsync::CpSize)
        .def_readwrite("src_size", &b::CpAsync::SrcSize).def_readwrite("ignore_src", &b::CpAsync::IgnoreSrc)
        .def_readwrite("cache_policy", &b::CpAsync::CachePolicy);
  }
  {
    py::class_<b::CpAsyncCommitGroup> C(B, "CpAsyncCommitGroup");
    C.def(py::init(&fromKwargs<b::CpAsyncCommitGroup>));
    PTXLINT_EQ(C, b::CpAsyncCommitGroup)
  }
  {
    py::class_<b::CpAsyncWaitGroup> C(B, "CpAsyncWaitGroup");
    C.def(py::init(&fromKwargs<b::CpAsyncWaitGroup>));
    PTXLINT_EQ(C, b::CpAsyncWaitGroup)
    C.def_readwrite("n", &b::CpAsyncWaitGroup::N);
  }
  {
    py::class_<b::CpAsyncWaitAll> C(B, "CpAsyncWaitAll");
    C.def(py::init(&fromKwargs<b::CpAsyncWaitAll>));
    PTXLINT_EQ(C, b::CpAsyncWaitAll)
  }
  {
    py::class_<b::CpAsyncBulk> C(B, "CpAsyncBulk");
    C.def(py::init(&fromKwargs<b::CpAsyncBulk>));
    PTXLINT_EQ(C, b::CpAsyncBulk)
    C.def_readwrite("dir", &b::CpAsyncBulk::Dir).def_readwrite("dst", &b::CpAsyncBulk::Dst)
        .def_readwrite("src", &b::CpAsyncBulk::Src).def_readwrite("size", &b::CpAsyncBulk::Size)
        .def_readwrite("mbar", &b::CpAsyncBulk::Mbar).def_readwrite("cta_mask", &b::CpAsyncBulk::CtaMask)
        .def_readwrite("cache_policy", &b::CpAsyncBulk::CachePolicy)
        .def_readwrite("byte_mask", &b::CpAsyncBulk::ByteMask);
  }
  {
    py::class_<b::CpReduceAsyncBulk> C(B, "CpReduceAsyncBulk");
    C.def(py::init(&fromKwargs<b::CpReduceAsyncBulk>));
    PTXLINT_EQ(C, b::CpReduceAsyncBulk)
    C.def_readwrite("dir", &b::CpReduceAsyncBulk::Dir).def_readwrite("op", &b::CpReduceAsyncBulk::Op)
        .def_readwrite("type", &b::CpReduceAsyncBulk::Type).def_readwrite("dst", &b::CpReduceAsyncBulk::Dst)
        .def_readwrite("src", &b::CpReduceAsyncBulk::Src).def_readwrite("size", &b::CpReduceAsyncBulk::Size)
        .def_readwrite("mbar", &b::CpReduceAsyncBulk::Mbar)
        .def_readwrite("cache_policy", &b::CpReduceAsyncBulk::CachePolicy);
  }
  {
    py::class_<b::CpAsyncBulkPrefetch> C(B, "CpAsyncBulkPrefetch");
    C.def(py::init(&fromKwargs<b::CpAsyncBulkPrefetch>));
    PTXLINT_EQ(C, b::CpAsyncBulkPrefetch)
    C.def_readwrite("src", &b::CpAsyncBulkPrefetch::Src).def_readwrite("size", &b::CpAsyncBulkPrefetch::Size)
        .def_readwrite("cache_policy", &b::CpAsyncBulkPrefetch::CachePolicy);
  }
  {
    py::class_<b::CpAsyncBulkTensor> C(B, "CpAsyncBulkTensor");
    C.def(py::init(&fromKwargs<b::CpAsyncBulkTensor>));
    PTXLINT_EQ(C, b::CpAsyncBulkTensor)
    C.def_readwrite("dir", &b::CpAsyncBulkTensor::Dir).def_readwrite("dim", &b::CpAsyncBulkTensor::Dim)
        .def_readwrite("mode", &b::CpAsyncBulkTensor::Mode).def_readwrite("shared", &b::CpAsyncBulkTensor::Shared)
        .def_readwrite("tensor", &b::CpAsyncBulkTensor::Tensor).def_readwrite("mbar", &b::CpAsyncBulkTensor::Mbar)
        .def_readwrite("im2col_info", &b::CpAsyncBulkTensor::Im2colInfo)
        .def_readwrite("cta_mask", &b::CpAsyncBulkTensor::CtaMask)
        .def_readwrite("group", &b::CpAsyncBulkTensor::Group)
        .def_readwrite("cache_policy", &b::CpAsyncBulkTensor::CachePolicy);
  }
  {
    py::class_<b::CpReduceAsyncBulkTensor> C(B, "CpReduceAsyncBulkTensor");
    C.def(py::init(&fromKwargs<b::CpReduceAsyncBulkTensor>));
    PTXLINT_EQ(C, b::CpReduceAsyncBulkTensor)
    C.def_readwrite("dim", &b::CpReduceAsyncBulkTensor::Dim).def_readwrite("mode", &b::CpReduceAsyncBulkTensor::Mode)
        .def_readwrite("op", &b::CpReduceAsyncBulkTensor::Op).def_readwrite("tensor", &b::CpReduceAsyncBulkTensor::Tensor)
        .def_readwrite("src", &b::CpReduceAsyncBulkTensor::Src)
        .def_readwrite("cache_policy", &b::CpReduceAsyncBulkTensor::CachePolicy);
  }
  {
    py::class_<b::CpAsyncBulkPrefetchTensor> C(B, "CpAsyncBulkPrefetchTensor");
    C.def(py::init(&fromKwargs<b::CpAsyncBulkPrefetchTensor>));
    PTXLINT_EQ(C, b::CpAsyncBulkPrefetchTensor)
    C.def_readwrite("dim", &b::CpAsyncBulkPrefetchTensor::Dim).def_readwrite("mode", &b::CpAsyncBulkPrefetchTensor::Mode)
        .def_readwrite("tensor", &b::CpAsyncBulkPrefetchTensor::Tensor)
        .def_readwrite("im2col_info", &b::CpAsyncBulkPrefetchTensor::Im2colInfo)
        .def_readwrite("cache_policy", &b::CpAsyncBulkPrefetchTensor::CachePolicy);
  }
  {
    py::class_<b::CpAsyncBulkCommitGroup> C(B, "CpAsyncBulkCommitGroup");
    C.def(py::init(&fromKwargs<b::CpAsyncBulkCommitGroup>));
    PTXLINT_EQ(C, b::CpAsyncBulkCommitGroup)
  }
  {
    py::class_<b::CpAsyncBulkWaitGroup> C(B, "CpAsyncBulkWaitGroup");
    C.def(py::init(&fromKwargs<b::CpAsyncBulkWaitGroup>));
    PTXLINT_EQ(C, b::CpAsyncBulkWaitGroup)
    C.def_readwrite("read", &b::CpAsyncBulkWaitGroup::Read).def_readwrite("n", &b::CpAsyncBulkWaitGroup::N);
  }

  py::class_<b::Inst>(B, "Inst", "An instruction with an optional guard predicate")
      .def(py::init([](b::AsyncCopy Op, std::optional<b::Value> Guard) {
             b::Inst I;
             I.Op = std::move(Op);
             I.Guard = std::move(Guard);
             return I;
           }),
           py::arg("op"), py::arg("guard") = py::none())
      .def_readwrite("op", &b::Inst::Op)
      .def_readwrite("guard", &b::Inst::Guard)
      .def("__eq__", [](const b::Inst &X, const b::Inst &Y) { return X == Y; })
      .def("__str__", [](const b::Inst &I) { return b::print(I); })
      .def("__repr__", [](const b::Inst &I) { return "<Inst " + b::print(I) + ">"; });
  py::implicitly_convertible<b::CpAsync, b::Inst>();
  py::implicitly_convertible<b::CpAsyncCommitGroup, b::Inst>();
  py::implicitly_convertible<b::CpAsyncWaitGroup, b::Inst>();
  py::implicitly_convertible<b::CpAsyncWaitAll, b::Inst>();
  py::implicitly_convertible<b::CpAsyncBulk, b::Inst>();
  py::implicitly_convertible<b::CpReduceAsyncBulk, b::Inst>();
  py::implicitly_convertible<b::CpAsyncBulkPrefetch, b::Inst>();
  py::implicitly_convertible<b::CpAsyncBulkTensor, b::Inst>();
  py::implicitly_convertible<b::CpReduceAsyncBulkTensor, b::Inst>();
  py::implicitly_convertible<b::CpAsyncBulkPrefetchTensor, b::Inst>();
  py::implicitly_convertible<b::CpAsyncBulkCommitGroup, b::Inst>();
  py::implicitly_convertible<b::CpAsyncBulkWaitGroup, b::Inst>();

  auto Target = [](const std::string &T, const py::object &V) {
    targetArg(T);
    b::TargetVersion TV;
    TV.Target = T;
    if (auto P = ptxVersionArg(V)) {
      TV.PtxMajor = P->first;
      TV.PtxMinor = P->second;
    } else {
      auto Min = b::minPtxForTarget(T);
      if (Min.first) {
        TV.PtxMajor = Min.first;
        TV.PtxMinor = Min.second;
      }
    }
    return TV;
  };
  B.def("print", [](const b::Inst &I) { return b::print(I); }, py::arg("inst"),
        "Canonical PTX of the instruction, ending with ';'");
  B.def("instruction_name", [](const b::Inst &I) { return b::instructionName(I); },
        py::arg("inst"));
  B.def("structural_errors", &b::structuralErrors, py::arg("inst"));
  B.def("parse", [](const std::string &Text) {
    std::string Err;
    std::optional<b::Inst> I = b::parseInst(Text, &Err);
    if (!I)
      throw py::value_error("cannot read '" + Text + "': " + Err);
    return *I;
  }, py::arg("text"), "The typed form of one instruction's text");
  B.def("validate",
        [Target](const b::Inst &I, const std::string &T, const py::object &V) {
          b::Validation Val = b::validate(I, Target(T, V));
          SourceBuffer Buf("<inst>", Val.Text);
          return py::make_tuple(Val.Ok, toPy(Buf, Val.Diagnostics));
        },
        py::arg("inst"), py::arg("target") = "sm_90a", py::arg("ptx_version") = py::none(),
        "(ok, diagnostics) of the instruction on the target; ranges into print(inst). "
        "ptx_version defaults to the lowest the target allows");
  B.def("wrap_in_module",
        [Target](const std::vector<b::Inst> &Insts, const std::string &T, const py::object &V,
                 const std::string &Kernel) { return b::wrapInModule(Insts, Target(T, V), Kernel); },
        py::arg("insts"), py::arg("target") = "sm_90a", py::arg("ptx_version") = py::none(),
        py::arg("kernel_name") = "ptxlint_builder",
        "A complete module: directives, one .entry, every register declared");
  B.def("register_uses", &b::registerUses, py::arg("inst"),
        "(register, PTX type) for each register the instruction uses");
  B.def("known_targets", &b::knownTargets, "Every target the builder knows, oldest first");
  B.def("all_forms", &b::allForms, "Every form of the family, with fixed register names");
}
