// Large inputs are mapped (readInput's Map): the text must read as the file
// did, a file truncated under the mapping must not end the process, and the
// driver must learn that it changed.
#include "Driver/Inputs.h"
#include "ptxlint/SourceBuffer.h"

#include <doctest/doctest.h>

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
