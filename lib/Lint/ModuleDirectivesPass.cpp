//===- ModuleDirectivesPass.cpp - .version and .target present -----------===//
//
// A module without .version/.target can only be judged if the user says
// which PTX version and target to assume (--ptx-version, --target). Without
// either, version- and target-dependent rules stay silent; this pass says so.
//
//===----------------------------------------------------------------------===//

#include "Lint/Passes.h"
#include "ptxlint/RuleRegistry.h"

namespace ptxlint {
namespace {

class ModuleDirectivesPass : public LintPass {
public:
  const char *name() const override { return "module-directives"; }
  void run(LintContext &Ctx) override {
    bool HasCode = !Ctx.M.Functions.empty();
    if (!HasCode)
      return; // snippets of directives only: nothing depends on them
    if (Ctx.Settings.PtxMajor == 0)
      DiagBuilder(Ctx.Diags, ruleInfo(rules::MissingVersion).DefaultSeverity,
                  std::string(ruleInfo(rules::MissingVersion).Code), {0, 0},
                  "module has no .version directive; version-dependent rules "
                  "are skipped (pass --ptx-version to set one)")
          .spec(ruleInfo(rules::MissingVersion).Section);
    if (Ctx.Settings.Targets.empty())
      DiagBuilder(Ctx.Diags, ruleInfo(rules::MissingTarget).DefaultSeverity,
                  std::string(ruleInfo(rules::MissingTarget).Code), {0, 0},
                  "module has no .target directive; target-dependent rules "
                  "are skipped (pass --target to set one)")
          .spec(ruleInfo(rules::MissingTarget).Section);
  }
};

} // namespace

std::unique_ptr<LintPass> createModuleDirectivesPass() {
  return std::make_unique<ModuleDirectivesPass>();
}

} // namespace ptxlint
