//===- ModuleText.h - Built instructions inside a module (internal) -------===//
#ifndef PTXLINT_LIB_BUILDER_MODULETEXT_H
#define PTXLINT_LIB_BUILDER_MODULETEXT_H

#include "ptxlint/Builder.h"
#include "ptxlint/SpecTables.h"

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

/// Every instruction the structs can spell with well-shaped operands (each
/// enumerator, each optional operand, dimensions 1-5); allForms() keeps the
/// valid ones.
std::vector<Inst> formCandidates();
/// Per instruction: whether the checker reports an error on it that no
/// target or PTX version removes.
std::vector<bool> checkerRefuses(const std::vector<Inst> &Insts);

/// The spec table of builder struct T's instruction (builder_struct).
template <typename T> const spec::InstructionSpec &tableOf() {
  static const spec::InstructionSpec *I = [] {
    for (const spec::InstructionSpec &J : spec::instructions())
      if (J.Name == instructionName<T>())
        return &J;
    return static_cast<const spec::InstructionSpec *>(nullptr);
  }();
  return *I; // every builder_struct names a table instruction
}

/// Whether the spec tables' rules ask .noftz with this redOp and type.
bool needsNoftz(RedOp Op, RedType T);

} // namespace build
} // namespace ptxlint
#endif
