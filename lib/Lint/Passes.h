//===- Passes.h - Factories of every lint pass -------------------*- C++ -*-===//
//
// Each pass lives in a file of its own; PassRegistry.cpp lists them in the
// order they run.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_LINT_PASSES_H
#define PTXLINT_LINT_PASSES_H

#include "ptxlint/LintContext.h"

#include <memory>
#include <vector>

namespace ptxlint {

std::unique_ptr<LintPass> createModuleDirectivesPass();
std::unique_ptr<LintPass> createAsyncCopyCheckPass(); // lib/Check
std::unique_ptr<LintPass> createFlowPass(); ///< lib/Flow: rules F401..F409

/// Every pass, in run order.
std::vector<std::unique_ptr<LintPass>> createAllPasses();

} // namespace ptxlint
#endif
