//===- FlowFunction.h - One function as a CFG of classified instructions -===//
//
// Built once per function that contains async-copy work:
//  * every instruction statement, classified (AsyncOpClassifier). Operands
//    are decoded (parsed statements from the AST, the others from their
//    text by Flow/OperandDecoder.h) for the instructions rules act on;
//    loads, and the arithmetic that computes an address or a count, only
//    when asked: rules read operands through operand(), which decodes first;
//  * basic blocks split at labels and after bra/ret/exit; predicated branches
//    and returns keep their fall-through edge; calls fall through;
//  * register values, flow-insensitively: which shared/param symbol (plus
//    constant offset, when known) a register points into, and which
//    registers hold known constants. Registers with conflicting definitions
//    are Unknown, so rules that need an address stay silent. Values are
//    computed for the backward slice of the operands rules read, and for
//    other registers on demand (a load's address, when a copy is pending).
//
// Everything is linear in the function's size (the value fixpoint is
// capped; registers that do not settle get no values).
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_FLOW_FLOWFUNCTION_H
#define PTXLINT_FLOW_FLOWFUNCTION_H

#include "Flow/AsyncOpClassifier.h"
#include "Support/ArrayView.h"
#include "Support/TextHash.h"
#include "ptxlint/AST.h"
#include "ptxlint/SymbolTable.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ptxlint {
namespace flow {

/// The opcode word of a head ("mov" of "mov.u32"): heads are short, and a
/// plain loop beats a call to memchr.
inline std::string_view opWord(std::string_view Head) {
  size_t K = 0;
  while (K < Head.size() && Head[K] != '.')
    ++K;
  return Head.substr(0, K);
}

struct RegNameTest;

/// The register names of a vector operand ("{%a, %b}", "p|q", a call
/// tuple): a run of a NamePool.
using NameRun = ArrayView<std::string_view, uint32_t>;

/// Where the names of vector operands live: runs in chunks that never move
/// (an operand holds a pointer into one), so an operand is a plain record
/// with no allocation of its own. One run is open at a time: push() adds
/// to it, finish() closes it.
class NamePool {
public:
  void push(std::string_view Name);
  NameRun finish();
  /// Drops the open run (a decode that gave up).
  void drop() {
    if (!Chunks.empty())
      Chunks.back().resize(RunStart);
  }

private:
  std::vector<std::vector<std::string_view>> Chunks; ///< each within its capacity
  size_t RunStart = 0; ///< the open run: Chunks.back()[RunStart..]
};

/// A decoded operand: a plain record (72 bytes), copied freely. (64 bytes,
/// the memo's flags in bits and one base field, made no difference in time.)
struct Opnd {
  enum Kind : uint8_t { None, Reg, Sym, Imm, Addr, Vec, Other };
  std::string_view Name; ///< Reg/Sym name; Addr: base name (empty: [imm])
  int64_t Value = 0;     ///< Imm value; Addr: offset (0 if none)
  NameRun Regs;          ///< Vec / "p|q": register names
  SourceRange Range;
  Kind K = None;
  bool BaseIsReg = false;
  bool HasValue = false; ///< Imm: Value valid
  bool Negated = false;
  // Memo of FlowFunction::address()/constant(): rules ask again on every
  // fixpoint visit, and resolving a register costs a hash lookup. Only an
  // address operand has an address and only a register or an immediate a
  // constant, so one slot holds the offset or the constant.
  mutable uint8_t Memo = 0; ///< bit 0: address known, bit 1: constant known
  mutable bool MemoOffKnown = false, MemoHasConst = false;
  mutable int32_t MemoBase = -1;
  mutable int64_t MemoVal = 0; ///< address: offset (MemoBase >= 0); constant
  mutable int32_t RegId = -2; ///< Reg: index in RegIndex (-1 none, -2 not looked up)
  mutable int32_t ValBase = -1; ///< operandVal(): base of a symbol or undefined register
};

/// An instruction's operands: a run of FlowFunction's operand pool (no
/// allocation per instruction).
using OpndSpan = ArrayView<Opnd, uint32_t>;

struct FlowInst {
  // (Fields in an order that leaves no padding: 64 bytes on a 64-bit
  // host, one per instruction of an analysed function. Each byte costs:
  // 32 more made FA3 paged/split's whole run 4 % slower.)
  /// Each field by its initializer. (Value-initialising the aggregate, as
  /// Insts.emplace_back() did, zeroed the whole record first with `rep stos`, a
  /// microcoded loop slow to start: 8 % of FlowFunction::build's samples
  /// on CUTLASS 77, which instruction counts do not show.)
  FlowInst() {}
  std::string_view Head;
  // Operands; decoded on first use for some instructions (Partial), hence
  // mutable: FlowFunction::operand() fills them in.
  mutable OpndSpan Ops;
  AsyncOp Op;
  SourceRange Range;
  uint32_t Stmt = 0;
  int32_t KillsBase = -1; ///< base id whose register this defines
  /// Predicated (@p / @!p): FlowFunction::guard() names the predicate,
  /// read from the text again when asked (a name kept here made every
  /// record 16 bytes larger for the few instructions that have one).
  bool Guarded = false;
  bool GuardNeg = false;
  mutable bool Partial = false; ///< operands not decoded yet
  mutable uint8_t ValOp = 0xff; ///< memo of the opcode class evalDef() reads

private:
  friend class FlowFunction;
  /// Operand K, nullptr if absent or not decoded yet: rules read operands
  /// through FlowFunction::operand(), which decodes first.
  const Opnd *op(int8_t K) const {
    return K >= 0 && size_t(K) < Ops.size() ? &Ops[size_t(K)] : nullptr;
  }
};
static_assert(sizeof(void *) != 8 || sizeof(FlowInst) == 64, "FlowInst's fields leave no padding");

/// A block's successors: a branch target and the fall-through at most
/// (brx makes a function unanalysable), kept inline.
struct BlockSuccs {
  uint32_t V[2] = {0, 0};
  uint32_t N = 0;
  size_t size() const { return N; }
  bool empty() const { return N == 0; }
  uint32_t operator[](size_t K) const { return V[K]; }
  const uint32_t *begin() const { return V; }
  const uint32_t *end() const { return V + N; }
  void push_back(uint32_t S) { V[N++] = S; }
};

/// A run of indices in a pool that does not move (a block's events, the
/// blocks of a skip region, an edge's literals, an event's atoms).
struct IndexRun {
  const uint32_t *B = nullptr, *E = nullptr;
  const uint32_t *begin() const { return B; }
  const uint32_t *end() const { return E; }
  size_t size() const { return size_t(E - B); }
  uint32_t operator[](size_t K) const { return B[K]; }
};

struct Block {
  uint32_t Begin = 0, End = 0; ///< FlowInst indices
  BlockSuccs Succs;
  bool FallsOffEnd = false; ///< control reaches the closing '}'
  /// Some edge X -> Y with Y <= this block <= X in block order (a back
  /// edge or a self loop) spans it: a forward solve that takes the lowest
  /// block first may visit it more than once (solveForward).
  bool InLoopSpan = false;
  /// The instructions a rule can act on, in order: those with a role
  /// (OpKind other than Other) and those that redefine an address base.
  /// Transfer functions walk these, not every arithmetic instruction.
  IndexRun Events;
};

/// The form of a value, not the value: Base + C + G * t for an integer t
/// the model does not know (G: the gcd of the strides of such terms; 0:
/// none, the value is Base + C). Two barrier addresses of one form are one
/// barrier array's element class (FULL[stage] of any stage register, however
/// the offset is spelled): CUTLASS and FA3 keep FULL[s] and EMPTY[s] at
/// smem + 8*s and smem + C + 8*s, and the producer's and the consumer's
/// stage registers differ. C is the constant as written, not reduced
/// modulo G (that would merge FULL and EMPTY).
struct Form {
  int32_t Base = -1; ///< a symbol's base id; -1: none
  int32_t G = 1;     ///< the default: an opaque value
  int64_t C = 0;
  static Form constant(int64_t C) {
    Form F;
    F.G = 0;
    F.C = C;
    return F;
  }
  static Form symbol(int32_t Base) {
    Form F = constant(0);
    F.Base = Base;
    return F;
  }
  bool operator==(const Form &O) const {
    return Base == O.Base && G == O.G && C == O.C;
  }
  /// A + B, or A - B: a difference of unknown terms (x - 6*(x/6), a
  /// modulo) is a fresh unknown value.
  static Form sum(const Form &A, const Form &B, bool Sub);
  /// A * F (a constant).
  static Form scale(const Form &A, int64_t F);
  /// A or B (selp): one base, the smaller constant, the strides' and the
  /// constants' difference's gcd; an opaque form for two bases.
  static Form either(const Form &A, const Form &B);
  /// Whether this constant form is an element of the barrier array A: the
  /// same base, a stride of 8 (an mbarrier's size) or 16 (FULL and EMPTY
  /// interleaved), and at most 64 stages from A's first.
  bool elementOf(const Form &A) const;
  /// Whether this address and ring D's may meet: the same base, and a
  /// constant on the other's lattice (its constant plus a non-negative
  /// multiple of its stride: a stage index counts up from 0), two equal
  /// constants, or one ring. A stride of 1 (an unknown offset) is no
  /// evidence either way.
  bool onLatticeOf(const Form &D) const;
  /// Whether an access of Size units at this form and one of SSize at S
  /// may touch a common unit: the same base (or none: two numbers), and
  /// some record of the strides' gcd where the two ranges overlap (a read
  /// through a `selp` of two rings' bases, smem + 448 + 20 * t, meets each
  /// ring's words, smem + 608 + 20 * s and smem + 624 + 20 * s). A size of
  /// 0 is one unit; a stride of 1 (an unknown offset) is no evidence.
  bool meets(uint64_t Size, const Form &S, uint64_t SSize) const;
};

/// An abstract register value, and its form (flow-insensitive, like the
/// value: a register whose definitions give different forms has none).
struct Val {
  enum Kind : uint8_t { Undef, Const, Ptr, Unknown } K = Undef;
  int32_t Base = -1;     ///< Ptr: base id
  bool OffKnown = false; ///< Ptr: Off valid
  int64_t Off = 0;       ///< Ptr offset / Const value
  Form F;                ///< not Undef: the form
  Val() = default;
  Val(Kind K, int32_t Base, bool OffKnown, int64_t Off, Form F = Form())
      : K(K), Base(Base), OffKnown(OffKnown), Off(Off), F(F) {}
  bool sameValue(const Val &O) const {
    return K == O.K && Base == O.Base && OffKnown == O.OffKnown && Off == O.Off;
  }
  bool operator==(const Val &O) const { return sameValue(O) && F == O.F; }
  bool operator!=(const Val &O) const { return !(*this == O); }
};

/// What an address base is.
struct BaseInfo {
  enum Kind : uint8_t { SharedSym, ParamSym, GlobalSym, OtherSym, Register } K;
  /// (A constructor, so that emplace_back() builds one in place: one built
  /// on the stack and copied stalled on store forwarding, selfBase()'s
  /// hottest instruction.)
  BaseInfo(Kind K, std::string_view Name) : K(K), Name(Name) {}
  std::string_view Name;
  const Symbol *Sym = nullptr;
  uint64_t Bytes = 0; ///< SharedSym with a known size, else 0
  /// Register: defined once by cvta, so a pointer (offsets from it stay in
  /// its object), not an opaque value.
  bool CvtaPointer = false;
};

/// A resolved memory address: base object + offset (if known).
struct AddrKey {
  AddrKey() = default;
  AddrKey(int32_t B, bool K, int64_t O) : Base(B), OffKnown(K), Off(O) {}
  int32_t Base = -1; ///< -1: unresolved
  bool OffKnown = false;
  int64_t Off = 0;
  bool valid() const { return Base >= 0; }
  bool operator==(const AddrKey &O) const {
    return Base == O.Base && OffKnown == O.OffKnown && Off == O.Off;
  }
};

/// A string_view -> id open-addressing hash table (no allocation per key):
/// register names are interned once per definition, and a function can
/// define hundreds of thousands of them.
class NameTable {
public:
  /// Id of Name, -1 if absent. Inline for packable names: registers are
  /// looked up once per operand the value slice reads.
  int32_t find(std::string_view Name) const {
    if (!packable(Name))
      return findLong(Name);
    if (Packed.empty())
      return -1;
    uint64_t Key = pack(Name);
    size_t Mask = Packed.size() - 1;
    for (size_t P = packedHash(Key) & Mask;; P = (P + 1) & Mask) {
      const PackedSlot &Sl = Packed[P];
      if (Sl.Id < 0 || Sl.Key == Key)
        return Sl.Id;
    }
  }
  /// Inserts Name with Id unless present; returns the id stored and whether
  /// it was inserted.
  std::pair<int32_t, bool> insert(std::string_view Name, int32_t Id);
  /// Names of 1 to 8 bytes (every register nvcc writes) are keyed by their
  /// bytes packed into an integer: no string compare.
  static bool packable(std::string_view Name) {
    return !Name.empty() && Name.size() <= 8;
  }
  static uint64_t pack(std::string_view Name) { return packShort(Name); }
  /// insert() for a packable name, by its pack(). Inline: it runs once per
  /// instruction of an analysed function.
  [[gnu::always_inline]] std::pair<int32_t, bool> insertPacked(uint64_t Key, int32_t Id) {
    if ((PackedCount + 1) * 2 > Packed.size())
      growPacked();
    size_t Mask = Packed.size() - 1;
    for (size_t P = packedHash(Key) & Mask;; P = (P + 1) & Mask) {
      PackedSlot &Sl = Packed[P];
      if (Sl.Id < 0) {
        Sl = PackedSlot{Key, Id};
        ++PackedCount;
        ++Count;
        return {Id, true};
      }
      if (Sl.Key == Key)
        return {Sl.Id, false};
    }
  }
  /// Room for N packable names without growing.
  void reservePacked(size_t N);
  size_t size() const { return Count; }

private:
  static size_t packedHash(uint64_t Key) {
    return size_t((Key * 0x9E3779B97F4A7C15ull) >> 32);
  }
  static uint64_t hash(std::string_view S);
  int32_t findLong(std::string_view Name) const; ///< find() past 8 bytes
  void grow();
  void growPacked();
  struct PackedSlot {
    uint64_t Key = 0;
    int32_t Id = -1;
  };
  std::vector<PackedSlot> Packed;
  struct Slot {
    const char *Data = nullptr;
    uint32_t Size = 0;
    int32_t Id = -1;
  };
  std::vector<Slot> Slots;
  size_t PackedCount = 0, Count = 0;
};

/// Register ids by name. nvcc names a register by a prefix and a decimal
/// number ("%r123", "%rd45", declared as ranges: ".reg .b32 %r<500>") and
/// numbers them about in the order it defines them: in a large function,
/// such a name's id is kept in an array per prefix, indexed by its number,
/// which the definitions walk about in order. A hash table of two slots a
/// statement took a cache miss per definition there (CUTLASS 77's
/// statement loop 12.1 -> 10.6 ms with the arrays, although each insert
/// costs more instructions). Other names (inline asm's "remAddr32" and
/// "%rx", numbers with a leading zero or past the limit) and every name of
/// a small function are in a NameTable.
class RegisterIndex {
public:
  /// Names split into arrays from here on, numbers up to Limit (a name such
  /// as "%r99999999" would make a huge array); before, every name goes to
  /// the NameTable. For functions of many statements only: a small one's
  /// table stays in the cache, and an array per prefix would cost more to
  /// make than the table (async-dense: 840 functions of 250 statements).
  void useArrays(uint32_t L) {
    Arrays = true;
    Limit = L;
  }
  /// The NameTable's room for N names.
  void reserve(size_t N) { Others.reservePacked(N); }
  /// Id of Name, -1 if absent.
  int32_t find(std::string_view Name) const {
    Split S;
    if (!Arrays || !split(Name, S))
      return Others.find(Name);
    const std::vector<int32_t> *Ids = idsOf(S.Prefix);
    return Ids && S.Number < Ids->size() ? (*Ids)[S.Number] : -1;
  }
  /// Inserts Name with Id unless present; returns the id stored and whether
  /// it was inserted. Inline: once per definition of an analysed function.
  [[gnu::always_inline]] std::pair<int32_t, bool> insert(std::string_view Name, int32_t Id) {
    Split S;
    if (!Arrays || !split(Name, S))
      return NameTable::packable(Name) ? Others.insertPacked(NameTable::pack(Name), Id)
                                       : Others.insert(Name, Id);
    std::vector<int32_t> *Ids = idsOf(S.Prefix);
    if (!Ids)
      Ids = &Runs.emplace_back(Run{S.Prefix, {}}).Ids;
    if (S.Number >= Ids->size())
      grow(*Ids, S.Number);
    int32_t &Slot = (*Ids)[S.Number];
    if (Slot >= 0)
      return {Slot, false};
    Slot = Id;
    return {Id, true};
  }

private:
  struct Split {
    uint64_t Prefix; ///< the bytes before the number, packed (packShort())
    uint32_t Number;
  };
  /// Name as '%', a prefix that does not end in a digit and a number of no
  /// leading zero, at most Limit, all in 8 bytes: a name has one split, and
  /// two names of one split are one name.
  bool split(std::string_view Name, Split &S) const {
    size_t N = Name.size();
    if (N < 2 || N > 8 || Name[0] != '%')
      return false;
    // The bytes that are not digits, a high bit each (no carry between
    // bytes); the name's last such byte ends the prefix.
    uint64_t K = packShort(Name);
    uint64_t X = K ^ 0x3030303030303030ull; // digits: 0 to 9
    uint64_t NonDigit =
        (((X & 0x7F7F7F7F7F7F7F7Full) + 0x7676767676767676ull) | X) & 0x8080808080808080ull;
    if (N < 8)
      NonDigit &= (uint64_t(1) << (8 * N)) - 1;
    size_t PrefixSize = size_t(63 - __builtin_clzll(NonDigit)) / 8 + 1; // ('%' is one)
    if (PrefixSize == N || (Name[PrefixSize] == '0' && N - PrefixSize > 1))
      return false;
    // The digits' values, the last in the highest byte, zeros before the
    // first: eight digits combined pairwise, no loop.
    uint64_t V = (X >> (8 * PrefixSize)) << (8 * (8 - (N - PrefixSize)));
    V = (V * 10 + (V >> 8)) & 0x00FF00FF00FF00FFull;
    V = (V * 100 + (V >> 16)) & 0x0000FFFF0000FFFFull;
    V = (V * 10000 + (V >> 32)) & 0xFFFFFFFFull;
    if (V > Limit)
      return false;
    S.Prefix = K & ((uint64_t(1) << (8 * PrefixSize)) - 1);
    S.Number = uint32_t(V);
    return true;
  }
  /// The array of a prefix, nullptr if none yet: the last one found, else
  /// a search of a few.
  std::vector<int32_t> *idsOf(uint64_t Prefix) const {
    if (Last < Runs.size() && Runs[Last].Prefix == Prefix)
      return &Runs[Last].Ids;
    for (size_t K = 0; K < Runs.size(); ++K)
      if (Runs[K].Prefix == Prefix) {
        Last = K;
        return &Runs[K].Ids;
      }
    return nullptr;
  }
  struct Run {
    uint64_t Prefix;
    std::vector<int32_t> Ids; ///< by number; -1: none
  };
  static void grow(std::vector<int32_t> &Ids, uint32_t Number) {
    Ids.resize(std::max<size_t>({size_t(Number) + 1, 2 * Ids.size(), 64}), -1);
  }
  /// One per prefix: a few ("%r", "%rd", "%f", "%p" ...). (Mutable: find()
  /// remembers the run it found, as insert() does.)
  mutable std::vector<Run> Runs;
  mutable size_t Last = 0; ///< the run found last
  NameTable Others;
  bool Arrays = false;
  uint32_t Limit = 0;
};

/// The classification of each distinct head (a parsed instruction's also
/// by its operand count): a module repeats a few dozen heads thousands of
/// times, and classify() splits and compares every qualifier. Keys point
/// into the module's text; one cache per thread.
class ClassCache {
public:
  /// Op of Head with Operands - 1 operands (parsed), or of the head alone
  /// (Operands 0); nullptr when not cached yet.
  const AsyncOp *find(std::string_view Head, uint32_t Operands) const;
  /// Caches Op; the reference holds until the next insert.
  const AsyncOp &insert(std::string_view Head, uint32_t Operands, const AsyncOp &Op);
  /// The class of the parsed instructions of text TextId (Instruction::TextId,
  /// not 0), nullptr when not cached yet: one text has one head and one
  /// operand count, so one class, found by number (no hash of the head, no
  /// compare of its bytes: async-dense code repeats whole statements).
  const AsyncOp *findText(uint32_t TextId) const {
    return TextId < ByText.size() && ByText[TextId].Known ? &ByText[TextId].Op : nullptr;
  }
  /// Caches Op as text TextId's class.
  const AsyncOp &insertText(uint32_t TextId, const AsyncOp &Op);

private:
  struct TextClass {
    AsyncOp Op;
    bool Known = false;
  };
  std::vector<TextClass> ByText; ///< by TextId (the lexer's memo keeps a few thousand)
  /// Open addressing, the hash kept per slot: found once per instruction
  /// with a role (std::unordered_map's murmur hash and node walk cost ~150
  /// instructions a head of 50-100 bytes).
  struct Slot {
    const char *Head = nullptr; ///< nullptr: empty
    uint32_t Size = 0, Operands = 0;
    uint64_t Hash = 0;
    AsyncOp Op;
  };
  /// A hash of the length, the operand count and three 8-byte samples
  /// (the start, the middle, the end): heads differ mostly in those, and
  /// keys that collide are told apart by comparing their bytes.
  static uint64_t hash(std::string_view Head, uint32_t Operands);
  size_t slotOf(std::string_view Head, uint32_t Operands, uint64_t H) const;
  std::vector<Slot> Slots;
  size_t Count = 0;
};

class FlowFunction {
public:
  /// Classes: shared by the functions one thread analyses; when null, the
  /// function keeps its own.
  FlowFunction(const Module &M, const SymbolTable &ST, uint32_t FunctionIndex,
               ClassCache *Classes = nullptr);

