// Unit tests of the checker on cp.async and its group operations.
#include "CheckTestUtil.h"

#include <doctest/doctest.h>

using namespace ptxlint::test;

TEST_CASE("cp.async: valid forms lint clean, in any qualifier order") {
  for (const char *I : {
           "cp.async.ca.shared.global [smem], [gmem], 4;",
           "cp.async.shared.cg.global [%rd1], [%rd2], 16;",
           "cp.async.ca.shared::cta.global [%rd1], [%rd2], 8, %r1;",
           "cp.async.cg.shared.global [%rd1], [%rd2], 16, !%p1;",
           "cp.async.ca.shared.global.L2::cache_hint [%rd1], [%rd2], 4, %rd3;",
           "cp.async.cg.shared.global.L2::128B.L2::cache_hint [%rd1], [%rd2], 16, %p1, %rd3;",
       }) {
    Linted L = lintInstruction(I, "sm_80", "7.8");
    CHECK_MESSAGE(L.R.Diagnostics.empty(), std::string(I));
  }
}

TEST_CASE("cp.async: cp-size and src-size") {
  Linted L = lintInstruction("cp.async.cg.shared.global [%rd1], [%rd2], 8;");
  REQUIRE(L.first("O204"));
  CHECK(L.first("O204")->Message == "'cp-size' must be 16 with '.cg', not 8");
  CHECK(L.at(*L.first("O204")) == "8");
  CHECK(lintInstruction("cp.async.ca.shared.global [%rd1], [%rd2], 4, 5;").has("O204"));
  CHECK(lintInstruction("cp.async.ca.shared.global [%rd1], [%rd2], 4, 4;").clean());
  CHECK(lintInstruction("cp.async.ca.shared.global [%rd1], [%rd2], %r1;").has("O202"));
  CHECK(lintInstruction("cp.async.ca.shared.global [%rd1], [%rd2], 4, %rd1;").has("O203"));
  CHECK(lintInstruction("cp.async.ca.shared.global [%rd1], [%rd2], 4, %r1, %p1;").has("O201"));
}

TEST_CASE("cp.async: ignore-src needs PTX 7.5, '::cta' is documented from 7.8") {
  Linted L = lintInstruction("cp.async.ca.shared::cta.global [%rd1], [%rd2], 4, %p1;",
                             "sm_80", "7.4");
  CHECK(L.has("T302")); // ignore-src: ptxas rejects
  CHECK(L.has("T304")); // ::cta: ptxas accepts, the spec says 7.8
  CHECK(L.R.Errors == 1);
}

TEST_CASE("cp.async: with .L2::cache_hint the fourth operand is the policy") {
  // A 32-bit fourth operand is then a wrong policy, not a src-size.
  Linted L = lintInstruction(
      "cp.async.ca.shared.global.L2::cache_hint [%rd1], [%rd2], 4, %r3;");
  REQUIRE(L.first("O203"));
  CHECK(L.first("O203")->Message.find("'cache-policy'") == 0);
  // A policy without the qualifier: the fix adds it.
  L = lintInstruction("cp.async.ca.shared.global [%rd1], [%rd2], 4, %r1, %rd3;");
  CHECK(L.has("O201"));
  CHECK(L.fixed() ==
        "cp.async.ca.shared.global.L2::cache_hint [%rd1], [%rd2], 4, %r1, %rd3;");
}

TEST_CASE("cp.async: qualifier errors name the word at fault") {
  Linted L = lintInstruction("cp.async.ca.cg.shared.global [%rd1], [%rd2], 16;");
  REQUIRE(L.first("Q104"));
  CHECK(L.at(*L.first("Q104")) == ".cg");
  L = lintInstruction("cp.async.ca.ca.shared.global [%rd1], [%rd2], 16;");
  REQUIRE(L.first("Q103"));
  CHECK(L.fixed() == "cp.async.ca.shared.global [%rd1], [%rd2], 16;");
  L = lintInstruction("cp.async.global.shared.ca [%rd1], [%rd2], 16;");
  REQUIRE(L.first("Q106"));
  CHECK(L.fixed() == "cp.async.shared.global.ca [%rd1], [%rd2], 16;");
  CHECK(lintInstruction("cp.async.shared.global [%rd1], [%rd2], 16;").has("Q105"));
  CHECK(lintInstruction("cp.async.ca.shared.global.foo [%rd1], [%rd2], 16;").has("Q101"));
  CHECK(lintInstruction("cp.async.ca.shared.global.read [%rd1], [%rd2], 16;").has("Q102"));
}

TEST_CASE("cp.async: addresses") {
  CHECK(lintInstruction("cp.async.ca.shared.global [gmem], [%rd2], 16;").has("O206"));
  CHECK(lintInstruction("cp.async.ca.shared.global [16], [%rd2], 16;").has("O202"));
  Linted L = lintInstruction("cp.async.ca.shared.global [smem+4], [gmem], 8;");
  CHECK(L.clean());
  CHECK(L.has("O207")); // misaligned for cp-size 8
  CHECK(lintInstruction("cp.async.ca.shared.global [smem+8], [gmem], 8;")
            .R.Diagnostics.empty());
}

TEST_CASE("group operations take exactly their operands") {
  CHECK(lintInstruction("cp.async.commit_group;").R.Diagnostics.empty());
  CHECK(lintInstruction("cp.async.commit_group 1;").has("O201"));
  CHECK(lintInstruction("cp.async.wait_group %r1;").has("O202"));
  Linted L = lintInstruction("cp.async.wait_group -1;");
  CHECK(L.clean());
  CHECK(L.has("O209"));
  CHECK(lintInstruction("cp.async.wait_all.read;").has("Q102"));
}

TEST_CASE("cp.async.mbarrier.arrive") {
  CHECK(lintInstruction("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%rd1];")
            .R.Diagnostics.empty());
  Linted L = lintInstruction("cp.async.mbarrier.arrive.u64 [%rd1];");
  CHECK(L.has("Q102"));
  CHECK(L.fixed() == "cp.async.mbarrier.arrive.b64 [%rd1];");
  L = lintInstruction("cp.async.mbarrier.arrive [%rd1];");
  CHECK(L.fixed() == "cp.async.mbarrier.arrive.b64 [%rd1];");
  CHECK(lintInstruction("cp.async.mbarrier.arrive.shared::cta.b64 [%rd1];",
                        "sm_80", "7.0").has("T302"));
}
