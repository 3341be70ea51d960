//===- HugePages.h - Ask the kernel to back a large buffer with huge pages -===//
//
// A big module's statement table is written once, front to back: with 4 KB
// pages that is one page fault per 4 KB (3,200 faults, a tenth of the run
// time, on an 11.7 MB module). Where the kernel offers transparent huge
// pages on request, one fault maps 2 MB.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_SUPPORT_HUGEPAGES_H
#define PTXLINT_SUPPORT_HUGEPAGES_H

#include <cstddef>

namespace ptxlint {

/// Advises huge pages for the whole 2 MB-aligned pages inside [P, P + Bytes).
/// A hint only: does nothing where unsupported or for small buffers.
void adviseHugePages(const void *P, size_t Bytes);

/// Advises huge pages for the next Bytes (rounded up to whole huge pages)
/// of the calling thread's malloc heap (glibc: the space is allocated and
/// freed, so the heap's top extends over it, then advised). For a process
/// that keeps what it frees (the ptxlint command: mallopt in its main) and
/// is about to allocate that much: a page fault then maps 2 MB instead of
/// 4 KB. Only untouched space is advised; pages touched later count whole
/// (2 MB) in the resident set, so a reservation only partly filled there
/// costs its unfilled part too. A hint: does nothing where unsupported, and
/// at most once per thread.
void adviseHugeHeap(size_t Bytes);

/// The ptxlint command calls adviseHugeHeap before linting an input of at
/// least this size, whose run's heap grows by a few huge pages (FA3
/// paged/split's 2.9 MB: about 5.5 MB). A smaller run's heap would be mostly
/// its last, partly used huge page.
constexpr size_t HugeHeapMinInput = size_t(2) << 20;

} // namespace ptxlint
#endif
