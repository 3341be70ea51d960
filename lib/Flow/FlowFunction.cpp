//===- FlowFunction.cpp - Decode, CFG and register values -----------------===//

#include "Flow/FlowFunction.h"
#include "Flow/OperandDecoder.h"
#include "Support/CharClass.h"

#include "Parse/StatementFilter.h"
#include "Parse/StatementParser.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <type_traits>

namespace ptxlint {
namespace flow {

uint64_t symbolBytes(const Symbol &S) {
  if (S.Extern || S.RangeCount)
    return 0;
  std::string_view T = S.Type;
  uint64_t Elem = 0;
  if (T == ".b8" || T == ".u8" || T == ".s8")
    Elem = 1;
  else if (T == ".b16" || T == ".u16" || T == ".s16" || T == ".f16" ||
           T == ".bf16")
    Elem = 2;
  else if (T == ".b32" || T == ".u32" || T == ".s32" || T == ".f32")
    Elem = 4;
  else if (T == ".b64" || T == ".u64" || T == ".s64" || T == ".f64")
    Elem = 8;
  if (!Elem)
    return 0;
  if (S.VectorWidth)
    Elem *= S.VectorWidth;
  if (!S.IsArray)
    return Elem;
  if (!S.ArraySize)
    return 0;
  return S.ArraySize * Elem;
}

namespace {

class ModifierList : public QualifierList {
public:
  explicit ModifierList(const NodeList<Modifier> &M) : Mods(M) {}
  size_t size() const override { return Mods.size(); }
  std::string_view at(size_t K) const override {
    std::string_view T = Mods[K].Text;
    return T.empty() ? T : T.substr(1);
  }

private:
  const NodeList<Modifier> &Mods;
};


/// The opcode word of a head ("mov" of "mov.u32") packed into an integer,
/// first byte lowest; words of more than 8 bytes get 0 (no opcode with a
/// role is that long).
constexpr uint64_t packWord(std::string_view Head) {
  uint64_t V = 0;
  for (size_t K = 0; K < Head.size() && Head[K] != '.'; ++K) {
    if (K == 8)
      return 0;
    V |= uint64_t(uint8_t(Head[K])) << (8 * K);
  }
  return V;
}

/// The opcode words classify() can give a role (anything but Other), all
/// of 2 to 8 bytes; the one longer word is tested apart (mayHaveRole()).
constexpr std::string_view RoleWords[] = {
    "cp",    "st",      "ld",       "bar",      "red",      "ldu",
    "tex",   "bra",     "brx",      "ret",      "atom",     "tld4",
    "suld",  "exit",    "trap",     "call",     "fence",    "barrier",
    "mbarrier", "stmatrix", "ldmatrix", "multimem", "wgmma", "tcgen05"};
constexpr std::string_view LongRoleWord = "clusterlaunchcontrol.";

/// RoleWords packed (packWord()) and sorted, for a binary search.
constexpr auto PackedRoleWords = [] {
  std::array<uint64_t, std::size(RoleWords)> A{};
  for (size_t K = 0; K < A.size(); ++K) {
    uint64_t V = packWord(RoleWords[K]);
    size_t J = K;
    for (; J > 0 && A[J - 1] > V; --J)
      A[J] = A[J - 1];
    A[J] = V;
  }
  return A;
}();

/// The first two bytes of the role words, a bit each: a head that starts
/// otherwise (mov, add, mad, setp, cvt, shl: most of a kernel) has no role,
/// found by one table lookup.
struct RolePrefixes {
  uint64_t Bits[65536 / 64] = {};
  constexpr RolePrefixes() {
    for (std::string_view W : RoleWords)
      add(W);
    add(LongRoleWord);
  }
  constexpr void add(std::string_view W) {
    unsigned X = unsigned(uint8_t(W[0])) | unsigned(uint8_t(W[1])) << 8;
    Bits[X / 64] |= uint64_t(1) << (X % 64);
  }
  bool has(std::string_view Head) const {
    unsigned X = unsigned(uint8_t(Head[0])) | unsigned(uint8_t(Head[1])) << 8;
    return Bits[X / 64] >> (X % 64) & 1;
  }
};
constexpr RolePrefixes RolePrefix;

/// Whether classify() can give this instruction a role (anything but
/// Other), from its head: most instructions are arithmetic, and splitting
/// their head into qualifiers would be wasted. Runs for every instruction,
/// hence a table lookup and integer compares rather than string compares.
[[gnu::always_inline]] inline bool mayHaveRole(std::string_view Head) {
  if (Head.size() < 2 || !RolePrefix.has(Head))
    return false;
  uint64_t W = packWord(Head);
  if (W == 0) // longer than 8 bytes
    return Head.compare(0, LongRoleWord.size(), LongRoleWord) == 0;
  return std::binary_search(PackedRoleWords.begin(), PackedRoleWords.end(), W);
}

} // namespace

// --- name table ------------------------------------------------------------------

void NamePool::push(std::string_view Name) {
  if (Chunks.empty() || Chunks.back().size() == Chunks.back().capacity()) {
    // A new chunk, with the open run moved to its start: runs are
    // contiguous, and a full chunk never grows (operands point into it).
    size_t Open = Chunks.empty() ? 0 : Chunks.back().size() - RunStart;
    std::vector<std::string_view> Next;
    Next.reserve(std::max<size_t>(1024, 2 * (Open + 1)));
    if (Open) {
      std::vector<std::string_view> &Full = Chunks.back();
      Next.assign(Full.begin() + std::ptrdiff_t(RunStart), Full.end());
      Full.resize(RunStart);
    }
    Chunks.push_back(std::move(Next));
    RunStart = 0;
  }
  Chunks.back().push_back(Name);
}

NameRun NamePool::finish() {
  if (Chunks.empty())
    return NameRun();
  std::vector<std::string_view> &C = Chunks.back();
  NameRun R{C.data() + RunStart, uint32_t(C.size() - RunStart)};
  RunStart = C.size();
  return R;
}

namespace {
/// The labels of a function by name and { } scope: the instruction each
/// precedes. Open addressing (a hash node per label before: CUTLASS 77 has
/// 14,600 of them).
class LabelTable {
public:
  /// False if Name is in Scope already.
  bool insert(std::string_view Name, uint32_t Scope, uint32_t Inst) {
    if ((Count + 1) * 2 > Slots.size())
      grow();
    Slot &Sl = Slots[probe(Name, Scope)];
    if (Sl.Data)
      return false;
    Sl = Slot{Name.data(), uint32_t(Name.size()), Scope, Inst};
    ++Count;
    return true;
  }
  /// The instruction the label precedes, -1 if absent.
  int64_t find(std::string_view Name, uint32_t Scope) const {
    if (Slots.empty())
      return -1;
    const Slot &Sl = Slots[probe(Name, Scope)];
    return Sl.Data ? int64_t(Sl.Inst) : -1;
  }
  /// Whether some label precedes instruction Inst.
  bool anyAt(uint32_t Inst) const {
    for (const Slot &Sl : Slots)
      if (Sl.Data && Sl.Inst == Inst)
        return true;
    return false;
  }

private:
  struct Slot {
    const char *Data = nullptr; ///< nullptr: empty
    uint32_t Size = 0, Scope = 0, Inst = 0;
  };
  size_t probe(std::string_view Name, uint32_t Scope) const {
    size_t Mask = Slots.size() - 1;
    for (size_t P = size_t(hashText(Name, Scope)) & Mask;; P = (P + 1) & Mask) {
      const Slot &Sl = Slots[P];
      if (!Sl.Data || (Sl.Scope == Scope && std::string_view(Sl.Data, Sl.Size) == Name))
        return P;
    }
  }
  void grow() {
    std::vector<Slot> Old;
    Old.swap(Slots);
    Slots.assign(std::max<size_t>(64, Old.size() * 2), Slot{});
    for (const Slot &Sl : Old)
      if (Sl.Data)
        Slots[probe(std::string_view(Sl.Data, Sl.Size), Sl.Scope)] = Sl;
  }
  std::vector<Slot> Slots;
  size_t Count = 0;
};
} // namespace

uint64_t NameTable::hash(std::string_view S) { return hashText(S); }

int32_t NameTable::findLong(std::string_view Name) const {
  if (Slots.empty())
    return -1;
  size_t Mask = Slots.size() - 1;
  for (size_t P = size_t(hash(Name)) & Mask;; P = (P + 1) & Mask) {
    const Slot &Sl = Slots[P];
    if (Sl.Id < 0)
      return -1;
    if (Sl.Size == Name.size() && std::string_view(Sl.Data, Sl.Size) == Name)
      return Sl.Id;
  }
}

void NameTable::reservePacked(size_t N) {
  size_t Want = 16;
  while (Want < 2 * N)
    Want *= 2;
  if (PackedCount == 0)
    Packed.assign(std::max(Want, Packed.size()), PackedSlot{});
  while (Packed.size() < Want)
    growPacked();
}

std::pair<int32_t, bool> NameTable::insert(std::string_view Name, int32_t Id) {
  if (packable(Name))
    return insertPacked(pack(Name), Id);
  if ((Count - PackedCount + 1) * 2 > Slots.size())
    grow();
  size_t Mask = Slots.size() - 1;
  for (size_t P = size_t(hash(Name)) & Mask;; P = (P + 1) & Mask) {
    Slot &Sl = Slots[P];
    if (Sl.Id < 0) {
      Sl = Slot{Name.data(), uint32_t(Name.size()), Id};
      ++Count;
      return {Id, true};
    }
    if (Sl.Size == Name.size() && std::string_view(Sl.Data, Sl.Size) == Name)
      return {Sl.Id, false};
  }
}

namespace {
/// Doubles an open-addressing table (a slot with Id < 0 is empty) and puts
/// its entries back.
template <class SlotT, class HashFn>
void rehashDoubled(std::vector<SlotT> &Table, size_t FirstSize, HashFn &&Hash) {
  std::vector<SlotT> Old;
  Old.swap(Table);
  Table.assign(Old.empty() ? FirstSize : Old.size() * 2, SlotT{});
  size_t Mask = Table.size() - 1;
  for (const SlotT &Sl : Old) {
    if (Sl.Id < 0)
      continue;
    size_t P = size_t(Hash(Sl)) & Mask;
    while (Table[P].Id >= 0)
      P = (P + 1) & Mask;
    Table[P] = Sl;
  }
}
} // namespace

void NameTable::growPacked() {
  // Small first tables: async-dense's 840 functions hold a dozen names each.
  rehashDoubled(Packed, 16, [](const PackedSlot &Sl) { return packedHash(Sl.Key); });
}

void NameTable::grow() {
  rehashDoubled(Slots, 16, [](const Slot &Sl) {
    return hash(std::string_view(Sl.Data, Sl.Size));
  });
}

// --- head classification cache ---------------------------------------------------

uint64_t ClassCache::hash(std::string_view Head, uint32_t Operands) {
  const char *P = Head.data();
  size_t N = Head.size();
  uint64_t H = (uint64_t(N) << 32 | Operands) * 0x9E3779B97F4A7C15ull;
  if (N < 8) {
    for (size_t K = 0; K < N; ++K)
      H = mixWord(H, uint8_t(P[K]));
  } else {
    for (size_t At : {size_t(0), (N - 8) / 2, N - 8})
      H = mixWord(H, loadWord(P + At));
  }
  return finishHash(H);
}

size_t ClassCache::slotOf(std::string_view Head, uint32_t Operands,
                          uint64_t H) const {
  size_t Mask = Slots.size() - 1;
  for (size_t P = size_t(H) & Mask;; P = (P + 1) & Mask) {
    const Slot &Sl = Slots[P];
    if (!Sl.Head || (Sl.Hash == H && Sl.Size == Head.size() && Sl.Operands == Operands &&
                     std::memcmp(Sl.Head, Head.data(), Head.size()) == 0))
      return P;
  }
}

const AsyncOp *ClassCache::find(std::string_view Head, uint32_t Operands) const {
  if (Slots.empty())
    return nullptr;
  const Slot &Sl = Slots[slotOf(Head, Operands, hash(Head, Operands))];
  return Sl.Head ? &Sl.Op : nullptr;
}

const AsyncOp &ClassCache::insert(std::string_view Head, uint32_t Operands,
                                  const AsyncOp &Op) {
  if ((Count + 1) * 2 > Slots.size()) {
    std::vector<Slot> Old;
    Old.swap(Slots);
    Slots.assign(std::max<size_t>(64, Old.size() * 2), Slot{});
    for (const Slot &Sl : Old)
      if (Sl.Head)
        Slots[slotOf(std::string_view(Sl.Head, Sl.Size), Sl.Operands, Sl.Hash)] = Sl;
  }
  uint64_t H = hash(Head, Operands);
  Slot &Sl = Slots[slotOf(Head, Operands, H)];
  if (!Sl.Head) {
    Sl = Slot{Head.data(), uint32_t(Head.size()), Operands, H, Op};
    ++Count;
  }
  return Sl.Op;
}

// --- construction -------------------------------------------------------------

struct FlowFunction::Spare {
  std::vector<FlowInst> Insts;
  std::vector<Block> Blocks;
  std::vector<uint32_t> RoleInsts, TmemInsts, EventPool, DefStart, DefOf,
      InstBlock, FormsLater;
  std::vector<RoleTag> RoleTags;
  std::vector<BaseInfo> Bases;
  std::vector<Def> Defs;
  std::vector<int32_t> SliceOf;
  std::vector<SliceReg> Slice;
  std::vector<Opnd> FirstChunk; ///< of OpndPool (18 KB: 256 operands)

