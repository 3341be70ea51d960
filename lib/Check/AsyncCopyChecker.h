//===- AsyncCopyChecker.h - Factory of the async-copy checker ---*- C++ -*-===//
#ifndef PTXLINT_CHECK_ASYNCCOPYCHECKER_H
#define PTXLINT_CHECK_ASYNCCOPYCHECKER_H

#include "ptxlint/LintContext.h"

#include <memory>

namespace ptxlint {

/// The table-driven checker of the async-copy family (rules Q1xx, O2xx,
/// T3xx), listed in lib/Lint/PassRegistry.cpp.
std::unique_ptr<LintPass> createAsyncCopyCheckPass();

} // namespace ptxlint
#endif
