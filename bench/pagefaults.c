/* ptxlint-pagefaults: what first-touched memory costs on this host.
 *
 * On the VM the benchmarks run in, a page fault on fresh anonymous memory
 * costs 1.6-2.2 us per 4 KB page (allocation and zeroing, host included),
 * so every megabyte a run touches for the first time costs ~0.45 ms: a
 * fifth of FA3 paged/split's time was its 6 MB of heap. This prints the
 * cost per 4 KB page of three ways to bring in N MB: touching each page,
 * MADV_POPULATE_WRITE first (one call, no fault per page), and 2 MB
 * transparent huge pages (MADV_HUGEPAGE; the first run may include
 * compaction). See bench/PROFILE.md, eleventh session.
 *
 * usage: ptxlint-pagefaults [MB]   (default 16)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static double micros(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1e6 + T.tv_nsec / 1e3;
}

int main(int argc, char **argv) {
  const size_t Huge = (size_t)2 << 20;
  const size_t Bytes = (size_t)(argc > 1 ? atoi(argv[1]) : 16) << 20;
  static const char *const Names[] = {"touch each 4 KB page", "MADV_POPULATE_WRITE",
                                      "2 MB huge pages"};
  for (int Round = 0; Round < 2; ++Round)
    for (int Mode = 0; Mode < 3; ++Mode) {
      char *Map = (char *)mmap(NULL, Bytes + Huge, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (Map == MAP_FAILED) {
        perror("mmap");
        return 2;
      }
      char *P = (char *)(((uintptr_t)Map + Huge - 1) & ~(uintptr_t)(Huge - 1));
      double T0 = micros();
      int Failed = 0;
      if (Mode == 1)
        Failed = madvise(P, Bytes, MADV_POPULATE_WRITE) != 0;
      if (Mode == 2)
        Failed = madvise(P, Bytes, MADV_HUGEPAGE) != 0;
      for (size_t K = 0; K < Bytes; K += 4096)
        P[K] = 1;
      double T1 = micros();
      printf("round %d  %-22s %8.1f us  %.3f us per 4 KB%s\n", Round + 1, Names[Mode],
             T1 - T0, (T1 - T0) / (double)(Bytes / 4096), Failed ? "  (madvise refused)" : "");
      munmap(Map, Bytes + Huge);
    }
  return 0;
}
