//===- PassRegistry.cpp - The list of lint passes, in run order ----------===//

#include "Lint/Passes.h"
#include "Check/AsyncCopyCheckPass.h"
#include "Flow/FlowPass.h"

namespace ptxlint {

std::vector<std::unique_ptr<LintPass>> createAllPasses() {
  std::vector<std::unique_ptr<LintPass>> Passes;
  Passes.push_back(createModuleDirectivesPass());
  Passes.push_back(createAsyncCopyCheckPass());
  Passes.push_back(createFlowPass());
  return Passes;
}

} // namespace ptxlint
