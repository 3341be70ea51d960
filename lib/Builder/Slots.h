//===- Slots.h - Builder struct fields as the tables' operand slots -------===//
//
// Internal. Which field of a builder struct holds which operand slot is table
// data: each operand's builder_field (and builder_pred_field) in
// spec-tables/*.yaml, generated into BuilderFields.inc. print(), decode(),
// registerUses() and structuralErrors() walk the slots of the instruction's
// form, in the tables' order, and reach the fields from here, so the order,
// presence and register types of operands are written once: in the tables.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_LIB_BUILDER_SLOTS_H
#define PTXLINT_LIB_BUILDER_SLOTS_H

#include "ModuleText.h"

#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ptxlint {
namespace build {

#include "BuilderFields.inc"

/// The state spaces of an instruction's direction, destination first ("" for
/// an instruction without them): how the tables' forms are told apart.
inline std::string_view spacesOf(const CpAsync &I) {
  return spelling(I.DstSharedCta ? CpAsyncDir::SharedCtaGlobal : CpAsyncDir::SharedGlobal);
}
inline std::string_view spacesOf(const CpAsyncBulk &I) { return spelling(I.Dir); }
inline std::string_view spacesOf(const CpReduceAsyncBulk &I) { return spelling(I.Dir); }
inline std::string_view spacesOf(const CpAsyncBulkTensor &I) { return spelling(I.Dir); }
inline std::string_view spacesOf(const CpAsyncBulkPrefetch &) {
  return spelling(PrefetchDir::Global); // its one direction
}
inline std::string_view spacesOf(const CpReduceAsyncBulkTensor &) {
  return spelling(ReduceTensorDir::SharedCtaToGlobal);
}
inline std::string_view spacesOf(const CpAsyncBulkPrefetchTensor &) {
  return spelling(PrefetchTensorDir::Global);
}
template <typename T> std::string_view spacesOf(const T &) { return ""; }

/// The table form of the instruction's direction (every direction the
/// generated enums spell is a form of the tables).
template <typename T> const spec::FormSpec &formOf(const T &I) {
  return *spec::formSpelled(tableOf<T>(), spacesOf(I));
}

/// The slot named Name in any form of T's instruction (a field set in a
/// direction whose form lacks it still has a type), nullptr when none.
template <typename T> const spec::OperandSpec *slotNamed(std::string_view Name) {
  for (const spec::FormSpec &F : tableOf<T>().Forms)
    for (const spec::OperandSpec &S : F.Operands)
      if (S.Name == Name)
        return &S;
  return nullptr;
}

/// The tables' dimension qualifier of rank D (".2d"), "" when none is.
inline std::string_view dimSpelling(unsigned D) {
  for (const spec::GroupSpec &G : tableOf<CpAsyncBulkTensor>().Groups)
    if (G.Kind == spec::GroupKind::Dimension)
      for (std::string_view V : G.Values)
        if (V.size() == 3 && unsigned(V[1] - '0') == D)
          return V;
  return "";
}

/// Whether a field holds an operand: an empty optional or vector does not.
template <typename V> bool isSet(const std::optional<V> &F) { return F.has_value(); }
inline bool isSet(const std::vector<Value> &F) { return !F.empty(); }
template <typename V> bool isSet(const V &) { return true; }

/// Calls Fn(slot, field, is the predicate alternative) for every field of I:
/// first those of the form's slots, in the form's order, then the fields no
/// slot of the form names (a struct may set them; they are errors there),
/// with their slot in another form.
template <typename T, typename F> void eachOperandField(T &I, F &&Fn) {
  using Struct = std::remove_const_t<T>;
  const spec::FormSpec &Form = formOf<Struct>(I);
  std::vector<const void *> Seen;
  for (const spec::OperandSpec &S : Form.Operands)
    Fields<Struct>::each(I, [&](std::string_view Name, auto &Field, bool Pred) {
      if (Name == S.Name) {
        Seen.push_back(&Field);
        Fn(S, Field, Pred);
      }
    });
  Fields<Struct>::each(I, [&](std::string_view Name, auto &Field, bool Pred) {
    for (const void *P : Seen)
      if (P == &Field)
        return;
    Seen.push_back(&Field);
    Fn(*slotNamed<Struct>(Name), Field, Pred);
  });
}

/// Whether slot S is one of Form's (eachOperandField also passes slots of
/// other forms, for fields this form has no place for).
inline bool inForm(const spec::FormSpec &Form, const spec::OperandSpec &S) {
  for (const spec::OperandSpec &O : Form.Operands)
    if (&O == &S)
      return true;
  return false;
}

} // namespace build
} // namespace ptxlint
#endif
