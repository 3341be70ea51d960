// Lowering: every rewrite is checked on its text and by ptxas acceptance
// (when ptxas is present): the input is rejected (where the target cannot
// take it) and the output accepted.
#include "ptxlint/Lower.h"
#include "ptxlint/Ptxas.h"

#include <doctest/doctest.h>

using namespace ptxlint;

namespace {

std::string module(const char *Version, const char *Target, const std::string &Body) {
  return std::string(".version ") + Version + "\n.target " + Target +
         "\n.address_size 64\n\n.visible .entry k()\n{\n"
         "\t.reg .pred %p<3>;\n\t.reg .b16 %rs<4>;\n\t.reg .b32 %r<8>;\n"
         "\t.reg .b64 %rd<8>;\n" +
         Body + "\tret;\n}\n";
}

/// nullopt without ptxas; else whether ptxas accepts Text.
std::optional<bool> assembles(const std::string &Text) {
  if (!findPtxas())
    return std::nullopt;
  SourceBuffer B("lower.ptx", Text);
  PtxasOptions O;
  O.FrontEndOnly = true;
  PtxasResult R = runPtxas(B, O);
  REQUIRE_MESSAGE(R.Ran, R.Output);
  return R.Accepted;
}

struct Case {
  std::string In, Out;
  LowerResult R;
};

Case lowerBody(const char *Version, const char *Target, const std::string &Body,
               const LowerOptions &O = {}) {
  Case C;
  C.In = module(Version, Target, Body);
  SourceBuffer B("in.ptx", C.In);
  C.R = lowerModule(B, O);
  C.Out = C.R.Text;
  return C;
}

bool contains(const std::string &S, const std::string &Sub) {
  return S.find(Sub) != std::string::npos;
}

} // namespace

