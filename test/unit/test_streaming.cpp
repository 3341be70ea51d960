// lint() runs each batch of functions as the scan passes it (Streaming).
// Its output must be the one of a lint that runs the batches after the whole
// scan: the same diagnostics in the same order, whatever the module declares
// further down (then it lints again: LintResult::Relinted), with
// suppressions, limits and threads.
#include "ptxlint/Linter.h"
#include "ptxlint/SourceBuffer.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ptxlint;

namespace {

/// A kernel of about 330 statements; Buggy: its copy is committed after
/// the wait meant for it (F401, F407). Uses: a name its body reads the
/// address of (a shared array), Calls: a function it calls.
std::string kernel(int K, bool Buggy, const std::string &Uses = "",
                   const std::string &Calls = "") {
  std::string N = "k" + std::to_string(K);
  std::string S = ".visible .entry " + N + "(\n\t.param .u64 " + N + "_p0\n)\n{\n"
                  "\t.reg .b32 \t%r<8>;\n\t.reg .b64 \t%rd<8>;\n\t.reg .f32 \t%f<4>;\n"
                  "\t.shared .align 16 .b8 " + N + "_tile[2048];\n"
                  "\tld.param.u64 \t%rd1, [" + N + "_p0];\n"
                  "\tcvta.to.global.u64 \t%rd3, %rd1;\n"
                  "\tmov.u32 \t%r1, %tid.x;\n\tshl.b32 \t%r2, %r1, 4;\n"
                  "\tmov.u32 \t%r3, " + (Uses.empty() ? N + "_tile" : Uses) + ";\n"
                  "\tadd.s32 \t%r4, %r3, %r2;\n\tmul.wide.u32 \t%rd4, %r1, 16;\n"
                  "\tadd.s64 \t%rd5, %rd3, %rd4;\n"
                  "\tcp.async.cg.shared.global [%r4], [%rd5], 16;\n";
  // A call between the copy and its wait: the callee may commit and wait
  // (the flow rules then say nothing of the copy) unless it has no body
  // here.
  if (!Calls.empty())
    S += "\tcall.uni " + Calls + ";\n";
  if (Buggy)
    S += "\tcp.async.wait_group 0;\n\tcp.async.commit_group;\n";
  else
    S += "\tcp.async.commit_group;\n\tcp.async.wait_group 0;\n";
  S += "\tbar.sync \t0;\n\tld.shared.f32 \t%f1, [%r4];\n";
  for (int P = 0; P < 300; ++P)
    S += "\tadd.s32 \t%r5, %r5, " + std::to_string(P % 7) + ";\n";
  S += "\tst.global.f32 \t[%rd5], %f1;\n\tret;\n}\n";
  return S;
}

const char *Header = ".version 8.0\n.target sm_80\n.address_size 64\n";

/// Kernels 0..N-1, every fifth buggy; Extra(K) is put before kernel K.
template <typename Fn> std::string module(int N, Fn Extra) {
  std::string S = Header;
  for (int K = 0; K < N; ++K)
    S += Extra(K) + kernel(K, K % 5 == 1);
  return S;
}

std::vector<std::string> described(const LintResult &R) {
  std::vector<std::string> Out;
  for (const Diagnostic &D : R.Diagnostics)
    Out.push_back(D.Code + " " + std::to_string(D.Range.Begin) + "-" +
                  std::to_string(D.Range.End) + " " +
                  std::to_string(int(D.Level)) + " " + D.Message + " notes " +
                  std::to_string(D.Notes.size()));
  return Out;
}

/// Lints Text streaming and not; checks that both say the same, and returns
/// the streaming result.
LintResult both(const std::string &Text, LintOptions Opts = {}) {
  SourceBuffer B("m.ptx", Text);
  Opts.Streaming = false;
  LintResult Whole = lint(B, Opts);
  Opts.Streaming = true;
  LintResult Streamed = lint(B, Opts);
  CHECK(described(Streamed) == described(Whole));
  CHECK(Streamed.Errors == Whole.Errors);
  CHECK(Streamed.Warnings == Whole.Warnings);
  CHECK(Streamed.Statements == Whole.Statements);
  CHECK(Streamed.ParsedStatements == Whole.ParsedStatements);
  CHECK_FALSE(Whole.Relinted);
  return Streamed;
}

} // namespace

