// Unit tests of the checker on cp.async.bulk and cp.async.bulk.prefetch.
#include "CheckTestUtil.h"

#include "ptxlint/SourceBuffer.h"

#include <doctest/doctest.h>

#include <cstring>
#include <functional>
#include <string>

using namespace ptxlint::test;

TEST_CASE("cp.async.bulk: the four directions and their mechanisms") {
  for (const char *I : {
           "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%rd1], [%rd2], 16, [%rd3];",
           "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%rd1], [%rd2], 16, [%rd3];",
           "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%rd1], [%rd2], 16, [%rd3];",
           "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%rd2], 16;",
       })
    CHECK_MESSAGE(lintInstruction(I).R.Diagnostics.empty(), std::string(I));
  Linted L = lintInstruction(
      "cp.async.bulk.shared::cluster.global [%rd1], [%rd2], 16, [%rd3];");
  REQUIRE(L.first("Q105"));
  CHECK(L.fixed() == "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                     "[%rd1], [%rd2], 16, [%rd3];");
  L = lintInstruction(
      "cp.async.bulk.shared::cluster.global.bulk_group [%rd1], [%rd2], 16, [%rd3];");
  REQUIRE(L.first("Q102"));
  CHECK(L.at(*L.first("Q102")) == ".bulk_group");
  CHECK(lintInstruction("cp.async.bulk.global.shared::cluster.bulk_group [%rd1], [%rd2], 16;")
            .has("Q106"));
  CHECK(lintInstruction("cp.async.bulk.shared.global.mbarrier::complete_tx::bytes [%rd1], [%rd2], 16, [%rd3];")
            .has("Q102"));
}

TEST_CASE("cp.async.bulk: multicast, cache hint and byte mask bring their operands") {
  const char *Mc = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster";
  CHECK(lintInstruction(std::string(Mc) + " [%rd1], [%rd2], 16, [%rd3], %h1;").clean());
  Linted L = lintInstruction(std::string(Mc) + " [%rd1], [%rd2], 16, [%rd3];");
  CHECK(L.has("O201"));
  CHECK(lintInstruction(std::string(Mc) + ".L2::cache_hint [%rd1], [%rd2], 16, [%rd3], %h1, %rd4;").clean());
  CHECK(lintInstruction(std::string(Mc) + ".L2::cache_hint [%rd1], [%rd2], 16, [%rd3], %rd4, %h1;").has("O203"));
  CHECK(lintInstruction(std::string(Mc) + " [%rd1], [%rd2], 16, [%rd3], 65536;").has("O208"));
  CHECK(lintInstruction("cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd1], [%rd2], 16;").has("O201"));
  CHECK(lintInstruction("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.cp_mask [%rd1], [%rd2], 16, %rd4, %h1;").clean());
  CHECK(lintInstruction("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.multicast::cluster [%rd1], [%rd2], 16, [%rd3], %h1;").has("Q102"));
}

TEST_CASE("cp.async.bulk: size is judged as ptxas does") {
  const char *B = "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%rd2], ";
  CHECK(lintInstruction(std::string(B) + "1048560;").clean());
  CHECK(lintInstruction(std::string(B) + "1048576;").has("O204"));
  CHECK(lintInstruction(std::string(B) + "24;").has("O204"));
  CHECK(lintInstruction(std::string(B) + "-16;").has("O204"));
  Linted L = lintInstruction(std::string(B) + "4294967296;"); // truncates to 0
  CHECK(L.clean());
  CHECK(L.has("O208"));
  CHECK(lintInstruction(std::string(B) + "%rd3;").has("O203"));
  // prefetch does not truncate
  CHECK(lintInstruction("cp.async.bulk.prefetch.L2.global [%rd1], 4294967296;").has("O204"));
}

TEST_CASE("cp.async.bulk: mbar without brackets is a warning where ptxas takes it") {
  const char *B = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%rd1], [%rd2], 16, ";
  Linted L = lintInstruction(std::string(B) + "%rd3;");
  CHECK(L.clean());
  REQUIRE(L.first("O210"));
  CHECK(L.fixed() == std::string(B) + "[%rd3];");
  CHECK(lintInstruction(std::string(B) + "%r3;").has("O202"));
  // Not when other operands follow (ptxas: "Arguments mismatch").
  CHECK(lintInstruction("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
                        " [%rd1], [%rd2], 16, %rd3, %rd4;").has("O202"));
}

TEST_CASE("cp.async.bulk: undocumented scopes warn, two of them are an error") {
  Linted L = lintInstruction("cp.async.bulk.global.shared::cta.bulk_group.gpu [%rd1], [%rd2], 16;");
  CHECK(L.clean());
  CHECK(L.has("Q108"));
  CHECK(lintInstruction("cp.async.bulk.global.shared::cta.bulk_group.gpu.sys [%rd1], [%rd2], 16;").has("Q104"));
  CHECK(lintInstruction("cp.async.bulk.prefetch.L2.global.gpu [%rd1], 16;").has("Q102"));
}

