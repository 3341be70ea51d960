//===- LintContext.h - What a lint pass sees --------------------*- C++ -*-===//
#ifndef PTXLINT_LINTCONTEXT_H
#define PTXLINT_LINTCONTEXT_H

#include "ptxlint/AST.h"
#include "ptxlint/Diagnostic.h"
#include "ptxlint/Linter.h"
#include "ptxlint/SymbolTable.h"

namespace ptxlint {

/// The effective module settings after applying --target/--ptx-version.
struct ModuleSettings {
  unsigned PtxMajor = 0, PtxMinor = 0; ///< 0.0: unknown
  std::vector<std::string> Targets;    ///< normalised, e.g. "sm_90a"
  SourceRange VersionRange, TargetRange;
  bool VersionFromOptions = false; ///< --ptx-version/'ptx-version:', not .version
};

struct LintContext {
  const SourceBuffer &Buffer;
  const Module &M;
  const SymbolTable &Symbols;
  const LintOptions &Options;
  ModuleSettings Settings;
  DiagnosticEngine &Diags;
};

/// A lint pass runs once over a parsed module. Passes are listed in
/// lib/Lint/PassRegistry.cpp; each lives in a file of its own.
class LintPass {
public:
  virtual ~LintPass() = default;
  virtual const char *name() const = 0;
  virtual void run(LintContext &Ctx) = 0;
};

} // namespace ptxlint
#endif
