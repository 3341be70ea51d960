//===- HugePages.cpp ------------------------------------------------------===//

#include "Support/HugePages.h"

#include <cstdint>
#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ptxlint {

#if defined(__GLIBC__)
namespace {
/// adviseHugeHeap's, never freed. Volatile: a block never read nor freed
/// may be left out by the compiler, and GCC did, so that the allocations
/// filled the 4 KB pages below the first huge page first.
thread_local void *volatile HeapFiller = nullptr;
} // namespace
#endif

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
  // allocations that follow. It is two huge pages larger than asked, so
  // that the span advised, from its first 2 MB boundary, is Bytes rounded up
  // to whole huge pages wherever address randomisation put the heap's top
  // (the whole huge pages inside Bytes alone were one fewer in some runs,
  // and none in about a fifth of FA3 paged/split's, whose 5.6 MB then got
  // 4 KB pages: +750 page faults).
  constexpr uintptr_t Huge = uintptr_t(2) << 20;
  void *Block = std::malloc(Bytes + 2 * Huge);
  if (!Block)
    return;
  const uintptr_t A = reinterpret_cast<uintptr_t>(Block);
  const uintptr_t B = (A + Huge - 1) & ~(Huge - 1);
  const uintptr_t E = B + ((Bytes + Huge - 1) & ~(Huge - 1));
  std::free(Block);
  (void)madvise(reinterpret_cast<void *>(B), E - B, MADV_HUGEPAGE);
  // The allocations that follow start at the first huge page: a block up to
  // there, kept and never touched (glibc writes only its header), takes the
  // space below it. Without it they first filled that space, up to 2 MB of
  // 4 KB pages, and FA3 paged/split kept all of its faults. glibc's chunk of
  // a request N spans N + 8 bytes rounded up to 16, from 16 bytes before the
  // pointer it returns.
  if (B - A >= 64)
    HeapFiller = std::malloc(B - A - 8);
#else
  (void)Bytes;
#endif
}

} // namespace ptxlint
