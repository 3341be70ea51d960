//===- Hover.h - What an instruction is, from the spec tables --*- C++ -*-===//
#ifndef PTXLINT_LSP_HOVER_H
#define PTXLINT_LSP_HOVER_H

#include <string>
#include <string_view>

namespace ptxlint::lsp {

/// The module's own .target and .version, as written (empty when absent).
/// For an asm statement of a C++ source, the target and version of the
/// settings, and Origin says so.
struct ModuleDirectives {
  std::string Target, Version;
  std::string Origin = "Module";
};
ModuleDirectives findDirectives(std::string_view Text);

/// Markdown for the instruction on Line (one source line), from
/// spec-tables/: its name, the form its state spaces select with the
/// operand list, and every PTX version / target requirement that applies to
/// what is written, checked against the module's directives. Empty when the
/// line holds no instruction of the tables.
std::string instructionHover(std::string_view Line, const ModuleDirectives &M);

/// In a C++ source line, the text of the string literal around Column (the
/// part of an asm template the cursor is on), without its quotes; empty when
/// Column is not inside one.
std::string_view stringLiteralAt(std::string_view Line, size_t Column);

} // namespace ptxlint::lsp
#endif
