//===- FlowPass.h - The flow rules as a lint pass ----------------*- C++ -*-===//
//
// lib/Lint lists the passes it runs (PassRegistry.cpp), so it depends on
// lib/Flow, not the other way round: Flow sees only the pass interface of
// ptxlint/LintContext.h.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_FLOW_FLOWPASS_H
#define PTXLINT_FLOW_FLOWPASS_H

#include "ptxlint/LintContext.h"

#include <memory>

namespace ptxlint {

/// The flow rules F401..F409 over each function's control-flow graph.
std::unique_ptr<LintPass> createFlowPass();

} // namespace ptxlint
#endif
