//===- StatementFilter.h - Which statements get a full parse ----*- C++ -*-===//
#ifndef PTXLINT_PARSE_STATEMENTFILTER_H
#define PTXLINT_PARSE_STATEMENTFILTER_H

#include "ptxlint/AST.h"

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace ptxlint {

/// True if the statement must be parsed into the AST: module directives,
/// declarations, function headers, and the instructions the checks read.
/// Everything else stays an opaque Statement (its head word and range), which
/// is what makes linting a 400,000-line module cheap.
bool needsFullParse(const Statement &S, std::string_view Text);
/// needsFullParse() before the scanner's own verdict on the statement (the
/// ParsedIndex it may set after emitting it): what the kind and head say.
/// From the values, not from the Statement the scanner has just written: a
/// load of its first word, written a byte at a time, waited on the stores.
/// End: where the text Head is in ends (up to 16 bytes from Head's start
/// are read where the text has them).
bool headNeedsFullParse(StatementKind K, std::string_view Head, const char *End);

/// A set of two-byte prefixes: a bitmap over 16-bit values, the first byte
/// in the low bits.
struct OpcodePrefixSet {
  uint64_t Bits[1024];
  bool has(char A, char B) const {
    unsigned Key = unsigned(uint8_t(A)) | unsigned(uint8_t(B)) << 8;
    return Bits[Key / 64] >> (Key % 64) & 1;
  }
};
/// The first two bytes of the opcodes whose instructions may be parsed.
extern const OpcodePrefixSet ParsedOpcodePrefixes;

/// False where needsFullParse() is false whatever the rest of the statement:
/// labels, braces, section data, and instructions whose head's first two
/// bytes begin no parsed opcode (add, mov, fma, setp, ...: most of a
/// module). Cheap enough for the scanner to ask of every statement it emits,
/// while the head is at hand; it asks headNeedsFullParse() of the others and
/// lists those it selects in Module::ParseCandidates.
inline bool mayNeedFullParse(StatementKind K, const char *Head, uint32_t HeadSize) {
  if (K != StatementKind::Instruction)
    return K == StatementKind::Directive || K == StatementKind::Declaration ||
           K == StatementKind::FunctionHeader;
  if (HeadSize < 2) // every parsed opcode has two bytes or more
    return false;
  return ParsedOpcodePrefixes.has(Head[0], Head[1]);
}

/// The rows whose opcode word (the head's bytes before its first '.') has at
/// most 8 bytes, by a hash of the word's key (opcodeKey()); a multiplier
/// that sends no two of them to one slot is found when compiling.
struct OpcodeSlots {
  static constexpr unsigned Bits = 5;
  uint64_t Multiplier;
  uint64_t Key[1u << Bits];    ///< ~0 in an empty slot: no word's key
  int8_t Row[1u << Bits];      ///< the row's index in the filter's table
  bool Qualifiers[1u << Bits]; ///< the row parses only with a needle
  constexpr unsigned slot(uint64_t K) const { return unsigned((K * Multiplier) >> (64 - Bits)); }
};
extern const OpcodeSlots ParsedOpcodeSlots;

/// The opcode word of OpSize (1 to 8) bytes at Head as an integer: byte K
/// in bits 8K to 8K + 7, zero past its end. Reads 8 bytes from Head.
inline uint64_t opcodeKey(const char *Head, uint32_t OpSize) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "byte K in bits 8K to 8K + 7");
  uint64_t First8;
  std::memcpy(&First8, Head, 8);
  return First8 & (~uint64_t(0) >> (64 - 8 * OpSize));
}

/// The slot (ParsedOpcodeSlots) of the row whose opcode word has key Key,
/// or -1 if no row's has.
inline int opcodeSlot(uint64_t Key) {
  const unsigned S = ParsedOpcodeSlots.slot(Key);
  return ParsedOpcodeSlots.Key[S] == Key ? int(S) : -1;
}

/// Whether a statement the scanner listed in M.ParseCandidates is parsed:
/// not if the scanner reported it (a missing ';', brackets nested too deep).
inline bool candidateParsed(const Statement &S) { return S.ParsedIndex != -2; }

/// The indices of M's statements that needsFullParse() selects, in order,
/// from M.ParseCandidates (the scanner's list), which it consumes. It reads
/// no text: the scanner asked headNeedsFullParse() of each statement while
/// its text was at hand, so a mapped module's text, dropped behind the scan,
/// is not brought back into memory (and out again) by one more pass.
std::vector<uint32_t> selectForParse(Module &M);

} // namespace ptxlint
#endif
