//===- HugePages.cpp ------------------------------------------------------===//

#include "Support/HugePages.h"

#include <cstdint>
#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ptxlint {

void adviseHugePages(const void *P, size_t Bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t Huge = uintptr_t(2) << 20;
  uintptr_t B = (reinterpret_cast<uintptr_t>(P) + Huge - 1) & ~(Huge - 1);
  uintptr_t E = (reinterpret_cast<uintptr_t>(P) + Bytes) & ~(Huge - 1);
  if (E > B)
    (void)madvise(reinterpret_cast<void *>(B), E - B, MADV_HUGEPAGE);
#else
  (void)P;
  (void)Bytes;
#endif
}

void adviseHugeHeap(size_t Bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(__GLIBC__)
  thread_local bool Done = false;
  if (Done)
    return;
  Done = true;
  // Freed, the block joins the top of the heap (a process that keeps what
  // it frees does not trim it) and stays mapped, untouched, for the
  // allocations that follow.
  void *Block = std::malloc(Bytes);
  if (!Block)
    return;
  constexpr uintptr_t Huge = uintptr_t(2) << 20;
  const uintptr_t B = (reinterpret_cast<uintptr_t>(Block) + Huge - 1) & ~(Huge - 1);
  const uintptr_t E = (reinterpret_cast<uintptr_t>(Block) + Bytes) & ~(Huge - 1);
  std::free(Block);
  if (E > B)
    (void)madvise(reinterpret_cast<void *>(B), E - B, MADV_HUGEPAGE);
#else
  (void)Bytes;
#endif
}

} // namespace ptxlint
