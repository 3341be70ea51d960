//===- SourceBuffer.cpp - Lines and columns for diagnostics ---------------===//

#include "ptxlint/SourceBuffer.h"

#include <algorithm>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace ptxlint {

namespace {

/// The '\n' bytes in [P, P + N). With SSE2, 64 bytes per step: each compare
/// gives -1 per newline, subtracted into byte counters that psadbw sums
/// before they can overflow (at most 4 per byte lane per step, 63 steps).
uint32_t countNewlines(const char *P, size_t N) {
  uint32_t Count = 0;
#if defined(__SSE2__)
  const __m128i NL = _mm_set1_epi8('\n'), Zero = _mm_setzero_si128();
  auto Eq = [&](const char *Q) {
    return _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i *>(Q)), NL);
  };
  while (N >= 64) {
    __m128i Acc = Zero;
    for (unsigned Steps = 0; Steps < 63 && N >= 64; ++Steps, P += 64, N -= 64)
      Acc = _mm_sub_epi8(Acc, _mm_add_epi8(_mm_add_epi8(Eq(P), Eq(P + 16)),
                                           _mm_add_epi8(Eq(P + 32), Eq(P + 48))));
    __m128i Sums = _mm_sad_epu8(Acc, Zero);
    Count += uint32_t(_mm_cvtsi128_si32(Sums) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(Sums, Sums)));
  }
#endif
  for (const char *E = P + N; P < E; ++P)
    Count += *P == '\n';
  return Count;
}

} // namespace

void SourceBuffer::countBlocks(size_t To) const {
  std::string_view T = text();
  const size_t Blocks = T.size() / LineBlock + 1;
  if (BlockNewlines.empty()) {
    BlockNewlines.reserve(Blocks + 1);
    BlockNewlines.push_back(0);
  }
  const size_t First = BlockNewlines.size() - 1;
  To = std::min(To, Blocks);
  if (First >= To)
    return;
  // A pass from the first block not counted: blocks that the caller's pass
  // had dropped come back to be counted and leave again.
  DroppedTo = std::min(DroppedTo, uint32_t(First * LineBlock));
  uint32_t Count = BlockNewlines.back();
  for (size_t K = First; K < To; ++K) {
    size_t B = K * LineBlock;
    Count += countNewlines(T.data() + B, std::min<size_t>(LineBlock, T.size() - B));
    BlockNewlines.push_back(Count);
    dropBefore(uint32_t(std::min<size_t>(B + LineBlock, T.size())));
  }
}

void SourceBuffer::countLinesBefore(uint32_t Offset) const {
  countBlocks(Offset / LineBlock);
}

void SourceBuffer::countLines() const {
  // What countLinesBefore() left, in a pass of its own from the front: it
  // also drops what the lint's last pass left in memory.
  if (BlockNewlines.size() == text().size() / LineBlock + 2)
    return;
  startPass();
  countBlocks(SIZE_MAX);
}

uint32_t SourceBuffer::firstLineStart() const {
  return text().substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
}

uint32_t SourceBuffer::afterNewline(uint32_t N) const {
  // The block holding the Nth newline: the last whose count before it is
  // below N.
  auto It = std::lower_bound(BlockNewlines.begin(), BlockNewlines.end(), N);
  if (It == BlockNewlines.end())
    return uint32_t(text().size());
  size_t K = size_t(It - BlockNewlines.begin()) - 1;
  uint32_t Left = N - BlockNewlines[K];
  const char *B = text().data(), *E = B + text().size();
  for (const char *P = B + K * LineBlock;;) {
    P = static_cast<const char *>(std::memchr(P, '\n', size_t(E - P))) + 1;
    if (--Left == 0)
      return uint32_t(P - B);
  }
}

SourceBuffer::LineCol SourceBuffer::lineCol(uint32_t Offset) const {
  countLines();
  std::string_view T = text();
  Offset = std::max(std::min<uint32_t>(Offset, uint32_t(T.size())), firstLineStart());
  // Line N + 1 holds Offset, N the newlines before it; it starts after the
  // last of them.
  size_t K = Offset / LineBlock;
  uint32_t Before = BlockNewlines[K] + countNewlines(T.data() + K * LineBlock, Offset - K * LineBlock);
  // It starts after the last newline before Offset: in Offset's block if
  // there is one there (searched back from Offset), else found by count.
  uint32_t Start = 0;
  for (uint32_t Q = Offset; Q > K * LineBlock && !Start; --Q)
    if (T[Q - 1] == '\n')
      Start = Q;
  if (!Start)
    Start = Before == 0 ? firstLineStart() : afterNewline(Before);
  return {Before + 1, Offset - Start + 1};
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
  countLines();
  if (Line == 0 || Line - 1 > BlockNewlines.back())
    return uint32_t(text().size());
  return Line == 1 ? firstLineStart() : afterNewline(Line - 1);
}

std::string_view SourceBuffer::lineText(unsigned Line) const {
  countLines();
  if (Line == 0 || Line - 1 > BlockNewlines.back())
    return {};
  uint32_t B = lineStart(Line);
  uint32_t E = Line - 1 < BlockNewlines.back() ? afterNewline(Line) : uint32_t(text().size());
  std::string_view L(text().data() + B, E - B);
  while (!L.empty() && (L.back() == '\n' || L.back() == '\r'))
    L.remove_suffix(1);
  return L;
}

void SourceBuffer::dropBefore(uint32_t Offset) const {
#if defined(__linux__) && defined(MADV_DONTNEED)
  constexpr uint32_t Step = 1 << 20;
  if (!Mapped || Offset < DroppedTo + Step)
    return;
  static const uintptr_t Page = uintptr_t(sysconf(_SC_PAGESIZE));
  // The mapping starts on a page: drop the whole pages in [DroppedTo, Offset).
  uintptr_t Base = reinterpret_cast<uintptr_t>(text().data());
  uintptr_t B = (Base + DroppedTo + Page - 1) & ~(Page - 1);
  uintptr_t E = (Base + Offset) & ~(Page - 1);
  if (E > B)
    (void)madvise(reinterpret_cast<void *>(B), E - B, MADV_DONTNEED);
  DroppedTo = Offset;
#else
  (void)Offset;
#endif
}

} // namespace ptxlint
