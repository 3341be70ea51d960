//===- Guards.h - What the #if conditions around a statement admit -*- C++ -*-===//
//
// Reads the preprocessor conditions open around an asm statement and says the
// lowest target and PTX version they admit, per alternative of an '||':
//   __CUDA_ARCH__ >= 900                  sm_90 (any later target too)
//   __CUDA_ARCH_FEAT_SM90_ALL             sm_90a
//   __CUDA_ARCH_SPECIFIC__ >= 1000        sm_100a  (_FAMILY_: sm_100f)
//   __cccl_ptx_isa >= 860                 PTX 8.6
//   defined(CUTE_ARCH_TMA_SM90_ENABLED)   what the project's GuardMacros say
// Anything else constrains nothing (in an '&&') or makes the whole '||'
// unknown. _CCCL_CUDA_COMPILER(...) is false: we judge code as nvcc sees it.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_INLINEASM_GUARDS_H
#define PTXLINT_INLINEASM_GUARDS_H

#include "InlineAsm/AsmScanner.h"
#include "ptxlint/Target.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxlint {
namespace inlineasm {

/// One set of targets/versions the guards admit: the lowest of each.
struct GuardAlternative {
  std::optional<std::string> Target; ///< "sm_90", "sm_100a"; none: unknown
  PtxVersion Ptx;                    ///< 0.0: unknown
  uint32_t TargetGuard = 0, PtxGuard = 0; ///< offsets of the '#' saying so
};

using GuardMacroMap = std::vector<std::pair<std::string, std::string>>;

/// The alternatives the guards admit (at least one; an alternative that
/// knows nothing means "no guard says").
std::vector<GuardAlternative>
evaluateGuards(const std::vector<GuardCondition> &Guards,
               const GuardMacroMap &Macros);

} // namespace inlineasm
} // namespace ptxlint
#endif
