//===- RuleRegistry.h - Stable rule codes, names and docs -------*- C++ -*-===//
#ifndef PTXLINT_RULEREGISTRY_H
#define PTXLINT_RULEREGISTRY_H

#include "ptxlint/Diagnostic.h"

#include <string_view>
#include <vector>

namespace ptxlint {
namespace rules {
enum Id : unsigned {
#define RULE(Id, Code, Name, Sev, Group, Section, HasFix, Summary) Id,
#include "ptxlint/Rules.def"
  NumRules
};
} // namespace rules

struct RuleInfo {
  rules::Id Id;
  std::string_view Code;     ///< "Q101"
  std::string_view Name;     ///< "unknown-qualifier"
  Severity DefaultSeverity;
  std::string_view Group;
  std::string_view Section;  ///< PTX ISA section, may be empty
  bool HasFix;
  std::string_view Summary;
};

const RuleInfo &ruleInfo(rules::Id Id);
const std::vector<RuleInfo> &allRules();
/// Finds a rule by code ("Q101") or name ("unknown-qualifier").
const RuleInfo *findRule(std::string_view CodeOrName);

} // namespace ptxlint
#endif
