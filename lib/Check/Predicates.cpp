//===- Predicates.cpp - The rules the tables cannot say -------------------===//

#include "Check/Predicates.h"

namespace ptxlint {
namespace build { // the tables' spellings of the load modes (no builder linked)
#include "ptxlint/BuilderEnums.inc"
} // namespace build
namespace check {

/// cp.async: an immediate src-size above the immediate cp-size is rejected
/// by ptxas ("value '5' out of range, expected to be in range [0..4]"). The
/// spec asks for less than cp-size and calls larger undefined; equal is
/// accepted by ptxas and common in nvcc output, so it passes.
static void srcSizeWithinCpSize(InstructionCheck &C, const spec::OperandSpec &,
                                const Operand &Op, const OperandLookup &Other) {
  const Operand *CpSize = Other("cp-size");
  if (Op.Kind != OperandKind::Immediate || !CpSize ||
      CpSize->Kind != OperandKind::Immediate || Op.Value <= CpSize->Value)
    return;
  C.report(rules::OperandValue, C.I.rangeOf(Op),
           "'src-size' " + std::to_string(Op.Value) +
               " is larger than cp-size " + std::to_string(CpSize->Value))
      .note("src-size is the number of bytes read from src; the rest of the "
            "cp-size bytes are zero-filled")
      .spec("9.7.9.25.3.1");
}

/// cp.async.bulk{.prefetch}.tensor, .im2col::w and .im2col::w::128: the
/// im2colInfo vector is {wHalo, wOffset}; wHalo < 512 (::w) or < 32
/// (::w::128), wOffset < 32. ptxas does not check; the spec gives the ranges.
static void im2colWRanges(InstructionCheck &C, const spec::OperandSpec &,
                          const Operand &Op, const OperandLookup &) {
  const char *ModeW = build::spelling(build::LoadMode::Im2colW);
  const char *ModeW128 = build::spelling(build::LoadMode::Im2colW128);
  bool W = C.has(ModeW), W128 = C.has(ModeW128);
  if ((!W && !W128) || Op.Kind != OperandKind::Vector ||
      Op.Elements.size() != 2)
    return;
  struct Limit {
    const char *Name;
    int64_t Max;
  } Limits[2] = {{"wHalo", W128 ? 32 : 512}, {"wOffset", 32}};
  for (size_t K = 0; K < 2; ++K) {
    const Operand &E = Op.Elements[K];
    if (E.Kind != OperandKind::Immediate)
      continue;
    if (E.Value < 0 || E.Value >= Limits[K].Max)
      C.report(rules::OperandRange, C.I.rangeOf(E),
               std::string(Limits[K].Name) + " must be in [0, " +
                   std::to_string(Limits[K].Max) + ") with " +
                   q(W128 ? ModeW128 : ModeW) + ", not " +
                   std::to_string(E.Value))
          .spec("9.7.9.25.5.2");
  }
}

const std::vector<NamedPredicate> &allPredicates() {
  static const std::vector<NamedPredicate> All = {
      {"src-size-within-cp-size",
       "cp.async: an immediate src-size may not exceed cp-size",
       srcSizeWithinCpSize},
      {"im2col-w-ranges",
       "im2col::w modes: wHalo and wOffset ranges", im2colWRanges},
  };
  return All;
}

const NamedPredicate *findPredicate(std::string_view Name) {
  for (const NamedPredicate &P : allPredicates())
    if (P.Name == Name)
      return &P;
  return nullptr;
}

} // namespace check
} // namespace ptxlint
