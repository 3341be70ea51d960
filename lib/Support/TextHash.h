//===- TextHash.h - A fast hash of a short text -----------------*- C++ -*-===//
//
// The lexer hashes every statement it looks up in its memo, and the checker
// every async instruction's head (40-160 bytes). std::hash reads them as
// eight-byte words too but mixes each in ~12 instructions; this costs ~4.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_SUPPORT_TEXTHASH_H
#define PTXLINT_SUPPORT_TEXTHASH_H

#include <cstdint>
#include <cstring>
#include <string_view>

namespace ptxlint {

inline uint64_t hashText(std::string_view S) {
  const char *P = S.data();
  size_t N = S.size();
  auto Mix = [](uint64_t H, uint64_t W) { return (H ^ W) * 0xFF51AFD7ED558CCDull; };
  uint64_t H = N * 0x9E3779B97F4A7C15ull;
  size_t X = 0;
  for (; X + 8 <= N; X += 8) {
    uint64_t W;
    std::memcpy(&W, P + X, 8);
    H = Mix(H, W);
  }
  if (X < N) { // the last bytes: the word ending at the text's end, if any
    uint64_t W = 0;
    if (N >= 8)
      std::memcpy(&W, P + N - 8, 8);
    else
      for (size_t K = 0; K < N; ++K)
        W |= uint64_t(uint8_t(P[K])) << (8 * K);
    H = Mix(H, W);
  }
  // The high bits, which every byte reaches, brought down to the low bits
  // a table's mask keeps.
  H ^= H >> 32;
  H *= 0xD6E8FEB86659FD93ull;
  return H ^ (H >> 32);
}

/// For unordered containers keyed by text.
struct TextHash {
  size_t operator()(std::string_view S) const { return size_t(hashText(S)); }
};

} // namespace ptxlint
#endif