TEST_CASE("streaming: a module of many batches lints as after the whole scan") {
  std::string Text = module(40, [](int) { return std::string(); });
  LintResult R = both(Text);
  CHECK_FALSE(R.Relinted);
  // Every fifth kernel is buggy: its F401 and F407 in every batch.
  CHECK(R.Errors == 16);
  SUBCASE("with a limit") {
    LintOptions O;
    O.MaxDiagnostics = 5;
    both(Text, O);
  }
  SUBCASE("with a suppression at the end of the file") {
    both(Text + "// ptxlint: disable-file=F407\n");
  }
  SUBCASE("with threads") {
    LintOptions O;
    O.Threads = 3;
    both(Text, O);
  }
  SUBCASE("warnings as errors, a rule turned off") {
    LintOptions O;
    O.WarningsAsErrors = true;
    O.SeverityOverrides = {{"F401", Severity::Ignored}};
    both(Text, O);
  }
}

TEST_CASE("streaming: a shared array declared after a kernel that uses it: linted again") {
  // Kernel 1 takes the address of 'late_tile', declared at module scope
  // after kernel 30: a batch linted behind the scan did not find it.
  std::string Text = Header;
  for (int K = 0; K < 40; ++K) {
    if (K == 30)
      Text += ".shared .align 16 .b8 late_tile[2048];\n";
    Text += kernel(K, K % 5 == 1, K == 1 ? "late_tile" : "");
  }
  CHECK(both(Text).Relinted);
  // Declared before its use: nothing to lint again.
  std::string Before = Header + std::string(".shared .align 16 .b8 late_tile[2048];\n") +
                       Text.substr(std::string(Header).size());
  CHECK_FALSE(both(Before).Relinted);
}

TEST_CASE("streaming: calls to functions defined after their callers") {
  const std::string Helper = ".func helper()\n{\n\tret;\n}\n";
  std::string Kernels;
  for (int K = 0; K < 40; ++K)
    Kernels += kernel(K, K % 5 == 1, "", K == 1 ? "helper" : "");
  // Declared before (as nvcc -G does), defined at the end: the body was
  // expected, nothing to lint again.
  CHECK_FALSE(both(Header + std::string(".func helper();\n") + Kernels + Helper).Relinted);
  // Declared .extern, then defined after all: lints again.
  CHECK(both(Header + std::string(".extern .func helper();\n") + Kernels + Helper).Relinted);
  // Never declared before the call: lints again.
  std::string Undeclared = Header;
  for (int K = 0; K < 40; ++K)
    Undeclared += kernel(K, K % 5 == 1, "", K == 1 ? "helper" : "");
  CHECK(both(Undeclared + Helper).Relinted);
}

TEST_CASE("streaming: a second .target after the first batches: linted again") {
  std::string Text = module(40, [](int K) {
    return K == 30 ? std::string(".target sm_90\n") : std::string();
  });
  CHECK(both(Text).Relinted);
}

TEST_CASE("streaming: broken and rearranged modules lint as after the whole scan") {
  // Lines deleted, braces added, names and directives declared late, a
  // callee defined late, a suppression: at places a fixed generator picks.
  const std::string Text = module(40, [](int) { return std::string(); });
  std::vector<size_t> Lines{0};
  for (size_t K = 0; K < Text.size(); ++K)
    if (Text[K] == '\n')
      Lines.push_back(K + 1);
  const char *Inserts[] = {
      "}\n", "{\n", ".shared .align 16 .b8 k3_tile[64];\n.global .u32 late_g;\n",
      ".target sm_90\n",
      ".func (.param .b32 r) helper(.param .b64 a)\n{\n\tret;\n}\n// ptxlint: disable-file=F407\n"};
  uint64_t Seed = 12345;
  auto Next = [&] { return (Seed = Seed * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  int Relinted = 0;
  for (int K = 0; K < 36; ++K) {
    std::string M = Text;
    size_t At = Lines[Next() % Lines.size()];
    if (K % 6 == 5)
      M.erase(At, M.find('\n', At) - At + 1); // (the text ends in '\n')
    else
      M.insert(At, Inserts[K % 6]);
    CAPTURE(K);
    CAPTURE(At);
    LintOptions O;
    O.Threads = K % 2 ? 3 : 1;
    O.MaxDiagnostics = K % 3 ? 0 : 4;
    Relinted += both(M, O).Relinted;
  }
  CHECK(Relinted > 0); // the late names and directives
}
