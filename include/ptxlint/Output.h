//===- Output.h - Diagnostics as text, JSON, SARIF or GitHub annotations -*- C++ -*-===//
//
// A DiagnosticSink receives each file's diagnostics in input order and
// appends its rendering to a string that the caller flushes, so that output
// streams while many files are linted. JSON's schema is documented in
// docs/json-format.md; SARIF follows 2.1.0 (validated by a test).
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_OUTPUT_H
#define PTXLINT_OUTPUT_H

#include "ptxlint/Diagnostic.h"
#include "ptxlint/Render.h"
#include "ptxlint/SourceBuffer.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ptxlint {

enum class OutputFormat { Text, Json, Sarif, Github };
std::optional<OutputFormat> parseOutputFormat(std::string_view Name);

struct RunSummary {
  size_t Files = 0;
  unsigned Errors = 0, Warnings = 0, Notes = 0;
  /// False when the run exits 2 (an input that could not be read, a bad
  /// configuration): its report is incomplete.
  bool ExecutionSuccessful = true;
};

/// A problem of the run rather than of a file's text: an input that cannot
/// be read or was skipped, a folder with nothing to lint, a bad
/// configuration. Errors make the run exit 2.
struct ToolNotice {
  Severity Level = Severity::Error;
  std::string Message; ///< "cannot read directory 'd': Permission denied"
};

/// "ptxlint: error: MESSAGE\n", as the text output prints a notice.
std::string renderNotice(const ToolNotice &N);

class DiagnosticSink {
public:
  explicit DiagnosticSink(std::string &Out) : Out(Out) {}
  virtual ~DiagnosticSink() = default;
  virtual void begin() {}
  /// One file's diagnostics (already filtered), in report order.
  virtual void file(const SourceBuffer &Buffer,
                    const std::vector<Diagnostic> &Diags) = 0;
  /// A problem of the run (the caller also prints it to stderr); JSON and
  /// SARIF list them at the end.
  virtual void notice(const ToolNotice &N) { Notices.push_back(N); }
  virtual void end(const RunSummary &Summary) {}

protected:
  std::string &Out;
  std::vector<ToolNotice> Notices;
};

std::unique_ptr<DiagnosticSink> createSink(OutputFormat Format,
                                           std::string &Out,
                                           const TextStyle &Style = {});

/// A fingerprint of a diagnostic that survives edits elsewhere in the file:
/// a hash of the rule code, the text of the caret's line (blanks trimmed)
/// and how many earlier diagnostics in the file had the same two. Used as
/// SARIF partialFingerprints and JSON "fingerprint". Occurrence counts are
/// kept by the caller per file.
std::string diagnosticFingerprint(const SourceBuffer &Buffer,
                                  const Diagnostic &D, unsigned Occurrence);

/// GitHub workflow-command escaping (data: '%', CR, LF; properties also
/// ':' and ',').
std::string escapeGithubData(std::string_view S);
std::string escapeGithubProperty(std::string_view S);

/// A file path as a URI reference: relative paths stay relative
/// (percent-encoded), absolute ones become file:// URIs.
std::string pathToUri(std::string_view Path);

/// Column (1-based) in UTF-16 code units of byte column ByteCol (1-based) of
/// a line, as SARIF's default columnKind counts.
unsigned utf16Column(std::string_view Line, unsigned ByteCol);

/// A unified diff (3 lines of context) from Before to After, with
/// "--- a/Name" / "+++ b/Name" headers; empty if the texts are equal.
std::string unifiedDiff(std::string_view Name, std::string_view Before,
                        std::string_view After);

} // namespace ptxlint
#endif
