//===- SymbolTable.h - Names declared in a module, by scope -----*- C++ -*-===//
#ifndef PTXLINT_SYMBOLTABLE_H
#define PTXLINT_SYMBOLTABLE_H

#include "ptxlint/AST.h"

#include <bitset>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptxlint {

/// Resolves an operand name to its declaration: function scope first, then
/// module scope. Parameterised registers ("%r<10>") resolve "%r7" to the
/// "%r" declaration when 7 < 10.
///
/// One small open-addressing table per scope, all in one array: a lookup
/// touches only its function's few slots, so a module of a million symbols
/// (50,000 kernels) stays in cache where one big hash table did not.
class SymbolTable {
public:
  /// Reads the declared names from the module's text.
  explicit SymbolTable(const Module &M);
  /// Names: the names of M.Symbols in order, end to end, as appendNames()
  /// copies them. The lint copies each declaration's names as it parses it,
  /// while its text is in memory: the table then reads no text, where
  /// reading every declaration's name again mapped a dropped text back whole.
  SymbolTable(const Module &M, std::string_view Names);
  /// Appends the names of M.Symbols[From, end) to Names.
  static void appendNames(const Module &M, size_t From, std::string &Names);
  const Symbol *lookup(std::string_view Name, int32_t Function) const;

  /// A caller's memo of the register prefixes it looked up last, by
  /// function ("%r" of "%r17": the declaration %r<N>). The table keeps no
  /// state of its own (passes share it).
  struct PrefixMemo {
    struct Entry {
      const Symbol *Sym = nullptr;
      int32_t Function = 0;
      uint8_t Size = 0; ///< of Text; 0: unused
      char Text[15] = {};
    };
    Entry Entries[4];
    unsigned Next = 0;
  };
  /// lookup(), the prefix of a register found in Memo where it was looked
  /// up before (its search was most of a lookup: most names a pass looks up
  /// are registers of a few prefixes).
  const Symbol *lookup(std::string_view Name, int32_t Function, PrefixMemo &Memo) const;
  /// The first bytes of the names declared in the .reg space: a name that
  /// starts otherwise is no register symbol, known without a lookup.
  const std::bitset<256> &regNameStarts() const { return RegStarts; }

private:
  /// Hash: hash(Name), computed once per lookup(). DigitEnded: Name ends
  /// in a digit (a scope's DigitNames may then rule it out).
  const Symbol *lookupExact(std::string_view Name, uint32_t Hash, int32_t Function,
                            bool DigitEnded) const;
  const Symbol *find(std::string_view Name, uint32_t Hash, int32_t Function,
                     bool DigitEnded) const;
  static uint32_t hash(std::string_view Name);
  /// Whether Function's scope (-1: the module's) may hold a name ending in
  /// a digit of DigitNames bit Bit.
  bool mayHoldDigitName(int32_t Function, uint64_t Bit) const;
  const Module &M;
  struct Scope {
    uint32_t Offset = 0; ///< first slot
    uint32_t Mask = 0;   ///< slots - 1; no slots when Size is 0
    uint32_t Size = 0;
    /// A bit per name ending in a digit (see digitNameBit): the names
    /// looked up most, registers of %r<N>, end in digits and are not
    /// declared so, and a lookup skips a scope without their bit.
    uint64_t DigitNames = 0;
  };
  std::vector<Scope> Scopes;   ///< index: Function + 1 (0: module scope)
  std::vector<uint32_t> Slots; ///< symbol index + 1; 0: empty
  std::bitset<256> RegStarts;
};

} // namespace ptxlint
#endif
