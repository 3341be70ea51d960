//===- Linter.h - Lint a PTX buffer in-process ------------------*- C++ -*-===//
//
// The library entry point. No global state: every call builds its own parser,
// symbol table and diagnostics, so several threads may lint at once.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_LINTER_H
#define PTXLINT_LINTER_H

#include "ptxlint/AST.h"
#include "ptxlint/Diagnostic.h"
#include "ptxlint/SourceBuffer.h"

#include <algorithm>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace ptxlint {

struct LintOptions {
  /// Used when the module has no .target (or to override it): "sm_90a".
  std::optional<std::string> Target;
  bool OverrideTarget = false;
  /// Used when the module has no .version (or to override it): {8, 6}.
  std::optional<std::pair<unsigned, unsigned>> PtxVersion;
  bool OverridePtxVersion = false;
  /// Per-rule severity overrides (code -> severity); Ignored disables. Later
  /// entries win. lib/Config computes these from .ptxlint.yaml and the
  /// command line (--select/--ignore/severity:).
  std::vector<std::pair<std::string, Severity>> SeverityOverrides;
  /// Report warnings as errors (after the overrides).
  bool WarningsAsErrors = false;
  /// Honour "// ptxlint: disable..." comments and report unused ones (X001).
  bool Suppressions = true;
  /// Tensor-map box sizes in bytes given by the user, for mbarrier accounting.
  std::optional<uint64_t> TensorBoxBytes;
  /// Stop storing diagnostics after this many (0: no limit).
  size_t MaxDiagnostics = 0;
  /// Lint each batch of functions as soon as the scan has passed it (see
  /// lint()); false: only after the whole scan. The output is the same.
  bool Streaming = true;
  /// Threads for the per-function flow analysis of one module (0: one per
  /// core). Diagnostics come out in the same order whatever the count.
  unsigned Threads = 1;
  /// Threads as a count: one per core when Threads is 0.
  unsigned threadCount() const {
    return Threads ? Threads : std::max(1u, std::thread::hardware_concurrency());
  }
  /// C++ front end (InlineAsm.h): project macros that, tested in a
  /// preprocessor guard, say the target ("CUTE_ARCH_TMA_SM90_ENABLED" ->
  /// "sm_90") or the PTX version ("MY_PTX86" -> "8.6").
  std::vector<std::pair<std::string, std::string>> GuardMacros;
};

struct LintResult {
  std::vector<Diagnostic> Diagnostics;
  unsigned Errors = 0;
  unsigned Warnings = 0;
  size_t Statements = 0;       ///< statements scanned
  size_t ParsedStatements = 0; ///< statements handed to the ANTLR parser
  /// A batch linted behind the scan may have missed a declaration further
  /// down: the module was linted again after the whole scan (Streaming).
  bool Relinted = false;
};

/// Lints one buffer. Diagnostics refer to byte offsets in Buffer.
LintResult lint(const SourceBuffer &Buffer, const LintOptions &Opts = {});

/// Scans and parses only (no checks); for tools and benchmarks.
Module parseModule(const SourceBuffer &Buffer, DiagnosticEngine &Diags,
                   size_t *ParsedStatements = nullptr);

} // namespace ptxlint
#endif
