//===- FormRules.cpp - What the tables say of one form's qualifiers -------===//

#include "FormRules.h"

#include <algorithm>

namespace ptxlint {
namespace build {
namespace {

bool listed(const spec::Words &L, std::string_view W) {
  return std::find(L.begin(), L.end(), W) != L.end();
}

std::string quoted(std::string_view W) { return "'" + std::string(W) + "'"; }

bool inForms(const spec::Words &Forms, const spec::FormSpec &F) {
  return Forms.empty() || listed(Forms, F.Name);
}

} // namespace

std::string_view WrittenQuals::of(std::string_view Group) const {
  for (const auto &[G, W] : Words)
    if (G->Name == Group)
      return W;
  return {};
}

bool WrittenQuals::has(std::string_view Word) const {
  for (const auto &[G, W] : Words)
    if (W == Word)
      return true;
  return false;
}

std::vector<std::string_view> printedQualifiers(std::string_view Text, std::string_view Name) {
  std::string_view Head = Text.substr(0, Text.find_first_of(" ;")).substr(Name.size());
  std::vector<std::string_view> Words;
  while (!Head.empty()) {
    size_t Next = Head.find('.', 1);
    Words.push_back(Head.substr(0, Next));
    Head = Next == std::string_view::npos ? std::string_view() : Head.substr(Next);
  }
  return Words;
}

WrittenQuals readQualifiers(const spec::InstructionSpec &Spec,
                            const std::vector<std::string_view> &Words,
                            std::vector<std::string> &Problems) {
  WrittenQuals Q;
  int Spaces = 0;
  for (std::string_view W : Words) {
    const spec::GroupSpec *G = spec::groupOf(Spec, W);
    if (!G) {
      Problems.push_back("unknown qualifier " + quoted(W));
      continue;
    }
    if (G->Kind == spec::GroupKind::StateSpace) {
      if (++Spaces > 2)
        Problems.push_back("more than two state spaces");
      Q.Spaces += W;
      continue;
    }
    if (!Q.of(G->Name).empty())
      Problems.push_back("qualifier group of " + quoted(W) + " written twice");
    else
      Q.Words.emplace_back(G, W);
  }
  return Q;
}

std::string formName(const spec::InstructionSpec &Spec, const spec::FormSpec &Form) {
  return std::string(Spec.Name) + (Form.Display.empty() ? "" : " ") +
         std::string(Form.Display);
}

void formProblems(const spec::InstructionSpec &Spec, const spec::FormSpec &Form,
                  const WrittenQuals &Q, std::vector<std::string> &Out) {
  std::string Name = formName(Spec, Form);
  for (const auto &[G, W] : Q.Words) {
    if (!listed(Form.Required, G->Name) && !listed(Form.Optional, G->Name)) {
      Out.push_back("qualifier " + quoted(W) + " is not part of " + Name);
      continue;
    }
    for (const spec::Words &Only : Form.Only)
      if (!Only.empty() && Only[0] == G->Name && !listed(Only, W))
        Out.push_back(Name + " does not take " + quoted(W));
  }
  for (std::string_view G : Form.Required)
    if (Q.of(G).empty()) {
      const spec::GroupSpec *Group = spec::findGroup(Spec, G);
      Out.push_back(Name + " needs " +
                    std::string(Group && !Group->Display.empty() ? Group->Display : G));
    }
  auto Has = [&](std::string_view W) { return Q.has(W); };
  for (const spec::RuleSpec &R : Spec.Rules) {
    if (R.Severity != spec::Level::Error || !inForms(R.Forms, Form) ||
        !std::all_of(R.If.begin(), R.If.end(), Has))
      continue;
    bool Met = std::any_of(R.NeedOneOf.begin(), R.NeedOneOf.end(), [&](const spec::Words &S) {
      return std::all_of(S.begin(), S.end(), Has);
    });
    if (Met)
      continue;
    std::string Need;
    for (size_t K = 0; K < R.NeedOneOf.size(); ++K) {
      Need += K ? " or " : "";
      for (size_t J = 0; J < R.NeedOneOf[K].size(); ++J)
        Need += (J ? " with " : "") + quoted(R.NeedOneOf[K][J]);
    }
    std::string If;
    for (std::string_view W : R.If)
      If += (If.empty() ? "" : " with ") + quoted(W);
    Out.push_back(If + " needs " + Need);
  }
  for (const spec::PairTableSpec &T : Spec.Tables) {
    std::string_view Row = Q.of(T.Row), Col = Q.of(T.Column);
    if (!inForms(T.Forms, Form) || Row.empty() || Col.empty())
      continue;
    bool Ok = false;
    for (const spec::Words &Entry : T.Allow)
      if (!Entry.empty() && Entry[0] == Row)
        Ok = listed(spec::Words(Entry.begin() + 1, Entry.end()), Col);
    if (!Ok)
      Out.push_back(quoted(Row) + " on " + quoted(Col) + " is not supported by " + Name);
  }
}

} // namespace build
} // namespace ptxlint
