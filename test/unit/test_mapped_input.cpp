// Large inputs are mapped (readInput's Map): the text must read as the file
// did, a file truncated under the mapping must not end the process, and the
// driver must learn that it changed.
#include "Driver/Inputs.h"
#include "ptxlint/Linter.h"
#include "ptxlint/SourceBuffer.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <sys/stat.h>
#include <string>
#include <unistd.h>

using namespace ptxlint;

namespace {
std::string tempFile(const std::string &Text) {
  char Name[] = "/tmp/ptxlint-mapped-XXXXXX";
  int FD = mkstemp(Name);
  REQUIRE(FD >= 0);
  REQUIRE(write(FD, Text.data(), Text.size()) == ssize_t(Text.size()));
  close(FD);
  return Name;
}

std::string textOf(size_t Size) {
  std::string T;
  while (T.size() < Size)
    T += "\tadd.s32 \t%r" + std::to_string(T.size() % 977) + ", %r1, 1;\n";
  T.resize(Size);
  return T;
}
} // namespace

TEST_CASE("mapped input: large regular files are mapped and read as the file") {
  std::string Text = textOf(MapInputBytes + 123);
  std::string Path = tempFile(Text);
  InputText In;
  std::string Error;
  REQUIRE(readInput(Path, In, Error, /*Map=*/true));
  CHECK(In.Mapping.get() != nullptr);
  CHECK(In.view() == Text);
  CHECK(In.Data[In.Size] == 0);
  CHECK_FALSE(In.changedSinceRead());
  // Dropped pages come back from the file.
  SourceBuffer B("m.ptx", In.view(), In.Data, true);
  B.startPass();
  B.dropBefore(uint32_t(Text.size()));
  CHECK(B.text() == Text);
  // Not mapped: without Map, small files, sizes on a page boundary.
  InputText Read;
  REQUIRE(readInput(Path, Read, Error));
  CHECK(Read.Mapping.get() == nullptr);
  CHECK(Read.view() == Text);
  std::string Small = tempFile(textOf(4000)), Paged = tempFile(textOf(MapInputBytes));
  InputText S, P;
  REQUIRE(readInput(Small, S, Error, true));
  REQUIRE(readInput(Paged, P, Error, true));
  CHECK(S.Mapping.get() == nullptr);
  CHECK(P.Mapping.get() == nullptr);
  CHECK(P.view() == textOf(MapInputBytes));
  std::remove(Path.c_str());
  std::remove(Small.c_str());
  std::remove(Paged.c_str());
}

TEST_CASE("mapped input: a file truncated under the mapping reads as zeros, marked changed") {
  std::string Text = textOf(2 * MapInputBytes + 5);
  std::string Path = tempFile(Text);
  InputText In;
  std::string Error;
  REQUIRE(readInput(Path, In, Error, true));
  REQUIRE(In.Mapping.get() != nullptr);
  REQUIRE(truncate(Path.c_str(), 4096) == 0);
  // Past the new end: SIGBUS without the handler.
  volatile const char *P = In.Data.get();
  unsigned Nonzero = 0;
  for (size_t K = 8192; K < In.Size; K += 4096)
    Nonzero += P[K] != 0;
  CHECK(Nonzero == 0);
  CHECK(P[0] == Text[0]); // the part still in the file
  CHECK(In.changedSinceRead());
  std::remove(Path.c_str());
}

TEST_CASE("mapped input: a file written in place is marked changed") {
  std::string Text = textOf(MapInputBytes + 7);
  std::string Path = tempFile(Text);
  // An old modification time, so that the write below changes it whatever
  // the clock's granularity.
  struct timespec Old[2] = {{1000, 0}, {1000, 0}};
  REQUIRE(utimensat(AT_FDCWD, Path.c_str(), Old, 0) == 0);
  InputText In;
  std::string Error;
  REQUIRE(readInput(Path, In, Error, true));
  REQUIRE(In.Mapping.get() != nullptr);
  CHECK_FALSE(In.changedSinceRead());
  FILE *F = std::fopen(Path.c_str(), "r+");
  REQUIRE(F);
  std::fputs("//", F);
  std::fclose(F);
  CHECK(In.changedSinceRead());
  CHECK(In.view().substr(0, 2) == "//"); // a mapping shows the file as it is
  std::remove(Path.c_str());
}

