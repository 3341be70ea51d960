//===- StatementFilter.cpp - Which statements get a full parse ------------===//

#include "Parse/StatementFilter.h"

namespace ptxlint {
namespace {

/// One row: an instruction whose head starts with Prefix (and, if set,
/// contains Needle somewhere in its qualifiers) is parsed.
struct ParseRule {
  std::string_view Prefix;
  std::string_view Needle;
};

// The async-copy family and what the flow rules need. Prefixes end at a '.'
// or are whole opcodes, so "bar" does not catch "barrier" by accident: both
// are listed.
constexpr ParseRule InstructionRules[] = {
    {"cp.", ""},           // cp.async*, cp.reduce.async.bulk*
    {"mbarrier.", ""},     // init, arrive, expect_tx, try_wait, test_wait
    {"fence.", ""},        // fence.proxy.async and friends
    {"createpolicy.", ""}, // L2 cache policies
    {"bar.", ""},          {"bar", ""},
    {"barrier.", ""},      {"barrier", ""},
    {"bra", ""},           {"bra.", ""},
    {"ret", ""},           {"ret.", ""},
    {"exit", ""},          {"exit.", ""},
    {"brx.", ""},          {"call", ""}, {"call.", ""},
    {"st.", ".shared"},    // generic-proxy writes to shared memory
    {"ld.", ".shared"},    // reads of copy destinations
    {"red.", ".shared"},   {"atom.", ".shared"},
    {"stmatrix.", ""},     {"ldmatrix.", ""},
    {"st.async", ""},      {"red.async", ""},
};

bool matches(std::string_view Head, const ParseRule &R) {
  if (Head.size() < R.Prefix.size() ||
      Head.compare(0, R.Prefix.size(), R.Prefix) != 0)
    return false;
  // A whole-opcode prefix ("bra") must not match "brax".
  if (R.Prefix.back() != '.' && Head.size() > R.Prefix.size() &&
      Head[R.Prefix.size()] != '.')
    return false;
  return R.Needle.empty() || Head.find(R.Needle) != std::string_view::npos;
}

bool isParsedDeclaration(std::string_view Head) {
  return Head == ".reg" || Head == ".shared" || Head == ".global" ||
         Head == ".const" || Head == ".local" || Head == ".param" ||
         Head == ".extern" || Head == ".visible" || Head == ".weak" ||
         Head == ".tex";
}

} // namespace

bool needsFullParse(const Statement &S) {
  if (S.ParsedIndex == -2)
    return false; // the scanner already reported this statement
  switch (S.Kind) {
  case StatementKind::Instruction:
    for (const ParseRule &R : InstructionRules)
      if (matches(S.Head, R))
        return true;
    return false;
  case StatementKind::Directive:
    return S.Head == ".version" || S.Head == ".target" ||
           S.Head == ".address_size";
  case StatementKind::Declaration:
    return isParsedDeclaration(S.Head);
  case StatementKind::FunctionHeader:
    return true;
  default:
    return false;
  }
}

} // namespace ptxlint
