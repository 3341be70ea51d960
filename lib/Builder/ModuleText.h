//===- ModuleText.h - Built instructions inside a module (internal) -------===//
#ifndef PTXLINT_LIB_BUILDER_MODULETEXT_H
#define PTXLINT_LIB_BUILDER_MODULETEXT_H

#include "ptxlint/Builder.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ptxlint {
namespace build {

/// wrapInModule's text, with where each instruction's print() lies in it.
struct ModuleText {
  std::string Text;
  std::vector<uint32_t> Begins, Ends; ///< per instruction, ascending
};
ModuleText moduleText(const std::vector<Inst> &Insts, const TargetVersion &T,
                      const std::string &KernelName);

/// Whether the spec tables' rules ask .noftz with this redOp and type.
bool needsNoftz(RedOp Op, RedType T);

} // namespace build
} // namespace ptxlint
#endif
