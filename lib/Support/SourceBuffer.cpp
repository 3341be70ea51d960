//===- SourceBuffer.cpp - Line table for diagnostics ----------------------===//

#include "ptxlint/SourceBuffer.h"

#include <algorithm>
#include <cstring>

namespace ptxlint {

void SourceBuffer::buildLineTable() const {
  if (!LineStarts.empty())
    return;
  LineStarts.push_back(text().substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0);
  const char *B = text().data(), *E = B + text().size();
  for (const char *P = B; P < E;) {
    const void *NL = std::memchr(P, '\n', size_t(E - P));
    if (!NL)
      break;
    P = static_cast<const char *>(NL) + 1;
    LineStarts.push_back(uint32_t(P - B));
  }
}

SourceBuffer::LineCol SourceBuffer::lineCol(uint32_t Offset) const {
  buildLineTable();
  Offset = std::max(std::min<uint32_t>(Offset, uint32_t(text().size())), LineStarts[0]);
  auto It = std::upper_bound(LineStarts.begin(), LineStarts.end(), Offset);
  unsigned Line = unsigned(It - LineStarts.begin());
  return {Line, Offset - LineStarts[Line - 1] + 1};
}

SourceBuffer::LineCol SourceBuffer::charLineCol(uint32_t Offset) const {
  LineCol LC = lineCol(Offset);
  std::string_view Line = lineText(LC.Line);
  size_t Bytes = LC.Column - 1, InLine = std::min(Bytes, Line.size());
  unsigned Chars = 0;
  for (size_t K = 0; K < InLine; ++K)
    Chars += (static_cast<unsigned char>(Line[K]) & 0xC0) != 0x80;
  // Past the end of the line (a range ending at the newline): count bytes.
  return {LC.Line, Chars + unsigned(Bytes - InLine) + 1};
}

uint32_t SourceBuffer::lineStart(unsigned Line) const {
  buildLineTable();
  if (Line == 0 || Line > LineStarts.size())
    return uint32_t(text().size());
  return LineStarts[Line - 1];
}

std::string_view SourceBuffer::lineText(unsigned Line) const {
  buildLineTable();
  if (Line == 0 || Line > LineStarts.size())
    return {};
  uint32_t B = LineStarts[Line - 1];
  uint32_t E = Line < LineStarts.size() ? LineStarts[Line] : uint32_t(text().size());
  std::string_view L(text().data() + B, E - B);
  while (!L.empty() && (L.back() == '\n' || L.back() == '\r'))
    L.remove_suffix(1);
  return L;
}

} // namespace ptxlint