  /// Gives a small function's vectors' storage back to the thread's Spare.
  ~FlowFunction();
  FlowFunction(const FlowFunction &) = delete;
  FlowFunction &operator=(const FlowFunction &) = delete;

  const Module &M;
  const SymbolTable &ST;
  const Function &F;
  uint32_t FIndex;
  std::vector<FlowInst> Insts;
  std::vector<Block> Blocks;
  /// Indices of the instructions with a role (OpKind other than Other), in
  /// order: rules scan these rather than every instruction.
  std::vector<uint32_t> RoleInsts;
  /// Of each of RoleInsts, its kind and whether it has an mbarrier operand
  /// (AsyncOp::MbarOp), two bytes: a rule that acts on a few kinds finds
  /// them here (roleInstsOf(), FlowRules.h) without reading every role
  /// instruction's record (64 bytes, most out of the first-level cache by
  /// the time the rules run).
  struct RoleTag {
    // (Built in place: two byte stores and a two-byte load of a tag built
    // on the stack stalled on store forwarding, most of noteRole()'s time.)
    RoleTag(OpKind Kind, bool Mbar) : Kind(Kind), Mbar(Mbar) {}
    OpKind Kind;
    bool Mbar;
  };
  std::vector<RoleTag> RoleTags;
  /// The role instructions with .multicast::cluster or .cta_group::2: what
  /// the cluster rule checks (ClusterRule.cpp), in few kernels.
  unsigned ClusterOps = 0;
  /// Indices of the tcgen05.* instructions (heads that start "tcgen05."),
  /// in order: the tensor-memory rule's reads and writes, most of them of
  /// no role, found without reading every instruction's head again.
  std::vector<uint32_t> TmemInsts;
  /// False when the CFG cannot be trusted (brx, unknown label, a statement
  /// that failed to parse): no flow rule runs.
  bool Analyzable = true;
  bool ValuesValid = true;
  mutable std::vector<BaseInfo> Bases;

