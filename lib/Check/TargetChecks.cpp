//===- TargetChecks.cpp - T3xx: targets and PTX versions ------------------===//
//
// Each FeatureSpec gives a minimum PTX version and/or the targets that have a
// feature: the whole instruction (no "on"), or any of some qualifiers, maybe
// only in some forms. Every sm target of the module must have it. The
// feature's level decides the rule:
//   error    T301 (target) / T302 (version): ptxas rejects it
//   warning  T303 / T304: ptxas accepts it, the spec does not document it
//   advice   T305: a performance advisory (ptxas prints it too)
// When the instruction itself is unavailable, its qualifiers are not judged:
// one diagnostic says it all.
//
//===----------------------------------------------------------------------===//

#include "Check/CheckContext.h"

#include <algorithm>

namespace ptxlint {
namespace check {

using spec::FeatureSpec;

namespace {
struct Trigger {
  const Modifier *Qualifier = nullptr; ///< nullptr: the instruction itself
  SourceRange Range;
  std::string What;
};
} // namespace

static bool triggered(const InstructionCheck &C, const FeatureSpec &F,
                      Trigger &T) {
  if (!C.inForms(F.Forms))
    return false;
  if (F.On.empty()) {
    T.Range = C.NameRange;
    T.What = F.What.empty() ? std::string(C.Spec.Name) : std::string(F.What);
    return true;
  }
  for (std::string_view Q : F.On)
    if (const Modifier *M = C.find(Q)) {
      T.Qualifier = M;
      T.Range = C.I.rangeOf(*M);
      T.What = F.What.empty() ? q(M->Text) : std::string(F.What);
      if (!F.Forms.empty() && F.What.empty())
        T.What += " on " + C.formName();
      return true;
    }
  return false;
}

static const Target *missingTarget(const InstructionCheck &C,
                                   const FeatureSpec &F) {
  if (F.Targets.empty())
    return nullptr;
  for (const Target &T : C.Targets)
    if (!reachesAny(F.Targets, T))
      return &T;
  return nullptr;
}

/// Returns true when it reported an error about the instruction itself.
static bool checkFeature(InstructionCheck &C, const FeatureSpec &F,
                         std::vector<const Modifier *> &Failed) {
  Trigger T;
  if (!triggered(C, F, T))
    return false;
  bool Error = F.Severity == spec::Level::Error && !F.Advice;
  // Once a qualifier is an error here, what the spec adds is noise.
  if (!Error && T.Qualifier &&
      std::find(Failed.begin(), Failed.end(), T.Qualifier) != Failed.end())
    return false;
  bool Reported = false;

  if (F.MinPtx.known() && C.Version.known() && C.Version < F.MinPtx) {
    std::string Msg =
        Error ? T.What + " needs PTX ISA " + F.MinPtx.str() +
                    ", but the module is .version " + C.Version.str()
              : T.What + " is documented from PTX ISA " + F.MinPtx.str() +
                    " on, but the module is .version " + C.Version.str();
    DiagBuilder D = C.report(Error ? rules::PtxVersionTooOld
                                   : rules::PtxVersionNotDocumented,
                             T.Range, Msg);
    if (!F.Note.empty())
      D.note(std::string(F.Note));
    if (C.Ctx.Settings.VersionRange.End)
      D.note(C.Ctx.Settings.VersionRange, "version set here");
    D.spec(F.Section);
    Reported = Error;
  }

  if (const Target *Missing = missingTarget(C, F)) {
    std::string Targets = describeTargets(F.Targets);
    rules::Id Rule = F.Advice  ? rules::TargetAdvisory
                     : Error   ? rules::TargetUnsupported
                               : rules::TargetNotDocumented;
    std::string Msg =
        F.Advice ? T.What + " is advised only on " + Targets +
                       "; it may be substantially slower on " + Missing->name()
        : Error  ? T.What + " needs " + Targets + ", but the module targets " +
                       Missing->name()
                 : T.What + " is documented only for " + Targets +
                       ", but the module targets " + Missing->name();
    DiagBuilder D = C.report(Rule, T.Range, Msg);
    if (!F.Note.empty())
      D.note(std::string(F.Note));
    if (C.Ctx.Settings.TargetRange.End)
      D.note(C.Ctx.Settings.TargetRange, "target set here");
    D.spec(F.Section);
    Reported |= Error;
  }
  if (Reported && T.Qualifier)
    Failed.push_back(T.Qualifier);
  return Reported && !T.Qualifier && F.Forms.empty();
}

void checkTargets(InstructionCheck &C) {
  std::vector<const Modifier *> Failed;
  // The instruction-wide features first: if the instruction is unavailable,
  // saying so for each of its qualifiers too would only be noise.
  for (const FeatureSpec &F : C.Spec.Features)
    if (F.On.empty() && F.Forms.empty() && checkFeature(C, F, Failed))
      return;
  // Errors before warnings, so that a warning can yield to an error.
  for (spec::Level L : {spec::Level::Error, spec::Level::Warning})
    for (const FeatureSpec &F : C.Spec.Features)
      if (!(F.On.empty() && F.Forms.empty()) && F.Severity == L)
        checkFeature(C, F, Failed);
}

} // namespace check
} // namespace ptxlint
