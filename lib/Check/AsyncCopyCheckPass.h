//===- AsyncCopyCheckPass.h - The checker as a lint pass ---------*- C++ -*-===//
//
// lib/Lint lists the passes it runs (PassRegistry.cpp), so it depends on
// lib/Check, not the other way round: Check sees only the pass interface of
// ptxlint/LintContext.h.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_CHECK_ASYNCCOPYCHECKPASS_H
#define PTXLINT_CHECK_ASYNCCOPYCHECKPASS_H

#include "ptxlint/LintContext.h"

#include <memory>

namespace ptxlint {

/// The table-driven checker of the async-copy instructions (spec-tables/).
std::unique_ptr<LintPass> createAsyncCopyCheckPass();

} // namespace ptxlint
#endif
