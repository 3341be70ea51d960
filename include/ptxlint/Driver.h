//===- Driver.h - The ptxlint command as a library --------------*- C++ -*-===//
//
// runDriver() is everything the ptxlint command does after parsing its
// arguments: expand directories, find each file's .ptxlint.yaml, lint files
// in parallel, apply fixes, and print results in input order.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_DRIVER_H
#define PTXLINT_DRIVER_H

#include "ptxlint/Config.h"
#include "ptxlint/InlineAsm.h"
#include "ptxlint/Linter.h"
#include "ptxlint/Output.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ptxlint {

struct DriverOptions {
  std::vector<std::string> Inputs;   ///< files, folders, "-"
  LintOptions Base;                  ///< non-rule options (limits, override)
  ConfigLayer Cli;                   ///< --select/--ignore/--target/...
  std::string ConfigPath;            ///< --config (empty: discover)
  bool NoConfig = false;             ///< --no-config
  bool FollowLinks = false;          ///< --follow-links: walk linked folders
  std::string StdinName;             ///< --stdin-filename: "-" is this file
  OutputFormat Format = OutputFormat::Text;
  TextStyle Style;
  bool Fix = false;                  ///< --fix: rewrite files
  bool Diff = false;                 ///< --diff: print the fixes as a diff
  bool Verify = false;               ///< -verify
  bool Stats = false;                ///< --print-stats
  unsigned Jobs = 0;                 ///< 0: all cores
  bool Ptxas = false;                ///< --ptxas: also assemble, compare
  std::string PtxasOutput;           ///< --ptxas -o: the cubin
  /// --lang: how every input is read, and which files a folder yields;
  /// none: by extension (InlineAsm.h), a folder yields both kinds.
  std::optional<SourceLanguage> Lang;
  /// --cuda-extensions: the extensions read as C++ (empty: the default).
  std::vector<std::string> CudaExtensions;
  /// --snippet: PTX files are statements without a module (lintPtxSnippet);
  /// without it, a short .ptx file without .version/.entry/.func is one.
  bool Snippet = false;
};

/// Exit status: 0 no error, 1 error diagnostics (or, with --diff, changes),
/// 2 usage, I/O or configuration error.
/// Write receives output as it is produced (ToStderr: progress and errors).
using DriverWriter = std::function<void(std::string_view Text, bool ToStderr)>;
int runDriver(const DriverOptions &Opts, const DriverWriter &Write);

/// One applied fix-it, for the report.
struct AppliedFix {
  std::string Code;
  std::string Message;
  unsigned Line = 0, Column = 0; ///< in the text the fix was applied to
};

/// Applies the fix-its of Diags (rules whose registry entry has a fix) that do
/// not overlap an earlier one; returns the new text.
std::string applyFixes(const SourceBuffer &Buffer,
                       const std::vector<Diagnostic> &Diags,
                       std::vector<AppliedFix> &Applied);

/// Lints, applies fixes and lints again until nothing changes (at most
/// MaxRounds). Returns the final text; Final holds its diagnostics.
std::string fixToFixpoint(const std::string &Name, std::string Text,
                          const LintOptions &Opts, LintResult &Final,
                          std::vector<AppliedFix> &Applied,
                          unsigned MaxRounds = 8,
                          SourceLanguage Lang = SourceLanguage::Ptx);

/// What identifies the version of a file that was read, to notice a change
/// before replacing it (--fix).
struct FileStamp {
  uint64_t Device = 0, Inode = 0, Size = 0;
  int64_t MtimeNs = 0;
  bool Regular = false;
  bool operator==(const FileStamp &O) const {
    return Device == O.Device && Inode == O.Inode && Size == O.Size &&
           MtimeNs == O.MtimeNs;
  }
  bool operator!=(const FileStamp &O) const { return !(*this == O); }
};

/// Replaces Path's contents atomically: a temporary file in the same folder
/// with the old file's owner, group and mode, fsync'ed, then renamed over
/// it. Refuses (returns why, ending "; not fixed") a file that is read-only,
/// has other hard links, or is no longer the version Expected (edited while
/// the fixes were computed). Returns "" on success.
std::string writeFileAtomically(const std::string &Path, std::string_view Text,
                                const FileStamp *Expected = nullptr);

} // namespace ptxlint
#endif
