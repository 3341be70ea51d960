// Unit tests of the typed builder: canonical printing, decoding any order,
// structural checks, the availability model and validate().
#include "ptxlint/Builder.h"
#include "ptxlint/Linter.h"
#include "ptxlint/Target.h"

#include <doctest/doctest.h>

using namespace ptxlint;
using namespace ptxlint::build;

TEST_CASE("builder: canonical text of each instruction kind") {
  CpAsync A;
  A.Cache = CacheOp::CA;
  A.Dst = addr("%rd1", 8);
  A.Src = addr("%rd2");
  A.CpSize = 8;
  A.IgnoreSrc = notReg("%p1");
  A.CachePolicy = reg("%rd5");
  A.Prefetch = PrefetchSize::B128;
  CHECK(print(A) == "cp.async.ca.shared.global.L2::cache_hint.L2::128B "
                    "[%rd1+8], [%rd2], 8, !%p1, %rd5;");

  CpAsyncBulk B;
  B.Dir = BulkDir::GlobalToSharedCluster;
  B.Dst = addr("%rd1");
  B.Src = addr("%rd2");
  B.Size = imm(4096);
  B.Mbar = addr("%rd3");
  B.CtaMask = reg("%rs1");
  B.CachePolicy = reg("%rd5");
  CHECK(print(B) == "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                    ".multicast::cluster.L2::cache_hint [%rd1], [%rd2], 4096, [%rd3], "
                    "%rs1, %rd5;");

  CpReduceAsyncBulk R;
  R.Op = RedOp::Add;
  R.Type = RedType::BF16;
  R.Dst = addr("%rd1");
  R.Src = addr("%rd2");
  R.Size = reg("%r1");
  CHECK(print(R) == "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16 "
                    "[%rd1], [%rd2], %r1;");

  CpAsyncBulkTensor T;
  T.Dir = TensorDir::GlobalToSharedCluster;
  T.Dim = 2;
  T.Shared = addr("%rd1");
  T.Tensor = TensorRef{reg("%rd4"), {reg("%r3"), imm(0)}};
  T.Mbar = addr("%rd3");
  Inst I(T);
  I.Guard = reg("%p2");
  CHECK(print(I) == "@%p2 cp.async.bulk.tensor.2d.shared::cluster.global.tile"
                    ".mbarrier::complete_tx::bytes [%rd1], [%rd4, {%r3, 0}], [%rd3];");

  CpReduceAsyncBulkTensor RT;
  RT.Dim = 1;
  RT.Op = RedOp::Max;
  RT.Tensor = TensorRef{reg("%rd4"), {reg("%r3")}};
  RT.Src = addr("%rd2");
  CHECK(print(RT) == "cp.reduce.async.bulk.tensor.1d.global.shared::cta.tile"
                     ".bulk_group.max [%rd4, {%r3}], [%rd2];");

  CHECK(print(CpAsyncBulkWaitGroup{true, 2}) == "cp.async.bulk.wait_group.read 2;");
  CHECK(print(CpAsyncWaitAll{}) == "cp.async.wait_all;");
}

TEST_CASE("builder: decode reads any qualifier order and an implied .tile") {
  auto I = parseInst("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::"
                     "complete_tx::bytes [%rd1], [%rd4, {%r3}], [%rd3];");
  REQUIRE(I);
  auto *T = std::get_if<CpAsyncBulkTensor>(&I->Op);
  REQUIRE(T);
  CHECK(T->Mode == LoadMode::Tile);
  CHECK(print(*I).find(".global.tile.mbarrier") != std::string::npos);

  // The spec's own example writes .im2col before the state spaces.
  auto J = parseInst("@p cp.async.bulk.tensor.3d.im2col.shared::cluster.global."
                     "mbarrier::complete_tx::bytes.L2::cache_hint [sMem3], "
                     "[tensorMap3, {tc0, tc1, tc2}], [mbar3], {i2cOffW}, policy;");
  REQUIRE(J);
  auto *U = std::get_if<CpAsyncBulkTensor>(&J->Op);
  REQUIRE(U);
  CHECK(U->Mode == LoadMode::Im2col);
  CHECK(U->Im2colInfo.size() == 1);
  CHECK(U->CachePolicy == reg("policy"));
  CHECK(J->Guard == reg("p"));

  auto K = parseInst("cp.reduce.async.bulk.global.shared::cta.bulk_group.noftz."
                     "f16.add [a], [b], 64;");
  REQUIRE(K);
  CHECK(print(*K) == "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 "
                     "[a], [b], 64;");
}

TEST_CASE("builder: decode refuses what it cannot express") {
  std::string Err;
  CHECK_FALSE(parseInst("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
                        "bytes.foo [a], [b], 16, [m];", &Err));
  CHECK(Err.find("unknown qualifier '.foo'") != std::string::npos);
  CHECK_FALSE(parseInst("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint."
                        "L2::cache_hint [a], [b], 16, p;", &Err));
  CHECK(Err.find("twice") != std::string::npos);
  CHECK_FALSE(parseInst("cp.async.bulk.shared::cluster.global.bulk_group [a], [b], 16;",
                        &Err));
  CHECK_FALSE(parseInst("cp.async.ca.shared.global [a], [b], 4, 4, 4, 4;", &Err));
  CHECK_FALSE(parseInst("mov.b32 %r1, 0;", &Err));
}

