//===- QualifierChecks.cpp - Q1xx: the dotted qualifiers ------------------===//
//
// Qualifier order is free (ptxas takes every permutation), except that of two
// state spaces the first is the destination and the second the source. So
// the checks work on the set of written words:
//   1. each word must belong to a group of the instruction      Q101, Q102
//   2. no word twice, no two words of one group                 Q103, Q104
//   3. the state spaces choose the form (direction)             Q106
//   4. the form must allow each group and value                 Q102
//   5. the form's required groups must be present               Q105
//   6. the rules and pair tables of the entry must hold         Q107, Q109
// Undocumented groups that ptxas accepts are reported once each  Q108.
//
//===----------------------------------------------------------------------===//

#include "Check/CheckContext.h"
#include "Support/EditDistance.h"

#include <algorithm>

namespace ptxlint {
namespace check {

using spec::FormSpec;
using spec::GroupKind;
using spec::GroupSpec;
using spec::Words;

static bool contains(const Words &W, std::string_view S) {
  return std::find(W.begin(), W.end(), S) != W.end();
}

/// Steps 1 and 2. Returns false if a word is unusable (unknown/duplicate).
/// The state spaces of PTX (ISA section 5.1): a word the tables do not list
/// but PTX does is a state space this instruction does not take, not an
/// unknown qualifier.
static bool isPtxStateSpace(std::string_view Word) {
  for (std::string_view S : {".reg", ".sreg", ".const", ".global", ".local",
                             ".param", ".shared", ".tex"})
    if (Word == S)
      return true;
  return false;
}

static const GroupSpec *stateSpaceGroup(const spec::InstructionSpec &I) {
  for (const GroupSpec &G : I.Groups)
    if (G.Kind == GroupKind::StateSpace)
      return &G;
  return nullptr;
}

/// The spellings of the instruction's qualifiers nearest to an unknown word,
/// if near enough to be a typo: one edit, two in a word of ten characters or
/// more (".b4x16" is no typo of ".bf16"). More than one: the typo is
/// ambiguous.
static Words nearestSpellings(const spec::InstructionSpec &I,
                              std::string_view Word) {
  Words Best;
  size_t BestDistance = Word.size() >= 10 ? 2 : 1;
  for (const GroupSpec &G : I.Groups)
    for (std::string_view V : G.Values) {
      size_t D = editDistance(Word, V);
      if (D > BestDistance || contains(Best, V))
        continue;
      if (D < BestDistance || Best.empty())
        Best.clear();
      BestDistance = D;
      Best.push_back(V);
    }
  return Best;
}

/// A misspelt qualifier: "did you mean", and with one candidate the check
/// goes on as if it were written (so no qualifier is reported missing and
/// no fix-it adds one next to the typo). The fix-it is given later, once
/// the form is known to take the correction (reportTypos).
static void reportUnknown(InstructionCheck &C, Qualifier &Q) {
  std::string_view Text = Q.Mod->Text;
  Words Near = nearestSpellings(C.Spec, Text);
  std::string Msg = "unknown qualifier " + q(Text) + " on " +
                    std::string(C.Spec.Name);
  if (Near.size() != 1) {
    if (!Near.empty())
      Msg += "; did you mean " + quotedList(Near) + "?";
    // Spellings of one group (.ca or .cg): the group is not missing too.
    const GroupSpec *G = Near.empty() ? nullptr : spec::groupOf(C.Spec, Near[0]);
    if (G && std::all_of(Near.begin(), Near.end(), [&](std::string_view V) {
          return spec::groupOf(C.Spec, V) == G;
        }))
      C.Reported.push_back(G);
    C.report(rules::UnknownQualifier, C.I.rangeOf(*Q.Mod), Msg).spec(C.Spec.Section);
    return;
  }
  C.Typos.push_back({Q.Mod, Msg + "; did you mean " + q(Near[0]) + "?"});
  Q.Mod = &C.Corrections.emplace_back(Modifier{Near[0], Q.Mod->ViewRange});
  Q.Group = spec::groupOf(C.Spec, Near[0]);
}

static bool classify(InstructionCheck &C) {
  bool Ok = true;
  std::vector<const Qualifier *> SeenInGroup;
  SeenInGroup.reserve(C.Quals.size()); // at most one per qualifier
  C.Spaces.reserve(C.Quals.size());
  for (size_t K = 0; K < C.Quals.size(); ++K) {
    Qualifier &Q = C.Quals[K];
    if (!Q.Group && !spec::isKnownQualifier(Q.Mod->Text) &&
        !isPtxStateSpace(Q.Mod->Text))
      reportUnknown(C, Q); // corrected when the typo is certain
    std::string_view Text = Q.Mod->Text;
    if (!Q.Group) {
      Ok = false;
      // A word of another instruction: if this one has a group of the same
      // name (".type", "state space"), say which values it takes.
      const GroupSpec *Same = nullptr;
      for (const spec::InstructionSpec &J : spec::instructions())
        if (const GroupSpec *G = spec::groupOf(J, Text); G && !J.ClassifyOnly)
          if ((Same = spec::findGroup(C.Spec, G->Name)))
            break;
      if (Same) {
        DiagBuilder D = C.report(rules::IllegalQualifier, C.I.rangeOf(*Q.Mod),
                                 q(Text) + " is not a " +
                                     std::string(Same->Display) + " of " +
                                     std::string(C.Spec.Name) + "; expected " +
                                     quotedList(Same->Values));
        if (Same->Values.size() == 1 && Same->Kind != GroupKind::StateSpace)
          D.fix(C.I.rangeOf(*Q.Mod), std::string(Same->Values[0]));
        D.spec(C.Spec.Section);
        C.Reported.push_back(Same);
      } else if (spec::isKnownQualifier(Text))
        C.report(rules::IllegalQualifier, C.I.rangeOf(*Q.Mod),
                 q(Text) + " is not a qualifier of " + std::string(C.Spec.Name))
            .spec(C.Spec.Section);
      else if (const GroupSpec *Spaces = stateSpaceGroup(C.Spec);
               Spaces && isPtxStateSpace(Text))
        C.report(rules::IllegalQualifier, C.I.rangeOf(*Q.Mod),
                 q(Text) + " is a state space " + std::string(C.Spec.Name) +
                     " does not take; expected " + quotedList(Spaces->Values))
            .spec(C.Spec.Section);
      continue; // unknown: reportUnknown said it
    }
    const Qualifier *Same = nullptr, *Rival = nullptr;
    for (const Qualifier *P : SeenInGroup) {
      if (P->Mod->Text == Text)
        Same = P;
      else if (P->Group == Q.Group && Q.Group->Kind != GroupKind::StateSpace)
        Rival = P;
    }
    // A state space written twice in a row (.global.global) is a duplicate;
    // other repeats are judged as a direction.
    bool Doubled = Same && K > 0 && C.Quals[K - 1].Mod == Same->Mod;
    if (Same && (Q.Group->Kind != GroupKind::StateSpace || Doubled)) {
      Ok = false;
      Q.Reported = true;
      // Remove the duplicate together with nothing else: it is a whole word.
      C.report(rules::DuplicateQualifier, C.I.rangeOf(*Q.Mod),
               "duplicate " + q(Text))
          .note(C.I.rangeOf(*Same->Mod), "first written here")
          .fix(C.I.rangeOf(*Q.Mod), "");
      continue;
    }
    if (Rival) {
      Ok = false;
      Q.Reported = true;
      C.report(rules::ConflictingQualifiers, C.I.rangeOf(*Q.Mod),
               q(Text) + " conflicts with " + q(Rival->Mod->Text) +
                   ": give only one " + std::string(Q.Group->Display))
          .note(C.I.rangeOf(*Rival->Mod), "the other one is here")
          .spec(C.Spec.Section);
      continue;
    }
    SeenInGroup.push_back(&Q);
    if (Q.Group->Kind == GroupKind::StateSpace)
      C.Spaces.push_back(Q.Mod);
  }
  return Ok;
}

static bool spaceFits(const Words &Accepted, const Modifier *Written) {
  return contains(Accepted, Written ? Written->Text : "none");
}

static bool formMatches(const FormSpec &F,
                        const std::vector<const Modifier *> &Spaces) {
  if (Spaces.size() > F.Spaces.size())
    return false;
  for (size_t P = 0; P < F.Spaces.size(); ++P)
    if (!spaceFits(F.Spaces[P], P < Spaces.size() ? Spaces[P] : nullptr))
      return false;
  return true;
}

static std::string spacesText(const std::vector<const Modifier *> &Spaces) {
  std::string S;
  for (const Modifier *M : Spaces)
    S += std::string(M->Text);
  return S;
}

/// Step 3: the state spaces written choose the form.
static const FormSpec *chooseForm(InstructionCheck &C, bool Classified) {
  for (const FormSpec &F : C.Spec.Forms)
    if (formMatches(F, C.Spaces))
      return &F;
  // A misspelt state space was reported already; a missing direction now
  // would only repeat it.
  if (!Classified)
    return nullptr;

  Words Directions;
  for (const FormSpec &F : C.Spec.Forms)
    if (!F.Display.empty())
      Directions.push_back(F.Display);
  std::string Expected = Directions.empty() ? std::string("no state space")
                         : Directions.size() == 1
                             ? quotedList(Directions)
                             : "one of " + quotedList(Directions);
  if (C.Spaces.empty()) {
    C.report(rules::InvalidDirection, C.NameRange,
             std::string(C.Spec.Name) + " needs its state spaces: " + Expected)
        .spec(C.Spec.Section);
    return nullptr;
  }
  SourceRange R{C.I.rangeOf(*C.Spaces.front()).Begin, C.I.rangeOf(*C.Spaces.back()).End};
  std::string Written = spacesText(C.Spaces);
  std::vector<const Modifier *> Swapped(C.Spaces.rbegin(), C.Spaces.rend());
  bool SwapFits = C.Spaces.size() == 2 &&
                  std::any_of(C.Spec.Forms.begin(), C.Spec.Forms.end(),
                              [&](const FormSpec &F) {
                                return formMatches(F, Swapped);
                              });
  size_t Needed = C.Spec.Forms.front().Spaces.size();
  std::string Msg =
      C.Spaces.size() < Needed
          ? q(Written) + " is not a direction of " + std::string(C.Spec.Name) +
                ": it needs a destination and a source state space, " + Expected
          : q(Written) + " is not a direction of " + std::string(C.Spec.Name) +
                "; expected " + Expected;
  DiagBuilder D = C.report(rules::InvalidDirection, R, Msg);
  if (C.Spaces.size() == 1 && Needed == 2) {
    // One state space of two: say on which side the other one is missing.
    bool IsDestination = std::any_of(
        C.Spec.Forms.begin(), C.Spec.Forms.end(), [&](const FormSpec &F) {
          return F.Spaces.size() == 2 && spaceFits(F.Spaces[0], C.Spaces[0]);
        });
    if (IsDestination)
      D.note(SourceRange{R.End, R.End}, "the source state space is missing here");
    else
      D.note(SourceRange{R.Begin, R.Begin},
             "the destination state space is missing here");
  }
  if (SwapFits) {
    D.note("the first state space is the destination, the second the source");
    D.fix(C.I.rangeOf(*C.Spaces[0]), std::string(C.Spaces[1]->Text));
    D.fix(C.I.rangeOf(*C.Spaces[1]), std::string(C.Spaces[0]->Text));
  }
  D.spec(C.Spec.Section);
  return nullptr;
}

/// The values of group G that form F accepts.
static Words acceptedValues(const FormSpec &F, const GroupSpec &G) {
  for (const Words &Only : F.Only)
    if (!Only.empty() && Only[0] == G.Name)
      return Words(Only.begin() + 1, Only.end());
  return G.Values;
}

/// Steps 4 and 5.
static void checkAgainstForm(InstructionCheck &C) {
  const FormSpec &F = *C.Form;
  for (const Qualifier &Q : C.Quals) {
    if (!Q.Group || Q.Reported || Q.Group->Kind == GroupKind::StateSpace)
      continue;
    bool Allowed =
        contains(F.Required, Q.Group->Name) || contains(F.Optional, Q.Group->Name);
    if (!Allowed) {
      C.report(rules::IllegalQualifier, C.I.rangeOf(*Q.Mod),
               q(Q.Mod->Text) + " is not allowed on " + C.formName())
          .spec(F.Section);
      continue;
    }
    Words Values = acceptedValues(F, *Q.Group);
    if (!contains(Values, Q.Mod->Text)) {
      DiagBuilder D = C.report(rules::IllegalQualifier, C.I.rangeOf(*Q.Mod),
                               q(Q.Mod->Text) + " is not allowed on " +
                                   C.formName() + "; expected " +
                                   quotedList(Values));
      if (Values.size() == 1)
        D.fix(C.I.rangeOf(*Q.Mod), std::string(Values[0]));
      D.spec(F.Section);
    }
  }
  for (std::string_view GroupName : F.Required) {
    const GroupSpec *G = spec::findGroup(C.Spec, GroupName);
    bool Present = std::any_of(C.Quals.begin(), C.Quals.end(),
                               [&](const Qualifier &Q) { return Q.Group == G; });
    bool Said = std::find(C.Reported.begin(), C.Reported.end(), G) !=
                C.Reported.end();
    if (Present || Said || !G)
      continue;
    Words Values = acceptedValues(F, *G);
    std::string Needs =
        Values.size() == 1
            ? q(Values[0]) + (G->Display == Values[0]
                                  ? std::string()
                                  : " (" + std::string(G->Display) + ")")
            : std::string(G->Display) + " (" + quotedList(Values) + ")";
    DiagBuilder D = C.report(rules::MissingQualifier, C.NameRange,
                             C.formName() + " needs " + Needs);
    SourceRange At = C.insertionPoint(Values[0]);
    if (Values.size() == 1)
      D.fix(At, std::string(Values[0]));
    else // no certain fix: say where it goes
      D.note(At, "write " + std::string(G->Display) + " here");
    D.spec(F.Section);
  }
}

/// "'.add' on '.f16'", "'.tile::gather4'".
static std::string describeIf(const Words &If) {
  std::string S = q(If[0]);
  for (size_t K = 1; K < If.size(); ++K)
    S += " on " + q(If[K]);
  return S;
}

static std::string describeNeeds(const std::vector<Words> &Sets) {
  std::string S;
  for (size_t K = 0; K < Sets.size(); ++K) {
    if (K)
      S += K + 1 == Sets.size() ? " or " : ", ";
    for (size_t J = 0; J < Sets[K].size(); ++J)
      S += (J ? " with " : "") + q(Sets[K][J]);
  }
  return S;
}

/// Step 6a: "if these, then one of these sets".
static void checkRules(InstructionCheck &C) {
  for (const spec::RuleSpec &R : C.Spec.Rules) {
    if (!C.inForms(R.Forms))
      continue;
    if (!std::all_of(R.If.begin(), R.If.end(),
                     [&](std::string_view Q) { return C.has(Q); }))
      continue;
    bool Met = std::any_of(R.NeedOneOf.begin(), R.NeedOneOf.end(),
                           [&](const Words &Set) {
                             return std::all_of(Set.begin(), Set.end(),
                                                [&](std::string_view Q) {
                                                  return C.has(Q);
                                                });
                           });
    if (Met)
      continue;
    std::string Msg = !R.Message.empty()
                          ? std::string(R.Message)
                          : describeIf(R.If) + " requires " +
                                describeNeeds(R.NeedOneOf);
    bool Error = R.Severity == spec::Level::Error;
    DiagBuilder D = C.report(Error ? rules::QualifierCombination
                                   : rules::DiscouragedQualifier,
                             C.I.rangeOf(*C.find(R.If[0])), Msg);
    if (R.FixInsert)
      D.fix(C.insertionPoint(R.NeedOneOf[0][0]), std::string(R.NeedOneOf[0][0]));
    if (!R.Note.empty())
      D.note(std::string(R.Note));
    D.spec(R.Section);
  }
}

/// The allowed column values of the row value Row in a table's rows.
static Words allowedIn(const std::vector<Words> &Rows, std::string_view Row) {
  for (const Words &Entry : Rows)
    if (!Entry.empty() && Entry[0] == Row)
      return Words(Entry.begin() + 1, Entry.end());
  return {};
}

/// Whether ptxas 13.0 takes the pair by another table here: T's operand
/// PtxasBareOperand is written without brackets and T's PtxasBareAllow
/// allows Row on Col (cp.reduce.async.bulk to .shared::cluster with a bare
/// mbar takes .min.bf16).
static bool ptxasTakesBare(const InstructionCheck &C, const spec::PairTableSpec &T,
                           std::string_view Row, std::string_view Col) {
  if (T.PtxasBareOperand.empty())
    return false;
  std::vector<const spec::OperandSpec *> Slots;
  if (!spec::layoutSlots(*C.Form, [&](std::string_view Q) { return C.has(Q); },
                         C.I.Operands.size(), Slots))
    return false;
  bool Bare = false;
  for (size_t K = 0; K < Slots.size(); ++K)
    Bare |= Slots[K]->Name == T.PtxasBareOperand && !C.I.Operands[K].isAddress();
  return Bare && contains(allowedIn(T.PtxasBareAllow, Row), Col);
}

/// Step 6b: allowed (row, column) pairs, e.g. redOp x type.
static void checkTables(InstructionCheck &C) {
  for (const spec::PairTableSpec &T : C.Spec.Tables) {
    if (!C.inForms(T.Forms))
      continue;
    const GroupSpec *RowG = spec::findGroup(C.Spec, T.Row);
    const GroupSpec *ColG = spec::findGroup(C.Spec, T.Column);
    const Modifier *Row = nullptr, *Col = nullptr;
    for (const Qualifier &Q : C.Quals) {
      if (Q.Group == RowG && !Row)
        Row = Q.Mod;
      if (Q.Group == ColG && !Col)
        Col = Q.Mod;
    }
    if (!Row || !Col)
      continue;
    Words Allowed = allowedIn(T.Allow, Row->Text);
    if (contains(Allowed, Col->Text))
      continue;
    std::string Msg = q(Row->Text) + " on " + q(Col->Text) +
                      " is not supported by " + C.formName();
    bool PtxasTakes = ptxasTakesBare(C, T, Row->Text, Col->Text);
    DiagBuilder D = C.report(PtxasTakes ? rules::DiscouragedQualifier
                                        : rules::QualifierCombination,
                             C.I.rangeOf(*Col), Msg);
    if (PtxasTakes)
      D.note("ptxas 13.0 accepts it with '" + std::string(T.PtxasBareOperand) +
             "' written without brackets (it checks another table then); "
             "written as an address, ptxas rejects it too");
    D.note(Allowed.empty() ? q(Row->Text) + " takes no " +
                                 std::string(ColG->Display) + " here"
                           : q(Row->Text) + " takes " + quotedList(Allowed));
    D.spec(T.Section);
  }
}

/// The misspelt qualifiers (see reportUnknown), with a fix-it that replaces
/// the word where the chosen form takes its correction.
static void reportTypos(InstructionCheck &C) {
  for (const InstructionCheck::Typo &T : C.Typos) {
    auto Q = std::find_if(C.Quals.begin(), C.Quals.end(), [&](const Qualifier &Q) {
      return C.I.rangeOf(*Q.Mod).Begin == C.I.rangeOf(*T.Written).Begin;
    });
    const GroupSpec *G = Q->Group;
    bool Taken = C.Form && G &&
                 (G->Kind == GroupKind::StateSpace ||
                  ((contains(C.Form->Required, G->Name) ||
                    contains(C.Form->Optional, G->Name)) &&
                   contains(acceptedValues(*C.Form, *G), Q->Mod->Text)));
    DiagBuilder D = C.report(rules::UnknownQualifier, C.I.rangeOf(*T.Written), T.Message);
    if (Taken)
      D.fix(C.I.rangeOf(*T.Written), std::string(Q->Mod->Text));
    D.spec(C.Spec.Section);
    Q->Reported = true; // not "not allowed" too, under a name not written
  }
}

static void reportUndocumented(InstructionCheck &C) {
  for (const Qualifier &Q : C.Quals)
    if (Q.Group && !Q.Reported && Q.Group->Undocumented) {
      DiagBuilder D = C.report(rules::UndocumentedQualifier, C.I.rangeOf(*Q.Mod),
                               q(Q.Mod->Text) + " on " +
                                   std::string(C.Spec.Name) +
                                   " is not documented by PTX ISA 9.1");
      if (!Q.Group->Note.empty())
        D.note(std::string(Q.Group->Note));
      D.spec(C.Spec.Section);
    }
}

void checkQualifiers(InstructionCheck &C) {
  bool Classified = classify(C);
  C.Form = chooseForm(C, Classified);
  reportTypos(C);
  reportUndocumented(C);
  if (!C.Form)
    return;
  checkAgainstForm(C);
  checkRules(C);
  checkTables(C);
}

} // namespace check
} // namespace ptxlint
