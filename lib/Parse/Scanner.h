//===- Scanner.h - Split a PTX module into statements -----------*- C++ -*-===//
//
// One linear pass over the bytes of a module: comments, strings, braces,
// ';', labels, predicates, line-terminated directives (.version, .loc, DWARF
// data inside .section blocks) and function headers. It allocates nothing per
// byte and never recurses, so huge lines and deep nesting cost only time
// linear in the input.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_PARSE_SCANNER_H
#define PTXLINT_PARSE_SCANNER_H

#include "ptxlint/AST.h"
#include "ptxlint/Diagnostic.h"

#include <functional>
#include <string_view>
#include <vector>

namespace ptxlint {

struct ScanLimits {
  /// Statements longer than this are not handed to the parser.
  uint32_t MaxParsedStatementBytes = 64 * 1024;
  /// Brace/paren nesting inside one statement beyond this is an error.
  uint32_t MaxStatementNesting = 256;
  /// If set, called at each closing brace that leaves no function open
  /// (nor a header waiting for its body),
  /// with the offset before which the scan reads no more. Every statement
  /// before it is complete, and so is the statement range of every function
  /// (the lint parses the module-level statements scanned so far there,
  /// reads the suppression comments and checks the non-ASCII bytes before
  /// the offset, while their text is in memory, then drops that text).
  std::function<void(uint32_t)> Passed;
  /// The caller runs the non-ASCII check (NonAsciiCheck) itself; the scan
  /// then does not.
  bool NonAsciiByCaller = false;
};

/// ptxas 13.0 rejects a module with any byte outside ASCII, wherever it is
/// ("Unexpected non-ASCII character encountered on line N"): S005 at the
/// first such character of each line (at most MaxReported lines), decoded
/// when it is UTF-8, and at a UTF-8 byte order mark (which the scanner
/// skips). In steps, front to back, for a caller that checks the text a
/// part at a time while it is in memory (the lint: behind the scan); the
/// scan itself checks the whole text first otherwise.
class NonAsciiCheck {
public:
  NonAsciiCheck(std::string_view Text, DiagnosticEngine &Diags);
  /// Checks the text before Offset not checked yet, as one pass over the
  /// whole text would.
  void checkBefore(uint32_t Offset);
  /// The length of a UTF-8 byte order mark at the start of Text (0 if none).
  static uint32_t byteOrderMark(std::string_view Text);

private:
  static constexpr unsigned MaxReported = 20;
  std::string_view Text;
  DiagnosticEngine &Diags;
  uint32_t P;            ///< where the next step starts
  unsigned Reported = 0; ///< lines reported
  bool Started = false;  ///< the byte order mark reported, if any
};

/// Appends the statements of Text to M.Statements and fills M.Functions
/// (names are filled later by the parser). Reports S001/S002/S003, and first
/// S005 (NonAsciiCheck) unless Limits.NonAsciiByCaller.
void scanModule(std::string_view Text, Module &M, DiagnosticEngine &Diags,
                const ScanLimits &Limits = {});

} // namespace ptxlint
#endif
