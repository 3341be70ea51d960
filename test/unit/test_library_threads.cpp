// The lint API keeps no global state: several threads lint (and build,
// validate, lower) at once and each gets exactly the single-threaded answer.
#include "ptxlint/Builder.h"
#include "ptxlint/Linter.h"
#include "ptxlint/Lower.h"
#include "ptxlint/ptxlint.h"

#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace ptxlint;

namespace {
std::string moduleText(unsigned K) {
  // Vary the module per thread: some have no .version (M001), a missing ';'
  // (S003) or an unknown target (M003).
  std::string S;
  if (K % 3)
    S += ".version 8.0\n";
  S += K % 4 == 1 ? ".target sm_999\n" : ".target sm_90a\n";
  S += ".address_size 64\n.visible .entry k" + std::to_string(K) +
       "()\n{\n\t.reg .b64 %rd<4>;\n";
  for (unsigned I = 0; I < 50; ++I)
    S += "\tcp.async.bulk.global.shared::cta.bulk_group [%rd1], [%rd2], 16;\n";
  if (K % 5 == 2)
    S += "\tret\n";
  S += "\tret;\n}\n";
  return S;
}

std::string signature(const LintResult &R) {
  std::string S = std::to_string(R.Errors) + "/" + std::to_string(R.Warnings);
  for (const Diagnostic &D : R.Diagnostics)
    S += "|" + D.Code + "@" + std::to_string(D.Range.Begin) + ":" + D.Message;
  return S;
}
} // namespace

TEST_CASE("lint API: several threads linting at once get the serial results") {
  constexpr unsigned Variants = 20, Threads = 8, Rounds = 25;
  std::vector<std::string> Texts, Expected;
  for (unsigned K = 0; K < Variants; ++K) {
    Texts.push_back(moduleText(K));
    Expected.push_back(signature(lint(SourceBuffer("m.ptx", Texts[K]))));
  }
  // The variants really differ.
  CHECK(Expected[0] != Expected[1]);

  std::atomic<unsigned> Mismatches{0}, Runs{0};
  std::vector<std::thread> Pool;
  for (unsigned T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      for (unsigned R = 0; R < Rounds; ++R) {
        unsigned K = (T * 7 + R) % Variants;
        SourceBuffer B("m.ptx", Texts[K]);
        if (signature(lint(B)) != Expected[K])
          ++Mismatches;
        // The builder, validation and lowering share nothing either.
        build::CpAsyncBulk C;
        C.Dir = build::BulkDir::SharedCtaToGlobal;
        C.Dst = build::addr("%rd1");
        C.Src = build::addr("%rd2");
        C.Size = build::imm(16 * (R + 1));
        if (!build::validate(C, {"sm_90a", 8, 0}).Ok)
          ++Mismatches;
        if (lowerModule(B).Text.size() < Texts[K].size() / 2)
          ++Mismatches;
        // And the C API, with its per-thread last error.
        ptxlint_result *CR = ptxlint_lint_string("m.ptx", Texts[K].data(),
                                                 Texts[K].size(), nullptr);
        if (!CR || (ptxlint_result_count(CR) == 0 && Expected[K] != "0/0"))
          ++Mismatches;
        ptxlint_result_destroy(CR);
        ++Runs;
      }
    });
  for (std::thread &T : Pool)
    T.join();
  CHECK(Runs == Threads * Rounds);
  CHECK(Mismatches == 0);
}

TEST_CASE("lint API: a module's functions analysed on several threads give "
          "the one-thread diagnostics, in the same order") {
  // The flow rule tests: each file holds several kernels, buggy and fixed,
  // so the rules report from several functions.
  std::filesystem::path Dir =
      std::filesystem::path(PTXLINT_SOURCE_DIR) / "test" / "lit" / "flow";
  unsigned Files = 0, WithFlowDiags = 0;
  for (const auto &E : std::filesystem::directory_iterator(Dir)) {
    if (E.path().extension() != ".ptx")
      continue;
    std::ifstream In(E.path());
    std::stringstream Text;
    Text << In.rdbuf();
    SourceBuffer Buffer(E.path().filename().string(), Text.str());
    LintOptions One, Many;
    One.Threads = 1;
    Many.Threads = 4;
    LintResult A = lint(Buffer, One), B = lint(Buffer, Many);
    CAPTURE(E.path().filename().string());
    CHECK(signature(A) == signature(B));
    ++Files;
    for (const Diagnostic &D : A.Diagnostics)
      if (D.Code.rfind("F4", 0) == 0) {
        ++WithFlowDiags;
        break;
      }
  }
  CHECK(Files >= 10);
  CHECK(WithFlowDiags >= 9); // the comparison covers reports of every rule
}
