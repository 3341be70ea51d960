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
  /// while their text is in memory, then drops that text).
  std::function<void(uint32_t)> Passed;
};

/// Appends the statements of Text to M.Statements and fills M.Functions
/// (names are filled later by the parser). Reports S001/S002/S003.
void scanModule(std::string_view Text, Module &M, DiagnosticEngine &Diags,
                const ScanLimits &Limits = {});

} // namespace ptxlint
#endif
