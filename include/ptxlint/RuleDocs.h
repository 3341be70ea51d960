//===- RuleDocs.h - Long rule documentation and rule-doc renderers -*- C++ -*-===//
//
// The data lives in RuleDocs.def, next to Rules.def. --list-rules,
// --explain, SARIF rule help and docs/rules.md are generated from both.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_RULEDOCS_H
#define PTXLINT_RULEDOCS_H

#include "ptxlint/RuleRegistry.h"

#include <string>
#include <string_view>
#include <vector>

namespace ptxlint {

struct RuleDoc {
  std::string_view Code;
  std::string_view Explanation;
  std::string_view Bad;
  std::string_view Good;
};

/// Every entry of RuleDocs.def, in file order.
const std::vector<RuleDoc> &allRuleDocs();
/// The documentation of a rule, or null if RuleDocs.def has none.
const RuleDoc *ruleDoc(std::string_view Code);

/// "--list-rules": one line per rule (code, name, severity, group, fix,
/// summary), aligned.
std::string renderRuleTable();
/// "--list-rules --format=json": a JSON array of rule objects.
std::string renderRuleTableJson();
/// "--explain CODE": summary, explanation, bad and good example.
std::string renderRuleExplanation(const RuleInfo &R);
/// docs/rules.md, generated.
std::string renderRulesMarkdown();

/// The name printed for a default severity in tables ("error", "warning",
/// "off" for an opt-in rule).
const char *defaultSeverityName(Severity S);

} // namespace ptxlint
#endif
