//===- Config.h - .ptxlint.yaml and rule selection --------------*- C++ -*-===//
//
// A configuration is a stack of layers applied in order to the registry's
// defaults: the .ptxlint.yaml file's top level, then each of its `overrides`
// whose `files` globs match the file, then the command line. In a layer,
// `select` replaces the set of enabled rules, `extend-select` adds to it,
// `ignore` removes from it, and `severity` sets (or turns "off") the
// severity of matching rules. A selector is "all", a rule code ("Q101"), a
// code prefix ("Q", "Q1"), a rule name ("unknown-qualifier") or a group
// ("flow").
//
//   # .ptxlint.yaml
//   select: [all]
//   ignore: [P]
//   severity: {M001: error, flow: warning}
//   target: sm_90a          # for files without .target
//   ptx-version: "8.6"      # for files without .version
//   warnings-as-errors: false
//   cuda-guards:            # C++ sources: what a guard macro admits
//     CUTE_ARCH_TMA_SM90_ENABLED: sm_90
//   overrides:
//     - files: ["snippets/*", "*_test.ptx"]
//       ignore: [M001, M002]
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_CONFIG_H
#define PTXLINT_CONFIG_H

#include "ptxlint/Diagnostic.h"
#include "ptxlint/Linter.h"
#include "ptxlint/RuleRegistry.h"
#include "ptxlint/SourceBuffer.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ptxlint {

/// True if Selector names R. Selectors are validated first (isValidSelector).
bool selectorMatches(std::string_view Selector, const RuleInfo &R);
/// True if Selector matches at least one rule (or is "all"); Error says why
/// not.
bool isValidSelector(std::string_view Selector, std::string *Error = nullptr);
/// "error", "warning", "note", "off" (and "ignore"/"none" for off).
std::optional<Severity> parseSeverityName(std::string_view S);
/// "8.6" -> {8, 6} (via Target.h's parsePtxVersion).
std::optional<std::pair<unsigned, unsigned>> parseVersionPair(std::string_view S);
/// A target ptxlint knows: "sm_90a", "sm_100f", "compute_90" (Target.h).
bool isValidTargetName(std::string_view S);
/// The candidate nearest to Word by edit distance, for a "did you mean"
/// ("selct" -> "select"); empty if none is close (about a third of the word
/// may differ). Case differences cost nothing extra: "S003" suggests "s003".
std::string_view closestSpelling(std::string_view Word,
                                 const std::vector<std::string_view> &Candidates);

struct ConfigLayer {
  std::optional<std::vector<std::string>> Select;
  std::vector<std::string> ExtendSelect;
  std::vector<std::string> Ignore;
  std::vector<std::pair<std::string, Severity>> Severities; ///< in order
  std::optional<std::string> Target;
  std::optional<std::pair<unsigned, unsigned>> PtxVersion;
  std::optional<bool> WarningsAsErrors;
  /// cuda-guards: {MACRO: sm_90a | "8.6"}, for C++ sources (InlineAsm.h).
  std::vector<std::pair<std::string, std::string>> GuardMacros;
};

struct PathOverride {
  std::vector<std::string> Files; ///< globs, relative to the config's folder
  ConfigLayer Layer;
};

struct ConfigFile {
  std::string Path;      ///< as found
  std::string Directory; ///< absolute folder the globs are relative to
  ConfigLayer Base;
  std::vector<PathOverride> Overrides;
};

/// Parses Buffer (the text of Buffer.name()) as a .ptxlint.yaml. On failure
/// returns false and appends X101 diagnostics whose ranges point into Buffer.
bool parseConfig(const SourceBuffer &Buffer, ConfigFile &Out,
                 std::vector<Diagnostic> &Diags);

/// Applies Cfg (may be null) to the file at FilePath, then the command-line
/// layer Cli, on top of Base (which carries the non-rule options).
LintOptions resolveOptions(const ConfigFile *Cfg, std::string_view FilePath,
                           const ConfigLayer &Cli, LintOptions Base);

/// True if a glob of an override matches FilePath (relative to Dir). A glob
/// without '/' matches the file name; '*' also matches '/'.
bool overrideMatches(const PathOverride &O, std::string_view Dir,
                     std::string_view FilePath);

/// Finds the .ptxlint.yaml that governs each file by walking up from its
/// folder; results are cached per folder. Not thread-safe.
class ConfigFinder {
public:
  /// A configuration file that could not be used, with its diagnostics.
  struct BadFile {
    std::unique_ptr<SourceBuffer> Buffer;
    std::vector<Diagnostic> Diags;
  };
  struct Result {
    const ConfigFile *Config = nullptr; ///< null: none found, or it is bad
    bool Failed = false;                ///< the governing file is bad
    std::string Path;                   ///< the file found (also when bad)
  };
  /// Uses Path for every input instead of searching. Returns false (with
  /// IoError set) if it cannot be read; a bad file goes to NewBadFiles.
  bool setExplicit(const std::string &Path, std::vector<BadFile> &NewBadFiles,
                   std::string &IoError);
  /// Looks up the config for FilePath ("-": the current folder). A bad file
  /// is parsed once; it is appended to NewBadFiles the first time only.
  Result find(std::string_view FilePath, std::vector<BadFile> &NewBadFiles);

  static constexpr const char *FileName = ".ptxlint.yaml";

private:
  Result load(const std::string &Path, std::vector<BadFile> &NewBadFiles,
              std::string *IoError);
  std::optional<Result> Explicit;
  std::map<std::string, Result> ByDir;  ///< folder -> result
  std::map<std::string, Result> ByPath; ///< config path -> result
  std::vector<std::unique_ptr<ConfigFile>> Owned;
};

} // namespace ptxlint
#endif