  /// Operand K of I, decoding I's operands first if build() deferred them.
  /// (Inline: rules ask for operands in their transfer functions.)
  const Opnd *operand(const FlowInst &I, int8_t K) const {
    if (I.Partial)
      ensureDecoded(I);
    return I.op(K);
  }
  /// Operand K of I decoded from I's text alone, the others not decoded:
  /// for rules that read one operand of every instruction of a kind with
  /// dozens of operands (a tcgen05.ld's 32 destinations), where operand()
  /// would decode them all. std::nullopt when I has fewer operands.
  std::optional<Opnd> operandFromText(const FlowInst &I, uint32_t K) const;
  /// Base + offset of an address operand; invalid when unresolved.
  AddrKey address(const Opnd *O) const;
  /// The pointer a register operand holds (mapa's source address); invalid
  /// when it is not a register or holds no known pointer.
  AddrKey pointerIn(const Opnd *O) const;
  /// The shared-memory address a wgmma/tcgen05.mma matrix descriptor in
  /// register operand O starts at: its bits 0-13 hold (addr & 0x3FFFF) >> 4,
  /// computed by single definitions as "or(cvt(and(shr(addr, 4), 0x3FFF)),
  /// high bits)" (nvcc, CUTLASS) or "or(shr(and(addr, 0x3FFF0), 4), high
  /// bits)" (TK); invalid for any other computation.
  AddrKey descriptorAddress(const Opnd *O) const;
  /// The local address of instruction K's mbarrier operand, looking through
  /// a mapa just before it in its block: CUTLASS signals a peer CTA's copy
  /// of its own barrier with "mapa; mbarrier.arrive.shared::cluster", in
  /// inline-asm scopes that all name the register remAddr32.
  AddrKey localBarrier(uint32_t K) const;
  /// The form of operand O of instruction At (an address: its base and
  /// offset); std::nullopt when absent. A register defined several times
  /// is read at its definition in At's block before At, if any (inline-asm
  /// scopes reuse names such as remAddr32), else as all its definitions.
  std::optional<Form> form(const Opnd *O, uint32_t At) const;
  /// Constant value of an immediate or of a register holding a constant.
  std::optional<int64_t> constant(const Opnd *O) const;
  /// Whether the function has a statement of this kind at all.
  bool has(OpKind K) const { return KindCount[size_t(K)] != 0; }
  unsigned count(OpKind K) const { return KindCount[size_t(K)]; }
  bool isSharedBase(int32_t B) const {
    return B >= 0 && (Bases[size_t(B)].K == BaseInfo::SharedSym);
  }
  /// Both addresses definitely touch a common byte. Sizes of 0 mean unknown
  /// (at least one byte).
  bool definitelyOverlap(const AddrKey &A, uint64_t SizeA, const AddrKey &B,
                         uint64_t SizeB) const;
  /// Both address operands are one register (defined once) plus the same
  /// offset: one thread's accesses through them touch the same bytes
  /// (must-alias: "[%r4]" of a copy through base + tid*16 and of a read).
  bool sameAddress(const Opnd *A, const Opnd *B) const;
  /// Both addresses may touch a common byte: same base, and not two known
  /// disjoint constant ranges (a size of 0: unknown, to the end of the base).
  bool mayOverlap(const AddrKey &A, uint64_t SizeA, const AddrKey &B,
                  uint64_t SizeB) const;
  /// The predicate of a guarded instruction (I.Guarded), "p" of "@!p";
  /// empty if none.
  std::string_view guard(const FlowInst &I) const {
    return I.Guarded ? guardOf(I) : std::string_view();
  }
  /// Calls to a function defined in this module (which may commit, wait or
  /// fence on the caller's behalf) make rules forget what they know.
  bool callHasEffects(const FlowInst &I) const;

