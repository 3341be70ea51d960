//===- Target.h - GPU targets, families and PTX versions --------*- C++ -*-===//
//
// The one target model of ptxlint: the linter's checker, the builder,
// lowering and the --ptxas driver resolve and judge targets only through it.
// The chips, their families and minimum PTX versions are data
// (spec-tables/targets.yaml, generated into lib/Target at build time).
//
//   sm_NN   the baseline target: its features carry forward to every later one
//   sm_NNa  arch-specific: baseline plus features of that one chip only
//   sm_NNf  family-specific: baseline plus features shared by the chips of its
//           family from NN on (sm_100f reaches sm_100f, sm_103f, sm_100a and
//           sm_103a); an 'a' target has every 'f' feature of its own chip.
// sm_101* was renamed sm_110* in PTX ISA 9.0: both spellings are one chip
// here, but each keeps its own minimum PTX version.
//
// A TargetSet is written in the tables the way the spec writes it:
//   "sm_90+"   sm_90 and every later target, any variant
//   "sm_100a"  exactly that arch-specific target
//   "sm_100f"  the family feature (see above)
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_TARGET_H
#define PTXLINT_TARGET_H

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxlint {

/// A PTX ISA version; 0.0 means unknown.
struct PtxVersion {
  unsigned Major = 0, Minor = 0;
  bool known() const { return Major != 0; }
  unsigned key() const { return Major * 10 + Minor; }
  bool operator<(PtxVersion O) const { return key() < O.key(); }
  bool operator>=(PtxVersion O) const { return key() >= O.key(); }
  bool operator==(PtxVersion O) const { return key() == O.key(); }
  std::string str() const;
};

/// Parses "8.6"; nullopt when malformed.
std::optional<PtxVersion> parsePtxVersion(std::string_view S);

enum class TargetVariant { Base, Arch /* 'a' */, Family /* 'f' */ };

struct Target {
  unsigned Number = 0;   ///< 90 for sm_90a; 110 for sm_101a (renamed)
  TargetVariant Variant = TargetVariant::Base;
  bool Spelled101 = false; ///< written sm_101*, the pre-9.0 name of sm_110*

  /// The family head: 100 for sm_100/sm_103, 110 for sm_110 (and sm_101),
  /// 120 for sm_120/sm_121; the number itself below sm_100.
  unsigned family() const;
  /// "sm_90a", "sm_101a" (as spelled).
  std::string name() const;
  /// Lowest PTX ISA version that accepts this target in .target.
  PtxVersion minPtx() const;
  bool operator==(const Target &O) const {
    return Number == O.Number && Variant == O.Variant &&
           Spelled101 == O.Spelled101;
  }
};

/// Parses "sm_90a", "sm_101f", "compute_90"; nullopt for anything else
/// (including the non-architecture entries "debug", "texmode_*").
std::optional<Target> parseTarget(std::string_view S);

/// The target a module is judged for, from its .target entries in order:
/// the last architecture named wins, as with ptxas 13.0 (".target sm_90a"
/// then ".target sm_100a" is an sm_100a module; so is ".target sm_90a,
/// sm_100a"). Non-architecture entries ("debug") are skipped.
std::optional<Target> effectiveTarget(const std::vector<std::string> &Entries);
std::optional<Target>
effectiveTarget(const std::vector<std::string_view> &Entries);
/// effectiveTarget({"sm_90a", "sm_100a"}) (a braced list picks this one).
std::optional<Target>
effectiveTarget(std::initializer_list<std::string_view> Entries);

/// The -arch ptxas 13.0 takes for T: the chip's current name (sm_101a
/// assembles as sm_110a), "compute_" for a front-end-only run.
std::string ptxasArch(const Target &T, bool FrontEndOnly);

/// Every target ptxlint knows, oldest first (the spelling sm_101* included).
const std::vector<Target> &knownTargets();

/// One item of a target set; see the file comment.
struct TargetPattern {
  enum Kind { AndLater, ArchSpecific, FamilySpecific } K = AndLater;
  unsigned Number = 0;
};
std::optional<TargetPattern> parseTargetPattern(std::string_view S);

/// Whether T has the feature that Pattern describes.
bool reaches(const TargetPattern &Pattern, const Target &T);
/// Whether T matches any of the patterns (an empty set matches nothing).
bool reachesAny(const std::vector<std::string_view> &Patterns, const Target &T);

/// A human list of the known targets a set reaches, grouped by chip:
/// "sm_100a/f, sm_103a/f or sm_110a/f"; "sm_90 or later" for "sm_90+".
std::string describeTargets(const std::vector<std::string_view> &Patterns);

} // namespace ptxlint
#endif
