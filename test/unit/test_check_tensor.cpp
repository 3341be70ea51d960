// Unit tests of the checker on the tensor copies: coordinates per dimension
// and load mode, im2colInfo, .cta_group, targets.
#include "CheckTestUtil.h"

#include <doctest/doctest.h>

#include <string>

using namespace ptxlint::test;

static std::string coords(int N) {
  std::string S = "{";
  for (int K = 0; K < N; ++K)
    S += (K ? ", %r" : "%r") + std::to_string(K % 8);
  return S + "}";
}

TEST_CASE("cp.async.bulk.tensor: one coordinate per dimension, five for gather4") {
  for (int Dim = 1; Dim <= 5; ++Dim)
    for (int N = 1; N <= 6; ++N) {
      std::string I = "cp.async.bulk.tensor." + std::to_string(Dim) +
                      "d.shared::cluster.global.mbarrier::complete_tx::bytes [%rd1], [%rd2, " +
                      coords(N) + "], [%rd3];";
      Linted L = lintInstruction(I);
      CHECK_MESSAGE(L.clean() == (N == Dim), std::string(I));
      if (N != Dim)
        CHECK(L.has("O205"));
    }
  const char *G = "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes [%rd1], [%rd2, ";
  CHECK(lintInstruction(std::string(G) + coords(5) + "], [%rd3];").clean());
  CHECK(lintInstruction(std::string(G) + coords(2) + "], [%rd3];").has("O205"));
  CHECK(lintInstruction("cp.async.bulk.tensor.3d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes"
                        " [%rd1], [%rd2, " + coords(5) + "], [%rd3];").has("Q107"));
}

TEST_CASE("cp.async.bulk.tensor: im2colInfo sizes per mode") {
  auto Im2col = [](const std::string &Mode, int Dim, const std::string &Info) {
    return lintInstruction("cp.async.bulk.tensor." + std::to_string(Dim) + "d.shared::cta.global" +
                           Mode + ".mbarrier::complete_tx::bytes [%rd1], [%rd2, " + coords(Dim) +
                           "], [%rd3]" + Info + ";");
  };
  CHECK(Im2col(".im2col", 3, ", {%h1}").clean());
  CHECK(Im2col(".im2col", 5, ", {%h1, %h2, %h3}").clean());
  CHECK(Im2col(".im2col", 4, ", {%h1}").has("O205"));
  CHECK(Im2col(".im2col", 3, "").has("O201"));      // ptxas requires it
  CHECK(Im2col(".im2col", 2, ", {%h1}").has("Q107")); // needs 3d or more
  CHECK(Im2col(".im2col::w", 3, ", {%h1, %h2}").clean());
  CHECK(Im2col(".im2col::w", 5, ", {%h1}").has("O205"));
  CHECK(Im2col(".tile", 3, ", {%h1}").has("O201"));
  // wHalo / wOffset ranges: warnings, ptxas does not check them.
  Linted L = Im2col(".im2col::w", 3, ", {511, 31}");
  CHECK(L.R.Diagnostics.empty());
  L = Im2col(".im2col::w", 3, ", {512, 32}");
  CHECK(L.clean());
  CHECK(L.codes() == std::vector<std::string>{"O209", "O209"});
  CHECK(Im2col(".im2col::w::128", 3, ", {32, 0}").has("O209"));
}

TEST_CASE("cp.async.bulk.tensor: stores, .cta_group, multicast") {
  CHECK(lintInstruction("cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group [%rd1, " +
                        coords(5) + "], [%rd2];").clean());
  CHECK(lintInstruction("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group.cta_group::1 [%rd1, {%r1}], [%rd2];")
            .has("Q102"));
  CHECK(lintInstruction("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group [%rd1, {-1}], [%rd2];")
            .has("O209"));
  CHECK(lintInstruction("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                        " [%rd1], [%rd2, {%r1}], [%rd3], %h1;").clean());
  CHECK(lintInstruction("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                        " [%rd1], [%rd2, {%r1}], [%rd3], %rd4;").has("O203"));
}

TEST_CASE("cp.async.bulk.tensor: the tensor map") {
  const char *B = "cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%rd1], ";
  CHECK(lintInstruction(std::string(B) + "[gmem, {%r1}], [%rd3];").clean());
  CHECK(lintInstruction(std::string(B) + "[smem, {%r1}], [%rd3];").has("O206"));
  CHECK(lintInstruction(std::string(B) + "[%rd2], [%rd3];").has("O202"));
  CHECK(lintInstruction(std::string(B) + "[%rd2, %r1], [%rd3];").has("O202"));
}

TEST_CASE("tensor features by target") {
  std::string Scatter = "cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group [%rd1, " +
                        coords(5) + "], [%rd2];";
  Linted L = lintInstruction(Scatter, "sm_90a", "8.6");
  REQUIRE(L.first("T301"));
  CHECK(L.first("T301")->Message ==
        "'.tile::scatter4' needs sm_100a/f, sm_103a/f or sm_110a/f, but the module targets sm_90a");
  // Each at the first PTX version its .target accepts (sm_103f needs 8.8).
  // Not a structured binding: CHECK_MESSAGE captures T in a lambda (C++17
  // forbids that for bindings; clang says so).
  for (const auto &TV : {std::pair{"sm_100a", "8.6"}, {"sm_103f", "8.8"}, {"sm_101a", "8.6"}}) {
    const std::string T = TV.first;
    CHECK_MESSAGE(lintInstruction(Scatter, T, TV.second).clean(), T);
  }
  CHECK(lintInstruction(Scatter, "sm_120a", "8.7").has("T301"));
  CHECK(lintInstruction(Scatter, "sm_100", "8.6").has("T301"));
  CHECK(lintInstruction(Scatter, "sm_100a", "8.5").has("T302"));

  std::string Gather = "cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes"
                       " [%rd1], [%rd2, " + coords(5) + "], [%rd3];";
  L = lintInstruction(Gather, "sm_110a", "9.0");
  CHECK(L.clean());
  CHECK(L.has("T303")); // the spec lists sm_100a/f only; ptxas also takes it
  L = lintInstruction(Gather, "sm_120a", "8.7");
  CHECK(L.has("T301"));
  CHECK_FALSE(L.has("T303")); // the error says it all
}
