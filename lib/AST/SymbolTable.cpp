//===- SymbolTable.cpp - Scoped name lookup -------------------------------===//

#include "ptxlint/SymbolTable.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <unordered_map>

namespace ptxlint {

uint32_t SymbolTable::hash(std::string_view Name) {
  // Eight bytes a step. The names looked up by their whole are mostly
  // shared arrays' mangled names of 60-70 bytes ("_ZZ...E4Smem_c0f0"), and
  // a byte a step (FNV-1a) made each a chain of 70 dependent multiplies:
  // most of such a lookup's time.
  constexpr uint64_t Mul = 0xff51afd7ed558ccdull;
  uint64_t H = 0x9e3779b97f4a7c15ull ^ Name.size();
  size_t K = 0;
  for (; K + 8 <= Name.size(); K += 8) {
    uint64_t W;
    std::memcpy(&W, Name.data() + K, 8);
    H = (H ^ W) * Mul;
    H ^= H >> 29;
  }
  if (K < Name.size()) {
    uint64_t W = 0; // the last bytes, no read past the name
    for (size_t B = 0; K + B < Name.size(); ++B)
      W |= uint64_t(uint8_t(Name[K + B])) << (8 * B);
    H = (H ^ W) * Mul;
  }
  // Slots are picked by the low bits: fold the high ones in.
  H ^= H >> 32;
  H *= 0xc4ceb9fe1a85ec53ull;
  return uint32_t(H ^ (H >> 29));
}

namespace {
bool isDigit(char C) { return C >= '0' && C <= '9'; }

/// The bit of a name ending in a digit in its scope's DigitNames: by its
/// first byte and size, which set registers ("%r17") apart from the
/// mangled names ending in digits (shared variables "..._c0f0", parameters
/// "..._param_0") that a module declares by the thousand.
uint64_t digitNameBit(std::string_view Name) {
  uint32_t Key = uint32_t(uint8_t(Name[0])) << 8 | uint32_t(std::min<size_t>(Name.size(), 255));
  return uint64_t(1) << ((Key * 0x9E3779B1u) >> 26);
}

/// S if it declares Name's register: S is Name's prefix [0, E) declared as
/// %prefix<N>, and Name's digits a number below N, written without a
/// leading zero ("%r07" is not a member of %r<N>).
const Symbol *inRange(const Symbol *S, std::string_view Name, size_t E) {
  if (!S || S->RangeCount == 0)
    return nullptr;
  unsigned long long N = 0;
  for (size_t K = E; K < Name.size(); ++K) {
    N = N * 10 + unsigned(Name[K] - '0');
    if (N > S->RangeCount)
      return nullptr;
  }
  if (Name.size() - E > 1 && Name[E] == '0')
    return nullptr;
  return N < S->RangeCount ? S : nullptr;
}

/// Names of equal size: the last byte first (names of one scope share
/// prefixes, "%r", "_ZZ...", and differ at their ends), short ones in line
/// (a call to memcmp costs more than a register name's few bytes).
bool sameName(std::string_view A, std::string_view B) {
  size_t N = A.size();
  if (N == 0)
    return true;
  if (A[N - 1] != B[N - 1])
    return false;
  if (N > 16)
    return A == B;
  for (size_t K = 0; K + 1 < N; ++K)
    if (A[K] != B[K])
      return false;
  return true;
}
} // namespace

SymbolTable::SymbolTable(const Module &M)
    : SymbolTable(M, [&] {
        Declared D;
        D.append(M, 0);
        return D;
      }()) {}

/// The longest key Declared::append() keeps of a function's '%' names.
constexpr size_t MaxPercentKey = 1024;

void SymbolTable::Declared::append(const Module &M, size_t From) {
  for (size_t K = From; K < M.Symbols.size(); ++K) {
    const Symbol &S = M.Symbols[K];
    Names += S.Name;
    if (S.Function < 0 || S.Name.empty() || S.Name[0] != '%')
      continue;
    if (size_t(S.Function) >= PercentNames.size())
      PercentNames.resize(size_t(S.Function) + 1);
    std::string &Key = PercentNames[size_t(S.Function)];
    // A function of many (CUTLASS kernels declare registers in each of
    // thousands of inline-asm blocks), or of long names, is given a number
    // of its own, not a key of every declaration: a key that starts with
    // '#', not '%'.
    if (!Key.empty() && Key[0] == '#')
      continue;
    if (Key.size() > MaxPercentKey || S.Name.size() > UINT8_MAX || S.Type.size() > UINT8_MAX) {
      Key.assign("#").append(std::to_string(S.Function));
      continue;
    }
    // Each declaration: '%', its facts with the sizes of its name and type,
    // its name, its type.
    static_assert(sizeof(Symbol) == 64, "a new field of Symbol: add it here");
    struct Facts { // no padding: its bytes are the key's
      uint64_t ArraySize;
      uint32_t RangeCount, Align;
      StateSpace Space;
      uint8_t VectorWidth;
      bool IsArray, Extern;
      uint8_t NameSize, TypeSize;
      uint8_t Unused[2];
    } F{S.ArraySize, S.RangeCount, S.Align, S.Space, S.VectorWidth, S.IsArray, S.Extern,
        uint8_t(S.Name.size()), uint8_t(S.Type.size()), {0, 0}};
    static_assert(sizeof(Facts) == 24, "no padding");
    Key.append(1, '%').append(reinterpret_cast<const char *>(&F), sizeof F);
    Key.append(S.Name).append(S.Type);
  }
}

SymbolTable::SymbolTable(const Module &M, const Declared &D) : M(M) {
  std::string_view Names = D.Names;
  // Functions of the same '%' declarations share a number (from 1).
  PercentScopes.resize(M.Functions.size());
  std::unordered_map<std::string_view, uint32_t> Numbers;
  for (size_t F = 0; F < PercentScopes.size(); ++F) {
    std::string_view Key = F < D.PercentNames.size() ? D.PercentNames[F] : std::string_view();
    PercentScopes[F] = Numbers.try_emplace(Key, uint32_t(Numbers.size() + 1)).first->second;
  }

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
    Scopes[X] = {Offset, Slots - 1, Slots, 0};
    Offset += Slots;
  }
  Slots.assign(Offset, 0);
  // Where each symbol's name begins in Names (a symbol's view gives its
  // size without reading the text).
  std::vector<uint32_t> NameAt(M.Symbols.size());
  for (uint32_t K = 0, At = 0; K < M.Symbols.size(); At += uint32_t(M.Symbols[K++].Name.size()))
    NameAt[K] = At;
  auto NameOf = [&](uint32_t K) { return Names.substr(NameAt[K], M.Symbols[K].Name.size()); };
  for (uint32_t K = 0; K < M.Symbols.size(); ++K) {
    const Symbol &S = M.Symbols[K];
    std::string_view Name = NameOf(K);
    if (S.Space == StateSpace::Reg && !Name.empty())
      RegStarts.set(uint8_t(Name[0]));
    Scope *Sc = ScopeOf(S);
    if (!Sc)
      continue;
    uint32_t H = hash(Name);
    if (!Name.empty() && isDigit(Name.back()))
      Sc->DigitNames |= digitNameBit(Name);
    for (uint32_t P = H & Sc->Mask;; P = (P + 1) & Sc->Mask) {
      uint32_t &Slot = Slots[Sc->Offset + P];
      if (!Slot) {
        Slot = K + 1;
        break;
      }
      if (NameOf(Slot - 1) == Name)
        break; // first declaration wins
    }
  }
}

