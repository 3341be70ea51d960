//===- ModuleDirectivesPass.cpp - .version and .target --------------------===//
//
// Module-level checks of the directives every other rule depends on:
//  - M001/M002: a module with code but no .version/.target can only be judged
//    if the user says what to assume (--ptx-version, --target); without them,
//    version- and target-dependent rules stay silent, and this pass says so.
//  - M003: a .target entry that names no architecture ptxlint knows.
//  - M004: a .version older than the .target needs (ptxas: "PTX .version 6.5
//    does not support .target sm_80").
//  - M005: a .version that is no PTX ISA version (7.9, 8.9: ptxas fatal
//    "Unsupported .version") or is newer than the newest one known (9.1);
//    the same for a version given by --ptx-version or the configuration when
//    it is the one used.
//
//===----------------------------------------------------------------------===//

#include "Lint/Passes.h"
#include "ptxlint/RuleRegistry.h"
#include "ptxlint/Target.h"

namespace ptxlint {
namespace {

/// The last minor version of each PTX ISA major version (1.x .. 9.x).
constexpr unsigned LastMinor[] = {0, 5, 3, 2, 3, 0, 5, 8, 8, 1};
constexpr unsigned NewestMajor = 9;

bool isKnownVersion(unsigned Major, unsigned Minor) {
  return Major >= 1 && Major <= NewestMajor && Minor <= LastMinor[Major];
}

/// Entries of .target that are modifiers, not architectures.
bool isTargetModifier(std::string_view S) {
  return S == "debug" || S == "texmode_unified" || S == "texmode_independent" ||
         S == "map_f64_to_f32";
}

class ModuleDirectivesPass : public LintPass {
public:
  const char *name() const override { return "module-directives"; }

  void runModule(LintContext &Ctx) override {
    checkPresence(Ctx);
    const ModuleDirectives &D = Ctx.M.Directives;
    const ModuleSettings &S = Ctx.Settings;
    if (S.VersionFromOptions)
      checkVersion(Ctx, S.PtxMajor, S.PtxMinor, {0, 0},
                   " (given by --ptx-version or 'ptx-version:')");
    else if (D.HasVersion)
      checkVersion(Ctx, D.VersionMajor, D.VersionMinor, D.VersionRange, "");
    for (std::string_view Entry : D.Targets)
      checkTargetEntry(Ctx, D, Entry);
  }

private:
  static void report(LintContext &Ctx, rules::Id Rule, SourceRange R,
                     std::string Msg) {
    DiagBuilder(Ctx.Diags, Rule, R, std::move(Msg));
  }

  static void checkPresence(LintContext &Ctx) {
    if (Ctx.M.Functions.empty())
      return; // snippets of directives only: nothing depends on them
    if (Ctx.Settings.PtxMajor == 0)
      report(Ctx, rules::MissingVersion, {0, 0},
             "module has no .version directive; version-dependent rules are "
             "skipped (pass --ptx-version to set one)");
    if (Ctx.Settings.Targets.empty())
      report(Ctx, rules::MissingTarget, {0, 0},
             "module has no .target directive; target-dependent rules are "
             "skipped (pass --target to set one)");
  }

  /// Origin: "" for the .version at R, else where the version came from.
  static void checkVersion(LintContext &Ctx, unsigned Major, unsigned Minor,
                           SourceRange R, std::string_view Origin) {
    std::string V = std::to_string(Major) + "." + std::to_string(Minor);
    if (Major > NewestMajor ||
        (Major == NewestMajor && Minor > LastMinor[NewestMajor]))
      report(Ctx, rules::UnsupportedVersion, R,
             "PTX ISA " + V + std::string(Origin) +
                 " is newer than the newest version ptxlint knows "
                 "(9.1); rules of 9.1 are applied");
    else if (!isKnownVersion(Major, Minor))
      report(Ctx, rules::UnsupportedVersion, R,
             "there is no PTX ISA version " + V + std::string(Origin) + " (PTX " +
                 std::to_string(Major) + ".x ends at " + std::to_string(Major) + "." +
                 std::to_string(Major >= 1 && Major <= NewestMajor ? LastMinor[Major] : 0) +
                 ")");
  }

  static void checkTargetEntry(LintContext &Ctx, const ModuleDirectives &D,
                               std::string_view Entry) {
    SourceRange R{uint32_t(Entry.data() - Ctx.M.Text.data()),
                  uint32_t(Entry.data() - Ctx.M.Text.data() + Entry.size())};
    if (isTargetModifier(Entry))
      return;
    std::optional<Target> T = parseTarget(Entry);
    if (!T) {
      report(Ctx, rules::UnknownTarget, R,
             "unknown target '" + std::string(Entry) +
                 "'; expected an architecture such as sm_90a or sm_100f");
      return;
    }
    PtxVersion Need = T->minPtx();
    if (D.HasVersion && Need.known() &&
        PtxVersion{D.VersionMajor, D.VersionMinor} < Need) {
      DiagBuilder(Ctx.Diags, rules::VersionTooOldForTarget, R,
                  "PTX .version " + std::to_string(D.VersionMajor) + "." +
                      std::to_string(D.VersionMinor) + " does not support .target " +
                      std::string(Entry) + " (it needs PTX " + Need.str() +
                      " or later)")
          .note(D.VersionRange, ".version is set here");
    }
  }
};

} // namespace

std::unique_ptr<LintPass> createModuleDirectivesPass() {
  return std::make_unique<ModuleDirectivesPass>();
}

} // namespace ptxlint
