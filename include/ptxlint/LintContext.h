//===- LintContext.h - What a lint pass sees --------------------*- C++ -*-===//
#ifndef PTXLINT_LINTCONTEXT_H
#define PTXLINT_LINTCONTEXT_H

#include "ptxlint/AST.h"
#include "ptxlint/Diagnostic.h"
#include "ptxlint/Linter.h"
#include "ptxlint/SymbolTable.h"
#include "ptxlint/Target.h"

#include <optional>

namespace ptxlint {

/// The effective module settings after applying --target/--ptx-version.
struct ModuleSettings {
  unsigned PtxMajor = 0, PtxMinor = 0; ///< 0.0: unknown
  std::vector<std::string> Targets;    ///< normalised, e.g. "sm_90a"
  SourceRange VersionRange, TargetRange;
  bool VersionFromOptions = false; ///< --ptx-version/'ptx-version:', not .version
  /// effectiveTarget(Targets), parsed once for every instruction's checks.
  std::optional<Target> Effective;
};

struct LintContext {
  const SourceBuffer &Buffer;
  const Module &M;
  const SymbolTable &Symbols;
  const LintOptions &Options;
  ModuleSettings Settings;
  DiagnosticEngine &Diags;
};

/// A run of whole functions, in module order: statements [Begin, End) and
/// functions [FirstFunction, EndFunction) (those whose header lies inside).
/// While a batch runs, Module::Instructions holds the parsed instructions of
/// its statements, in statement order, and no others (Statement::ParsedIndex
/// is -1 elsewhere).
struct StatementBatch {
  uint32_t Begin = 0, End = 0;
  uint32_t FirstFunction = 0, EndFunction = 0;
};

/// A lint pass. lint() streams a module: it scans it and parses its
/// directives, declarations and function headers as the scan passes them;
/// as soon as the scan has passed a batch of functions, it parses the
/// batch's instructions, calls runBatch on it, and drops them: memory holds
/// one batch's instructions, not the module's, and the batch's text is read
/// while in memory. runModule is called once, before the first batch. So a
/// pass sees the module up to the end of the batch, no further: it must
/// read module-level facts beyond its batch only through LintContext::Symbols
/// (which logs what a later declaration could change, and lint() lints again
/// where one did), and must not keep pointers into Module::Instructions or
/// Module::Symbols past the call. A pass that needs only module-level facts
/// overrides runModule; one that looks at instructions overrides runBatch.
/// Diagnostics come out in the order of a whole-module run: the parser's in
/// statement order, then each pass's, passes in the order of
/// lib/Lint/PassRegistry.cpp.
class LintPass {
public:
  virtual ~LintPass() = default;
  virtual const char *name() const = 0;
  virtual void runModule(LintContext &) {}
  virtual void runBatch(LintContext &, const StatementBatch &) {}
};

} // namespace ptxlint
#endif
