//===- Lower.h - Rewrite async copies for a module's target -------*- C++ -*-===//
//
// lowerModule() reads every instruction of the async-copy family in a module
// and rewrites it, given the module's .target and .version (or the options),
// into an equivalent the target takes, where the spec makes the rewrite exact:
//
//   * cp.async.bulk{.tensor} with destination .shared::cta below PTX 8.6 ->
//     .shared::cluster (a .shared::cluster address of the executing CTA is
//     its .shared::cta window; section 9.7.9.25.4.1 / 9.7.9.25.5.2). Not for
//     forms that only exist from 8.6 (.cta_group, gather4, im2col::w).
//   * cp.async.shared::cta below PTX 7.8 -> cp.async.shared (the same
//     window for a non-cluster launch: ::cta is the default).
//   * cp.async.wait_all -> cp.async.commit_group; cp.async.wait_group 0;
//     (the spec's own definition, section 9.7.9.25.3.3).
//   * every instruction printed in the builder's canonical qualifier order
//     (Builder.h), with load modes explicit (.tile).
//
// What stays impossible (cp.async.bulk on sm_80, .cp_mask on sm_90, ...) is
// refused with an L002 error on the instruction, which is left as written;
// instructions the builder cannot read get an L003 warning and stay as they
// are.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_LOWER_H
#define PTXLINT_LOWER_H

#include "ptxlint/Diagnostic.h"
#include "ptxlint/SourceBuffer.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxlint {

struct LowerOptions {
  /// Override (or supply, if the module has none) the target / version.
  std::optional<std::string> Target;
  std::optional<std::pair<unsigned, unsigned>> PtxVersion;
  bool ExpandWaitAll = true;
  bool CanonicalOrder = true; ///< reprint every family instruction
};

struct LowerResult {
  std::string Text;                    ///< the rewritten module
  std::vector<Diagnostic> Diagnostics; ///< ranges into the input buffer
  unsigned Rewritten = 0;              ///< instructions whose text changed
  unsigned Refused = 0;                ///< L002 errors
  bool Ok = true;                      ///< no L002
};

LowerResult lowerModule(const SourceBuffer &Buffer, const LowerOptions &Opts = {});

} // namespace ptxlint
#endif
