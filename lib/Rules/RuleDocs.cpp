//===- RuleDocs.cpp - Rule documentation from RuleDocs.def ---------------===//

#include "ptxlint/RuleDocs.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace ptxlint {

const std::vector<RuleDoc> &allRuleDocs() {
  static const std::vector<RuleDoc> Docs = {
#define RULE_DOC(Code, Explanation, Bad, Good) {Code, Explanation, Bad, Good},
#include "ptxlint/RuleDocs.def"
  };
  return Docs;
}

const RuleDoc *ruleDoc(std::string_view Code) {
  for (const RuleDoc &D : allRuleDocs())
    if (D.Code == Code)
      return &D;
  return nullptr;
}

const char *defaultSeverityName(Severity S) {
  return S == Severity::Ignored ? "off" : severityName(S);
}

namespace {

llvm::StringRef sv(std::string_view S) { return {S.data(), S.size()}; }

void indent(std::string &Out, std::string_view Text, std::string_view Prefix) {
  size_t Pos = 0;
  while (Pos <= Text.size()) {
    size_t NL = Text.find('\n', Pos);
    std::string_view Line =
        Text.substr(Pos, NL == std::string_view::npos ? std::string_view::npos
                                                       : NL - Pos);
    Out += Prefix;
    Out += Line;
    Out += '\n';
    if (NL == std::string_view::npos)
      break;
    Pos = NL + 1;
  }
}

/// Greedy word wrap at Width columns.
void wrap(std::string &Out, std::string_view Text, size_t Width) {
  size_t Col = 0;
  size_t Pos = 0;
  while (Pos < Text.size()) {
    while (Pos < Text.size() && Text[Pos] == ' ')
      ++Pos;
    size_t End = Text.find(' ', Pos);
    if (End == std::string_view::npos)
      End = Text.size();
    std::string_view Word = Text.substr(Pos, End - Pos);
    if (Word.empty())
      break;
    if (Col && Col + 1 + Word.size() > Width) {
      Out += '\n';
      Col = 0;
    } else if (Col) {
      Out += ' ';
      ++Col;
    }
    Out += Word;
    Col += Word.size();
    Pos = End;
  }
  Out += '\n';
}

} // namespace

std::string renderRuleTable() {
  size_t NameW = 4;
  for (const RuleInfo &R : allRules())
    NameW = std::max(NameW, R.Name.size());
  std::string Out;
  auto Row = [&](std::string_view Code, std::string_view Name,
                 std::string_view Sev, std::string_view Group,
                 std::string_view Fix, std::string_view Summary) {
    std::string Line;
    Line += Code;
    Line.append(Code.size() < 6 ? 6 - Code.size() : 1, ' ');
    Line += Name;
    Line.append(NameW + 2 - Name.size(), ' ');
    Line += Sev;
    Line.append(Sev.size() < 9 ? 9 - Sev.size() : 1, ' ');
    Line += Group;
    Line.append(Group.size() < 13 ? 13 - Group.size() : 1, ' ');
    Line += Fix;
    Line.append(Fix.size() < 5 ? 5 - Fix.size() : 1, ' ');
    Line += Summary;
    Out += Line + '\n';
  };
  Row("CODE", "NAME", "DEFAULT", "GROUP", "FIX", "SUMMARY");
  for (const RuleInfo &R : allRules())
    Row(R.Code, R.Name, defaultSeverityName(R.DefaultSeverity), R.Group,
        R.HasFix ? "yes" : "-", R.Summary);
  return Out;
}

std::string renderRuleTableJson() {
  std::string S;
  llvm::raw_string_ostream OS(S);
  llvm::json::OStream J(OS, 2);
  J.array([&] {
    for (const RuleInfo &R : allRules()) {
      const RuleDoc *D = ruleDoc(R.Code);
      J.object([&] {
        J.attribute("code", sv(R.Code));
        J.attribute("name", sv(R.Name));
        J.attribute("defaultSeverity", defaultSeverityName(R.DefaultSeverity));
        J.attribute("group", sv(R.Group));
        J.attribute("specSection", sv(R.Section));
        J.attribute("hasFix", R.HasFix);
        J.attribute("summary", sv(R.Summary));
        J.attribute("explanation", sv(D ? D->Explanation : ""));
        J.attribute("bad", sv(D ? D->Bad : ""));
        J.attribute("good", sv(D ? D->Good : ""));
      });
    }
  });
  OS << '\n';
  return OS.str();
}

std::string renderRuleExplanation(const RuleInfo &R) {
  std::string Out;
  Out += std::string(R.Code) + " " + std::string(R.Name) + "\n";
  Out += "  default severity: " +
         std::string(defaultSeverityName(R.DefaultSeverity)) +
         "; group: " + std::string(R.Group) +
         "; fix: " + (R.HasFix ? "yes" : "no");
  if (!R.Section.empty())
    Out += "; PTX ISA section " + std::string(R.Section);
  Out += "\n\n";
  wrap(Out, R.Summary, 78);
  const RuleDoc *D = ruleDoc(R.Code);
  if (!D)
    return Out;
  Out += '\n';
  wrap(Out, D->Explanation, 78);
  if (!D->Bad.empty()) {
    Out += "\nBad:\n";
    indent(Out, D->Bad, "    ");
  }
  if (!D->Good.empty()) {
    Out += "\nGood:\n";
    indent(Out, D->Good, "    ");
  }
  return Out;
}

std::string renderRulesMarkdown() {
  std::string Out;
  Out += "<!-- Generated from include/ptxlint/Rules.def and RuleDocs.def by\n"
         "     `ninja -C build ptxlint-rules-doc`; do not edit by hand\n"
         "     (test/lit/cli/rules-doc.test fails when this file is stale). "
         "-->\n";
  Out += "# ptxlint rules\n\n";
  Out += "Every diagnostic has a stable code. Select or ignore rules by code, "
         "code prefix, name or\ngroup (see [usage.md](usage.md)); "
         "`ptxlint --explain CODE` prints the entry below.\n\n";
  Out += "| Code | Name | Default | Group | Fix | Summary |\n";
  Out += "| --- | --- | --- | --- | --- | --- |\n";
  for (const RuleInfo &R : allRules()) {
    Out += "| [" + std::string(R.Code) + "](#" + std::string(R.Code) + ") | `" +
           std::string(R.Name) + "` | " +
           defaultSeverityName(R.DefaultSeverity) + " | " +
           std::string(R.Group) + " | " + (R.HasFix ? "yes" : "") + " | " +
           std::string(R.Summary) + " |\n";
  }
  for (const RuleInfo &R : allRules()) {
    Out += "\n<a id=\"" + std::string(R.Code) + "\"></a>\n## " +
           std::string(R.Code) + " " + std::string(R.Name) + "\n\n";
    Out += "Default: " + std::string(defaultSeverityName(R.DefaultSeverity)) +
           ". Group: " + std::string(R.Group) + ". Fix: " +
           (R.HasFix ? "yes" : "no") + ".";
    if (!R.Section.empty())
      Out += " PTX ISA section " + std::string(R.Section) + ".";
    Out += "\n\n" + std::string(R.Summary) + ".\n";
    if (const RuleDoc *D = ruleDoc(R.Code)) {
      Out += "\n" + std::string(D->Explanation) + "\n";
      if (!D->Bad.empty())
        Out += "\nBad:\n\n```ptx\n" + std::string(D->Bad) + "\n```\n";
      if (!D->Good.empty())
        Out += "\nGood:\n\n```ptx\n" + std::string(D->Good) + "\n```\n";
    }
  }
  return Out;
}

} // namespace ptxlint
