//===- StatementFilter.cpp - Which statements get a full parse ------------===//

#include "Parse/StatementFilter.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/// A word of up to 8 bytes as an integer: byte K in bits 8K to 8K + 7, zero
/// past its end. No word of the tables has a zero byte, so two words of up
/// to 8 bytes are equal if their keys are.
constexpr uint64_t wordKey(std::string_view W) {
  uint64_t Key = 0;
  for (size_t K = 0; K < W.size() && K < 8; ++K)
    Key |= uint64_t(uint8_t(W[K])) << (8 * K);
  return Key;
}

/// Fills Set's slots for its multiplier; false if two rows share a slot.
constexpr bool fillSlots(OpcodeSlots &Set) {
  for (size_t S = 0; S < std::size(Set.Row); ++S) {
    Set.Row[S] = -1;
    Set.Key[S] = ~uint64_t(0);
    Set.Qualifiers[S] = false;
  }
  for (size_t K = 0; K < std::size(InstructionRules); ++K) {
    const ParseRule &R = InstructionRules[K];
    if (R.Opcode.size() > 8)
      continue;
    const unsigned S = Set.slot(wordKey(R.Opcode));
    if (Set.Row[S] >= 0)
      return false;
    Set.Row[S] = int8_t(K);
    Set.Key[S] = wordKey(R.Opcode);
    Set.Qualifiers[S] = !R.Needles[0].empty();
  }
  return true;
}

constexpr OpcodeSlots slotsOfRules() {
  OpcodeSlots Set{};
  Set.Multiplier = 0x9E3779B97F4A7C15ull;
  while (!fillSlots(Set)) // the next odd multiplier of a linear congruential sequence
    Set.Multiplier = (Set.Multiplier * 6364136223846793005ull + 1442695040888963407ull) | 1;
  return Set;
}

/// Whether an instruction whose head is Head is parsed, by loops over its
/// bytes and the rows: what instructionNeedsParse() answers.
bool instructionNeedsParseByLoops(std::string_view Head) {
  size_t OpSize = 0;
  while (OpSize < Head.size() && Head[OpSize] != '.')
    ++OpSize;
  std::string_view Op = Head.substr(0, OpSize);
  const ParseRule *R = nullptr;
  for (const ParseRule &X : InstructionRules)
    if (X.Opcode == Op) {
      R = &X;
      break;
    }
  if (!R || Op.empty())
    return false;
  if (R->Needles[0].empty())
    return true;
  for (std::string_view N : R->Needles)
    if (!N.empty() && Head.find(N, OpSize) != std::string_view::npos)
      return true;
  return false;
}

/// Each needle's first and last 4 bytes (needles have 4 to 8 bytes: the
/// two overlap or meet).
struct NeedleKeys {
  uint32_t First[std::size(InstructionRules)][2] = {};
  uint32_t Last[std::size(InstructionRules)][2] = {};
  constexpr NeedleKeys() {
    for (size_t K = 0; K < std::size(InstructionRules); ++K)
      for (size_t J = 0; J < 2; ++J) {
        const std::string_view &N = InstructionRules[K].Needles[J];
        if (N.size() >= 4) {
          First[K][J] = uint32_t(wordKey(N.substr(0, 4)));
          Last[K][J] = uint32_t(wordKey(N.substr(N.size() - 4)));
        }
      }
  }
};
constexpr NeedleKeys NeedleKey;

constexpr bool needlesHaveFourToEightBytes() {
  for (const ParseRule &R : InstructionRules)
    for (const std::string_view &N : R.Needles)
      if (!N.empty() && (N.size() < 4 || N.size() > 8 || N[0] != '.'))
        return false;
  return true;
}
static_assert(needlesHaveFourToEightBytes(), "hasNeedleAt() compares 4 + 4 bytes at a '.'");

#if defined(__SSE2__)
uint32_t load4(const char *P) {
  uint32_t X;
  std::memcpy(&X, P, 4);
  return X;
}

/// Whether one of row Row's needles is in Head at one of the '.'s that Dots
/// marks (bit K for Head[K], every '.' of Head after its opcode word): a
/// needle starts with '.'.
bool hasNeedleAt(size_t Row, std::string_view Head, unsigned Dots) {
  for (size_t J = 0; J < 2; ++J) {
    const size_t Size = InstructionRules[Row].Needles[J].size();
    if (!Size)
      continue;
    for (unsigned D = Dots; D; D &= D - 1) {
      const size_t Q = size_t(__builtin_ctz(D));
      if (Q + Size > Head.size())
        break;
      if (load4(Head.data() + Q) == NeedleKey.First[Row][J] &&
          load4(Head.data() + Q + Size - 4) == NeedleKey.Last[Row][J])
        return true;
    }
  }
  return false;
}
#endif

/// Whether an instruction whose head is Head is parsed. End: where the text
/// Head is in ends. The scanner asks it of every statement whose head's
/// first two bytes begin a row's opcode (async-dense: 102 K of 217 K; 80 K of
/// CUTLASS 77's 304 K): the '.'s of the head's first 16 bytes by one
/// compare, the opcode word's row by one hash lookup, and a needle by two
/// 4-byte compares at each '.'. (The loops cost 0.4 ms of async-dense's
/// 4.1 ms scan: the scan is bound by its instruction count.)
inline bool instructionNeedsParse(std::string_view Head, const char *End) {
#if !defined(__SSE2__)
  return instructionNeedsParseByLoops(Head);
#else
  if (Head.data() + 16 > End)
    return instructionNeedsParseByLoops(Head); // the text's last 16 bytes
  const __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(Head.data()));
  const unsigned Stop = 1u << std::min<size_t>(Head.size(), 16); // past the head
  const unsigned Dots = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(V, _mm_set1_epi8('.')))) & (Stop - 1);
  const size_t OpSize = size_t(__builtin_ctz(Dots | Stop));
  if (OpSize > 8) // "createpolicy", and opcodes no row has
    return instructionNeedsParseByLoops(Head);
  const int S = OpSize ? opcodeSlot(opcodeKey(Head.data(), uint32_t(OpSize))) : -1;
  if (S < 0)
    return false;
  if (!ParsedOpcodeSlots.Qualifiers[S])
    return true;
  const size_t Row = size_t(ParsedOpcodeSlots.Row[S]);
  if (Head.size() > 16) // '.'s past the first 16 bytes
    return instructionNeedsParseByLoops(Head);
  return hasNeedleAt(Row, Head, Dots);
#endif
}

bool isParsedDeclaration(std::string_view Head) {
  return Head == ".reg" || Head == ".shared" || Head == ".global" ||
         Head == ".const" || Head == ".local" || Head == ".param" ||
         Head == ".extern" || Head == ".visible" || Head == ".weak" ||
         Head == ".tex";
}

/// headNeedsFullParse(), inlined into needsFullParse().
inline bool headNeedsParse(StatementKind K, std::string_view Head, const char *End) {
  switch (K) {
  case StatementKind::Instruction:
    return instructionNeedsParse(Head, End);
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
const OpcodeSlots ParsedOpcodeSlots = slotsOfRules();

bool headNeedsFullParse(StatementKind K, std::string_view Head, const char *End) {
  return headNeedsParse(K, Head, End);
}

bool needsFullParse(const Statement &S, std::string_view Text) {
  // ParsedIndex -2: the scanner already reported this statement.
  return S.ParsedIndex != -2 && headNeedsParse(S.Kind, S.head(Text), Text.data() + Text.size());
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
