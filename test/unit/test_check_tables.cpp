// Unit tests of the generated spec tables: they load, refer to what exists,
// and name every instruction of the family.
#include "Check/Predicates.h"
#include "ptxlint/SpecTables.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

using namespace ptxlint;
using namespace ptxlint::spec;

TEST_CASE("every instruction of the family is in the tables") {
  std::set<std::string> Names;
  for (const InstructionSpec &I : instructions())
    Names.insert(std::string(I.Name));
  for (const char *N :
       {"cp.async", "cp.async.commit_group", "cp.async.wait_group",
        "cp.async.wait_all", "cp.async.mbarrier.arrive", "cp.async.bulk",
        "cp.reduce.async.bulk", "cp.async.bulk.prefetch",
        "cp.async.bulk.tensor", "cp.reduce.async.bulk.tensor",
        "cp.async.bulk.prefetch.tensor", "cp.async.bulk.commit_group",
        "cp.async.bulk.wait_group", "mbarrier.arrive.expect_tx",
        "fence.proxy.async", "createpolicy"})
    CHECK_MESSAGE(Names.count(N), std::string(N));
}

TEST_CASE("each checked instruction has forms, a section and a minimum") {
  for (const InstructionSpec &I : instructions()) {
    CAPTURE(I.Name);
    CHECK(I.Section.substr(0, 4) == "9.7.");
    if (I.ClassifyOnly)
      continue;
    CHECK(!I.Forms.empty());
    bool HasMinimum = false;
    for (const FeatureSpec &F : I.Features)
      HasMinimum |= F.On.empty() && F.Forms.empty() && F.MinPtx.known() &&
                    !F.Targets.empty();
    CHECK(HasMinimum);
  }
}

TEST_CASE("the named predicates of the data exist in lib/Check") {
  for (const InstructionSpec &I : instructions())
    for (const FormSpec &F : I.Forms)
      for (const OperandSpec &O : F.Operands)
        if (!O.Check.empty())
          CHECK_MESSAGE(check::findPredicate(O.Check) != nullptr, O.Check);
  // and each predicate is used by some slot
  for (const check::NamedPredicate &P : check::allPredicates()) {
    bool Used = false;
    for (const InstructionSpec &I : instructions())
      for (const FormSpec &F : I.Forms)
        for (const OperandSpec &O : F.Operands)
          Used |= O.Check == P.Name;
    CHECK_MESSAGE(Used, P.Name);
  }
}

TEST_CASE("the longest instruction name wins") {
  size_t Used = 0;
  const InstructionSpec *I =
      findInstruction("cp", {".async", ".bulk", ".prefetch", ".tensor", ".2d"}, Used);
  REQUIRE(I);
  CHECK(I->Name == "cp.async.bulk.prefetch.tensor");
  CHECK(Used == 4);
  I = findInstruction("cp", {".async", ".bulk", ".shared::cta"}, Used);
  REQUIRE(I);
  CHECK(I->Name == "cp.async.bulk");
  CHECK(findInstruction("mov", {".b32"}, Used) == nullptr);
  // The name words are not free in order: ".bulk.async" is no instruction.
  I = findInstruction("cp", {".bulk", ".async"}, Used);
  CHECK(I == nullptr);
}

TEST_CASE("qualifier words are known across the family, not beyond") {
  CHECK(isKnownQualifier(".read"));
  CHECK(isKnownQualifier(".tile::gather4"));
  CHECK(isKnownQualifier(".noftz"));
  CHECK_FALSE(isKnownQualifier(".release")); // classify-only words do not count
  CHECK_FALSE(isKnownQualifier(".foo"));
}

TEST_CASE("a value belongs to one group of its instruction") {
  size_t Used = 0;
  const InstructionSpec *I =
      findInstruction("cp", {".reduce", ".async", ".bulk"}, Used);
  REQUIRE(I);
  const GroupSpec *G = groupOf(*I, ".bf16");
  REQUIRE(G);
  CHECK(G->Name == "type");
  CHECK(groupOf(*I, ".tile") == nullptr);
  CHECK(findForm(*I, "shared-cta-to-global") != nullptr);
}
