//===- Target.cpp - GPU targets, families and PTX versions ----------------===//

#include "ptxlint/Target.h"

#include <algorithm>
#include <map>

namespace ptxlint {

std::string PtxVersion::str() const {
  return std::to_string(Major) + "." + std::to_string(Minor);
}

std::optional<PtxVersion> parsePtxVersion(std::string_view S) {
  size_t Dot = S.find('.');
  if (Dot == std::string_view::npos || Dot == 0 || Dot + 2 != S.size())
    return std::nullopt;
  PtxVersion V;
  for (char C : S.substr(0, Dot)) {
    if (C < '0' || C > '9')
      return std::nullopt;
    V.Major = V.Major * 10 + unsigned(C - '0');
  }
  char M = S[Dot + 1];
  if (M < '0' || M > '9' || V.Major == 0)
    return std::nullopt;
  V.Minor = unsigned(M - '0');
  return V;
}

// The chips, their families and the first PTX ISA version that accepts each
// spelling in .target: spec-tables/targets.yaml, generated into Targets.inc.
namespace {
struct ChipInfo {
  unsigned Number;
  unsigned Family;    ///< the family head ('f' features)
  unsigned RenamedTo; ///< 0, or the chip's newer name (101 -> 110)
  PtxVersion Base, Arch, Fam; ///< {} when there is no such variant
};
} // namespace

static const ChipInfo Chips[] = {
#include "Targets.inc"
};

static const ChipInfo *chip(unsigned Number) {
  for (const ChipInfo &C : Chips)
    if (C.Number == Number)
      return &C;
  return nullptr;
}

/// The chip as spelled: the old name of a renamed chip when Spelled101.
static unsigned spelledNumber(const Target &T) {
  if (T.Spelled101)
    for (const ChipInfo &C : Chips)
      if (C.RenamedTo == T.Number)
        return C.Number;
  return T.Number;
}

unsigned Target::family() const {
  const ChipInfo *C = chip(Number);
  return C ? C->Family : Number;
}

std::string Target::name() const {
  std::string S = "sm_" + std::to_string(spelledNumber(*this));
  if (Variant == TargetVariant::Arch)
    S += 'a';
  else if (Variant == TargetVariant::Family)
    S += 'f';
  return S;
}

PtxVersion Target::minPtx() const {
  const ChipInfo *C = chip(spelledNumber(*this));
  if (!C)
    return {};
  switch (Variant) {
  case TargetVariant::Base: return C->Base;
  case TargetVariant::Arch: return C->Arch;
  case TargetVariant::Family: return C->Fam;
  }
  return {};
}

std::optional<Target> parseTarget(std::string_view S) {
  if (S.substr(0, 3) == "sm_")
    S.remove_prefix(3);
  else if (S.substr(0, 8) == "compute_")
    S.remove_prefix(8);
  else
    return std::nullopt;
  Target T;
  size_t K = 0;
  while (K < S.size() && S[K] >= '0' && S[K] <= '9')
    T.Number = T.Number * 10 + unsigned(S[K++] - '0');
  if (K == 0 || K > 3)
    return std::nullopt;
  if (K + 1 == S.size() && S[K] == 'a')
    T.Variant = TargetVariant::Arch;
  else if (K + 1 == S.size() && S[K] == 'f')
    T.Variant = TargetVariant::Family;
  else if (K != S.size())
    return std::nullopt;
  const ChipInfo *C = chip(T.Number);
  if (!C || (T.Variant == TargetVariant::Arch && !C->Arch.known()) ||
      (T.Variant == TargetVariant::Family && !C->Fam.known()))
    return std::nullopt;
  if (C->RenamedTo) { // sm_101* is sm_110* (PTX ISA 9.0)
    T.Number = C->RenamedTo;
    T.Spelled101 = true;
  }
  return T;
}

template <typename StringT>
static std::optional<Target> lastTarget(const std::vector<StringT> &Entries) {
  std::optional<Target> Last;
  for (const StringT &E : Entries)
    if (auto T = parseTarget(E))
      Last = T;
  return Last;
}

std::optional<Target> effectiveTarget(const std::vector<std::string> &Entries) {
  return lastTarget(Entries);
}

std::optional<Target>
effectiveTarget(const std::vector<std::string_view> &Entries) {
  return lastTarget(Entries);
}

std::optional<Target>
effectiveTarget(std::initializer_list<std::string_view> Entries) {
  return lastTarget(std::vector<std::string_view>(Entries));
}

std::string ptxasArch(const Target &T, bool FrontEndOnly) {
  Target Current = T;
  Current.Spelled101 = false;
  std::string Name = Current.name();
  return FrontEndOnly ? "compute_" + Name.substr(3) : Name;
}

const std::vector<Target> &knownTargets() {
  static const std::vector<Target> All = [] {
    std::vector<Target> V;
    for (const ChipInfo &C : Chips) {
      for (const char *Suffix : {"", "a", "f"})
        if (auto T = parseTarget("sm_" + std::to_string(C.Number) + Suffix))
          V.push_back(*T);
    }
    return V;
  }();
  return All;
}

std::optional<TargetPattern> parseTargetPattern(std::string_view S) {
  if (S.substr(0, 3) != "sm_" || S.size() < 5)
    return std::nullopt;
  TargetPattern P;
  size_t K = 3;
  while (K < S.size() && S[K] >= '0' && S[K] <= '9')
    P.Number = P.Number * 10 + unsigned(S[K++] - '0');
  if (K + 1 != S.size())
    return std::nullopt;
  switch (S[K]) {
  case '+': P.K = TargetPattern::AndLater; break;
  case 'a': P.K = TargetPattern::ArchSpecific; break;
  case 'f': P.K = TargetPattern::FamilySpecific; break;
  default: return std::nullopt;
  }
  // The tables may use either name of a renamed chip.
  if (const ChipInfo *C = chip(P.Number); C && C->RenamedTo)
    P.Number = C->RenamedTo;
  return P;
}

bool reaches(const TargetPattern &P, const Target &T) {
  switch (P.K) {
  case TargetPattern::AndLater:
    return T.Number >= P.Number;
  case TargetPattern::ArchSpecific:
    return T.Variant == TargetVariant::Arch && T.Number == P.Number;
  case TargetPattern::FamilySpecific: {
    Target Head{P.Number, TargetVariant::Base, false};
    return T.Variant != TargetVariant::Base && T.family() == Head.family() &&
           T.Number >= P.Number;
  }
  }
  return false;
}

bool reachesAny(const std::vector<std::string_view> &Patterns,
                const Target &T) {
  for (std::string_view S : Patterns)
    if (auto P = parseTargetPattern(S); P && reaches(*P, T))
      return true;
  return false;
}

std::string describeTargets(const std::vector<std::string_view> &Patterns) {
  std::vector<std::string> Parts;
  // "sm_NN+" reads best as it is; the rest list the chips they reach.
  std::map<unsigned, std::string> Suffixes; // chip -> "a", "f", "a/f"
  for (std::string_view S : Patterns) {
    auto P = parseTargetPattern(S);
    if (!P)
      continue;
    if (P->K == TargetPattern::AndLater) {
      Parts.push_back("sm_" + std::to_string(P->Number) + " or later");
      continue;
    }
    for (const Target &T : knownTargets()) {
      if (T.Spelled101 || !reaches(*P, T))
        continue;
      std::string &Sfx = Suffixes[T.Number];
      char C = T.Variant == TargetVariant::Arch ? 'a' : 'f';
      if (Sfx.find(C) == std::string::npos)
        Sfx = Sfx.empty() ? std::string(1, C) : "a/f";
    }
  }
  for (const auto &[Number, Sfx] : Suffixes)
    Parts.push_back("sm_" + std::to_string(Number) + Sfx);
  std::string R;
  for (size_t K = 0; K < Parts.size(); ++K) {
    if (K)
      R += K + 1 == Parts.size() ? " or " : ", ";
    R += Parts[K];
  }
  return R;
}

} // namespace ptxlint
