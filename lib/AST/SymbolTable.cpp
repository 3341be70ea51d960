//===- SymbolTable.cpp - Scoped name lookup -------------------------------===//

#include "ptxlint/SymbolTable.h"

namespace ptxlint {

uint32_t SymbolTable::hash(std::string_view Name) {
  uint32_t H = 2166136261u; // FNV-1a: names are short
  for (char C : Name)
    H = (H ^ uint8_t(C)) * 16777619u;
  return H;
}

SymbolTable::SymbolTable(const Module &M,
                         const std::function<void(uint32_t)> &Passed)
    : M(M) {
  Scopes.resize(M.Functions.size() + 1);
  auto ScopeOf = [&](const Symbol &S) -> Scope * {
    size_t X = size_t(int64_t(S.Function) + 1);
    return X < Scopes.size() ? &Scopes[X] : nullptr;
  };
  std::vector<uint32_t> Count(Scopes.size(), 0);
  for (const Symbol &S : M.Symbols)
    if (ScopeOf(S))
      ++Count[size_t(ScopeOf(S) - Scopes.data())];
  uint32_t Offset = 0;
  for (size_t X = 0; X < Scopes.size(); ++X) {
    if (!Count[X])
      continue;
    uint32_t Slots = 4;
    while (Slots < 2 * Count[X])
      Slots *= 2;
    Scopes[X] = {Offset, Slots - 1, Slots};
    Offset += Slots;
  }
  Slots.assign(Offset, 0);
  for (uint32_t K = 0; K < M.Symbols.size(); ++K) {
    const Symbol &S = M.Symbols[K];
    if (Passed)
      Passed(S.Range.Begin);
    if (S.Space == StateSpace::Reg && !S.Name.empty())
      RegStarts.set(uint8_t(S.Name[0]));
    const Scope *Sc = ScopeOf(S);
    if (!Sc)
      continue;
    for (uint32_t P = hash(S.Name) & Sc->Mask;; P = (P + 1) & Sc->Mask) {
      uint32_t &Slot = Slots[Sc->Offset + P];
      if (!Slot) {
        Slot = K + 1;
        break;
      }
      if (M.Symbols[Slot - 1].Name == S.Name)
        break; // first declaration wins
    }
  }
}

// Inlined into lookupExact(): up to four calls per lookup, and the checker
// and the flow build look up every register operand.
[[gnu::always_inline]] inline const Symbol *
SymbolTable::find(std::string_view Name, uint32_t Hash, int32_t Function) const {
  size_t X = size_t(int64_t(Function) + 1);
  if (X >= Scopes.size() || !Scopes[X].Size)
    return nullptr;
  const Scope &Sc = Scopes[X];
  for (uint32_t P = Hash & Sc.Mask;; P = (P + 1) & Sc.Mask) {
    uint32_t Slot = Slots[Sc.Offset + P];
    if (!Slot)
      return nullptr;
    const Symbol &S = M.Symbols[Slot - 1];
    // The last bytes first: names of one scope share prefixes ("%r",
    // "_ZZ...") and differ at their ends; then the call to memcmp.
    if (S.Name.size() == Name.size() && (Name.empty() || S.Name.back() == Name.back()) &&
        S.Name == Name)
      return &S;
  }
}

const Symbol *SymbolTable::lookupExact(std::string_view Name, uint32_t Hash,
                                       int32_t Function) const {
  if (const Symbol *S = find(Name, Hash, Function))
    return S;
  return Function >= 0 ? find(Name, Hash, -1) : nullptr;
}

const Symbol *SymbolTable::lookup(std::string_view Name, int32_t Function) const {
  // "%r17" -> "%r" declared as %r<N> with 17 < N. One pass hashes both the
  // name and its non-digit prefix (FNV-1a extends a prefix's hash): every
  // register operand ends in digits and misses its exact lookup.
  size_t E = Name.size();
  while (E > 0 && Name[E - 1] >= '0' && Name[E - 1] <= '9')
    --E;
  uint32_t PrefixHash = hash(Name.substr(0, E));
  uint32_t Hash = PrefixHash;
  for (size_t K = E; K < Name.size(); ++K)
    Hash = (Hash ^ uint8_t(Name[K])) * 16777619u;
  if (const Symbol *S = lookupExact(Name, Hash, Function))
    return S;
  if (E == Name.size() || E == 0)
    return nullptr;
  const Symbol *S = lookupExact(Name.substr(0, E), PrefixHash, Function);
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