TEST_CASE("builder: structural errors") {
  CpAsync A;
  A.Cache = CacheOp::CG;
  A.CpSize = 8;
  A.SrcSize = imm(4);
  A.IgnoreSrc = reg("%p1");
  auto E = structuralErrors(A);
  CHECK(E.size() == 2);

  CpAsyncBulkTensor T;
  T.Dim = 2;
  T.Mode = LoadMode::Im2col;
  T.Tensor.Coords = {reg("%r1")};
  T.Mbar = addr("%rd3");
  CHECK(structuralErrors(T).size() >= 2); // needs 3d, coordinate count

  CpReduceAsyncBulk R;
  R.Dir = ReduceDir::SharedCtaToSharedCluster;
  R.Op = RedOp::Add;
  R.Type = RedType::F32; // not into .shared::cluster
  R.Size = imm(24);      // not a multiple of 16
  auto RE = structuralErrors(R);
  CHECK(RE.size() == 3); // type, size, missing mbarrier

  for (const Inst &I : allForms())
    CHECK_MESSAGE(structuralErrors(I).empty(), print(I));
}

TEST_CASE("builder: availability model") {
  CpAsyncBulk B;
  B.Dir = BulkDir::GlobalToSharedCta;
  B.Dst = addr("%rd1");
  B.Src = addr("%rd2");
  B.Size = imm(16);
  B.Mbar = addr("%rd3");
  CHECK(checkTarget(B, {"sm_90a", 8, 6}).empty());
  auto U = checkTarget(B, {"sm_90a", 8, 5});
  REQUIRE(U.size() == 1);
  CHECK(U[0].Message.find("8.6") != std::string::npos);
  CHECK_FALSE(checkTarget(B, {"sm_80", 8, 6}).empty());

  CpAsyncBulkTensor T;
  T.Dir = TensorDir::GlobalToSharedCluster;
  T.Dim = 1;
  T.Shared = addr("%rd1");
  T.Tensor = TensorRef{reg("%rd2"), {reg("%r1")}};
  T.Mbar = addr("%rd3");
  T.Group = CtaGroup::Two;
  CHECK_FALSE(checkTarget(T, {"sm_100", 8, 8}).empty());
  CHECK(checkTarget(T, {"sm_100a", 8, 6}).empty());
  CHECK(checkTarget(T, {"sm_103f", 8, 8}).empty());
  CHECK_FALSE(checkTarget(T, {"sm_120a", 8, 8}).empty());

  T.Group = CtaGroup::None;
  T.CtaMask = reg("%rs1");
  auto M = checkTarget(T, {"sm_90", 8, 0});
  REQUIRE(M.size() == 1);
  CHECK(M[0].Advisory);
  CHECK(checkTarget(T, {"sm_90a", 8, 0}).empty());

  CHECK(minPtxForTarget("sm_90a") == std::pair{8u, 0u});
  CHECK(minPtxForTarget("sm_110f") == std::pair{9u, 0u});
  // One target model (issue 12): the builder's targets and versions are the
  // linter's, from spec-tables/targets.yaml.
  CHECK(minPtxForTarget("sm_75") == std::pair{6u, 3u});
  CHECK(minPtxForTarget("sm_88") == std::pair{7u, 3u});
  REQUIRE(build::knownTargets().size() == ptxlint::knownTargets().size());
  for (size_t K = 0; K < build::knownTargets().size(); ++K)
    CHECK(build::knownTargets()[K] == ptxlint::knownTargets()[K].name());
  // An unknown target or a version below the target's minimum refuses all.
  CHECK_FALSE(checkTarget(B, {"sm_99", 8, 6}).empty());
  CHECK_FALSE(checkTarget(B, {"sm_100a", 8, 5}).empty());
  CHECK(formsFor({"sm_80", 7, 0}).size() < formsFor({"sm_80", 7, 8}).size());
  CHECK(formsFor({"sm_90a", 8, 0}).size() < formsFor({"sm_100a", 8, 6}).size());
}

TEST_CASE("builder: validate prints, lints and maps diagnostics to the text") {
  CpAsyncBulk B;
  B.Dir = BulkDir::SharedCtaToGlobal;
  B.Dst = addr("%rd1");
  B.Src = addr("%rd2");
  B.Size = imm(256);
  Validation V = validate(B, {"sm_90a", 8, 0});
  CHECK(V.Ok);
  CHECK(V.Text == "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%rd2], 256;");
  for (const Diagnostic &D : V.Diagnostics)
    CHECK(D.Level < Severity::Error);

  B.ByteMask = reg("%rs2"); // .cp_mask needs sm_100+
  V = validate(B, {"sm_90a", 8, 6});
  CHECK_FALSE(V.Ok);
  REQUIRE_FALSE(V.Diagnostics.empty());
  for (const Diagnostic &D : V.Diagnostics) {
    CHECK(D.Range.End <= V.Text.size());
    CHECK(D.Level == Severity::Error);
  }

  B.ByteMask.reset();
  B.Size = imm(8); // not a multiple of 16
  V = validate(B, {"sm_90a", 8, 0});
  CHECK_FALSE(V.Ok);
  bool Found = false;
  for (const Diagnostic &D : V.Diagnostics)
    Found |= D.Message.find("multiple of 16") != std::string::npos;
  CHECK(Found);
}

TEST_CASE("builder: registerUses types every slot") {
  CpAsync A;
  A.Dst = addr("%rd1");
  A.Src = addr("%rd2");
  A.IgnoreSrc = reg("%p1");
  A.CachePolicy = reg("%rd5");
  Inst I(A);
  I.Guard = notReg("%p9");
  auto U = registerUses(I);
  REQUIRE(U.size() == 5);
  CHECK(U[0] == std::pair<std::string, std::string>{"%p9", ".pred"});
  CHECK(U[3] == std::pair<std::string, std::string>{"%p1", ".pred"});
  CHECK(U[4] == std::pair<std::string, std::string>{"%rd5", ".b64"});
}
