//===- Hover.h - What an instruction is, from the spec tables --*- C++ -*-===//
#ifndef PTXLINT_LSP_HOVER_H
#define PTXLINT_LSP_HOVER_H

#include <string>
#include <string_view>

namespace ptxlint::lsp {

/// The module's own .target and .version, as written (empty when absent).
struct ModuleDirectives {
  std::string Target, Version;
};
ModuleDirectives findDirectives(std::string_view Text);

/// Markdown for the instruction on Line (one source line), from
/// spec-tables/: its name, the form its state spaces select with the
/// operand list, and every PTX version / target requirement that applies to
/// what is written, checked against the module's directives. Empty when the
/// line holds no instruction of the tables.
std::string instructionHover(std::string_view Line, const ModuleDirectives &M);

} // namespace ptxlint::lsp
#endif
