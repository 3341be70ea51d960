//===- SymbolTable.h - Names declared in a module, by scope -----*- C++ -*-===//
#ifndef PTXLINT_SYMBOLTABLE_H
#define PTXLINT_SYMBOLTABLE_H

#include "ptxlint/AST.h"

#include <bitset>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ptxlint {

/// Resolves an operand name to its declaration: function scope first, then
/// module scope. Parameterised registers ("%r<10>") resolve "%r7" to the
/// "%r" declaration when 7 < 10.
///
/// One small open-addressing table per scope, all in one array: a lookup
/// touches only its function's few slots, so a module of a million symbols
/// (50,000 kernels) stays in cache where one big hash table did not.
///
/// The table can grow as the scan declares (extend()), so that a batch of
/// functions is linted while its text is still in memory. A lookup made then
/// may miss a module-scope name declared further down; the table can log
/// what such a later declaration could have changed (logLookups()), and
/// say at the end whether one did (laterDeclarationsChangedNothing()).
class SymbolTable {
public:
  /// What the table reads of the declarations' text, copied. The lint
  /// copies it as it parses each declaration, while its text is in memory:
  /// the table then reads no text, where reading every declaration again
  /// mapped a dropped text back whole.
  struct Declared {
    /// Of M.Symbols from First on, in order, end to end.
    std::string Names;
    size_t First = 0;
    /// By function: its declarations of names that start with '%', in
    /// order, each name, type and the other facts (not where it is).
    std::vector<std::string> PercentNames;
    /// Copies what M.Symbols[From, end) declare.
    void append(const Module &M, size_t From);
    /// Forgets what a table extended with it needs no more: the names of
    /// the symbols before End, all appended (the table reads an older name
    /// from the text, where it reads one again at all: a module-scope name
    /// on a collision or a move), and the keys of the functions before
    /// Functions, all numbered.
    void forgetNames(size_t End, size_t Functions) {
      Names.clear();
      First = End;
      for (; KeysForgotten < Functions && KeysForgotten < PercentNames.size(); ++KeysForgotten)
        std::string().swap(PercentNames[KeysForgotten]);
    }
    size_t KeysForgotten = 0; ///< PercentNames before it are forgotten
  };
  /// Reads the declarations from the module's text.
  explicit SymbolTable(const Module &M);
  /// D: what append() copied of every symbol of M.
  SymbolTable(const Module &M, const Declared &D);
  /// Empty, for extend() to fill.
  struct Empty {};
  SymbolTable(const Module &M, Empty);
  ~SymbolTable();
  /// Adds the symbols and functions M gained since the last call (all, at
  /// the first); D: what append() copied of every symbol of M. A function
  /// already added must have all its declarations then (it is closed).
  void extend(const Declared &D);

  /// From now on, note each lookup a later declaration could answer
  /// otherwise: a module-scope miss, a function without a body so far.
  void logLookups();
  /// Whether nothing declared since logLookups() could have changed a
  /// lookup made since (true when not logging). Exact where it says true;
  /// it may say false for a change that made no difference.
  bool laterDeclarationsChangedNothing() const;

  const Symbol *lookup(std::string_view Name, int32_t Function) const;
  /// Whether a function of this name has a body in the module (a call to
  /// one without, an external function, does none of the module's work).
  /// While logging, a function declared without .extern and not defined
  /// yet is taken to have one to come (logged, and checked at the end).
  bool definesBody(std::string_view Function) const;

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
    /// The table's extend() count when the entries were made: the symbols
    /// they point at may have moved since.
    unsigned Generation = 0;
  };
  /// lookup(), the prefix of a register found in Memo where it was looked
  /// up before (its search was most of a lookup: most names a pass looks up
  /// are registers of a few prefixes).
  const Symbol *lookup(std::string_view Name, int32_t Function, PrefixMemo &Memo) const;
  /// Asks the cache for Function's scope: its slots and its symbols'
  /// records (their first lines). A pass that reaches a function long after
  /// the scan declared its symbols misses the cache on each lookup, one after
  /// another; asked for before it needs them, it finds them there.
  void warm(int32_t Function) const;
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
  /// Notes a lookup of Name that found no module-scope symbol (logging).
  void noteMiss(std::string_view Name) const;
  struct Log;
  /// Inserts symbol K in its scope's slots.
  void insert(uint32_t K, std::string_view Name);
  /// Moves scope X to new slots for Count symbols, its own reinserted.
  void regrow(size_t X, uint32_t Count);
  /// Symbol K's name: from Declared::Names where it holds it, else the text.
  std::string_view nameOf(uint32_t K) const {
    if (K < NamesFirst)
      return M.Symbols[K].Name;
    return std::string_view(Names->data() + NameAt[K - NamesFirst], M.Symbols[K].Name.size());
  }
  const Module &M;
  struct Scope {
    uint32_t Offset = 0; ///< first slot
    uint32_t Mask = 0;   ///< slots - 1; no slots when Size is 0
    uint32_t Size = 0;
    /// A bit per name ending in a digit (see digitNameBit): the names
    /// looked up most, registers of %r<N>, end in digits and are not
    /// declared so, and a lookup skips a scope without their bit.
    uint64_t DigitNames = 0;
    /// The scope's symbols lie in M.Symbols[FirstSymbol, EndSymbol) (with
    /// others' between them where its declarations are apart).
    uint32_t FirstSymbol = UINT32_MAX, EndSymbol = 0;
    uint32_t Count = 0; ///< symbols in the slots
  };
  std::vector<Scope> Scopes;   ///< index: Function + 1 (0: module scope)
  std::vector<uint32_t> Slots; ///< symbol index + 1; 0: empty
  std::vector<uint32_t> PercentScopes; ///< by function: percentScope()
  std::bitset<256> RegStarts;
  // What extend() keeps from one call to the next.
  const std::string *Names = nullptr; ///< Declared::Names, during extend()
  uint32_t NamesFirst = 0;            ///< Declared::First, during extend()
  /// By symbol from NamesFirst, during extend(): where its name is in Names.
  std::vector<uint32_t> NameAt;
  std::unordered_map<std::string, uint32_t> PercentNumbers; ///< key: number
  struct Callee {
    bool HasBody = false;
    /// Declared without .extern: its body is to come (a debug module
    /// declares a function before its callers and defines it after them).
    bool BodyExpected = false;
  };
  std::unordered_map<std::string_view, Callee> Callees; ///< by function name
  std::vector<uint32_t> NewCount; ///< by scope, within extend(); zero outside
  uint32_t Built = 0;             ///< symbols added
  uint32_t BuiltFunctions = 0;    ///< functions added
  unsigned Generation = 0;        ///< extend() calls
  std::unique_ptr<Log> Logged;    ///< while logging
};

} // namespace ptxlint
#endif
