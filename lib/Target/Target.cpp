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

// Chips and the first PTX ISA version that accepts each spelling in .target
// (PTX ISA 9.1 section 11.1; verified with ptxas 13.0 where it knows the
// target). Family-specific variants exist from sm_100 on and need PTX 8.8.
namespace {
struct ChipInfo {
  unsigned Number;
  PtxVersion Base, Arch; ///< Arch: {} when there is no 'a' variant
  bool HasFamily;
};
} // namespace

static const ChipInfo Chips[] = {
    {50, {4, 0}, {}, false},    {52, {4, 1}, {}, false},
    {53, {4, 2}, {}, false},    {60, {5, 0}, {}, false},
    {61, {5, 0}, {}, false},    {62, {5, 0}, {}, false},
    {70, {6, 0}, {}, false},    {72, {6, 1}, {}, false},
    {75, {6, 3}, {}, false},    {80, {7, 0}, {}, false},
    {86, {7, 1}, {}, false},    {87, {7, 4}, {}, false},
    {88, {9, 0}, {}, false},    {89, {7, 8}, {}, false},
    {90, {7, 8}, {8, 0}, false},
    {100, {8, 6}, {8, 6}, true}, {101, {8, 6}, {8, 6}, true},
    {103, {8, 8}, {8, 8}, true}, {110, {9, 0}, {9, 0}, true},
    {120, {8, 7}, {8, 7}, true}, {121, {8, 8}, {8, 8}, true},
};

static const ChipInfo *chip(unsigned Number) {
  for (const ChipInfo &C : Chips)
    if (C.Number == Number)
      return &C;
  return nullptr;
}

unsigned Target::family() const {
  switch (Number) {
  case 100: case 103: return 100;
  case 110: return 110;
  case 120: case 121: return 120;
  default: return Number;
  }
}

std::string Target::name() const {
  std::string S = "sm_" + std::to_string(Spelled101 ? 101 : Number);
  if (Variant == TargetVariant::Arch)
    S += 'a';
  else if (Variant == TargetVariant::Family)
    S += 'f';
  return S;
}

PtxVersion Target::minPtx() const {
  const ChipInfo *C = chip(Spelled101 ? 101 : Number);
  if (!C)
    return {};
  if (Variant == TargetVariant::Family)
    return {8, 8};
  return Variant == TargetVariant::Arch ? C->Arch : C->Base;
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
      (T.Variant == TargetVariant::Family && !C->HasFamily))
    return std::nullopt;
  if (T.Number == 101) { // renamed sm_110 in PTX ISA 9.0
    T.Number = 110;
    T.Spelled101 = true;
  }
  return T;
}

std::optional<Target> effectiveTarget(const std::vector<std::string> &Entries) {
  std::optional<Target> Last;
  for (const std::string &E : Entries)
    if (auto T = parseTarget(E))
      Last = T;
  return Last;
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
  if (P.Number == 101) // the tables may use either name of the chip
    P.Number = 110;
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