#if defined(__linux__)
namespace {
/// Resident bytes of the mapping that starts at Begin, from /proc/self/smaps;
/// -1 when it cannot be read.
long residentBytes(const void *Begin) {
  FILE *F = std::fopen("/proc/self/smaps", "r");
  if (!F)
    return -1;
  char Line[512];
  bool In = false;
  long Kb = -1;
  unsigned long B = 0, E = 0;
  while (std::fgets(Line, sizeof Line, F)) {
    // A mapping's header ("7f10a000-7f10b000 r--p ..."); its fields follow
    // ("Rss:  2372 kB"), none of which reads as two hex numbers and a '-'.
    if (std::sscanf(Line, "%lx-%lx ", &B, &E) == 2) {
      In = B == reinterpret_cast<unsigned long>(Begin);
      continue;
    }
    if (In && std::sscanf(Line, "Rss: %ld kB", &Kb) == 1)
      break;
  }
  std::fclose(F);
  return Kb < 0 ? -1 : Kb * 1024;
}

/// N kernels that each declare registers and issue, commit and wait a bulk
/// store: every function is one the flow pass analyses.
std::string asyncModule(unsigned N) {
  std::string T = ".version 8.0\n.target sm_90\n.address_size 64\n";
  for (unsigned K = 0; K < N; ++K) {
    std::string S = std::to_string(K);
    T += ".visible .entry k" + S + "(.param .u64 k" + S + "_p)\n{\n"
         "\t.reg .b32 \t%r<8>;\n\t.reg .b64 \t%rd<4>;\n"
         "\t.shared .align 16 .b8 smem" + S + "[1024];\n"
         "\tld.param.u64 \t%rd1, [k" + S + "_p];\n"
         "\tmov.u32 \t%r1, smem" + S + ";\n"
         "\tfence.proxy.async.shared::cta;\n"
         "\tcp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], 1024;\n"
         "\tcp.async.bulk.commit_group;\n"
         "\tcp.async.bulk.wait_group.read 0;\n\tret;\n}\n";
  }
  return T;
}
} // namespace

TEST_CASE("mapped input: the lint leaves the text it has passed out of memory") {
  // Every pass reads the text front to back and drops it behind itself; a
  // pass that reads old text again, even a byte per function (a name), maps
  // it back whole (the kernel faults in 64 KB around each touch): the peak
  // memory of a large module then grows by its size. 16 MB of functions the
  // flow pass analyses: less than half may be resident after the lint (the
  // passes leave 2.5-3 MB, whatever the size), and after a line number
  // near its end is asked for.
  std::string Text = asyncModule(45000);
  std::string Path = tempFile(Text);
  InputText In;
  std::string Error;
  REQUIRE(readInput(Path, In, Error, true));
  REQUIRE(In.Mapping.get() != nullptr);
  REQUIRE(residentBytes(In.Data.get()) >= 0);
  SourceBuffer B("m.ptx", In.view(), In.Data, true);
  // Each batch linted behind the scan, or all after it: the scan must not
  // drop the text of a batch still to run (it would map it back for good).
  LintOptions O;
  SUBCASE("streaming") { O.Streaming = true; }
  SUBCASE("after the scan") { O.Streaming = false; }
  LintResult R = lint(B, O);
  CHECK(R.Diagnostics.empty());
  long After = residentBytes(In.Data.get());
  CAPTURE(After);
  CAPTURE(Text.size());
  CAPTURE(R.Relinted);
  CHECK(After >= 0);
  CHECK(size_t(After) < Text.size() / 2);
  // Printing a diagnostic near the end counts the lines before it: that
  // pass drops the text behind it too.
  SourceBuffer::LineCol Last = B.lineCol(uint32_t(Text.size() - 2));
  CHECK(Last.Line == uint32_t(std::count(Text.begin(), Text.end(), '\n')));
  long Printed = residentBytes(In.Data.get());
  CAPTURE(Printed);
  CHECK(Printed >= 0);
  CHECK(size_t(Printed) < Text.size() / 2);
  std::remove(Path.c_str());
}
#endif // __linux__: the resident size of one mapping is read from procfs