TEST_CASE("lower: cp.async.bulk to .shared::cta below PTX 8.6 -> .shared::cluster") {
  Case C = lowerBody("8.0", "sm_90a",
                     "\tcp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes "
                     "[%rd1], [%rd2], 256, [%rd3];\n");
  CHECK(C.R.Ok);
  CHECK(C.R.Rewritten == 1);
  CHECK(contains(C.Out, "\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                        "[%rd1], [%rd2], 256, [%rd3];\n"));
  if (auto A = assembles(C.In))
    CHECK_FALSE(*A);
  if (auto A = assembles(C.Out))
    CHECK(*A);

  // From PTX 8.6 on, .shared::cta stays.
  Case D = lowerBody("8.6", "sm_90a",
                     "\tcp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes "
                     "[%rd1], [%rd2], 256, [%rd3];\n");
  CHECK(D.R.Rewritten == 0);
  CHECK(D.Out == D.In);
}

TEST_CASE("lower: cp.async.bulk.tensor tile load to .shared::cta below PTX 8.6") {
  Case C = lowerBody("8.3", "sm_90a",
                     "\t@%p1 cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::"
                     "complete_tx::bytes.tile [%rd1], [%rd4, {%r1, %r2}], [%rd3];\n");
  CHECK(C.R.Ok);
  CHECK(contains(C.Out, "\t@%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                        "mbarrier::complete_tx::bytes [%rd1], [%rd4, {%r1, %r2}], [%rd3];"));
  if (auto A = assembles(C.In))
    CHECK_FALSE(*A);
  if (auto A = assembles(C.Out))
    CHECK(*A);
}

TEST_CASE("lower: cp.async.shared::cta below PTX 7.8 -> .shared") {
  Case C = lowerBody("7.0", "sm_80",
                     "\tcp.async.cg.shared::cta.global [%rd1], [%rd2], 16;\n");
  CHECK(C.R.Ok);
  CHECK(contains(C.Out, "\tcp.async.cg.shared.global [%rd1], [%rd2], 16;\n"));
  if (auto A = assembles(C.Out))
    CHECK(*A);
}

TEST_CASE("lower: wait_all -> commit_group + wait_group 0, guard kept") {
  Case C = lowerBody("7.0", "sm_80",
                     "\tcp.async.ca.shared.global [%rd1], [%rd2], 4;\n"
                     "\t@!%p1 cp.async.wait_all;\n");
  CHECK(C.R.Ok);
  CHECK(contains(C.Out, "\t@!%p1 cp.async.commit_group;\n\t@!%p1 cp.async.wait_group 0;\n"));
  CHECK_FALSE(contains(C.Out, "wait_all"));
  if (auto A = assembles(C.Out))
    CHECK(*A);

  LowerOptions Keep;
  Keep.ExpandWaitAll = false;
  Case D = lowerBody("7.0", "sm_80", "\tcp.async.wait_all;\n", Keep);
  CHECK(contains(D.Out, "\tcp.async.wait_all;\n"));
}

TEST_CASE("lower: canonical qualifier order and explicit .tile") {
  Case C = lowerBody(
      "8.0", "sm_90a",
      "\tcp.async.bulk.tensor.3d.im2col.shared::cluster.global.mbarrier::complete_tx::"
      "bytes.L2::cache_hint [%rd1], [%rd4, {%r1, %r2, %r3}], [%rd3], {%rs1}, %rd5;\n"
      "\tcp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes "
      "[%rd1], [%rd4, {%r1}], [%rd3];\n"
      "\tcp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.noftz.add.f16 "
      "[%rd1], [%rd2], 64, %rd5;\n");
  CHECK(C.R.Ok);
  CHECK(C.R.Rewritten == 3);
  CHECK(contains(C.Out, "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::"
                        "complete_tx::bytes.L2::cache_hint [%rd1], [%rd4, {%r1, %r2, %r3}], "
                        "[%rd3], {%rs1}, %rd5;"));
  CHECK(contains(C.Out, "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::"
                        "complete_tx::bytes [%rd1], [%rd4, {%r1}], [%rd3];"));
  CHECK(contains(C.Out, "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16"
                        ".L2::cache_hint [%rd1], [%rd2], 64, %rd5;"));
  if (auto A = assembles(C.In))
    CHECK(*A);
  if (auto A = assembles(C.Out))
    CHECK(*A);

  // Lowering is idempotent.
  SourceBuffer Again("again.ptx", C.Out);
  LowerResult R2 = lowerModule(Again);
  CHECK(R2.Rewritten == 0);
  CHECK(R2.Text == C.Out);
}

TEST_CASE("lower: refuses what has no exact rewrite") {
  // The whole bulk family needs sm_90.
  Case A = lowerBody("8.0", "sm_80",
                     "\tcp.async.bulk.global.shared::cta.bulk_group [%rd1], [%rd2], 16;\n");
  CHECK_FALSE(A.R.Ok);
  CHECK(A.R.Refused == 1);
  REQUIRE(A.R.Diagnostics.size() == 1);
  CHECK(A.R.Diagnostics[0].Code == "L002");
  CHECK(A.R.Diagnostics[0].Level == Severity::Error);
  CHECK(contains(A.R.Diagnostics[0].Message, "sm_90 or later"));
  CHECK(A.Out == A.In);
  if (auto X = assembles(A.In))
    CHECK_FALSE(*X);

  // .cp_mask needs sm_100; .cta_group and a cluster gather4 need sm_100a/f.
  Case B = lowerBody("8.6", "sm_90a",
                     "\tcp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd1], "
                     "[%rd2], 16, %rs1;\n"
                     "\tcp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::"
                     "complete_tx::bytes.cta_group::2 [%rd1], [%rd4, {%r1}], [%rd3];\n");
  CHECK(B.R.Refused == 2);
  if (auto X = assembles(B.In))
    CHECK_FALSE(*X);

  // .shared::cta with .cta_group is not rewritten below 8.6: refused.
  Case C = lowerBody("8.0", "sm_90a",
                     "\tcp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::"
                     "complete_tx::bytes [%rd1], [%rd4, {%r1, %r2, %r3, %r4, %r5}], [%rd3];\n");
  CHECK(C.R.Refused == 1);

  // Unreadable instructions are left alone with a warning.
  Case D = lowerBody("8.0", "sm_90a", "\tcp.async.bulk.bogus [%rd1], [%rd2], 16;\n");
  CHECK(D.R.Ok);
  REQUIRE(D.R.Diagnostics.size() == 1);
  CHECK(D.R.Diagnostics[0].Code == "L003");
  CHECK(D.Out == D.In);
}

TEST_CASE("lower: options supply the target and version") {
  LowerOptions O;
  O.Target = "sm_90a";
  O.PtxVersion = std::make_pair(8u, 0u);
  SourceBuffer B("x.ptx", ".entry k()\n{\n\t.reg .b64 %rd<4>;\n"
                          "\tcp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes "
                          "[%rd1], [%rd2], 16, [%rd3];\n}\n");
  LowerResult R = lowerModule(B, O);
  CHECK(R.Ok);
  CHECK(contains(R.Text, ".shared::cluster.global"));
}

TEST_CASE("lower: the module's target is the linter's (the last .target named)") {
  // ".target sm_80" then ".target sm_90a": the linter judges sm_90a, so a
  // bulk copy lints clean and lowering must not refuse it for sm_80.
  std::string In = ".version 8.0\n.target sm_80\n.target sm_90a\n.address_size 64\n\n"
                   ".visible .entry k()\n{\n\t.reg .b64 %rd<4>;\n"
                   "\tcp.async.bulk.global.shared::cta.bulk_group [%rd1], [%rd2], 16;\n"
                   "\tret;\n}\n";
  SourceBuffer B("several.ptx", In);
  LowerResult R = lowerModule(B);
  CHECK(R.Ok);
  CHECK(R.Refused == 0);
  CHECK(R.Diagnostics.empty());
}
