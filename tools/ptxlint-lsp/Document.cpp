//===- Document.cpp - Incremental text and position conversion ------------===//

#include "Document.h"

#include <algorithm>
#include <cstring>

namespace ptxlint::lsp {

const std::vector<uint32_t> &Document::lines() const {
  if (LineStarts.empty()) {
    // One memchr pass: about 1 ms for a 10 MB module.
    LineStarts.reserve(Text.size() / 32 + 1);
    LineStarts.push_back(0);
    const char *B = Text.data(), *E = B + Text.size();
    for (const char *P = B; (P = static_cast<const char *>(std::memchr(P, '\n', size_t(E - P))));)
      LineStarts.push_back(uint32_t(++P - B));
  }
  return LineStarts;
}

/// Bytes of a UTF-8 sequence starting with C (1 for stray continuation bytes).
static unsigned seqLength(unsigned char C) {
  return C < 0xC0 ? 1 : C < 0xE0 ? 2 : C < 0xF0 ? 3 : 4;
}

uint32_t Document::offset(Position P) const {
  const std::vector<uint32_t> &L = lines();
  if (P.Line >= L.size())
    return uint32_t(Text.size());
  uint32_t Begin = L[P.Line];
  uint32_t End = P.Line + 1 < L.size() ? L[P.Line + 1] - 1 : uint32_t(Text.size());
  if (End > Begin && Text[End - 1] == '\r')
    --End;
  if (Utf8)
    return std::min(End, Begin + P.Character);
  uint32_t Off = Begin;
  for (unsigned Units = 0; Off < End && Units < P.Character;) {
    unsigned N = seqLength(static_cast<unsigned char>(Text[Off]));
    Units += N == 4 ? 2 : 1; // astral characters are two UTF-16 units
    Off = std::min(End, Off + N);
  }
  return Off;
}

Position Document::position(uint32_t Offset) const {
  const std::vector<uint32_t> &L = lines();
  Offset = std::min(Offset, uint32_t(Text.size()));
  unsigned Line = unsigned(std::upper_bound(L.begin(), L.end(), Offset) - L.begin()) - 1;
  uint32_t Begin = L[Line];
  if (Utf8)
    return {Line, Offset - Begin};
  unsigned Units = 0;
  for (uint32_t Off = Begin; Off < Offset;) {
    unsigned N = seqLength(static_cast<unsigned char>(Text[Off]));
    Units += N == 4 ? 2 : 1;
    Off += N;
  }
  return {Line, Units};
}

void Document::edit(Position From, Position To, std::string_view New) {
  uint32_t A = offset(From), B = offset(To);
  if (B < A)
    std::swap(A, B);
  Text.replace(A, B - A, New);
  Linter.edited(A, B, New.size());
  LineStarts.clear();
  Stale = true;
}

void Document::replaceAll(std::string New) {
  Text = std::move(New);
  Linter.invalidate();
  LineStarts.clear();
  Stale = true;
}

} // namespace ptxlint::lsp
