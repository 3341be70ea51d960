//===- Document.h - An open editor buffer and LSP positions ----*- C++ -*-===//
//
// The text of one open document, edited in place by incremental changes, and
// the conversions between byte offsets (what the library reports) and LSP
// positions (line, character), where a character is a UTF-16 code unit
// unless the client agreed to UTF-8 (LSP 3.17 positionEncoding).
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_LSP_DOCUMENT_H
#define PTXLINT_LSP_DOCUMENT_H

#include "Incremental.h"

#include "ptxlint/Diagnostic.h"
#include "ptxlint/InlineAsm.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptxlint::lsp {

struct Position {
  unsigned Line = 0, Character = 0; ///< 0-based
};

class Document {
public:
  Document(std::string Uri, std::string Text, int64_t Version, bool Utf8,
           SourceLanguage Lang = SourceLanguage::Ptx)
      : Uri(std::move(Uri)), Text(std::move(Text)), Version(Version), Utf8(Utf8), Lang(Lang) {}

  const std::string &uri() const { return Uri; }
  const std::string &text() const { return Text; }
  int64_t version() const { return Version; }
  /// Ptx: a .ptx module; Cuda: a C++ source whose asm statements are linted.
  SourceLanguage language() const { return Lang; }

  /// Replaces [From, To) (positions in the current text) by New.
  void edit(Position From, Position To, std::string_view New);
  void replaceAll(std::string New);
  void setVersion(int64_t V) { Version = V; }

  /// Byte offset of a position, clamped to the text (a column past the end
  /// of its line means the line's end, as LSP requires).
  uint32_t offset(Position P) const;
  Position position(uint32_t Offset) const;

  /// The diagnostics of the last lint of this text (ranges are byte offsets
  /// into text()); Stale once the text changed since.
  std::vector<Diagnostic> Diagnostics;
  bool Stale = true;
  /// Re-lints only the functions edited since the last lint, when exact
  /// (.ptx modules; a C++ source is linted whole: its asm statements are few).
  IncrementalLinter Linter;

private:
  const std::vector<uint32_t> &lines() const;
  std::string Uri, Text;
  int64_t Version;
  bool Utf8;
  SourceLanguage Lang;
  mutable std::vector<uint32_t> LineStarts; ///< empty: to be recomputed
};

} // namespace ptxlint::lsp
#endif
