//===- Passes.h - Factories of every lint pass -------------------*- C++ -*-===//
//
// Each pass lives in a file of its own; PassRegistry.cpp lists them in the
// order they run. The checker and the flow rules declare theirs in their own
// folders (Check/AsyncCopyCheckPass.h, Flow/FlowPass.h): Lint depends on them.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_LINT_PASSES_H
#define PTXLINT_LINT_PASSES_H

#include "ptxlint/LintContext.h"

#include <memory>
#include <vector>

namespace ptxlint {

std::unique_ptr<LintPass> createModuleDirectivesPass();

/// Every pass, in run order.
std::vector<std::unique_ptr<LintPass>> createAllPasses();

} // namespace ptxlint
#endif
