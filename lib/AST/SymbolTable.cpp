//===- SymbolTable.cpp - Scoped name lookup -------------------------------===//

#include "ptxlint/SymbolTable.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <iterator>
#include <mutex>
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

/// Whether F's header declares it .extern (no body in this module).
bool declaredExtern(const Module &M, const Function &F) {
  if (!F.IsPrototype || F.HeaderStatement >= M.Statements.size())
    return false;
  std::string_view Header = M.Statements[F.HeaderStatement].text(M.Text);
  size_t Func = Header.find(".func");
  return Header.substr(0, Func).find(".extern") != std::string_view::npos;
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
  assert(From >= First && "a name forgotten is not appended again");
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

/// What a later declaration could change of the lookups made while logging
/// (SymbolTable::logLookups()).
struct SymbolTable::Log {
  std::mutex Lock; // the flow pass's threads look up at once
  std::vector<uint32_t> Misses;    ///< hashes of names no module symbol matched
  std::vector<uint32_t> NoBodies;  ///< hashes of names asked of no function
  /// What definesBody() answered for a function declared, not yet defined.
  std::unordered_map<std::string_view, bool> Answers;
  uint32_t FirstSymbol = 0;        ///< the first symbol declared since
  uint32_t FirstFunction = 0;      ///< the first function added since
  /// A function's scope grew after it was added (malformed nesting), or a
  /// module-scope name starting with '%' or of the .reg space was declared:
  /// lookups skip the module scope for those without a trace.
  bool Unlogged = false;
};

SymbolTable::SymbolTable(const Module &M, const Declared &D) : M(M) { extend(D); }

SymbolTable::SymbolTable(const Module &M, Empty) : M(M) {}

SymbolTable::~SymbolTable() = default;

void SymbolTable::extend(const Declared &D) {
  ++Generation;
  Names = &D.Names;
  const uint32_t NS = uint32_t(M.Symbols.size()), NF = uint32_t(M.Functions.size());
  // Functions of the same '%' declarations share a number (from 1).
  for (uint32_t F = uint32_t(PercentScopes.size()); F < NF; ++F) {
    const std::string &Key = F < D.PercentNames.size() ? D.PercentNames[F] : std::string();
    PercentScopes.push_back(
        PercentNumbers.try_emplace(Key, uint32_t(PercentNumbers.size() + 1)).first->second);
  }
  for (uint32_t F = BuiltFunctions; F < NF; ++F) {
    const Function &Fn = M.Functions[F];
    Callee &C = Callees[Fn.Name];
    C.HasBody = C.HasBody || !Fn.IsPrototype;
    C.BodyExpected = C.BodyExpected || !declaredExtern(M, Fn);
  }
  Scopes.resize(NF + 1);
  NewCount.resize(NF + 1);
  auto ScopeOf = [&](const Symbol &S) -> size_t {
    size_t X = size_t(int64_t(S.Function) + 1);
    return X < Scopes.size() ? X : SIZE_MAX;
  };
  // Where each symbol's name begins in Names (a symbol's view gives its
  // size without reading the text).
  NamesFirst = uint32_t(D.First);
  NameAt.resize(NS - NamesFirst);
  for (uint32_t K = NamesFirst, At = 0; K < NS; At += uint32_t(M.Symbols[K++].Name.size()))
    NameAt[K - NamesFirst] = At;
  // Room for the new symbols: a scope's slots are at least twice its
  // symbols; one that would fill more moves to new slots at the end.
  std::vector<size_t> Touched;
  for (uint32_t K = Built; K < NS; ++K) {
    size_t X = ScopeOf(M.Symbols[K]);
    if (X == SIZE_MAX)
      continue;
    if (!NewCount[X]++)
      Touched.push_back(X);
  }
  for (size_t X : Touched) {
    Scope &Sc = Scopes[X];
    uint32_t Count = Sc.Count + NewCount[X];
    NewCount[X] = 0;
    if (Logged && X > 0 && X - 1 < BuiltFunctions)
      Logged->Unlogged = true; // a function's scope, complete when added, grew
    if (2 * Count > Sc.Size)
      regrow(X, Count);
  }
  for (uint32_t K = Built; K < NS; ++K) {
    const Symbol &S = M.Symbols[K];
    std::string_view Name = nameOf(K);
    if (S.Space == StateSpace::Reg && !Name.empty())
      RegStarts.set(uint8_t(Name[0]));
    if (Logged && S.Function < 0 &&
        (S.Space == StateSpace::Reg || (!Name.empty() && Name[0] == '%')))
      Logged->Unlogged = true; // see Log::Unlogged
    if (ScopeOf(S) != SIZE_MAX)
      insert(K, Name);
  }
  Built = NS;
  BuiltFunctions = NF;
  Names = nullptr;
  NameAt.clear();
}

void SymbolTable::regrow(size_t X, uint32_t Count) {
  Scope &Sc = Scopes[X];
  uint32_t Size = 4;
  while (Size < 2 * Count)
    Size *= 2;
  uint32_t Old = Sc.Count, First = Sc.FirstSymbol, End = Sc.EndSymbol;
  Sc.Offset = uint32_t(Slots.size());
  Sc.Mask = Size - 1;
  Sc.Size = Size;
  Sc.Count = 0;
  Sc.FirstSymbol = UINT32_MAX;
  Sc.EndSymbol = 0;
  Slots.resize(Slots.size() + Size, 0);
  // Its own symbols again, in order (the first declaration of a name wins);
  // the old slots are left unused.
  for (uint32_t K = First; Old && K < End && K < Built; ++K)
    if (size_t(int64_t(M.Symbols[K].Function) + 1) == X)
      insert(K, nameOf(K));
}

void SymbolTable::insert(uint32_t K, std::string_view Name) {
  Scope &Sc = Scopes[size_t(int64_t(M.Symbols[K].Function) + 1)];
  Sc.FirstSymbol = std::min(Sc.FirstSymbol, K);
  Sc.EndSymbol = K + 1;
  ++Sc.Count;
  if (!Name.empty() && isDigit(Name.back()))
    Sc.DigitNames |= digitNameBit(Name);
  for (uint32_t P = hash(Name) & Sc.Mask;; P = (P + 1) & Sc.Mask) {
    uint32_t &Slot = Slots[Sc.Offset + P];
    if (!Slot) {
      Slot = K + 1;
      break;
    }
    if (nameOf(Slot - 1) == Name)
      break; // first declaration wins
  }
}

void SymbolTable::logLookups() {
  Logged = std::make_unique<Log>();
  Logged->FirstSymbol = Built;
  Logged->FirstFunction = BuiltFunctions;
}

void SymbolTable::noteMiss(std::string_view Name) const {
  // Registers ('%') are never looked for in the module scope by a later
  // declaration's effect: such a declaration sets Unlogged.
  if (Name.empty() || Name[0] == '%')
    return;
  uint32_t H = hash(Name);
  std::lock_guard<std::mutex> G(Logged->Lock);
  if (Logged->Misses.empty() || Logged->Misses.back() != H)
    Logged->Misses.push_back(H);
}

bool SymbolTable::laterDeclarationsChangedNothing() const {
  if (!Logged)
    return true;
  const Log &L = *Logged;
  if (L.Unlogged)
    return false;
  auto Sorted = [](std::vector<uint32_t> V) {
    std::sort(V.begin(), V.end());
    return V;
  };
  std::vector<uint32_t> Misses = Sorted(L.Misses), NoBodies = Sorted(L.NoBodies);
  auto In = [](const std::vector<uint32_t> &V, std::string_view Name) {
    return std::binary_search(V.begin(), V.end(), hash(Name));
  };
  for (uint32_t K = L.FirstSymbol; K < Built; ++K)
    if (M.Symbols[K].Function < 0 && In(Misses, M.Symbols[K].Name))
      return false;
  for (uint32_t F = L.FirstFunction; F < BuiltFunctions; ++F)
    if (In(NoBodies, M.Functions[F].Name))
      return false;
  for (const auto &[Name, Answer] : L.Answers)
    if (Callees.at(Name).HasBody != Answer)
      return false;
  return true;
}

bool SymbolTable::definesBody(std::string_view Function) const {
  auto It = Callees.find(Function);
  if (It != Callees.end() && (It->second.HasBody || !Logged))
    return It->second.HasBody;
  if (!Logged)
    return false;
  std::lock_guard<std::mutex> G(Logged->Lock);
  if (It == Callees.end()) {
    Logged->NoBodies.push_back(hash(Function));
    return false;
  }
  Logged->Answers[It->first] = It->second.BodyExpected;
  return It->second.BodyExpected;
}

void SymbolTable::warm(int32_t Function) const {
  size_t X = size_t(int64_t(Function) + 1);
  if (X >= Scopes.size() || !Scopes[X].Size)
    return;
  const Scope &Sc = Scopes[X];
  // A function of thousands of declarations (CUTLASS's inline-asm blocks)
  // gets its first lines only: the rest would push out what is in use.
  constexpr size_t MaxLines = 32, Line = 64;
  auto Fetch = [](const void *Begin, const void *End) {
    const char *P = static_cast<const char *>(Begin), *E = static_cast<const char *>(End);
    for (size_t N = 0; P < E && N < MaxLines; P += Line, ++N)
      __builtin_prefetch(P);
  };
  Fetch(Slots.data() + Sc.Offset, Slots.data() + Sc.Offset + Sc.Size);
  Fetch(M.Symbols.data() + Sc.FirstSymbol, M.Symbols.data() + Sc.EndSymbol);
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
  const Symbol *S = Function >= 0 ? find(Name, Hash, -1, DigitEnded) : nullptr;
  if (!S && Logged)
    noteMiss(Name);
  return S;
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
  if (Logged)
    noteMiss(Name); // the module scope has no name of its digit bit
  if (Memo.Generation != Generation) { // its symbols may have moved
    Memo = PrefixMemo();
    Memo.Generation = Generation;
  }
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
