//===- StatementFilter.cpp - Which statements get a full parse ------------===//

#include "Parse/StatementFilter.h"

#include <algorithm>
#include <iterator>

namespace ptxlint {
namespace {

/// One row: an instruction whose opcode word (the text before the first
/// '.') is Opcode is parsed if it has no needles, or if its qualifiers
/// contain one of them.
struct ParseRule {
  std::string_view Opcode;
  std::string_view Needles[2];
};

// The async-copy family and what the flow rules need, keyed by the opcode
// word. Loads (ld.shared, ldmatrix) are not parsed: they are the most common
// shared-memory instructions of real kernels (76k of 328k statements in the
// attention benchmark), and the flow rules read the few they need from the
// statement text (lib/Flow/FlowFunction.cpp), with identical verdicts on the
// tests, the corpus and the benchmark module. Parsing them cost half the
// parse time of that module.
// Most statements of a real module (add, mov, fma, setp, ...) are rejected
// by comparing lengths and first bytes. Kept sorted for readers.
constexpr ParseRule InstructionRules[] = {
    {"atom", {".shared"}},          // generic-proxy writes to shared memory
    {"bar", {}},                    {"barrier", {}},
    {"bra", {}},                    {"brx", {}},
    {"call", {}},
    {"cp", {}},                     // cp.async*, cp.reduce.async.bulk*
    {"createpolicy", {}},           // L2 cache policies
    {"exit", {}},
    {"fence", {}},                  // fence.proxy.async and friends
    {"mbarrier", {}},               // init, arrive, expect_tx, try/test_wait
    {"red", {".shared", ".async"}},
    {"ret", {}},
    {"st", {".shared", ".async"}},  // generic-proxy writes to shared memory
    {"stmatrix", {}},
};

constexpr bool isSorted() {
  for (size_t K = 1; K < std::size(InstructionRules); ++K)
    if (!(InstructionRules[K - 1].Opcode < InstructionRules[K].Opcode))
      return false;
  return true;
}
static_assert(isSorted(), "InstructionRules must be sorted by opcode");

constexpr bool opcodesHaveTwoBytes() {
  for (const ParseRule &R : InstructionRules)
    if (R.Opcode.size() < 2)
      return false;
  return true;
}
static_assert(opcodesHaveTwoBytes(), "mayNeedFullParse() rules out heads of one byte");

inline bool instructionNeedsParse(std::string_view Head) {
  if (!mayNeedFullParse(StatementKind::Instruction, Head.data(), uint32_t(Head.size())))
    return false;
  // Heads are short: a loop beats a call to memchr, for every statement.
  size_t OpSize = 0;
  while (OpSize < Head.size() && Head[OpSize] != '.')
    ++OpSize;
  std::string_view Op = Head.substr(0, OpSize);
  // Length and first byte reject almost every row before any memcmp.
  const ParseRule *R = nullptr;
  for (const ParseRule &X : InstructionRules)
    if (X.Opcode.size() == Op.size() && X.Opcode[0] == Op[0] && X.Opcode == Op) {
      R = &X;
      break;
    }
  if (!R || Op.empty())
    return false;
  if (R->Needles[0].empty())
    return true;
  for (std::string_view N : R->Needles)
    if (!N.empty() && Head.find(N, Op.size()) != std::string_view::npos)
      return true;
  return false;
}

bool isParsedDeclaration(std::string_view Head) {
  return Head == ".reg" || Head == ".shared" || Head == ".global" ||
         Head == ".const" || Head == ".local" || Head == ".param" ||
         Head == ".extern" || Head == ".visible" || Head == ".weak" ||
         Head == ".tex";
}

/// headNeedsFullParse(), inlined into needsFullParse().
inline bool headNeedsParse(StatementKind K, std::string_view Head) {
  switch (K) {
  case StatementKind::Instruction:
    return instructionNeedsParse(Head);
  case StatementKind::Directive:
    return Head == ".version" || Head == ".target" || Head == ".address_size";
  case StatementKind::Declaration:
    return isParsedDeclaration(Head);
  case StatementKind::FunctionHeader:
    return true;
  default:
    return false;
  }
}

} // namespace

/// The first two bytes of every row's opcode.
static constexpr OpcodePrefixSet prefixesOfRules() {
  OpcodePrefixSet Set{};
  for (const ParseRule &R : InstructionRules) {
    unsigned K = unsigned(uint8_t(R.Opcode[0])) | unsigned(uint8_t(R.Opcode[1])) << 8;
    Set.Bits[K / 64] |= uint64_t(1) << (K % 64);
  }
  return Set;
}
// Constant-initialised: the initialiser is a constant expression.
const OpcodePrefixSet ParsedOpcodePrefixes = prefixesOfRules();

bool headNeedsFullParse(StatementKind K, std::string_view Head) {
  return headNeedsParse(K, Head);
}

bool needsFullParse(const Statement &S, std::string_view Text) {
  // ParsedIndex -2: the scanner already reported this statement.
  return S.ParsedIndex != -2 && headNeedsParse(S.Kind, S.head(Text));
}

std::vector<uint32_t> selectForParse(Module &M) {
  // The scanner listed the statements whose heads need a parse; of those,
  // the ones it reported afterwards are not parsed. No text is read here.
  std::vector<uint32_t> Selected = std::move(M.ParseCandidates);
  M.ParseCandidates = {};
  Selected.erase(std::remove_if(Selected.begin(), Selected.end(),
                                [&](uint32_t K) { return !candidateParsed(M.Statements[K]); }),
                 Selected.end());
  return Selected;
}

} // namespace ptxlint
