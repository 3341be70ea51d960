//===- RuleRegistry.cpp - The table of rules from Rules.def --------------===//

#include "ptxlint/RuleRegistry.h"

namespace ptxlint {

const std::vector<RuleInfo> &allRules() {
  static const std::vector<RuleInfo> Rules = {
#define RULE(Id, Code, Name, Sev, Group, Section, HasFix, Summary)             \
  {rules::Id, Code, Name, Severity::Sev, Group, Section, HasFix, Summary},
#include "ptxlint/Rules.def"
  };
  return Rules;
}

const RuleInfo &ruleInfo(rules::Id Id) { return allRules()[Id]; }

const RuleInfo *findRule(std::string_view CodeOrName) {
  for (const RuleInfo &R : allRules())
    if (R.Code == CodeOrName || R.Name == CodeOrName)
      return &R;
  return nullptr;
}

} // namespace ptxlint
