//===- Ptxas.h - Run NVIDIA's ptxas on a module, safely -----------*- C++ -*-===//
//
// Finds ptxas ($PTXAS, $CUDA_HOME/bin, /usr/local/cuda/bin, then PATH), runs
// it on a buffer in a child process with an address-space limit
// (setrlimit(RLIMIT_AS)) and a wall-clock timeout (ptxas 13.0 was seen to
// exhaust 13 GB on one malformed tensor instruction), and parses its
// messages ("ptxas f.ptx, line N; error   : msg") into Diagnostics on that
// line of the buffer (codes A001 error, A002 warning, A004 failure).
//
// lintAndAssemble() runs ptxlint::lint and ptxas on the same buffer and
// reports, as A003 diagnostics, every line where the two verdicts differ.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_PTXAS_H
#define PTXLINT_PTXAS_H

#include "ptxlint/Diagnostic.h"
#include "ptxlint/Linter.h"
#include "ptxlint/SourceBuffer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxlint {

/// The ptxas executable: $PTXAS, $CUDA_HOME/bin/ptxas,
/// /usr/local/cuda/bin/ptxas, then the first ptxas on $PATH.
std::optional<std::string> findPtxas();

struct PtxasOptions {
  /// ptxas -arch. Empty: taken from the module's .target (sm_101* is passed
  /// as sm_110*, which ptxas 13 expects), or FallbackArch.
  std::string Arch;
  std::string FallbackArch = "sm_90a";
  /// Write the cubin here (-o). Empty: no output; with FrontEndOnly the
  /// check runs as -arch=compute_XX -o /dev/null (parse and verify only,
  /// about ten times faster, same verdicts).
  std::string OutputFile;
  bool FrontEndOnly = false;
  unsigned TimeoutSeconds = 20;
  uint64_t MemoryLimitBytes = 4000000ull * 1024; ///< as `ulimit -v 4000000`
  std::vector<std::string> ExtraArgs;
  /// The ptxas to run; empty: findPtxas().
  std::string PtxasPath;
};

struct PtxasResult {
  bool Ran = false;       ///< the process started and exited by itself
  bool Accepted = false;  ///< exit status 0
  int ExitCode = -1;
  bool TimedOut = false;
  bool Killed = false;    ///< ended by a signal (e.g. out of memory)
  std::string Command;    ///< for messages
  std::string Output;     ///< stdout and stderr
  /// One per ptxas message, on its line of the buffer; A004 when ptxas could
  /// not run or was stopped.
  std::vector<Diagnostic> Diagnostics;
  unsigned Errors = 0, Warnings = 0;
};

/// Runs ptxas on Buffer. Thread-safe; each call uses its own temporary file.
PtxasResult runPtxas(const SourceBuffer &Buffer, const PtxasOptions &Opts = {});

/// Parses ptxas output into diagnostics on the lines of Buffer.
std::vector<Diagnostic> parsePtxasOutput(const SourceBuffer &Buffer,
                                         std::string_view Output);

/// The ptxas -arch for a .target name: "sm_90a" -> "sm_90a", "sm_101a" ->
/// "sm_110a"; with FrontEndOnly "compute_90a".
std::string ptxasArchFor(std::string_view Target, bool FrontEndOnly);

struct LintAndAssembleResult {
  LintResult Lint;
  PtxasResult Ptxas;
  /// A003: lines where exactly one of the two reports an error, plus one
  /// module-level verdict when they disagree overall.
  std::vector<Diagnostic> Disagreements;
  bool Agree = true;
};
LintAndAssembleResult lintAndAssemble(const SourceBuffer &Buffer,
                                      const LintOptions &Lint,
                                      const PtxasOptions &Ptxas);
/// The same for a buffer already linted (the CLI's --ptxas): runs ptxas and
/// compares; Lint is copied into the result.
LintAndAssembleResult assembleAndCompare(const SourceBuffer &Buffer,
                                         const LintResult &Lint,
                                         const PtxasOptions &Ptxas);

} // namespace ptxlint
#endif
