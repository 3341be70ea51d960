//===- SymbolTable.h - Names declared in a module, by scope -----*- C++ -*-===//
#ifndef PTXLINT_SYMBOLTABLE_H
#define PTXLINT_SYMBOLTABLE_H

#include "ptxlint/AST.h"

#include <string_view>
#include <unordered_map>

namespace ptxlint {

/// Resolves an operand name to its declaration: function scope first, then
/// module scope. Parameterised registers ("%r<10>") resolve "%r7" to the
/// "%r" declaration when 7 < 10.
class SymbolTable {
public:
  explicit SymbolTable(const Module &M);
  const Symbol *lookup(std::string_view Name, int32_t Function) const;

private:
  const Symbol *lookupExact(std::string_view Name, int32_t Function) const;
  const Module &M;
  struct Key {
    std::string_view Name;
    int32_t Function;
    bool operator==(const Key &O) const {
      return Function == O.Function && Name == O.Name;
    }
  };
  struct KeyHash {
    size_t operator()(const Key &K) const {
      return std::hash<std::string_view>()(K.Name) * 31 + size_t(K.Function);
    }
  };
  std::unordered_map<Key, uint32_t, KeyHash> Index;
};

} // namespace ptxlint
#endif
