// The rule registry and its documentation stay in sync (RuleDocs.def).
#include "ptxlint/RuleDocs.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

using namespace ptxlint;

TEST_CASE("every rule has documentation, and every doc names a rule") {
  std::set<std::string> Codes, Names;
  for (const RuleInfo &R : allRules()) {
    CHECK_MESSAGE(Codes.insert(std::string(R.Code)).second, "duplicate code " << R.Code);
    CHECK_MESSAGE(Names.insert(std::string(R.Name)).second, "duplicate name " << R.Name);
    const RuleDoc *D = ruleDoc(R.Code);
    CHECK_MESSAGE(D != nullptr, "rule " << R.Code
                                        << " has no RULE_DOC entry in "
                                           "include/ptxlint/RuleDocs.def");
    if (D) {
      CHECK_MESSAGE(!D->Explanation.empty(), R.Code << ": empty explanation");
      CHECK_MESSAGE(!D->Bad.empty(), R.Code << ": no bad example");
    }
  }
  std::set<std::string> Documented;
  for (const RuleDoc &D : allRuleDocs()) {
    CHECK_MESSAGE(Codes.count(std::string(D.Code)) == 1,
                  "RuleDocs.def documents unknown rule " << D.Code);
    CHECK_MESSAGE(Documented.insert(std::string(D.Code)).second,
                  "RuleDocs.def documents " << D.Code << " twice");
  }
}

TEST_CASE("--explain and the rule table come from the registry") {
  const RuleInfo *R = findRule("unused-suppression");
  REQUIRE(R);
  CHECK(R->Code == "X001");
  std::string E = renderRuleExplanation(*R);
  CHECK(E.find("X001 unused-suppression") == 0);
  CHECK(E.find("Bad:\n    cp.async.commit_group; // ptxlint: disable=S003") !=
        std::string::npos);
  std::string T = renderRuleTable();
  for (const RuleInfo &Rule : allRules())
    CHECK(T.find(std::string(Rule.Code) + " ") != std::string::npos);
  std::string M = renderRulesMarkdown();
  CHECK(M.find("## X101 invalid-config") != std::string::npos);
}