TEST_CASE("cp.async.bulk: targets and versions") {
  const char *Cta = "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%rd1], [%rd2], 16, [%rd3];";
  CHECK(lintInstruction(Cta, "sm_90", "8.0").has("T302"));
  CHECK(lintInstruction(Cta, "sm_90", "8.6").clean());
  const char *Mask = "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd1], [%rd2], 16, %h1;";
  CHECK(lintInstruction(Mask, "sm_90a", "8.6").has("T301"));
  CHECK(lintInstruction(Mask, "sm_120", "8.7").clean());
  Linted L = lintInstruction(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%rd1], [%rd2], 16, [%rd3], %h1;", "sm_90", "8.0");
  CHECK(L.clean());
  CHECK(L.has("T305"));
  CHECK(lintInstruction(Cta, "sm_80", "7.8").has("T301"));
}

TEST_CASE("a repeated instruction is checked against its own function's names") {
  // The checker replays a clean check of a text (recorded from its first
  // check after its head checked clean: k2's) on its later instructions
  // only where their names find the same: k4 declares no %rd2, and the
  // instruction the others check clean reports it there.
  const std::string Insn = "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%rd2], 16;";
  auto Kernel = [&](const char *Name, const char *Regs) {
    return std::string(".visible .entry ") + Name + "()\n{\n  .reg .b64 " + Regs + ";\n  " +
           Insn + "\n  ret;\n}\n";
  };
  std::string Text = ".version 8.8\n.target sm_100a\n.address_size 64\n" +
                     Kernel("k1", "%rd<4>") + Kernel("k2", "%rd<4>") + Kernel("k3", "%rd<4>") +
                     Kernel("k4", "%rd<2>") + Kernel("k5", "%rd<4>");
  ptxlint::LintResult R = ptxlint::lint(ptxlint::SourceBuffer("repeated.ptx", Text));
  REQUIRE(R.Diagnostics.size() == 1);
  const ptxlint::Diagnostic &D = R.Diagnostics[0];
  CHECK(Text.substr(D.Range.Begin, D.Range.End - D.Range.Begin) == "%rd2");
  CHECK(D.Range.Begin > Text.find("k4()"));
  CHECK(D.Range.Begin < Text.find("k5()"));
}

TEST_CASE("a repeated instruction's diagnostics are under its own words") {
  // From a text's third statement on, the parser's instructions share the
  // lists of its second (Instruction::Shift): each report must still be
  // placed in its own kernel, its qualifier's and its operand's alike.
  const std::string Insn =
      "cp.async.bulk.shared::cluster.global.bulk_group [%rd1], [%rd2], 16, [%rd3];";
  std::string Text = ".version 8.8\n.target sm_100a\n.address_size 64\n";
  for (int K = 1; K <= 5; ++K)
    Text += ".visible .entry k" + std::to_string(K) + "()\n{\n  .reg .b64 %rd<4>;\n  " + Insn +
            "\n  ret;\n}\n";
  ptxlint::LintResult R = ptxlint::lint(ptxlint::SourceBuffer("repeated.ptx", Text));
  int Q102 = 0;
  for (const ptxlint::Diagnostic &D : R.Diagnostics) {
    if (D.Code != "Q102")
      continue;
    ++Q102;
    size_t Kernel = Text.rfind(".entry k", D.Range.Begin) + std::strlen(".entry ");
    CAPTURE(Kernel);
    CHECK(Text.substr(D.Range.Begin, D.Range.End - D.Range.Begin) == ".bulk_group");
    CHECK(Text.substr(Kernel, 2) == "k" + std::to_string(Q102));
  }
  CHECK(Q102 == 5);
}

namespace {
/// Lints five kernels of the instruction Insn, kernel K with the
/// declarations Decls(K), and describes the one diagnostic: its code, the
/// text under it and its kernel ("O206 'buf' in k4"); "" if not just one.
std::string onlyDiagnostic(const std::string &Insn,
                           const std::function<std::string(int)> &Decls) {
  std::string Text = ".version 8.8\n.target sm_100a\n.address_size 64\n";
  for (int K = 1; K <= 5; ++K)
    Text += ".visible .entry k" + std::to_string(K) + "()\n{\n" + Decls(K) + "  " + Insn +
            "\n  ret;\n}\n";
  ptxlint::LintResult R = ptxlint::lint(ptxlint::SourceBuffer("repeated.ptx", Text));
  if (R.Diagnostics.size() != 1)
    return "";
  const ptxlint::Diagnostic &D = R.Diagnostics[0];
  size_t Kernel = Text.rfind(".entry k", D.Range.Begin) + std::strlen(".entry ");
  return D.Code + " '" + Text.substr(D.Range.Begin, D.Range.End - D.Range.Begin) + "' in " +
         Text.substr(Kernel, 2);
}
} // namespace

TEST_CASE("a repeated instruction's other names are looked up where its registers are the same") {
  // Every kernel declares the same registers (so a replay need not look
  // them up again), and k4's buf is in another state space.
  CHECK(onlyDiagnostic("cp.async.bulk.global.shared::cta.bulk_group [%rd1], [buf], 16;",
                       [](int K) {
                         return std::string("  .reg .b64 %rd<4>;\n  ") +
                                (K == 4 ? ".global" : ".shared") + " .align 16 .b8 buf[64];\n";
                       }) == "O206 'buf' in k4");
}

TEST_CASE("a repeated instruction's registers are looked up where they are declared otherwise") {
  // k4 declares the same register names as the others, of another type.
  CHECK(onlyDiagnostic("cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%rd2], %r1;",
                       [](int K) {
                         return std::string("  .reg .b64 %rd<4>;\n  .reg ") +
                                (K == 4 ? ".b64" : ".b32") + " %r<4>;\n";
                       }) == "O203 '%r1' in k4");
}

