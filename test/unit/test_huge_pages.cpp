// adviseHugeHeap: the allocations that follow must start on the first huge
// page of the advised span, not in the 4 KB pages below it. (The block that
// takes the space below was once left out by the compiler, unnoticed: only
// FA3 paged/split's page faults and peak memory, varying from run to run
// with address randomisation, told.)
#include "Support/HugePages.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#if defined(__linux__) && defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#define PTXLINT_TEST_GLIBC_HEAP 1
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>
#else
#define PTXLINT_TEST_GLIBC_HEAP 0
#endif

using namespace ptxlint;

// Skipped, and said so, where the heap is not glibc's on Linux (or under ASan).
TEST_CASE("adviseHugeHeap: the next allocation starts on a 2 MB boundary" *
          doctest::skip(!PTXLINT_TEST_GLIBC_HEAP)) {
#if PTXLINT_TEST_GLIBC_HEAP
  constexpr uintptr_t Huge = uintptr_t(2) << 20;
  if (const char *Bytes = std::getenv("PTXLINT_TEST_HUGE_HEAP")) {
    // This process, started below, has a fresh heap: no freed block can
    // serve the request, which comes from the heap's top. Set up as the
    // command's main() sets up its own (it keeps what it frees).
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    size_t N = size_t(std::stoul(Bytes));
    adviseHugeHeap(N);
    void *P = std::malloc(N / 2);
    // On the boundary (glibc's header just below it). 42 tells the parent
    // that this case ran (a filter that matched nothing would exit 0).
    _exit(P && (reinterpret_cast<uintptr_t>(P) & (Huge - 1)) == 0 ? 42 : 1);
  }
  for (const char *Bytes : {"5000000", "11000000", "27262976"}) {
    CAPTURE(Bytes);
    pid_t Child = fork();
    REQUIRE(Child >= 0);
    if (Child == 0) {
      setenv("PTXLINT_TEST_HUGE_HEAP", Bytes, 1);
      execl("/proc/self/exe", "ptxlint-unittests",
            "-tc=adviseHugeHeap: the next allocation starts on a 2 MB boundary",
            static_cast<char *>(nullptr));
      _exit(127);
    }
    int Status = 0;
    REQUIRE(waitpid(Child, &Status, 0) == Child);
    REQUIRE(WIFEXITED(Status));
    CHECK(WEXITSTATUS(Status) == 42);
  }
#endif
}
