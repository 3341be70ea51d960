//===- Predicates.h - The rules the tables cannot say -----------*- C++ -*-===//
//
// An operand slot in spec-tables/ may name a predicate ("check: ...") for a
// rule that relates values instead of listing them. Each predicate has a
// name, the spec section it enforces and a function. Add one here and in
// spec-tables/tblgen's KnownPredicates list (a unit test checks both agree).
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_CHECK_PREDICATES_H
#define PTXLINT_CHECK_PREDICATES_H

#include "Check/CheckContext.h"

#include <functional>

namespace ptxlint {
namespace check {

/// Finds another operand of the instruction by its slot name.
using OperandLookup = std::function<const Operand *(std::string_view)>;

struct NamedPredicate {
  std::string_view Name;
  std::string_view Summary;
  void (*Run)(InstructionCheck &C, const spec::OperandSpec &Slot,
              const Operand &Op, const OperandLookup &Other);
};

const NamedPredicate *findPredicate(std::string_view Name);
const std::vector<NamedPredicate> &allPredicates();

} // namespace check
} // namespace ptxlint
#endif
