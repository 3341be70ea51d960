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
  /// What the table reads of the declarations' text, copied. The lint
  /// copies it as it parses each declaration, while its text is in memory:
  /// the table then reads no text, where reading every declaration again
  /// mapped a dropped text back whole.
  struct Declared {
    std::string Names; ///< of M.Symbols, in order, end to end
    /// By function: its declarations of names that start with '%', in
    /// order, each name, type and the other facts (not where it is).
    std::vector<std::string> PercentNames;
    /// Copies what M.Symbols[From, end) declare.
    void append(const Module &M, size_t From);
  };
  /// Reads the declarations from the module's text.
  explicit SymbolTable(const Module &M);
  /// D: what append() copied of every symbol of M.
  SymbolTable(const Module &M, const Declared &D);
  const Symbol *lookup(std::string_view Name, int32_t Function) const;

  /// A number for Function's scope as names that start with '%' see it:
  /// such a name finds the same facts in every function of one number
  /// (what it finds is a declaration of a '%' name, itself or the prefix of
  /// a %r<N>, in the function's scope, else the module's; and these
  /// functions declare the same '%' names with the same facts, in the same
  /// order). 0: outside every function.
  uint32_t percentScope(int32_t Function) const {
    return Function >= 0 && size_t(Function) < PercentScopes.size()
               ? PercentScopes[size_t(Function)]
               : 0;
  }

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
  /// Hash: hash(Name). DigitEnded: Name ends in a digit (a scope's
  /// DigitNames may then rule it out).
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
  std::vector<uint32_t> PercentScopes; ///< by function: percentScope()
  std::bitset<256> RegStarts;
};

} // namespace ptxlint
#endif