  // Registers (for PathConditions): ids are dense, one per name defined in
  // the function; -1 for a name never defined here (%tid.x, a parameter).
  int32_t regId(std::string_view Name) const { return RegIndex.find(Name); }
  int32_t regId(const Opnd &O) const { return regIdOf(O); }
  /// Number of definitions of register R in the function.
  uint32_t defCount(int32_t R) const {
    return R < 0 ? 0 : DefStart[size_t(R) + 1] - DefStart[size_t(R)];
  }
  /// The instruction of definition X of register R (X < defCount(R)).
  uint32_t defInst(int32_t R, uint32_t X) const {
    return Defs[DefOf[DefStart[size_t(R)] + X]].Inst;
  }
  /// Whether instruction K defines register R.
  bool defines(uint32_t K, int32_t R) const;
  /// The last instruction before At that defines R, or -1: a binary search
  /// of R's definitions (in program order), where a backward scan calling
  /// defines() per instruction cost PathConditions most of its time.
  int64_t lastDefBefore(int32_t R, uint32_t At) const;
  /// Block of instruction K.
  uint32_t blockOf(uint32_t K) const;
  /// The instruction that runs next after K (not a branch) on its own
  /// path: K + 1, or through unconditional branches the target's first
  /// (an if-else's "store; bra.uni JOIN"); Insts.size() at the end. For
  /// notes that say where a missing step goes.
  uint32_t nextExecuted(uint32_t K) const;

private:
  /// The storage of the flat vectors (Insts, Blocks, the role lists, Bases,
  /// EventPool, Defs, the slice, InstBlock) and of the operand pool's first
  /// chunk, kept per thread from one
  /// function to the next: taken (empty, with its capacity) by the
  /// constructor and given back by the destructor, so that a module of many
  /// small functions does not allocate (and touch) them afresh for each
  /// (~10 a function). A large function's are freed, not kept: kept, they
  /// would hold their memory while the parser's next batch grows the heap
  /// (CUTLASS 77's largest function's raised its peak by 2 MB).
  struct Spare;
  static Spare &spare();
  void build();
  /// What build() gathers for the blocks: the instructions that start one
  /// (after a label or a branch), in order, repeats included; each branch's
  /// { } scope, in order.
  struct BlockLists {
    std::vector<uint32_t> Leaders;
    std::vector<std::pair<uint32_t, uint32_t>> BranchScope; ///< (instruction, scope)
  };
  /// build()'s lists for the last instruction, which has a role (out of
  /// line: most instructions have none, and the statement loop stays small).
  [[gnu::noinline]] void noteRole(OpKind Kd, uint32_t Scope, BlockLists &Lists);
  /// Drops the registers build() interned when the function is found
  /// unanalysable: it has no register values, and regId() says -1 for
  /// every name to the rules that still run (the cluster rule).
  void forgetRegisters();
  void decode(FlowInst &I, const Statement &S);
  /// guard() of a guarded instruction, from its statement's text.
  std::string_view guardOf(const FlowInst &I) const;
  /// decode() of a statement the parser built: classified and its
  /// operands taken from the AST.
  void decodeParsed(FlowInst &I, const Instruction &P);
  /// A parsed operand A of P as the rules see it, into a blank O.
  void fromAst(const Instruction &P, const Operand &A, Opnd &O) const;
  /// Decodes I's operands into the pool and points I.Ops at them.
  void decodeOperands(const FlowInst &I, const Statement &S) const;
  /// Decodes a Partial instruction's operands.
  void ensureDecoded(const FlowInst &I) const;
  /// Instructions whose operands wait until a rule asks (operand()).
  static bool deferredDecode(const AsyncOp &Op);
  /// Instructions whose result evalDef() derives from their operands.
  static bool computesValue(const FlowInst &I);
  void buildBlocks();
  /// Register values; Kills: the instructions with a KillsBase, in order.
  void computeValues(std::vector<uint32_t> &Kills);
  /// Adds O's register to the slice (and to Work) if it is not in it yet.
  void markInSlice(const Opnd &O, std::vector<int32_t> &Work) const;
  /// Evaluates the registers of Work (the thread's evaluation list, which
  /// evaluate() empties) and those they derive from, all new to the slice;
  /// false (and those registers unknown) if they do not settle.
  bool evaluate(std::vector<int32_t> &Work) const;
  /// evaluate()'s fixpoint over its ND new definitions (the thread's
  /// NewDefs) with reader lists, from pass FirstPass (1: evaluate() made
  /// the first); false (and the new registers unknown) if not settled.
  bool settle(size_t ND, int FirstPass) const;
  /// Makes Reg's value available: a register outside the slice built from
  /// the rules' operands (a deferred load's address) is evaluated now.
  /// Name: Reg's name, as the operand that asks spells it.
  void demand(int32_t Reg, std::string_view Name) const;
  int32_t baseFor(std::string_view Name, bool IsRegister) const;
  /// The base of register Reg's own value (Reg defined here).
  int32_t selfBase(int32_t Reg) const;
  AddrKey resolveAddress(const Opnd &O) const;
  Val operandVal(const Opnd &O) const;
  /// WithForm false: the value alone (its form left for formsNow()), Undef
  /// where the form could not be made yet, as with the form.
  Val evalDef(const FlowInst &I, int32_t Reg, bool WithForm = true) const;
  /// Makes the forms evaluate() left (FormsLater): before a form is read.
  void formsNow() const;
  /// O's form, nullopt while its value is Undef (formOfDef()'s OpForm).
  std::optional<Form> knownForm(const Opnd &O) const;
  /// The value part of evalDef().
  Val evalValue(const FlowInst &I, int32_t Reg) const;
  /// The form of what I computes from the forms of its operands (OpForm:
  /// nullopt while an operand's value is not known yet); nullopt then too.
  template <typename OpFormFn>
  std::optional<Form> formOfDef(const FlowInst &I, OpFormFn OpForm) const;
  /// form() at depth Depth of a chain of local definitions.
  Form formAt(const Opnd &O, uint32_t At, unsigned Depth) const;
  Form regForm(int32_t Reg, std::string_view Name, uint32_t At, unsigned Depth) const;

