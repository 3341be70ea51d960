// Unit tests of cp.reduce.async.bulk: the whole redOp x type matrix of
// PTX ISA 9.1 section 9.7.9.25.4.2, written out here independently of
// spec-tables/, against the checker's verdicts.
#include "CheckTestUtil.h"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

using namespace ptxlint::test;

namespace {
using Matrix = std::map<std::string, std::set<std::string>>;
// The table of 9.7.9.25.4.2, per destination.
const Matrix Cluster = {
    {".add", {".u32", ".s32", ".u64"}}, {".min", {".u32", ".s32"}},
    {".max", {".u32", ".s32"}},         {".inc", {".u32"}},
    {".dec", {".u32"}},                 {".and", {".b32"}},
    {".or", {".b32"}},                  {".xor", {".b32"}}};
const Matrix Global = {
    {".add", {".u32", ".s32", ".u64", ".f32", ".f64", ".f16", ".bf16"}},
    {".min", {".u32", ".s32", ".u64", ".s64", ".f16", ".bf16"}},
    {".max", {".u32", ".s32", ".u64", ".s64", ".f16", ".bf16"}},
    {".inc", {".u32"}},
    {".dec", {".u32"}},
    {".and", {".b32", ".b64"}},
    {".or", {".b32", ".b64"}},
    {".xor", {".b32", ".b64"}}};
const char *Types[] = {".b32", ".u32", ".s32", ".b64", ".u64",
                       ".s64", ".f32", ".f64", ".f16", ".bf16"};
} // namespace

TEST_CASE("cp.reduce.async.bulk: every redOp x type x .noftz, per destination") {
  struct Dest {
    const Matrix &M;
    std::string Prefix, Operands;
  } Dests[] = {
      {Cluster,
       "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes",
       " [%rd1], [%rd2], 16, [%rd3];"},
      {Global, "cp.reduce.async.bulk.global.shared::cta.bulk_group",
       " [%rd1], [%rd2], 16;"}};
  int Checked = 0;
  for (const Dest &D : Dests)
    for (const auto &[Op, Allowed] : D.M)
      for (const char *Ty : Types)
        for (bool Noftz : {false, true}) {
          std::string T = Ty;
          bool Half = Op == ".add" && (T == ".f16" || T == ".bf16");
          // Valid: in the table, and .noftz exactly on .add.f16/.bf16.
          bool Valid = Allowed.count(T) && Noftz == Half;
          std::string I = D.Prefix + Op + (Noftz ? ".noftz" : "") + T + D.Operands;
          Linted L = lintInstruction(I, "sm_90a", "8.0");
          CHECK_MESSAGE(L.clean() == Valid, std::string(I));
          ++Checked;
        }
  CHECK(Checked == 320);
}

TEST_CASE("cp.reduce.async.bulk: the message names both and the fix adds .noftz where the spec writes it") {
  Linted L = lintInstruction(
      "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f16 [%rd1], [%rd2], 16;");
  REQUIRE(L.first("Q107"));
  CHECK(L.first("Q107")->Message == "'.add' on '.f16' requires '.noftz'");
  CHECK(L.at(*L.first("Q107")) == ".add");
  CHECK(L.fixed() ==
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 "
        "[%rd1], [%rd2], 16;");
  CHECK(lintInstruction(L.fixed()).clean());

  L = lintInstruction(
      "cp.reduce.async.bulk.global.shared::cta.bulk_group.xor.s32 [%rd1], [%rd2], 16;");
  REQUIRE(L.first("Q107"));
  CHECK(L.at(*L.first("Q107")) == ".s32");
  CHECK(L.first("Q107")->Notes.front().Message == "'.xor' takes '.b32' or '.b64'");
}

TEST_CASE("cp.reduce.async.bulk.tensor: redOp required, no type, no .noftz") {
  const char *Base = "cp.reduce.async.bulk.tensor.1d.global.shared::cta";
  CHECK(lintInstruction(std::string(Base) + ".add.bulk_group [%rd1, {%r1}], [%rd2];").clean());
  CHECK(lintInstruction(std::string(Base) + ".bulk_group [%rd1, {%r1}], [%rd2];").has("Q105"));
  CHECK(lintInstruction(std::string(Base) + ".add.u32.bulk_group [%rd1, {%r1}], [%rd2];").has("Q102"));
  CHECK(lintInstruction(std::string(Base) + ".add.noftz.bulk_group [%rd1, {%r1}], [%rd2];").has("Q102"));
}

TEST_CASE("a missing qualifier is inserted where the spec's syntax writes its group") {
  // .completion_mechanism comes before .level::cache_hint in the syntax, so
  // it goes before the cache hint the author wrote, not at the end.
  Linted L = lintInstruction(
      "cp.async.bulk.global.shared::cta.L2::cache_hint [%rd1], [%rd2], 16, %rd3;");
  REQUIRE(L.first("Q105"));
  CHECK(L.fixed() == "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint "
                     "[%rd1], [%rd2], 16, %rd3;");
  // Nothing written after its place: at the end.
  Linted E = lintInstruction("cp.async.bulk.global.shared::cta [%rd1], [%rd2], 16;");
  CHECK(E.fixed() == "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%rd2], 16;");
}
