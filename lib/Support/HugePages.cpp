//===- HugePages.cpp ------------------------------------------------------===//

#include "Support/HugePages.h"

#include <cstdint>

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

} // namespace ptxlint