  mutable NameTable BaseIndex;
  RegisterIndex RegIndex;
  /// Every decoded operand (at build() and later, on request), in chunks
  /// that never move: instructions and rules hold pointers into them. A
  /// chunk is allocated when the last has no room for the next
  /// instruction's operands, so the pool holds what was decoded, not a
  /// slot per statement.
  class OpndPool {
  public:
    /// The chunk to append at most N operands to.
    std::vector<Opnd> &room(size_t N) {
      if (Chunks.empty() || Chunks.back().capacity() - Chunks.back().size() < N)
        Chunks.emplace_back().reserve(std::max<size_t>(Chunks.empty() ? 256 : 1024, N));
      return Chunks.back();
    }

    /// The first chunk, to keep for the next function (empty if none).
    std::vector<Opnd> takeFirst() {
      return Chunks.empty() ? std::vector<Opnd>() : std::move(Chunks[0]);
    }
    /// Starts the pool with a kept chunk's storage (none if it has none).
    void adopt(std::vector<Opnd> &&C) {
      if (C.capacity() == 0)
        return;
      C.clear();
      Chunks.push_back(std::move(C));
    }

  private:
    std::vector<std::vector<Opnd>> Chunks;
  };
  mutable OpndPool Operands;
  mutable NamePool VecNames; ///< the names of their vector operands
  std::vector<uint32_t> EventPool; ///< the blocks' events, block after block
  /// The classification of Head (P: the parsed instruction, if any), from
  /// the ClassCache.
  const AsyncOp &classifyMemo(std::string_view Head, const Instruction *P);
  /// classifyMemo() by the head's text.
  const AsyncOp &classifyHead(std::string_view Head, const Instruction *P);
  ClassCache OwnClasses;
  AsyncOp Uncached; ///< classifyMemo()'s result for a head it cannot key on
  ClassCache *Classes = nullptr;
  /// Whether a name is a .reg variable: every '%' name is (inline: asked
  /// for every operand of a parsed instruction, mostly such names).
  bool isRegName(std::string_view Name) const {
    return (!Name.empty() && Name[0] == '%') || isRegSymbol(Name);
  }
  /// isRegName() for the others: a lookup in the symbol table, memoised in
  /// RegNameMemo (1 yes, 0 no).
  bool isRegSymbol(std::string_view Name) const;
  /// isRegName() for the operand decoder.
  RegNameTest regNameTest() const;
  mutable NameTable RegNameMemo;
  // Register values are computed on demand (demand()), hence mutable.
  struct Def {
    uint32_t Inst;
    int32_t Reg;
  };
  std::vector<Def> Defs; ///< every definition, in program order
  std::vector<uint32_t> DefStart, DefOf; ///< defs of R: DefOf[DefStart[R]..DefStart[R+1])
  /// A register of the value slice (evaluated, or being evaluated). Most
  /// registers never are (a slice is about a tenth of a kernel's), so
  /// their state is kept per slice register, not in arrays over all.
  struct SliceReg {
    Val V;                 ///< the register's value
    int32_t SelfBase = -1; ///< base of its own value (selfBase()), once made
    int32_t UserHead = -1; ///< evaluate(): its first reader, -1
    /// Its name, as the operand that brought it into the slice spells it
    /// (selfBase() needs it; no name is kept per register).
    std::string_view Name;
  };
  mutable std::vector<int32_t> SliceOf; ///< per register: index in Slice, -1: not in it
  /// The definitions (indices into Defs) whose registers' forms evaluate()
  /// has not made yet, in the order it evaluated them (formsNow()).
  mutable std::vector<uint32_t> FormsLater;
  mutable std::vector<SliceReg> Slice;
  bool inSlice(int32_t R) const { return SliceOf[size_t(R)] >= 0; }
  /// Adds R, named Name, to the slice (not in it yet).
  void addToSlice(int32_t R, std::string_view Name) const {
    SliceOf[size_t(R)] = int32_t(Slice.size());
    Slice.emplace_back().Name = Name;
  }
  SliceReg &sliceReg(int32_t R) const { return Slice[size_t(SliceOf[size_t(R)])]; }
  /// Puts distinct indices into Defs in increasing (program) order.
  void sortDefIndices(std::vector<uint32_t> &X) const;
  int32_t regIdOf(const Opnd &O) const;
  uint32_t NumRegs = 0; ///< registers defined here: ids 0 .. NumRegs - 1
  /// Block of each instruction (and of the end), as build() found them:
  /// PathConditions asks blockOf() for every literal it builds.
  std::vector<uint32_t> InstBlock;
  unsigned KindCount[64] = {};
};

/// Number of bytes of a symbol declared in shared memory, 0 if unknown.
uint64_t symbolBytes(const Symbol &S);

} // namespace flow
} // namespace ptxlint
#endif
