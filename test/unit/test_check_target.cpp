// Unit tests of the target model: names, families, the sm_101 rename,
// minimum PTX versions and target sets.
#include "ptxlint/Target.h"

#include <doctest/doctest.h>

using namespace ptxlint;

static Target T(const char *S) {
  auto X = parseTarget(S);
  REQUIRE_MESSAGE(X.has_value(), S);
  return *X;
}

TEST_CASE("targets parse, with their variant and family") {
  CHECK(T("sm_90a").Number == 90);
  CHECK(T("sm_90a").Variant == TargetVariant::Arch);
  CHECK(T("sm_100f").Variant == TargetVariant::Family);
  CHECK(T("compute_80").Number == 80);
  CHECK(T("sm_103a").family() == 100);
  CHECK(T("sm_121f").family() == 120);
  CHECK_FALSE(parseTarget("sm_90f").has_value()); // no family before sm_100
  CHECK_FALSE(parseTarget("sm_86a").has_value());
  CHECK_FALSE(parseTarget("sm_99").has_value());
  CHECK_FALSE(parseTarget("debug").has_value());
  CHECK_FALSE(parseTarget("sm_90ab").has_value());
}

TEST_CASE("sm_101 is sm_110 under its old name") {
  Target Old = T("sm_101a");
  CHECK(Old.Number == 110);
  CHECK(Old.Spelled101);
  CHECK(Old.name() == "sm_101a");
  CHECK(Old.family() == 110);
  CHECK(Old.minPtx() == PtxVersion{8, 6});
  CHECK(T("sm_110a").minPtx() == PtxVersion{9, 0});
  CHECK(reachesAny({"sm_110a"}, Old));
}

TEST_CASE("the first PTX version of each target") {
  CHECK(T("sm_80").minPtx() == PtxVersion{7, 0});
  CHECK(T("sm_86").minPtx() == PtxVersion{7, 1});
  CHECK(T("sm_89").minPtx() == PtxVersion{7, 8});
  CHECK(T("sm_90").minPtx() == PtxVersion{7, 8});
  CHECK(T("sm_90a").minPtx() == PtxVersion{8, 0});
  CHECK(T("sm_100").minPtx() == PtxVersion{8, 6});
  CHECK(T("sm_100f").minPtx() == PtxVersion{8, 8});
  CHECK(T("sm_103").minPtx() == PtxVersion{8, 8});
  CHECK(T("sm_120").minPtx() == PtxVersion{8, 7});
  CHECK(T("sm_121a").minPtx() == PtxVersion{8, 8});
  CHECK(T("sm_110").minPtx() == PtxVersion{9, 0});
}

TEST_CASE("which targets a pattern reaches") {
  // "sm_90+": every later target, any variant
  CHECK(reachesAny({"sm_90+"}, T("sm_90")));
  CHECK(reachesAny({"sm_90+"}, T("sm_121f")));
  CHECK_FALSE(reachesAny({"sm_90+"}, T("sm_89")));
  // "sm_100a": that chip's arch-specific target only
  CHECK(reachesAny({"sm_100a"}, T("sm_100a")));
  CHECK_FALSE(reachesAny({"sm_100a"}, T("sm_100")));
  CHECK_FALSE(reachesAny({"sm_100a"}, T("sm_103a")));
  // "sm_100f": the family from sm_100 on, 'f' and 'a' targets
  CHECK(reachesAny({"sm_100f"}, T("sm_100f")));
  CHECK(reachesAny({"sm_100f"}, T("sm_103f")));
  CHECK(reachesAny({"sm_100f"}, T("sm_103a")));
  CHECK_FALSE(reachesAny({"sm_100f"}, T("sm_103")));
  CHECK_FALSE(reachesAny({"sm_100f"}, T("sm_110f")));
  CHECK_FALSE(reachesAny({"sm_103f"}, T("sm_100f")));
  CHECK(reachesAny({"sm_120f"}, T("sm_121a")));
  CHECK_FALSE(reachesAny({}, T("sm_100a")));
}

TEST_CASE("target sets read as the spec writes them") {
  CHECK(describeTargets({"sm_90+"}) == "sm_90 or later");
  CHECK(describeTargets({"sm_100a", "sm_100f", "sm_110a", "sm_110f"}) ==
        "sm_100a/f, sm_103a/f or sm_110a/f");
  CHECK(describeTargets({"sm_90a"}) == "sm_90a");
}

TEST_CASE("the last architecture entry is the module's target") {
  auto E = effectiveTarget({"sm_90a", "debug", "sm_100a"});
  REQUIRE(E);
  CHECK(E->name() == "sm_100a");
  CHECK_FALSE(effectiveTarget({"debug"}).has_value());
}

TEST_CASE("PTX versions") {
  auto V = parsePtxVersion("8.6");
  REQUIRE(V);
  CHECK(V->str() == "8.6");
  CHECK(PtxVersion{8, 6} < PtxVersion{9, 0});
  CHECK_FALSE(parsePtxVersion("86").has_value());
  CHECK_FALSE(parsePtxVersion("8.10").has_value());
}
