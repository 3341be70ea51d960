//===- TextHash.h - A fast hash of a short text -----------------*- C++ -*-===//
//
// One hash for the tables keyed by text: the lexer's memo (every statement it
// looks up), the checker's head table, the flow build's names and labels.
// It mixes in a word of eight bytes per step (~4 instructions; std::hash
// reads words too but mixes each in ~12, and a byte per step cost ~3
// instructions a byte on names of 50-200 bytes).
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_SUPPORT_TEXTHASH_H
#define PTXLINT_SUPPORT_TEXTHASH_H

#include <cstdint>
#include <cstring>
#include <string_view>

namespace ptxlint {

/// Eight bytes at P, unaligned.
inline uint64_t loadWord(const char *P) {
  uint64_t W;
  std::memcpy(&W, P, 8);
  return W;
}

/// The 1 to 8 bytes of a short text as one word, the first byte lowest:
/// unique for texts without a NUL. Two loads that overlap rather than a
/// memcpy of a variable size (a call): a byte the two share lands at the
/// same place either way.
inline uint64_t packShort(std::string_view S) {
  const char *P = S.data();
  size_t N = S.size();
  if (N >= 4) {
    uint32_t Lo, Hi;
    std::memcpy(&Lo, P, 4);
    std::memcpy(&Hi, P + N - 4, 4);
    return uint64_t(Lo) | uint64_t(Hi) << (8 * (N - 4));
  }
  uint64_t V = uint8_t(P[0]);
  if (N >= 2) {
    uint16_t Hi;
    std::memcpy(&Hi, P + N - 2, 2);
    V |= uint64_t(Hi) << (8 * (N - 2));
  }
  return V;
}

/// One step: a word mixed into the hash.
inline uint64_t mixWord(uint64_t H, uint64_t W) { return (H ^ W) * 0xFF51AFD7ED558CCDull; }

/// The last step: the high bits, which every byte reaches, brought down to
/// the low bits a table's mask keeps.
inline uint64_t finishHash(uint64_t H) {
  H ^= H >> 32;
  H *= 0xD6E8FEB86659FD93ull;
  return H ^ (H >> 32);
}

/// The hash of a text, eight bytes per step, the last word overlapping the
/// one before; Seed tells apart keys of the same text (a label's scope).
inline uint64_t hashText(std::string_view S, uint64_t Seed = 0) {
  const char *P = S.data();
  size_t N = S.size();
  uint64_t H = (N ^ Seed) * 0x9E3779B97F4A7C15ull;
  size_t X = 0;
  for (; X + 8 <= N; X += 8)
    H = mixWord(H, loadWord(P + X));
  if (X < N) // the last bytes: the word ending at the text's end, if any
    H = mixWord(H, N >= 8 ? loadWord(P + N - 8) : packShort(S));
  return finishHash(H);
}

/// For unordered containers keyed by text.
struct TextHash {
  size_t operator()(std::string_view S) const { return size_t(hashText(S)); }
};

} // namespace ptxlint
#endif
