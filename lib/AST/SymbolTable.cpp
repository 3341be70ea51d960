//===- SymbolTable.cpp - Scoped name lookup -------------------------------===//

#include "ptxlint/SymbolTable.h"

namespace ptxlint {

SymbolTable::SymbolTable(const Module &M) : M(M) {
  Index.reserve(M.Symbols.size() * 2);
  for (uint32_t K = 0; K < M.Symbols.size(); ++K) {
    const Symbol &S = M.Symbols[K];
    Index.emplace(Key{S.Name, S.Function}, K); // first declaration wins
  }
}

const Symbol *SymbolTable::lookupExact(std::string_view Name,
                                       int32_t Function) const {
  auto It = Index.find(Key{Name, Function});
  if (It != Index.end())
    return &M.Symbols[It->second];
  if (Function >= 0) {
    It = Index.find(Key{Name, -1});
    if (It != Index.end())
      return &M.Symbols[It->second];
  }
  return nullptr;
}

const Symbol *SymbolTable::lookup(std::string_view Name, int32_t Function) const {
  if (const Symbol *S = lookupExact(Name, Function))
    return S;
  // "%r17" -> "%r" declared as %r<N> with 17 < N.
  size_t E = Name.size();
  while (E > 0 && Name[E - 1] >= '0' && Name[E - 1] <= '9')
    --E;
  if (E == Name.size() || E == 0)
    return nullptr;
  const Symbol *S = lookupExact(Name.substr(0, E), Function);
  if (!S || S->RangeCount == 0)
    return nullptr;
  unsigned long long N = 0;
  for (size_t K = E; K < Name.size(); ++K) {
    N = N * 10 + unsigned(Name[K] - '0');
    if (N > S->RangeCount)
      return nullptr;
  }
  if (Name.size() - E > 1 && Name[E] == '0')
    return nullptr; // "%r07" is not a member of %r<N>
  return N < S->RangeCount ? S : nullptr;
}

} // namespace ptxlint
