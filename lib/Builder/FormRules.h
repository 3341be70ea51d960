//===- FormRules.h - What the tables say of one form's qualifiers ---------===//
//
// Internal. decode() reads a parsed instruction's qualifiers, and
// structuralErrors() the qualifiers a struct prints, through the same table
// data the checker reads: the groups each form takes (required, optional),
// the values its `only` entries allow, the instruction's rules (if these,
// then one of those sets) and its pair tables (redOp x type). The builder's
// own reading of the tables, held equal to the checker's by the property
// tests (test/unit/test_builder_properties.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_LIB_BUILDER_FORMRULES_H
#define PTXLINT_LIB_BUILDER_FORMRULES_H

#include "ptxlint/SpecTables.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptxlint {
namespace build {

/// The qualifiers written after an instruction's name: the state spaces,
/// destination first, and every other word with its group.
struct WrittenQuals {
  std::string Spaces;
  std::vector<std::pair<const spec::GroupSpec *, std::string_view>> Words;

  /// The value written of the named group, "" when none is.
  std::string_view of(std::string_view Group) const;
  bool has(std::string_view Word) const;
};

/// The qualifier words of an instruction's text after its name Name
/// ("cp.async.bulk.global.shared::cta.bulk_group [a]..." -> ".global",
/// ".shared::cta", ".bulk_group").
std::vector<std::string_view> printedQualifiers(std::string_view Text, std::string_view Name);

/// Sorts Words (qualifiers after the name) into spaces and groups of Spec;
/// a word of no group, a group written twice or a third state space is a
/// problem (appended to Problems).
WrittenQuals readQualifiers(const spec::InstructionSpec &Spec,
                            const std::vector<std::string_view> &Words,
                            std::vector<std::string> &Problems);

/// "cp.async.bulk .shared::cta.global": how messages name a form.
std::string formName(const spec::InstructionSpec &Spec, const spec::FormSpec &Form);

/// What the tables refuse of the written qualifiers in Form: a group the
/// form does not take, a value its `only` entry excludes, a required group
/// missing, an unmet rule, a pair its table lacks.
void formProblems(const spec::InstructionSpec &Spec, const spec::FormSpec &Form,
                  const WrittenQuals &Q, std::vector<std::string> &Problems);

} // namespace build
} // namespace ptxlint
#endif
