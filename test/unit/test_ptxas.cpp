// The ptxas driver: discovery, message parsing, limits, verdict comparison.
#include "CheckTestUtil.h"
#include "ptxlint/Ptxas.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace ptxlint;

namespace {
const char *const Good = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                         ".visible .entry k()\n{\n\t.reg .b64 %rd<4>;\n"
                         "\tcp.async.bulk.global.shared::cta.bulk_group [%rd1], [%rd2], 16;\n"
                         "\tret;\n}\n";
// Line 7: an unknown qualifier; line 8: a .cg copy of 8 bytes.
const char *const Bad = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                        ".visible .entry k()\n{\n\t.reg .b64 %rd<4>;\n"
                        "\tcp.async.bulk.global.shared::cta.bulk_group.foo [%rd1], [%rd2], 16;\n"
                        "\tcp.async.cg.shared.global [%rd1], [%rd2], 8;\n"
                        "\tret;\n}\n";

std::string writeScript(const char *Name, const std::string &Body) {
  std::string P = std::string("/tmp/ptxlint-test-") + std::to_string(::getpid()) + Name;
  std::ofstream(P) << "#!/bin/sh\n" << Body;
  ::chmod(P.c_str(), 0755);
  return P;
}
} // namespace

TEST_CASE("ptxas: output parsing") {
  SourceBuffer B("f.ptx", "a\n  b;\nc\n");
  auto D = parsePtxasOutput(
      B, "ptxas /tmp/x.ptx, line 2; error   : Unknown modifier '.foo'\n"
         "ptxas /tmp/x.ptx, line 3; warning : Advisory: something\n"
         "ptxas info    : 0 bytes gmem\n"
         "ptxas fatal   : Ptx assembly aborted due to errors\n");
  REQUIRE(D.size() == 3);
  CHECK(D[0].Code == "A001");
  CHECK(D[0].Level == Severity::Error);
  CHECK(D[0].Message == "ptxas: Unknown modifier '.foo'");
  CHECK(D[0].Range.Begin == 4); // "b;" on line 2, blanks skipped
  CHECK(D[0].Range.End == 6);
  CHECK(D[1].Code == "A002");
  CHECK(D[1].Level == Severity::Warning);
  CHECK(D[2].Range.End == 0); // module level
  CHECK(D[2].Message == "ptxas: fatal: Ptx assembly aborted due to errors");
}

TEST_CASE("ptxas: -arch from the target") {
  CHECK(ptxasArchFor("sm_90a", false) == "sm_90a");
  CHECK(ptxasArchFor("sm_90a", true) == "compute_90a");
  CHECK(ptxasArchFor("sm_101a", false) == "sm_110a");
  CHECK(ptxasArchFor("compute_100f", false) == "sm_100f");
}

TEST_CASE("ptxas: discovery order honours $PTXAS") {
  std::string Fake = writeScript("-fake-ptxas", "exit 0\n");
  const char *Old = std::getenv("PTXAS");
  std::string Saved = Old ? Old : "";
  ::setenv("PTXAS", Fake.c_str(), 1);
  auto P = findPtxas();
  REQUIRE(P);
  CHECK(*P == Fake);
  ::setenv("PTXAS", "/nonexistent/ptxas", 1);
  auto Q = findPtxas();
  if (Q)
    CHECK(*Q != "/nonexistent/ptxas");
  if (Old)
    ::setenv("PTXAS", Saved.c_str(), 1);
  else
    ::unsetenv("PTXAS");
  ::unlink(Fake.c_str());
}

TEST_CASE("ptxas: timeout and memory limit stop a runaway ptxas") {
  SourceBuffer B("f.ptx", Good);
  std::string Sleeper = writeScript("-sleep", "sleep 30\n");
  PtxasOptions O;
  O.PtxasPath = Sleeper;
  O.TimeoutSeconds = 1;
  PtxasResult R = runPtxas(B, O);
  CHECK(R.TimedOut);
  CHECK_FALSE(R.Accepted);
  REQUIRE_FALSE(R.Diagnostics.empty());
  CHECK(R.Diagnostics[0].Code == "A004");
  ::unlink(Sleeper.c_str());

  // A 64 MiB address-space limit makes a 256 MiB allocation fail.
  std::string Hog = writeScript("-hog", "exec python3 -c \"x = bytearray(256 << 20)\"\n");
  O.PtxasPath = Hog;
  O.TimeoutSeconds = 20;
  O.MemoryLimitBytes = 64ull << 20;
  R = runPtxas(B, O);
  CHECK_FALSE(R.Accepted);
  O.MemoryLimitBytes = 4000000ull * 1024;
  R = runPtxas(B, O);
  CHECK(R.Accepted);
  ::unlink(Hog.c_str());
}

TEST_CASE("ptxas: real ptxas verdicts and lint disagreements (needs ptxas)") {
  test::skipWithoutPtxas();
  SourceBuffer G("good.ptx", Good);
  PtxasOptions O;
  O.FrontEndOnly = true;
  PtxasResult R = runPtxas(G, O);
  CHECK(R.Ran);
  CHECK(R.Accepted);
  CHECK(R.Command.find("-arch=compute_90a") != std::string::npos);

  // A cubin with -o.
  std::string Cubin = "/tmp/ptxlint-test-" + std::to_string(::getpid()) + ".cubin";
  PtxasOptions C;
  C.OutputFile = Cubin;
  R = runPtxas(G, C);
  CHECK(R.Accepted);
  struct stat St;
  CHECK(::stat(Cubin.c_str(), &St) == 0);
  CHECK(St.st_size > 0);
  ::unlink(Cubin.c_str());

  SourceBuffer B("bad.ptx", Bad);
  R = runPtxas(B, O);
  CHECK_FALSE(R.Accepted);
  std::vector<unsigned> Lines;
  for (const Diagnostic &D : R.Diagnostics)
    if (D.Code == "A001" && D.Range.End)
      Lines.push_back(B.lineCol(D.Range.Begin).Line);
  CHECK(std::find(Lines.begin(), Lines.end(), 7u) != Lines.end());
  CHECK(std::find(Lines.begin(), Lines.end(), 8u) != Lines.end());

  // Until the checker lands, lint finds no error in Bad: every ptxas line is
  // a disagreement, plus the module verdict. With the checker, none remain.
  LintAndAssembleResult L = lintAndAssemble(B, {}, O);
  if (L.Lint.Errors == 0) {
    CHECK_FALSE(L.Agree);
    CHECK(L.Disagreements.size() == 3);
    CHECK(L.Disagreements[0].Message.find("ptxlint accepts the module, ptxas rejects it") !=
          std::string::npos);
  }
  for (const Diagnostic &D : L.Disagreements)
    CHECK(D.Code == "A003");
  LintAndAssembleResult LG = lintAndAssemble(G, {}, O);
  CHECK(LG.Agree);
}
