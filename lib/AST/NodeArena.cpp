//===- NodeArena.cpp - Blocks for the parsed instructions' lists ---------===//

#include "ptxlint/AST.h"

#include <algorithm>

namespace ptxlint {

/// Blocks of 64 KB: a batch of functions' AST is a few MB, and a block is
/// touched only as far as it is used.
static constexpr size_t BlockBytes = size_t(64) << 10;

void NodeArena::nextBlock(size_t Bytes) {
  // The next block kept from before reset(), if the request fits in it.
  if (!Blocks.empty() && Current + 1 < Blocks.size() &&
      Blocks[Current + 1].Size >= Bytes) {
    ++Current;
  } else {
    size_t Size = std::max(BlockBytes, Bytes);
    Block B{std::unique_ptr<char[]>(new char[Size]), Size};
    size_t At = Blocks.empty() ? 0 : Current + 1;
    Blocks.insert(Blocks.begin() + std::ptrdiff_t(At), std::move(B));
    Current = At;
  }
  Next = Blocks[Current].Data.get();
  End = Next + Blocks[Current].Size;
}

void NodeArena::reset() {
  Current = 0;
  Next = Blocks.empty() ? nullptr : Blocks[0].Data.get();
  End = Blocks.empty() ? nullptr : Next + Blocks[0].Size;
}

} // namespace ptxlint
