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

#include <string_view>
#include <vector>

namespace ptxlint {

class SourceBuffer;

struct ScanLimits {
  /// Statements longer than this are not handed to the parser.
  uint32_t MaxParsedStatementBytes = 64 * 1024;
  /// Brace/paren nesting inside one statement beyond this is an error.
  uint32_t MaxStatementNesting = 256;
  /// Mapped text: dropped from memory behind the scan (dropBefore).
  const SourceBuffer *DropBehind = nullptr;
};

/// Appends the statements of Text to M.Statements and fills M.Functions
/// (names are filled later by the parser). Reports S001/S002/S003.
void scanModule(std::string_view Text, Module &M, DiagnosticEngine &Diags,
                const ScanLimits &Limits = {});

} // namespace ptxlint
#endif