  /// The most bytes a function's vectors may hold to be kept: a small
  /// function's (async-dense's, of 209-706 lines, hold up to 42 KB), not a
  /// large one's (CUTLASS 77's and FA3's hold 0.5 to 1.4 MB each).
  static constexpr size_t MaxBytes = 128 << 10;

  /// Calls F on each pair of like-named flat vectors of X and Y: every
  /// vector of FlowFunction whose elements own nothing (a nested vector
  /// would be freed by clear() anyway).
  template <typename A, typename B, typename Fn>
  static void pairs(A &X, B &Y, Fn F) {
    F(X.Insts, Y.Insts);
    F(X.Blocks, Y.Blocks);
    F(X.RoleInsts, Y.RoleInsts);
    F(X.TmemInsts, Y.TmemInsts);
    F(X.EventPool, Y.EventPool);
    F(X.DefStart, Y.DefStart);
    F(X.DefOf, Y.DefOf);
    F(X.InstBlock, Y.InstBlock);
    F(X.RoleTags, Y.RoleTags);
    F(X.Bases, Y.Bases);
    F(X.Defs, Y.Defs);
    F(X.SliceOf, Y.SliceOf);
    F(X.Slice, Y.Slice);
    F(X.FormsLater, Y.FormsLater);
  }
  /// Moves From's vectors into To's, emptied (capacity kept).
  template <typename From, typename To>
  static void moveAll(From &Src, To &Dst) {
    pairs(Src, Dst, [](auto &S, auto &D) {
      D = std::move(S);
      D.clear();
      S.clear(); // (a moved-from vector is valid but unspecified)
    });
  }
  static size_t bytes(FlowFunction &FF) {
    size_t N = 0;
    pairs(FF, FF, [&N](auto &V, auto &) {
      N += V.capacity() * sizeof(typename std::decay_t<decltype(V)>::value_type);
    });
    return N;
  }
};

FlowFunction::FlowFunction(const Module &M, const SymbolTable &ST,
                           uint32_t FunctionIndex, ClassCache *Classes)
    : M(M), ST(ST), F(M.Functions[FunctionIndex]), FIndex(FunctionIndex),
      Classes(Classes ? Classes : &OwnClasses) {
  Spare::moveAll(spare(), *this);
  Operands.adopt(std::move(spare().FirstChunk));
  build();
}

FlowFunction::~FlowFunction() {
  if (Spare::bytes(*this) <= Spare::MaxBytes) {
    Spare::moveAll(*this, spare());
    spare().FirstChunk = Operands.takeFirst();
  }
}

FlowFunction::Spare &FlowFunction::spare() {
  // Per thread: the -j N workers each analyse their own functions.
  static thread_local Spare S;
  return S;
}

int32_t FlowFunction::baseFor(std::string_view Name, bool IsRegister) const {
  auto [Id, New] = BaseIndex.insert(Name, int32_t(Bases.size()));
  if (!New)
    return Id;
  BaseInfo &B = Bases.emplace_back(BaseInfo::Register, Name); // (in place: see BaseInfo)
  if (!IsRegister) {
    B.K = BaseInfo::OtherSym;
    if (const Symbol *S = ST.lookup(Name, int32_t(FIndex))) {
      B.Sym = S;
      switch (S->Space) {
      case StateSpace::Shared:
        B.K = BaseInfo::SharedSym;
        B.Bytes = symbolBytes(*S);
        break;
      case StateSpace::Param:
        B.K = BaseInfo::ParamSym;
        break;
      case StateSpace::Global:
      case StateSpace::Const:
        B.K = BaseInfo::GlobalSym;
        break;
      default:
        break;
      }
    }
  }
  return Id;
}

int32_t FlowFunction::selfBase(int32_t Reg) const {
  std::string_view Name = sliceReg(Reg).Name;
  if (Name[0] != '%')
    return baseFor(Name, true);
  // baseFor() finds a base by name for the names operands spell: symbols
  // (never '%': isRegName() takes those for registers) and registers not
  // defined here. A register defined here is neither: its own base needs
  // no name lookup, only an id in the order it is made.
  Bases.emplace_back(BaseInfo::Register, Name);
  return int32_t(Bases.size() - 1);
}

bool FlowFunction::isRegSymbol(std::string_view Name) const {
  // A label or a parameter: the symbol table's lookup finds a symbol by its
  // name or by the name's non-digit prefix, both starting with that byte.
  if (!Name.empty() && !ST.regNameStarts().test(uint8_t(Name[0])))
    return false; // no .reg symbol's name starts so
  int32_t Known = RegNameMemo.find(Name);
  if (Known >= 0)
    return Known != 0;
  const Symbol *S = ST.lookup(Name, int32_t(FIndex));
  bool IsReg = S && S->Space == StateSpace::Reg;
  RegNameMemo.insert(Name, IsReg ? 1 : 0);
  return IsReg;
}

RegNameTest FlowFunction::regNameTest() const {
  return {this, [](const void *Ctx, std::string_view Name) {
            return static_cast<const FlowFunction *>(Ctx)->isRegName(Name);
          }};
}

void FlowFunction::fromAst(const Instruction &P, const Operand &A, Opnd &O) const {
  O.Range = P.rangeOf(A);
  O.Negated = A.Negated;
  auto IsReg = [&](std::string_view Name) { return isRegName(Name); };
  switch (A.Kind) {
  case OperandKind::Register:
  case OperandKind::Symbol:
    O.Name = A.Name;
    O.K = IsReg(A.Name) ? Opnd::Reg : Opnd::Sym;
    break;
  case OperandKind::Immediate:
    O.K = Opnd::Imm;
    O.HasValue = A.HasValue;
    O.Value = A.Value;
    break;
  case OperandKind::Address: {
    O.K = Opnd::Addr;
    if (A.Elements.empty())
      break;
    const Operand &B = A.Elements[0];
    if (B.Kind == OperandKind::Register || B.Kind == OperandKind::Symbol) {
      O.Name = B.Name;
      O.BaseIsReg = IsReg(B.Name);
      O.HasValue = B.component().empty();
      O.Value = A.HasOffset ? A.Offset : 0;
    } else if (B.Kind == OperandKind::Immediate && B.HasValue) {
      O.HasValue = true;
      O.Value = B.Value;
    }
    break;
  }
  case OperandKind::Vector:
    O.K = Opnd::Vec;
    for (const Operand &E : A.Elements)
      if (E.Kind == OperandKind::Register ||
          (E.Kind == OperandKind::Symbol && IsReg(E.Name)))
        VecNames.push(E.Name);
    O.Regs = VecNames.finish();
    break;
  default:
    O.K = Opnd::Other;
    break;
  }
}

const AsyncOp &ClassCache::insertText(uint32_t TextId, const AsyncOp &Op) {
  if (TextId >= ByText.size())
    ByText.resize(std::max<size_t>(TextId + 1, 2 * ByText.size()));
  ByText[TextId].Op = Op;
  ByText[TextId].Known = true;
  return ByText[TextId].Op;
}

const AsyncOp &FlowFunction::classifyMemo(std::string_view Head,
                                          const Instruction *P) {
  if (!P || !P->TextId)
    return classifyHead(Head, P);
  if (const AsyncOp *Known = Classes->findText(P->TextId))
    return *Known;
  return Classes->insertText(P->TextId, classifyHead(Head, P));
}

const AsyncOp &FlowFunction::classifyHead(std::string_view Head,
                                          const Instruction *P) {
  uint32_t Key = P ? uint32_t(P->Operands.size()) + 1 : 0;
  if (P && !P->spelledBy(Head)) { // words apart: the head is not the key
    Uncached = classify(P->Opcode, ModifierList(P->Modifiers), unsigned(P->Operands.size()));
    return Uncached;
  }
  if (const AsyncOp *Known = Classes->find(Head, Key))
    return *Known;
  AsyncOp Op;
  if (P) {
    Op = classify(P->Opcode, ModifierList(P->Modifiers), unsigned(P->Operands.size()));
  } else {
    HeadQualifiers HQ(Head);
    Op = classify(HQ.opcode(), HQ, 0);
  }
  return Classes->insert(Head, Key, Op);
}

namespace {
/// The predicate's name of a statement that starts with '@' ("@!p bra L;"),
/// empty if the guard names none; Neg: the guard is negated.
std::string_view guardName(std::string_view Text, bool &Neg) {
  size_t K = 1;
  while (K < Text.size() && isSpace(Text[K]))
    ++K;
  Neg = K < Text.size() && Text[K] == '!';
  if (Neg)
    ++K;
  return nameAfterSpaces(Text, K);
}
} // namespace

std::string_view FlowFunction::guardOf(const FlowInst &I) const {
  bool Neg;
  return guardName(M.Statements[I.Stmt].text(M.Text), Neg);
}

void FlowFunction::decode(FlowInst &I, const Statement &S) {
  I.Range = S.Range;
  I.Head = S.head(M.Text);
  // (mayHaveRole(): build() decodes every tcgen05.* here.)
  if (I.Head.size() >= 8 && I.Head[0] == 't' && I.Head.substr(0, 8) == "tcgen05.")
    TmemInsts.push_back(uint32_t(&I - Insts.data()));
  if (S.Range.End > S.Range.Begin && M.Text[S.Range.Begin] == '@')
    I.Guarded = !guardName(S.text(M.Text), I.GuardNeg).empty();
  if (S.ParsedIndex >= 0) {
    decodeParsed(I, M.Instructions[size_t(S.ParsedIndex)]);
    return;
  }
  if (mayHaveRole(I.Head))
    I.Op = classifyMemo(I.Head, nullptr);
  // A statement the parser rejected: if it matters here, trust nothing.
  // (st/red/atom outside shared memory are never parsed: skip the check.)
  // (No load is ever parsed: StatementFilter has no row for ld.)
  bool MaybeParsed =
      I.Op.Kind != OpKind::Other && I.Op.Kind != OpKind::Load &&
      !((I.Op.Kind == OpKind::Store || I.Op.Kind == OpKind::AtomRed) &&
        I.Op.Dst != Space::SharedCta && I.Op.Dst != Space::SharedCluster);
  if (S.ParsedIndex == -2 || (MaybeParsed && needsFullParse(S, M.Text))) {
    Analyzable = false;
    return;
  }
  // Of the instructions the rules do not read, nothing is decoded now:
  // build() reads the registers they define (scanDest), computeValues() decodes
  // those that compute an address or a constant the rules need. Loads are
  // a third of a tiled kernel and rules rarely need their operands:
  // operand() decodes them on request.
  I.Partial = I.Op.Kind == OpKind::Other || deferredDecode(I.Op);
  if (!I.Partial)
    decodeOperands(I, S);
}

void FlowFunction::decodeParsed(FlowInst &I, const Instruction &P) {
  I.Op = classifyMemo(I.Head, &P);
  std::vector<Opnd> &Pool = Operands.room(P.Operands.size());
  size_t At = Pool.size();
  for (const Operand &A : P.Operands)
    fromAst(P, A, Pool.emplace_back());
  I.Ops = {Pool.data() + At, uint32_t(P.Operands.size())};
}

void FlowFunction::decodeOperands(const FlowInst &I, const Statement &S) const {
  // A chunk with room for as many operands as the text can hold, so that
  // it never grows past its capacity (never moves).
  std::vector<Opnd> &Pool = Operands.room(maxOperandCount(S));
  size_t At = Pool.size();
  decodeOperandText(M.Text, S, regNameTest(), VecNames, Pool);
  I.Ops = {Pool.data() + At, uint32_t(Pool.size() - At)};
}

std::optional<Opnd> FlowFunction::operandFromText(const FlowInst &I,
                                                   uint32_t K) const {
  Opnd O;
  if (!decodeOperandTextAt(M.Text, M.Statements[I.Stmt], K, regNameTest(), VecNames, O))
    return std::nullopt;
  return O;
}

void FlowFunction::forgetRegisters() {
  RegIndex = RegisterIndex();
  NumRegs = 0;
  Defs = {};
}

void FlowFunction::noteRole(OpKind Kd, uint32_t Scope, BlockLists &Lists) {
  uint32_t K = uint32_t(Insts.size() - 1);
  RoleInsts.push_back(K);
  const AsyncOp &Op = Insts[K].Op;
  RoleTags.emplace_back(Kd, Op.MbarOp >= 0);
  ClusterOps += Op.Multicast | Op.CtaGroup2;
  if (Kd == OpKind::Branch)
    Lists.BranchScope.push_back({K, Scope});
  if (Kd == OpKind::Branch || Kd == OpKind::Ret || Kd == OpKind::Exit ||
      Kd == OpKind::Trap || Kd == OpKind::BranchIndirect)
    Lists.Leaders.push_back(K + 1); // the next instruction starts a block
}

/// Sets Block::InLoopSpan: from the last block down, the lowest target of a
/// back edge from there or later spans every block from it up to there.
/// (Not inlined: in build() it changed GCC's code for the rest, +2 M
/// instructions on CUTLASS 77.)
[[gnu::noinline]] static void markLoopSpans(std::vector<Block> &Blocks) {
  uint32_t Lowest = uint32_t(Blocks.size());
  for (uint32_t B = uint32_t(Blocks.size()); B-- > 0;) {
    for (uint32_t S : Blocks[B].Succs)
      if (S <= B)
        Lowest = std::min(Lowest, S);
    Blocks[B].InLoopSpan = Lowest <= B;
  }
}

void FlowFunction::build() {
  if (F.IsPrototype || F.EndStatement <= F.FirstStatement) {
    Analyzable = false;
    return;
  }
  // Labels are scoped by { } blocks (nvcc inlines the same inline-asm block,
  // labels included, several times): a branch resolves to the label of its
  // innermost enclosing block that declares it.
  LabelTable Labels;
  std::vector<uint32_t> ScopeParent{0}; // scope 0: the function body
  uint32_t Scope = 0;
  BlockLists Lists;
  Lists.Leaders.reserve(64);
  Lists.BranchScope.reserve(64);
  uint32_t NumStatements = F.EndStatement - F.FirstStatement;
  Insts.reserve(NumStatements);
  RoleTags.reserve(NumStatements); // (two bytes a statement: one allocation)
  // The registers each instruction defines are interned as it is read: ids
  // in the order of first definition, which PathConditions' atoms and the
  // base ids follow.
  Defs.reserve(NumStatements);
  // Arrays for a large function's registers (RegisterIndex): a kernel's
  // register numbers stay below its statement count, and the limit keeps a
  // stray large number from making a large array.
  // A small function's table: room for a register per two statements
  // (async-dense's functions define one per 2.3; a table of two slots a
  // statement, zeroed for each of its 840 functions, was 1 % of its time),
  // grown if more come.
  // The role list too: about half of a small function's instructions have
  // a role (async-dense: 108 of 207), so room for that many, two bytes a
  // statement, instead of growing it from none (eight reallocations a
  // function, 6,720 on async-dense: ~0.7 % of its time).
  if (NumStatements > 8192) {
    RegIndex.useArrays(4 * NumStatements + 1024);
  } else {
    RegIndex.reserve(NumStatements / 2);
    RoleInsts.reserve(NumStatements / 2);
  }
  std::vector<std::string_view> DestNames; // scanDest()'s, reused
  // Field by field: a Def built on the stack as two 4-byte halves and
  // copied as one 8-byte word stalled on the store forwarding (15 % of
  // FlowFunction::build's perf samples on CUTLASS 77).
  auto DefineId = [&](int32_t Id) __attribute__((always_inline)) {
    Def &D = Defs.emplace_back();
    D.Inst = uint32_t(Insts.size() - 1);
    D.Reg = Id;
  };
  // Inline (called from three places, which GCC would not do itself): once
  // per instruction. The register's id, -1 for no name.
  auto Define = [&](std::string_view Name) __attribute__((always_inline)) {
    if (Name.empty())
      return -1;
    int32_t Next = int32_t(NumRegs);
    auto [Id, New] = RegIndex.insert(Name, Next);
    if (New)
      ++NumRegs;
    DefineId(Id);
    return Id;
  };
  // The last vector destination's text and its registers' ids: a wgmma's
  // accumulators are the same 64 names as the wgmma's before it most of the
  // time (FA3 paged/split: 369 of its 432), taken again without reading them.
  std::string_view LastVec;
  std::vector<int32_t> LastVecIds;
  // An instruction decode() left Partial: its destination from the text.
  auto DefineFromText = [&](const Statement &S) __attribute__((always_inline)) {
    std::string_view Name;
    if (scanShortDest(M.Text, S, Name)) {
      Define(Name); // the common case, read without splitting
      return;
    }
    std::string_view Vec = vectorDest(M.Text, S);
    if (Vec.data() && Vec == LastVec) {
      for (int32_t Id : LastVecIds)
        DefineId(Id);
      return;
    }
    DestNames.clear();
    scanDest(M.Text, S, DestNames);
    if (Vec.data()) {
      LastVec = Vec;
      LastVecIds.clear();
    }
    for (std::string_view Name : DestNames) {
      int32_t Id = Define(Name);
      if (Vec.data() && Id >= 0)
        LastVecIds.push_back(Id);
    }
  };
  const char *Text = M.Text.data();
  uint32_t End = std::min(F.EndStatement, uint32_t(M.Statements.size()));
  for (uint32_t K = F.FirstStatement; K < End; ++K) {
    const Statement &S = M.Statements[K];
    if (S.Kind != StatementKind::Instruction) {
      if (S.Kind == StatementKind::BlockOpen) {
        ScopeParent.push_back(Scope);
        Scope = uint32_t(ScopeParent.size() - 1);
      } else if (S.Kind == StatementKind::BlockClose) {
        Scope = ScopeParent[Scope];
      } else if (S.Kind == StatementKind::Label) {
        if (!Labels.insert(S.head(M.Text), Scope, uint32_t(Insts.size())))
          Analyzable = false; // the same label twice in one scope
        Lists.Leaders.push_back(uint32_t(Insts.size()));
      }
      continue;
    }
    FlowInst &I = Insts.emplace_back();
    I.Stmt = K;
    std::string_view Head = S.head(M.Text);
    if (S.ParsedIndex == -1 && Text[S.Range.Begin] != '@' && !mayHaveRole(Head)) {
      // Most of a kernel (arithmetic, moves, conversions): what decode()
      // gives an unparsed, unguarded instruction of no role, in place.
      I.Range = S.Range;
      I.Head = Head;
      I.Partial = true;
      KindCount[size_t(OpKind::Other)]++;
      DefineFromText(S);
      continue;
    }
    decode(I, S);
    if (I.Partial) {
      DefineFromText(S);
    } else if (!I.Ops.empty()) {
      const Opnd &D = I.Ops[0];
      if (D.K == Opnd::Reg && !D.Negated)
        Define(D.Name);
      else if (D.K == Opnd::Vec)
        for (std::string_view R : D.Regs)
          Define(R);
    }
    KindCount[size_t(I.Op.Kind)]++;
    if (I.Op.Kind != OpKind::Other)
      noteRole(I.Op.Kind, Scope, Lists);
  }
  if (has(OpKind::BranchIndirect))
    Analyzable = false;
  if (!Analyzable) {
    forgetRegisters();
    return;
  }
  uint32_t N = uint32_t(Insts.size());
  // Blocks: [leader, next leader), the first at 0. A label at the very end
  // gets an empty block so branches to it have somewhere to go.
  std::vector<uint32_t> &BlockOf = InstBlock;
  BlockOf.resize(N + 1);
  std::vector<uint32_t> &Leaders = Lists.Leaders;
  Leaders.push_back(N); // ends the last block
  Blocks.reserve(Leaders.size() + 1); // at most a block a leader, and one at the end
  for (uint32_t L = 0, Begin = 0; L < Leaders.size(); ++L) {
    if (Leaders[L] <= Begin)
      continue; // 0, or a leader twice (a label after a branch)
    Block B;
    B.Begin = Begin;
    B.End = Leaders[L];
    std::fill(BlockOf.begin() + Begin, BlockOf.begin() + B.End, uint32_t(Blocks.size()));
    Blocks.push_back(B);
    Begin = B.End;
  }
  if (Blocks.empty() || Labels.anyAt(N)) {
    Block B;
    B.Begin = B.End = N;
    Blocks.push_back(B);
  }
  BlockOf[N] = uint32_t(Blocks.size() - 1);
  size_t BranchAt = 0;
  for (uint32_t B = 0; B < Blocks.size(); ++B) {
    Block &Bl = Blocks[B];
    bool HasNext = B + 1 < Blocks.size();
    if (Bl.Begin == Bl.End) {
      if (HasNext)
        Bl.Succs.push_back(B + 1);
      else
        Bl.FallsOffEnd = true;
      continue;
    }
    const FlowInst &Last = Insts[Bl.End - 1];
    bool Guarded = Last.Guarded;
    bool FallThrough = true;
    switch (Last.Op.Kind) {
    case OpKind::Branch: {
      const Opnd *T = Last.op(0);
      int64_t Target = -1;
      // Every branch ends a block: BranchScope's are met in order.
      while (Lists.BranchScope[BranchAt].first != Bl.End - 1)
        ++BranchAt;
      for (uint32_t Sc = Lists.BranchScope[BranchAt].second; T && Target < 0;) {
        Target = Labels.find(T->Name, Sc);
        if (Sc == 0)
          break;
        Sc = ScopeParent[Sc];
      }
      if (Target < 0) {
        Analyzable = false;
        forgetRegisters();
        return;
      }
      Bl.Succs.push_back(BlockOf[size_t(Target)]);
      FallThrough = Guarded;
      break;
    }
    case OpKind::Ret:
    case OpKind::Exit:
    case OpKind::Trap:
      FallThrough = Guarded;
      break;
    default:
      break;
    }
    if (FallThrough) {
      if (HasNext) {
        if (std::find(Bl.Succs.begin(), Bl.Succs.end(), B + 1) == Bl.Succs.end())
          Bl.Succs.push_back(B + 1);
      } else {
        Bl.FallsOffEnd = true;
      }
    }
  }
  markLoopSpans(Blocks);
  std::vector<uint32_t> Kills;
  computeValues(Kills);
  // The events: the instructions with a role and those that kill a base,
  // both lists in order, merged; each block takes its run of them.
  EventPool.resize(RoleInsts.size() + Kills.size());
  EventPool.erase(std::set_union(RoleInsts.begin(), RoleInsts.end(), Kills.begin(),
                                 Kills.end(), EventPool.begin()),
                  EventPool.end());
  const uint32_t *E = EventPool.data(), *EEnd = E + EventPool.size();
  for (Block &Bl : Blocks) { // in order, together covering every instruction
    const uint32_t *B = E;
    while (E != EEnd && *E < Bl.End)
      ++E;
    Bl.Events = {B, E};
  }
}

// --- register values ------------------------------------------------------------

namespace {
/// evaluate()'s working lists, one set per thread, empty between its calls
/// (it is not re-entered): each function's slice grew a set of its own from
/// nothing before, about 40 reallocations a function on async-dense's 840.
struct EvalBuffers {
  std::vector<int32_t> Work;     ///< registers whose definitions to add
  std::vector<uint32_t> NewDefs; ///< indices into Defs
  std::vector<int32_t> NewRegs;
  std::vector<char> Dirty; ///< per new definition: to evaluate again
  std::vector<std::pair<uint32_t, int32_t>> Users; ///< (reader, next)
  std::vector<int32_t> Listed;   ///< the registers Users lists readers of
  std::vector<uint64_t> DefBits; ///< sortDefIndices()' bits
};
EvalBuffers &evalBuffers() {
  static thread_local EvalBuffers Buffers;
  return Buffers;
}
} // namespace

/// Joins B into A; whether A changed. In place: the join built as a new Val
/// and copied back went through the stack, where the copy's 16-byte loads
/// waited on the narrower stores that had built it.
static bool joinInto(Val &A, const Val &B) {
  if (A.K == Val::Undef) {
    if (A == B)
      return false;
    A = B;
    return true;
  }
  if (B.K == Val::Undef || A == B)
    return false;
  bool Changed = false;
  if (!A.sameValue(B)) { // a pointer into one base at an unknown offset, or unknown
    bool SameBase = A.K == Val::Ptr && B.K == Val::Ptr && A.Base == B.Base;
    Val::Kind K = SameBase ? Val::Ptr : Val::Unknown;
    int32_t Base = SameBase ? A.Base : -1;
    if (A.K != K || A.Base != Base || A.OffKnown || A.Off != 0) {
      A.K = K;
      A.Base = Base;
      A.OffKnown = false;
      A.Off = 0;
      Changed = true;
    }
  }
  if (!(A.F == B.F) && !(A.F == Form())) {
    A.F = Form();
    Changed = true;
  }
  return Changed;
}

int32_t FlowFunction::regIdOf(const Opnd &O) const {
  if (O.RegId == -2)
    O.RegId = RegIndex.find(O.Name);
  return O.RegId;
}

Val FlowFunction::operandVal(const Opnd &O) const {
  switch (O.K) {
  case Opnd::Imm:
    return O.HasValue ? Val{Val::Const, -1, true, O.Value, Form::constant(O.Value)}
                      : Val{Val::Unknown, -1, false, 0};
  case Opnd::Reg: {
    if (O.Negated)
      return Val{Val::Unknown, -1, false, 0};
    int32_t Id = regIdOf(O);
    if (Id < 0) {
      if (O.ValBase < 0)
        O.ValBase = baseFor(O.Name, true);
      return Val{Val::Ptr, O.ValBase, true, 0};
    }
    return sliceReg(Id).V; // in the slice; may be Undef during the fixpoint
  }
  case Opnd::Sym:
    if (O.ValBase < 0)
      O.ValBase = baseFor(O.Name, false);
    return Val{Val::Ptr, O.ValBase, true, 0, Form::symbol(O.ValBase)};
  default:
    return Val{Val::Unknown, -1, false, 0};
  }
}

namespace {
// VMov..VMapa compute their result from their operands (computesValue());
// VShl, VMul and VMapa only its form.
enum ValOpKind : uint8_t {
  VNone, VMov, VCvta, VCvt, VAdd, VSub, VBit, VMad, VShl, VMul, VSelp, VMapa, VLd
};
uint8_t valOpOf(const FlowInst &I) {
  if (I.ValOp == 0xff) {
    // By the opcode word packed (packWord()): one switch, not a string
    // compare per candidate (asked once per definition of the value slice).
    switch (packWord(I.Head)) {
    case packWord("mov"): I.ValOp = VMov; break;
    case packWord("cvta"): I.ValOp = VCvta; break;
    case packWord("cvt"): I.ValOp = VCvt; break;
    case packWord("add"): I.ValOp = VAdd; break;
    case packWord("sub"): I.ValOp = VSub; break;
    case packWord("and"):
    case packWord("or"):
    case packWord("xor"): I.ValOp = VBit; break;
    case packWord("mad"): I.ValOp = VMad; break;
    case packWord("shl"): I.ValOp = VShl; break;
    case packWord("mul"): I.ValOp = VMul; break;
    case packWord("selp"): I.ValOp = VSelp; break;
    case packWord("mapa"): I.ValOp = VMapa; break;
    case packWord("ld"): I.ValOp = VLd; break;
    default: I.ValOp = VNone; break;
    }
  }
  return I.ValOp;
}
} // namespace

bool FlowFunction::deferredDecode(const AsyncOp &Op) {
  // ld.param stays: evalDef() reads the parameter it loads.
  return (Op.Kind == OpKind::Load && Op.Src != Space::Param) ||
         Op.Kind == OpKind::DescriptorRead; // dozens of accumulator registers
}

bool FlowFunction::computesValue(const FlowInst &I) {
  uint8_t V = valOpOf(I);
  return V >= VMov && V <= VMapa;
}

template <typename OpFormFn>
std::optional<Form> FlowFunction::formOfDef(const FlowInst &I,
                                            OpFormFn OpForm) const {
  const size_t N = I.Ops.size();
  auto Imm = [&](size_t X) -> std::optional<int64_t> {
    if (X < N && I.Ops[X].K == Opnd::Imm && I.Ops[X].HasValue)
      return I.Ops[X].Value;
    return std::nullopt;
  };
  auto F = [&](size_t X) -> std::optional<Form> {
    return X < N ? OpForm(I.Ops[X]) : Form();
  };
  std::optional<Form> A, B;
  switch (valOpOf(I)) {
  case VMov:
  case VCvta:
  case VCvt:
    return N == 2 ? F(1) : Form();
  case VMapa: // the same offset in another CTA's window: the same form
    return F(1);
  case VAdd:
  case VSub:
    if (!(A = F(1)) || !(B = F(2)))
      return std::nullopt;
    return Form::sum(*A, *B, valOpOf(I) == VSub);
  case VShl: {
    auto S = Imm(2);
    if (!S || *S < 0 || *S >= 32)
      return Form();
    A = F(1);
    return A ? std::optional<Form>(Form::scale(*A, int64_t(1) << *S)) : A;
  }
  case VMul: {
    auto M = Imm(2);
    if (!M)
      return Form();
    A = F(1);
    return A ? std::optional<Form>(Form::scale(*A, *M)) : A;
  }
  case VMad: {
    auto M = Imm(2);
    if (!M)
      return Form();
    if (!(A = F(1)) || !(B = F(3)))
      return std::nullopt;
    return Form::sum(Form::scale(*A, *M), *B, false);
  }
  case VSelp: {
    // One of two values: both forms, their difference a multiple of the
    // stride (77's softmax warpgroups pick their barrier with "selp r,
    // smem+82000, smem+82016, p": smem + 82000 + 16 * t).
    if (N != 4)
      return Form();
    if (!(A = F(1)) || !(B = F(2)))
      return std::nullopt;
    return Form::either(*A, *B);
  }
  case VBit: {
    // A shared::cluster address with its CTA-rank bit masked (2-SM TMA
    // loads signal the leader CTA's barrier: bar & 0xFEFFFFF8, the low
    // bits of an 8-byte barrier being 0) keeps its form.
    auto M = Imm(2);
    if (opWord(I.Head) != "and" || !M || ((*M | 7) & 0xFFFFFF) != 0xFFFFFF)
      return Form();
    return F(1);
  }
  default:
    return Form();
  }
}

std::optional<Form> FlowFunction::knownForm(const Opnd &O) const {
  Val X = operandVal(O);
  return X.K == Val::Undef ? std::nullopt : std::optional<Form>(X.F);
}

Val FlowFunction::evalDef(const FlowInst &I, int32_t Reg, bool WithForm) const {
  Val V = evalValue(I, Reg);
  // A register defined several times (a loop's stage) is an unknown term
  // of its readers' forms (form() reads a definition in the same block).
  // The others' forms are final once their operands' are known.
  if (V.K == Val::Undef)
    return V;
  if (defCount(Reg) > 1) {
    V.F = Form();
    return V;
  }
  if (!WithForm) {
    // Whether the form could be made: the operands it reads are known. (A
    // register of the slice is read without copying its value; the others
    // through operandVal(), which makes the base of a symbol or of a
    // register not defined here, as the form's own reading would.)
    auto Known = [&](const Opnd &O) -> std::optional<Form> {
      int32_t Id = O.K == Opnd::Reg && !O.Negated ? regIdOf(O) : -1;
      Val::Kind K = Id >= 0 ? sliceReg(Id).V.K : operandVal(O).K;
      return K == Val::Undef ? std::nullopt : std::optional<Form>(Form());
    };
    if (!formOfDef(I, Known))
      V = Val();
    V.F = Form(); // (made by formsNow())
    return V;
  }
  std::optional<Form> F = formOfDef(I, [&](const Opnd &O) { return knownForm(O); });
  if (!F)
    V = Val(); // an operand's form is not known yet
  else
    V.F = *F;
  // (V the one value returned: built in the caller's slot, not copied there
  // by wide loads of the narrow stores that had just built it.)
  return V;
}

Val FlowFunction::evalValue(const FlowInst &I, int32_t Reg) const {
  // The register's own value: a pointer into a base of its own where it is
  // defined once, else unknown. The base is made when that value is the
  // result, not for every register evaluated (most of a slice holds a
  // constant or a symbol's address: async-dense made 34,000 bases that no
  // value held). Built in the caller's slot (a Val built on the stack and
  // copied stalled on store forwarding: three fifths of evalValue()'s perf
  // samples once).
  auto Self = [&] {
    Val S{Val::Unknown, -1, false, 0};
    if (defCount(Reg) == 1) {
      int32_t &B = sliceReg(Reg).SelfBase;
      if (B < 0)
        B = selfBase(Reg);
      S.K = Val::Ptr;
      S.Base = B;
      S.OffKnown = true;
    }
    return S;
  };
  if (I.Ops.empty() || I.Ops[0].K != Opnd::Reg)
    return Self(); // vector or tuple destinations
  const uint8_t VO = valOpOf(I);
  // A pointer: into a symbol, or into the object a cvta'd register points
  // to (dynamic shared memory reached through a generic pointer, TK's
  // "cvta.to.shared; cvt.u32.u64"). Other registers are opaque values.
  auto Symbolic = [&](const Val &V) {
    return V.K == Val::Ptr && (Bases[size_t(V.Base)].K != BaseInfo::Register ||
                               Bases[size_t(V.Base)].CvtaPointer);
  };
  size_t N = I.Ops.size();
  if (VO == VMov && N == 2) {
    Val V = operandVal(I.Ops[1]);
    if (V.K == Val::Ptr && !Symbolic(V))
      return Self(); // %r2 = %tid.x: a fresh opaque value
    return V.K == Val::Unknown ? Self() : V;
  }
  if ((VO == VCvta || VO == VCvt) && N == 2 && I.Ops[1].K == Opnd::Reg) {
    Val V = operandVal(I.Ops[1]);
    if (V.K == Val::Undef || V.K == Val::Const || Symbolic(V))
      return V;
    Val S = Self();
    if (VO == VCvta && S.K == Val::Ptr)
      Bases[size_t(S.Base)].CvtaPointer = true; // a pointer of its own
    return S;
  }
  // Swizzles (xor), alignment masks and bit-or'd offsets of a pointer stay
  // in its object, at an offset not known: may-alias, never must-alias.
  if (VO == VBit && N == 3) {
    Val A = operandVal(I.Ops[1]), B = operandVal(I.Ops[2]);
    if (A.K == Val::Undef || B.K == Val::Undef)
      return Val{};
    if (Symbolic(A) != Symbolic(B))
      return Val{Val::Ptr, Symbolic(A) ? A.Base : B.Base, false, 0};
    return Symbolic(A) ? Val{Val::Unknown, -1, false, 0} : Self();
  }
  if ((VO == VAdd || VO == VSub) && N == 3) {
    Val A = operandVal(I.Ops[1]), B = operandVal(I.Ops[2]);
    if (A.K == Val::Undef || B.K == Val::Undef)
      return Val{};
    bool Sub = VO == VSub;
    if (A.K == Val::Const && B.K == Val::Const)
      return Val{Val::Const, -1, true, Sub ? A.Off - B.Off : A.Off + B.Off};
    if (Symbolic(A) && B.K == Val::Const)
      return Val{Val::Ptr, A.Base, A.OffKnown, Sub ? A.Off - B.Off : A.Off + B.Off};
    if (!Sub && A.K == Val::Const && Symbolic(B))
      return Val{Val::Ptr, B.Base, B.OffKnown, A.Off + B.Off};
    if (Symbolic(A) && !Symbolic(B))
      return Val{Val::Ptr, A.Base, false, 0};
    if (!Sub && Symbolic(B) && !Symbolic(A))
      return Val{Val::Ptr, B.Base, false, 0};
    if (Symbolic(A) || Symbolic(B))
      return Val{Val::Unknown, -1, false, 0};
    return Self();
  }
  if (VO == VMad && N == 4) {
    Val C = operandVal(I.Ops[3]);
    if (C.K == Val::Undef)
      return Val{};
    if (Symbolic(C))
      return Val{Val::Ptr, C.Base, false, 0};
    return Self();
  }
  if (VO == VLd && I.Op.Src == Space::Param && N == 2 &&
      I.Ops[1].K == Opnd::Addr && !I.Ops[1].BaseIsReg &&
      !I.Ops[1].Name.empty() && I.Ops[1].HasValue && I.Ops[1].Value == 0)
    return Val{Val::Ptr, baseFor(I.Ops[1].Name, false), true, 0};
  return Self();
}

void FlowFunction::computeValues(std::vector<uint32_t> &Kills) {
  // The definitions of each register: DefOf[DefStart[R] .. DefStart[R + 1]).
  // A counting sort: DefStart[R] counts R's definitions, then ends R's run;
  // filled from the last definition back, each run's end moves down to its
  // start (no second array of NumRegs cursors).
  DefStart.assign(NumRegs + 1, 0);
  DefOf.resize(Defs.size());
  for (const Def &D : Defs)
    DefStart[size_t(D.Reg)]++;
  for (size_t R = 1; R <= NumRegs; ++R)
    DefStart[R] += DefStart[R - 1];
  for (uint32_t K = uint32_t(Defs.size()); K-- > 0;)
    DefOf[--DefStart[size_t(Defs[K].Reg)]] = K;
  // Only registers that can reach an operand the rules read (an address, a
  // size, a mask, a count) are evaluated: a backward slice from those
  // operands through mov/cvta/cvt/add/sub/mad. Deferred loads are not in
  // it: their addresses are evaluated if a rule asks (demand()).
  SliceOf.assign(NumRegs, -1);
  Slice.reserve(std::min<size_t>(NumRegs, 64));
  std::vector<int32_t> &Seeds = evalBuffers().Work;
  Seeds.clear();
  for (uint32_t K : RoleInsts) { // the others are all Partial
    const FlowInst &I = Insts[K];
    if (I.Partial)
      continue;
    for (const Opnd &O : I.Ops)
      if (O.K == Opnd::Addr)
        markInSlice(O, Seeds); // every address base
    // And the counts the rules read: four tests, not a loop over a list
    // built per instruction (most are absent).
    auto Count = [&](int8_t K) {
      if (const Opnd *O = I.op(K))
        markInSlice(*O, Seeds);
    };
    Count(I.Op.SizeOp);
    Count(I.Op.CtaMaskOp);
    Count(I.Op.WaitNOp);
    Count(I.Op.BytesOp);
  }
  if (!evaluate(Seeds)) {
    ValuesValid = false;
    return;
  }
  // A register that owns a base is killed by its definitions: facts keyed on
  // its old value do not hold for the new one. Only a base some value holds
  // can key a fact, and a register's own base is held by its value alone
  // (evalValue()'s Self: the values derived from it hold a base of their
  // own, or this one through its value): a register that holds a constant
  // or a symbol's address (most of the slice: async-dense's counts and
  // barrier addresses) kills nothing, and is no event for the rules.
  for (const Def &D : Defs) {
    if (!inSlice(D.Reg))
      continue;
    // Register bases of defined registers are made only by evalDef() (the
    // others are for undefined names), which memoises them here.
    const SliceReg &SR = sliceReg(D.Reg);
    int32_t B = SR.SelfBase;
    if (B >= 0 && SR.V.K == Val::Ptr && SR.V.Base == B &&
        Bases[size_t(B)].K == BaseInfo::Register) {
      Insts[D.Inst].KillsBase = B;
      if (Kills.empty() || Kills.back() != D.Inst)
        Kills.push_back(D.Inst); // Defs is in program order
    }
  }
}

// Inline (a hint GCC takes): asked for every address of a role instruction
// and every operand of the slice's definitions.
inline void FlowFunction::markInSlice(const Opnd &O, std::vector<int32_t> &Work) const {
  if (!((O.K == Opnd::Reg && !O.Negated) || (O.K == Opnd::Addr && O.BaseIsReg)))
    return;
  int32_t Id = regIdOf(O);
  if (Id >= 0 && !inSlice(Id)) {
    addToSlice(Id, O.Name);
    Work.push_back(Id);
  }
}

void FlowFunction::ensureDecoded(const FlowInst &I) const {
  if (!I.Partial)
    return;
  decodeOperands(I, M.Statements[I.Stmt]);
  I.Partial = false;
}

void FlowFunction::sortDefIndices(std::vector<uint32_t> &X) const {
  // A large slice (the rules' operands' at build(): 36,000 definitions of
  // CUTLASS 77's 255,000) is put in order by a bit per definition of the
  // function, set and read back word by word: a comparison sort took a
  // tenth of the values' time there. A small one (demand()'s, often of one
  // register) by the sort, which does not read a word per 64 definitions.
  if (X.size() < 64 || X.size() * 16 < Defs.size() / 64) {
    std::sort(X.begin(), X.end());
    return;
  }
  std::vector<uint64_t> &Bits = evalBuffers().DefBits;
  Bits.assign((Defs.size() + 63) / 64, 0);
  for (uint32_t D : X)
    Bits[D / 64] |= uint64_t(1) << (D % 64);
  X.clear();
  for (size_t W = 0; W < Bits.size(); ++W)
    for (uint64_t B = Bits[W]; B; B &= B - 1)
      X.push_back(uint32_t(W * 64 + size_t(__builtin_ctzll(B))));
}

bool FlowFunction::evaluate(std::vector<int32_t> &Work) const {
  EvalBuffers &Buf = evalBuffers();
  std::vector<uint32_t> &NewDefs = Buf.NewDefs; // indices into Defs
  std::vector<int32_t> &NewRegs = Buf.NewRegs;
  NewDefs.clear();
  NewRegs.clear();
  bool Redefined = false; // a new register defined more than once
  while (!Work.empty()) {
    int32_t R = Work.back();
    Work.pop_back();
    NewRegs.push_back(R);
    Redefined |= DefStart[size_t(R) + 1] - DefStart[size_t(R)] > 1;
    for (uint32_t X = DefStart[size_t(R)]; X < DefStart[size_t(R) + 1]; ++X) {
      NewDefs.push_back(DefOf[X]);
      const FlowInst &I = Insts[Defs[DefOf[X]].Inst];
      if (!computesValue(I))
        continue;
      ensureDecoded(I);
      for (size_t K = 1; K < I.Ops.size(); ++K)
        markInSlice(I.Ops[K], Work);
    }
  }
  // In program order, so that a pass sees most definitions before their uses.
  sortDefIndices(NewDefs);
  // Room for a base of its own per new register at most (selfBase()), grown
  // as a vector grows: a demand() of one register often follows another.
  size_t Need = Bases.size() + NewRegs.size();
  if (Need > Bases.capacity())
    Bases.reserve(std::max(Need, 2 * Bases.capacity()));
  // The registers of earlier slices are final, so a fixpoint over the new
  // definitions alone is the fixpoint over all of them. A register defined
  // more than once (a loop's) changes after some of its readers have read
  // it: the fixpoint with reader lists.
  size_t ND = NewDefs.size();
  if (Redefined) {
    formsNow(); // (the fixpoint's joins read forms)
    return settle(ND, 0);
  }
  // Each new register defined once (nvcc's straight-line code: most of
  // async-dense's slices): a first pass in program order, without the
  // reader lists. A definition that reads a register before its one
  // definition (a later one, or itself) gets Undef from it (evalDef() gives
  // Undef where an operand it reads is Undef); if none did, every register
  // was read with its final value, and a second pass would change nothing.
  // The pass makes no forms: each register's form is made from its
  // operands' in this same order when a form is first asked for
  // (formsNow()), which only some rules do (none in most functions).
  bool Changed = false, SawUndef = false;
  for (uint32_t P = 0; P < ND; ++P) {
    const Def &D = Defs[NewDefs[P]];
    Val V = evalDef(Insts[D.Inst], D.Reg, false);
    if (V.K == Val::Undef) {
      SawUndef = true;
      continue;
    }
    Changed |= joinInto(sliceReg(D.Reg).V, V);
  }
  FormsLater.insert(FormsLater.end(), NewDefs.begin(), NewDefs.end());
  if (!Changed || !SawUndef)
    return true;
  formsNow(); // what the pass would have made, before the fixpoint goes on
  return settle(ND, 1);
}

void FlowFunction::formsNow() const {
  // In the order evaluate() evaluated them: each register is defined once
  // and holds the one value its first pass gave (none: Undef, no form),
  // and that pass read only operands known by then, whose forms are made
  // before it here: the forms that pass would have made.
  for (uint32_t X : FormsLater) {
    const Def &D = Defs[X];
    Val &V = sliceReg(D.Reg).V;
    if (V.K == Val::Undef)
      continue;
    std::optional<Form> F =
        formOfDef(Insts[D.Inst], [&](const Opnd &O) { return knownForm(O); });
    V.F = F.value_or(Form());
  }
  FormsLater.clear();
}

bool FlowFunction::settle(size_t ND, int FirstPass) const {
  EvalBuffers &Buf = evalBuffers();
  const std::vector<uint32_t> &NewDefs = Buf.NewDefs;
  // A definition is evaluated again only when a register it reads changed
  // since: otherwise it would give its last value again. The
  // registers each one reads: a list per register through its UserHead
  // (reset on the way out). A base that becomes a cvta'd pointer changes
  // what Symbolic() says of values with that base; until then only its own
  // register holds it (evalValue() passes on symbolic bases alone), and
  // that register's readers are listed like any other's.
  // All marked, also after evaluate()'s own first pass (FirstPass 1): a
  // definition whose operands did not change since gives its last value
  // again, changing nothing.
  std::vector<char> &Dirty = Buf.Dirty;
  Dirty.assign(ND, 1);
  std::vector<std::pair<uint32_t, int32_t>> &Users = Buf.Users; // (position, next)
  std::vector<int32_t> &Listed = Buf.Listed; // the registers with a list
  Users.clear();
  Listed.clear();
  for (uint32_t P = 0; P < ND; ++P) {
    const FlowInst &I = Insts[Defs[NewDefs[P]].Inst];
    for (size_t K = 1; K < I.Ops.size(); ++K) {
      const Opnd &O = I.Ops[K];
      // (A register outside the slice never changes here: the operands
      // of definitions that compute nothing from them.)
      int32_t R = O.K == Opnd::Reg && !O.Negated ? regIdOf(O) : -1;
      if (R < 0 || !inSlice(R))
        continue;
      int32_t &Head = sliceReg(R).UserHead;
      if (Head < 0)
        Listed.push_back(R);
      auto &U = Users.emplace_back(); // (field by field: see build()'s Defs)
      U.first = P;
      U.second = Head;
      Head = int32_t(Users.size() - 1);
    }
  }
  bool Changed = true;
  for (int Pass = FirstPass; Pass < 8 && Changed; ++Pass) {
    Changed = false;
    for (uint32_t P = 0; P < ND; ++P) {
      // A definition not marked gives its last value again, which its
      // register's value already includes (joinInto() is a join: joining a
      // value in twice changes nothing).
      if (!Dirty[P])
        continue;
      Dirty[P] = 0;
      const Def &D = Defs[NewDefs[P]];
      Val V = evalDef(Insts[D.Inst], D.Reg);
      if (V.K == Val::Undef)
        continue;
      SliceReg &SR = sliceReg(D.Reg);
      if (joinInto(SR.V, V)) {
        Changed = true;
        for (int32_t U = SR.UserHead; U >= 0; U = Users[size_t(U)].second)
          Dirty[Users[size_t(U)].first] = 1;
      }
    }
  }
  for (int32_t R : Listed)
    sliceReg(R).UserHead = -1;
  if (Changed) // not settled: these registers are unknown
    for (int32_t R : Buf.NewRegs)
      sliceReg(R).V = Val{Val::Unknown, -1, false, 0};
  return !Changed;
}

void FlowFunction::demand(int32_t Reg, std::string_view Name) const {
  if (inSlice(Reg))
    return;
  addToSlice(Reg, Name);
  std::vector<int32_t> &Work = evalBuffers().Work;
  Work.assign(1, Reg);
  evaluate(Work);
}

// --- queries -----------------------------------------------------------------------

AddrKey FlowFunction::address(const Opnd *O) const {
  if (!O)
    return AddrKey();
  if (O->Memo & 1)
    return AddrKey(O->MemoBase, O->MemoOffKnown, O->MemoBase >= 0 ? O->MemoVal : 0);
  AddrKey K = resolveAddress(*O);
  O->Memo |= 1;
  O->MemoBase = K.Base;
  O->MemoOffKnown = K.OffKnown;
  if (K.Base >= 0) // an invalid key's offset is 0
    O->MemoVal = K.Off;
  return K;
}

AddrKey FlowFunction::resolveAddress(const Opnd &Op) const {
  const Opnd *O = &Op;
  AddrKey K;
  if (O->K != Opnd::Addr || !O->HasValue || O->Name.empty())
    return K;
  if (!O->BaseIsReg) {
    K.Base = baseFor(O->Name, false);
    K.OffKnown = true;
    K.Off = O->Value;
    return K;
  }
  if (!ValuesValid)
    return K;
  int32_t Id = regIdOf(*O);
  if (Id >= 0)
    demand(Id, O->Name);
  Val V = Id < 0 ? Val{Val::Ptr, baseFor(O->Name, true), true, 0}
                 : sliceReg(Id).V;
  if (V.K != Val::Ptr)
    return K;
  K.Base = V.Base;
  K.OffKnown = V.OffKnown;
  K.Off = V.Off + O->Value;
  return K;
}

std::optional<Form> FlowFunction::form(const Opnd *O, uint32_t At) const {
  if (!O)
    return std::nullopt;
  return formAt(*O, At, 0);
}

Form FlowFunction::formAt(const Opnd &O, uint32_t At, unsigned Depth) const {
  if (O.K == Opnd::Addr) {
    Form Base = O.Name.empty() ? Form::constant(0)
                : O.BaseIsReg  ? regForm(regIdOf(O), O.Name, At, Depth)
                               : Form::symbol(baseFor(O.Name, false));
    return Form::sum(Base, Form::constant(O.Value), false);
  }
  if (O.K == Opnd::Reg && !O.Negated)
    return regForm(regIdOf(O), O.Name, At, Depth);
  return operandVal(O).F; // an immediate, a symbol: never Undef
}

Form FlowFunction::regForm(int32_t Id, std::string_view Name, uint32_t At,
                           unsigned Depth) const {
  if (Id < 0 || !ValuesValid)
    return Form();
  if (defCount(Id) > 1) {
    int64_t D = lastDefBefore(Id, At);
    if (D < 0 || blockOf(uint32_t(D)) != blockOf(At) || Depth >= 16)
      return Form();
    const FlowInst &Def = Insts[size_t(D)];
    ensureDecoded(Def);
    return formOfDef(Def, [&](const Opnd &X) -> std::optional<Form> {
             return formAt(X, uint32_t(D), Depth + 1);
           })
        .value_or(Form());
  }
  demand(Id, Name);
  if (!FormsLater.empty())
    formsNow();
  const Val &V = sliceReg(Id).V;
  return V.K == Val::Undef ? Form() : V.F;
}

AddrKey FlowFunction::pointerIn(const Opnd *O) const {
  if (!O || O->K != Opnd::Reg || O->Negated || !ValuesValid)
    return AddrKey();
  int32_t Id = regIdOf(*O);
  if (Id < 0)
    return AddrKey();
  demand(Id, O->Name);
  const Val &V = sliceReg(Id).V;
  return V.K == Val::Ptr ? AddrKey(V.Base, V.OffKnown, V.Off) : AddrKey();
}

AddrKey FlowFunction::descriptorAddress(const Opnd *O) const {
  bool Scaled = false; // past the ">> 4": the rest computes the address
  for (unsigned Step = 0; Step < 8 && O && O->K == Opnd::Reg; ++Step) {
    if (Scaled) // the address itself, when the value model knows it
      if (AddrKey A = pointerIn(O); A.valid())
        return A;
    int32_t R = regIdOf(*O);
    if (R < 0 || defCount(R) != 1)
      return AddrKey();
    const FlowInst &D = Insts[defInst(R, 0)];
    const Opnd *Src = operand(D, 1), *Arg = operand(D, 2);
    std::string_view Op = opWord(D.Head);
    auto ImmIs = [&](auto Pred) {
      return Arg && Arg->K == Opnd::Imm && Arg->HasValue && Pred(Arg->Value);
    };
    if (D.Guarded)
      return AddrKey();
    if (Op == "cvt" || (Op == "mov" && !Arg)) {
      O = Src;
    } else if (Op == "or" && !Scaled &&
               ImmIs([](int64_t V) { return (V & 0x3FFF) == 0; })) {
      O = Src; // the descriptor's other fields
    } else if (Op == "and" && !Scaled && ImmIs([](int64_t V) { return V == 0x3FFF; })) {
      O = Src;
    } else if (Op == "shr" && !Scaled && ImmIs([](int64_t V) { return V == 4; })) {
      O = Src;
      Scaled = true;
    } else if (Op == "and" && Scaled &&
               ImmIs([](int64_t V) { return (V | 0xF) == 0x3FFFF || V == 0x3FFF0; })) {
      O = Src;
    } else {
      return AddrKey();
    }
  }
  return AddrKey();
}

AddrKey FlowFunction::localBarrier(uint32_t K) const {
  const FlowInst &I = Insts[K];
  const Opnd *B = I.op(I.Op.MbarOp);
  if (!B)
    return AddrKey();
  int32_t R = B->K == Opnd::Addr && B->BaseIsReg ? regId(B->Name) : -1;
  int64_t D = R >= 0 ? lastDefBefore(R, K) : -1;
  if (D >= 0 && blockOf(uint32_t(D)) == blockOf(K) &&
      opWord(Insts[size_t(D)].Head) == "mapa")
    return pointerIn(operand(Insts[size_t(D)], 1));
  return address(B);
}

std::optional<int64_t> FlowFunction::constant(const Opnd *O) const {
  if (!O)
    return std::nullopt;
  if (!(O->Memo & 2)) {
    O->Memo |= 2;
    O->MemoHasConst = false;
    if (O->K == Opnd::Imm && O->HasValue) {
      O->MemoHasConst = true;
      O->MemoVal = O->Value;
    } else if (O->K == Opnd::Reg && !O->Negated && ValuesValid) {
      int32_t Id = regIdOf(*O);
      if (Id >= 0)
        demand(Id, O->Name);
      if (Id >= 0 && sliceReg(Id).V.K == Val::Const) {
        O->MemoHasConst = true;
        O->MemoVal = sliceReg(Id).V.Off;
      }
    }
  }
  if (!O->MemoHasConst)
    return std::nullopt;
  return O->MemoVal;
}

bool FlowFunction::definitelyOverlap(const AddrKey &A, uint64_t SizeA,
                                     const AddrKey &B, uint64_t SizeB) const {
  if (!A.valid() || !B.valid() || A.Base != B.Base)
    return false;
  if (A.OffKnown && B.OffKnown) {
    int64_t LA = int64_t(std::max<uint64_t>(SizeA, 1));
    int64_t LB = int64_t(std::max<uint64_t>(SizeB, 1));
    return A.Off < B.Off + LB && B.Off < A.Off + LA;
  }
  uint64_t Bytes = Bases[size_t(A.Base)].Bytes;
  if (!Bytes)
    return false;
  auto Covers = [&](const AddrKey &K, uint64_t Size) {
    return K.OffKnown && K.Off <= 0 && int64_t(Size) + K.Off >= int64_t(Bytes);
  };
  return Covers(A, SizeA) || Covers(B, SizeB);
}

bool FlowFunction::defines(uint32_t K, int32_t R) const {
  // Defs is in program order: the definitions of K are one run.
  auto It = std::lower_bound(Defs.begin(), Defs.end(), K,
                             [](const Def &D, uint32_t X) { return D.Inst < X; });
  for (; It != Defs.end() && It->Inst == K; ++It)
    if (It->Reg == R)
      return true;
  return false;
}

int64_t FlowFunction::lastDefBefore(int32_t R, uint32_t At) const {
  if (R < 0)
    return -1;
  const uint32_t *B = DefOf.data() + DefStart[size_t(R)];
  const uint32_t *E = DefOf.data() + DefStart[size_t(R) + 1];
  const uint32_t *It = std::lower_bound(
      B, E, At, [&](uint32_t D, uint32_t X) { return Defs[D].Inst < X; });
  return It == B ? -1 : int64_t(Defs[*(It - 1)].Inst);
}

uint32_t FlowFunction::blockOf(uint32_t K) const {
  if (K < InstBlock.size())
    return InstBlock[K];
  auto It = std::upper_bound(Blocks.begin(), Blocks.end(), K,
                             [](uint32_t X, const Block &B) { return X < B.Begin; });
  return It == Blocks.begin() ? 0 : uint32_t(It - Blocks.begin() - 1);
}

bool FlowFunction::sameAddress(const Opnd *A, const Opnd *B) const {
  return A && B && A->K == Opnd::Addr && B->K == Opnd::Addr && A->BaseIsReg &&
         B->BaseIsReg && A->Name == B->Name && A->Value == B->Value &&
         defCount(regId(A->Name)) == 1;
}

uint32_t FlowFunction::nextExecuted(uint32_t K) const {
  uint32_t X = K + 1;
  for (unsigned N = 0; N < 8 && X < Insts.size(); ++N) {
    const FlowInst &I = Insts[X];
    const Block &B = Blocks[blockOf(X)];
    if (I.Op.Kind != OpKind::Branch || I.Guarded || B.Succs.size() != 1)
      break;
    X = Blocks[B.Succs[0]].Begin;
  }
  return std::min<uint32_t>(X, uint32_t(Insts.size()));
}

bool FlowFunction::mayOverlap(const AddrKey &A, uint64_t SizeA,
                              const AddrKey &B, uint64_t SizeB) const {
  if (!A.valid() || !B.valid() || A.Base != B.Base)
    return false;
  if (!A.OffKnown || !B.OffKnown)
    return true;
  auto End = [](const AddrKey &K, uint64_t Size) {
    return Size ? K.Off + int64_t(Size) : INT64_MAX;
  };
  return A.Off < End(B, SizeB) && B.Off < End(A, SizeA);
}

bool FlowFunction::callHasEffects(const FlowInst &I) const {
  for (const Opnd &O : I.Ops) {
    if (O.K == Opnd::Reg)
      return true; // indirect call
    if (O.K != Opnd::Sym)
      continue;
    // An external function (no body here) does no async work of ours.
    return ST.definesBody(O.Name);
  }
  return true;
}

} // namespace flow
} // namespace ptxlint
