//===- StatementFilter.h - Which statements get a full parse ----*- C++ -*-===//
#ifndef PTXLINT_PARSE_STATEMENTFILTER_H
#define PTXLINT_PARSE_STATEMENTFILTER_H

#include "ptxlint/AST.h"

#include <cstdint>
#include <vector>

namespace ptxlint {

class SourceBuffer;

/// True if the statement must be parsed into the AST: module directives,
/// declarations, function headers, and the instructions the checks read.
/// Everything else stays an opaque Statement (its head word and range), which
/// is what makes linting a 400,000-line module cheap.
bool needsFullParse(const Statement &S, std::string_view Text);

/// The indices of M's statements that needsFullParse() selects, in order:
/// one loop here, not a call per statement (every statement of a module
/// passes through it).
/// DropBehind: mapped text, dropped from memory behind the loop.
std::vector<uint32_t> selectForParse(const Module &M,
                                     const SourceBuffer *DropBehind = nullptr);

} // namespace ptxlint
#endif