// Inlined into lookupExact(): up to four calls per lookup, and the checker
// and the flow build look up every register operand.
[[gnu::always_inline]] inline const Symbol *
SymbolTable::find(std::string_view Name, uint32_t Hash, int32_t Function,
                  bool DigitEnded) const {
  size_t X = size_t(int64_t(Function) + 1);
  if (X >= Scopes.size() || !Scopes[X].Size)
    return nullptr;
  const Scope &Sc = Scopes[X];
  if (DigitEnded && !(Sc.DigitNames & digitNameBit(Name)))
    return nullptr;
  for (uint32_t P = Hash & Sc.Mask;; P = (P + 1) & Sc.Mask) {
    uint32_t Slot = Slots[Sc.Offset + P];
    if (!Slot)
      return nullptr;
    const Symbol &S = M.Symbols[Slot - 1];
    if (S.Name.size() == Name.size() && sameName(S.Name, Name))
      return &S;
  }
}

[[gnu::always_inline]] inline const Symbol *
SymbolTable::lookupExact(std::string_view Name, uint32_t Hash, int32_t Function,
                         bool DigitEnded) const {
  if (const Symbol *S = find(Name, Hash, Function, DigitEnded))
    return S;
  return Function >= 0 ? find(Name, Hash, -1, DigitEnded) : nullptr;
}

const Symbol *SymbolTable::lookup(std::string_view Name, int32_t Function) const {
  // "%r17" -> "%r" declared as %r<N> with 17 < N: every register operand
  // ends in digits and misses its exact lookup. A scope where no name
  // ending in a digit has the name's DigitNames bit has no such name: the
  // exact lookups of a register ("%r17" where "%r" is declared %r<N>) then
  // skip their probes.
  size_t E = Name.size();
  while (E > 0 && isDigit(Name[E - 1]))
    --E;
  if (const Symbol *S = lookupExact(Name, hash(Name), Function, E != Name.size()))
    return S;
  if (E == Name.size() || E == 0)
    return nullptr;
  std::string_view Prefix = Name.substr(0, E);
  return inRange(lookupExact(Prefix, hash(Prefix), Function, false), Name, E);
}

bool SymbolTable::mayHoldDigitName(int32_t Function, uint64_t Bit) const {
  size_t X = size_t(int64_t(Function) + 1);
  return X < Scopes.size() && Scopes[X].Size && (Scopes[X].DigitNames & Bit);
}

const Symbol *SymbolTable::lookup(std::string_view Name, int32_t Function,
                                  PrefixMemo &Memo) const {
  size_t E = Name.size();
  while (E > 0 && isDigit(Name[E - 1]))
    --E;
  // Only where no scope may hold the name itself does it come down to its
  // prefix alone.
  uint64_t Bit = E < Name.size() ? digitNameBit(Name) : 0;
  if (E == Name.size() || E == 0 || E > sizeof(PrefixMemo::Entry::Text) ||
      mayHoldDigitName(Function, Bit) || (Function >= 0 && mayHoldDigitName(-1, Bit)))
    return lookup(Name, Function);
  for (const PrefixMemo::Entry &X : Memo.Entries)
    if (X.Size == E && X.Function == Function &&
        std::equal(X.Text, X.Text + E, Name.data())) // a few bytes: no call
      return inRange(X.Sym, Name, E);
  std::string_view Prefix = Name.substr(0, E);
  const Symbol *S = lookupExact(Prefix, hash(Prefix), Function, false);
  PrefixMemo::Entry &X = Memo.Entries[Memo.Next++ % std::size(Memo.Entries)];
  X.Sym = S;
  X.Function = Function;
  X.Size = uint8_t(E);
  std::memcpy(X.Text, Name.data(), E);
  return inRange(S, Name, E);
}

} // namespace ptxlint
