//===- AST.h - PTX module AST with exact source ranges ----------*- C++ -*-===//
//
// The AST keeps every node's byte range in the source buffer, so diagnostics
// can put a caret under the exact qualifier or operand. All string_views point
// into the SourceBuffer that owns the text; a Module must not outlive it.
//
// Only the statements that matter for async-copy checking are parsed in full
// (see StatementFilter.cpp); every other statement is kept as an opaque
// Statement with its kind, head word and range.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_AST_H
#define PTXLINT_AST_H

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ptxlint {

/// Half-open byte range [Begin, End) into the module's buffer.
struct SourceRange {
  uint32_t Begin = 0;
  uint32_t End = 0;
  bool empty() const { return Begin == End; }
};

/// Memory for the lists of parsed instructions (NodeList): handed out from
/// blocks and never freed one list at a time. An async-dense module parses
/// hundreds of thousands of instructions, each with a modifier list, an
/// operand list and the elements of its addresses: a malloc and a free for
/// each was a tenth of the whole run. reset() makes every block reusable
/// (lint() does after each batch of functions, whose AST it then drops).
class NodeArena {
public:
  NodeArena() = default;
  NodeArena(NodeArena &&) = default;
  NodeArena &operator=(NodeArena &&) = default;
  /// Bytes, 8-aligned, valid until reset() or the arena's end.
  void *allocate(size_t Bytes) {
    Bytes = (Bytes + 7) & ~size_t(7);
    if (Bytes > size_t(End - Next))
      nextBlock(Bytes);
    void *P = Next;
    Next += Bytes;
    return P;
  }
  void reset();

private:
  void nextBlock(size_t Bytes);
  struct Block {
    std::unique_ptr<char[]> Data;
    size_t Size;
  };
  std::vector<Block> Blocks;
  size_t Current = 0; ///< the block Next points into
  char *Next = nullptr, *End = nullptr;
};

/// A list of AST nodes whose elements live in a NodeArena. Read like a
/// vector; built by the parser with the arena at hand. Copies share the
/// elements (they are never changed once the statement is parsed).
template <typename T> class NodeList {
public:
  size_t size() const { return Size; }
  bool empty() const { return Size == 0; }
  T *begin() { return Data; }
  T *end() { return Data + Size; }
  const T *begin() const { return Data; }
  const T *end() const { return Data + Size; }
  const T *data() const { return Data; }
  T &operator[](size_t K) { return Data[K]; }
  const T &operator[](size_t K) const { return Data[K]; }
  T &front() { return Data[0]; }
  const T &front() const { return Data[0]; }
  T &back() { return Data[Size - 1]; }
  const T &back() const { return Data[Size - 1]; }

  /// Room for N more elements.
  void reserve(NodeArena &A, size_t N) {
    if (Cap - Size < N)
      regrow(A, Size + N);
  }
  void push_back(NodeArena &A, T X) {
    if (Size == Cap)
      regrow(A, Cap ? 2 * size_t(Cap) : 4);
    new (Data + Size++) T(std::move(X));
  }
  /// A new element at the end, value-initialised, for the caller to fill in
  /// place (push_back copies it: an Operand is 104 bytes). The reference
  /// lasts until the list grows again.
  T &emplace_back(NodeArena &A) {
    if (Size == Cap)
      regrow(A, Cap ? 2 * size_t(Cap) : 4);
    return *new (Data + Size++) T();
  }
  /// The list of the N elements the caller placed at D (none if N is 0).
  static NodeList over(T *D, uint32_t N) {
    NodeList L;
    if (N) {
      L.Data = D;
      L.Size = L.Cap = N;
    }
    return L;
  }
  /// The list after the block holding its elements was copied Bytes away
  /// (the parser copies an instruction's lists as one block).
  void rebase(ptrdiff_t Bytes) {
    if (Data)
      Data = reinterpret_cast<T *>(reinterpret_cast<char *>(Data) + Bytes);
  }

private:
  void regrow(NodeArena &A, size_t NewCap) {
    T *D = static_cast<T *>(A.allocate(NewCap * sizeof(T)));
    for (uint32_t K = 0; K < Size; ++K)
      new (D + K) T(std::move(Data[K]));
    Data = D;
    Cap = uint32_t(NewCap);
  }
  T *Data = nullptr;
  uint32_t Size = 0, Cap = 0;
};

enum class OperandKind : uint8_t {
  Register,  ///< %r1, %rd2, %p3, or a plain identifier bound by .reg
  Symbol,    ///< a name that is not a register (variable, param, label)
  Immediate, ///< integer constant (Value holds it when it fits 64 bits)
  FloatImm,  ///< 0f3F800000, 1.5, ...
  Address,   ///< [base], [base+off], [tensorMap, {coords}]
  Vector,    ///< {a, b, c}
  Sink,      ///< _
  Expr,      ///< anything else (constant expressions): kept as text
};

/// One instruction operand. Address and Vector operands nest their parts in
/// Elements: an Address holds its base (Register/Symbol/Immediate) first and,
/// for tensor forms, a Vector of coordinates second. The kind, the flags,
/// the component's size and where the offset is share one word: an
/// async-dense module keeps millions of operands (80 bytes, was 104 with
/// the component and the offset's range fields of their own).
///
/// Its views (Text, Name) and ViewRange are of the statement its
/// instruction's lists were built from: the instruction's own, or for an
/// instruction whose text repeats, an earlier statement of that text (the
/// same bytes: the parser's copies share one set of lists and write none). The
/// views are then into a copy of that text the module keeps
/// (Module::SharedNodes), ViewRange where the statement is; the
/// instruction's rangeOf() gives where the operand is in its own statement.
/// A view's place is its range, not its address.
struct Operand {
  OperandKind Kind = OperandKind::Expr;
  bool Negated : 1;   ///< "!%p" (predicate operands)
  bool HasValue : 1;  ///< Immediate: Value known (modulo 2^64, as ptxas)
  bool Overflow : 1;  ///< Immediate: ptxas's "Constant overflow"
  bool HasOffset : 1; ///< Address: "+constant" present, its value known
  uint16_t ComponentSize = 0; ///< of component(): the end of Text
  /// Address: where offsetViewRange() is, from ViewRange.Begin (parsed
  /// statements are under 64 KB: ScanLimits::MaxParsedStatementBytes).
  uint16_t OffsetAt = 0, OffsetSize = 0;
  SourceRange ViewRange; ///< of Text: see above, and Instruction::rangeOf()
  std::string_view Text;   ///< whole operand text, e.g. "[%r1+8]"
  std::string_view Name;   ///< Register/Symbol: the name; Register may carry
                           ///< a component suffix, component() ("%tid" ".x")
  int64_t Value = 0;       ///< Immediate value (two's complement of -x)
  int64_t Offset = 0;      ///< Address: the offset's value
  NodeList<Operand> Elements;

  Operand() : Negated(false), HasValue(false), Overflow(false), HasOffset(false) {}
  /// Register/Symbol: the component written after the name (".x" of
  /// "%tid.x"), which ends the operand's text; empty if none.
  std::string_view component() const { return Text.substr(Text.size() - ComponentSize); }
  /// Address: the offset expression's ViewRange (empty if none);
  /// Instruction::offsetRangeOf() gives it in the instruction's statement.
  SourceRange offsetViewRange() const {
    return {ViewRange.Begin + OffsetAt, ViewRange.Begin + OffsetAt + OffsetSize};
  }

  bool isRegister() const { return Kind == OperandKind::Register; }
  bool isImmediate() const { return Kind == OperandKind::Immediate; }
  bool isAddress() const { return Kind == OperandKind::Address; }
  bool isVector() const { return Kind == OperandKind::Vector; }
};

/// A dotted qualifier as written: ".shared::cluster", ".L2::cache_hint".
/// Text and ViewRange: as an Operand's (Instruction::rangeOf()).
struct Modifier {
  std::string_view Text; ///< includes the leading '.'
  SourceRange ViewRange;
};

/// A parsed instruction: `@!%p opcode.mod.mod op, op, ...;`
/// The opcode is the first word only ("cp" in cp.async.bulk); every dotted
/// word after it is a Modifier, in source order. The checker's tables decide
/// which leading modifiers name the instruction (".async.bulk.tensor").
struct Instruction {
  SourceRange Range;
  /// @p / @!p (Negated set for @!p), null if none. It lives with the
  /// lists, in the module's NodeArena: most instructions have none, and an
  /// Operand inline was half of an Instruction's bytes.
  const Operand *Guard = nullptr;
  std::string_view Opcode;
  SourceRange OpcodeRange;
  NodeList<Modifier> Modifiers;
  NodeList<Operand> Operands;
  /// The opcode and modifiers are written contiguously (no space or comment
  /// between words): set by the parser, which sees them all once.
  bool WordsContiguous = false;
  /// The parser's number for the statement's text, 0 if none: instructions
  /// of one number have the same text, so the same head (what a pass finds
  /// from the head alone it may keep by number instead of by head text).
  uint32_t TextId = 0;
  /// Its statement's index in Module::Statements.
  uint32_t StatementIndex = 0;
  /// Where its statement begins less where the statement its lists
  /// (modifiers, operands, guard) were built from begins: 0 where it has
  /// lists of its own; for a copy of a repeated text, which shares the lists
  /// of an earlier statement of the text (see Operand), the distance to that
  /// statement. Range, Opcode and OpcodeRange are always its own.
  int32_t Shift = 0;

  /// Where one of its modifiers, operands (nested ones too) or its guard
  /// is in its own statement.
  SourceRange rangeOf(const Modifier &X) const { return shifted(X.ViewRange); }
  SourceRange rangeOf(const Operand &X) const { return shifted(X.ViewRange); }
  /// An address operand's offset expression in its own statement.
  SourceRange offsetRangeOf(const Operand &X) const { return shifted(X.offsetViewRange()); }
  SourceRange shifted(SourceRange R) const {
    return {uint32_t(int64_t(R.Begin) + Shift), uint32_t(int64_t(R.End) + Shift)};
  }

  bool hasModifier(std::string_view M) const {
    for (const Modifier &X : Modifiers)
      if (X.Text == M)
        return true;
    return false;
  }
  /// Whether the opcode and modifiers are exactly the text Head, written
  /// contiguously (no space or comment between words): then the head alone
  /// determines them, and caches keyed by head text may serve this one.
  bool spelledBy(std::string_view Head) const {
    uint32_t End = Modifiers.empty() ? OpcodeRange.End : rangeOf(Modifiers.back()).End;
    return WordsContiguous && Opcode.data() == Head.data() &&
           End == OpcodeRange.Begin + Head.size();
  }
};

// The arena runs no destructors.
static_assert(std::is_trivially_destructible<Operand>::value &&
                  std::is_trivially_destructible<Modifier>::value,
              "NodeList elements must not own memory");

enum class StatementKind : uint8_t {
  Instruction,     ///< ends with ';'
  Label,           ///< "name:"
  Directive,       ///< .version/.target/.address_size/.file/.loc/.pragma/...
  Declaration,     ///< .reg/.shared/.global/.const/.local/.param/.tex ... ;
  FunctionHeader,  ///< .entry/.func header up to '{' or ';'
  BlockOpen,       ///< {
  BlockClose,      ///< }
  SectionData,     ///< line inside a .section { } block (DWARF data)
};

/// One statement as the scanner found it. Parsed statements point at their
/// node through ParsedIndex (into Module::Instructions for instructions).
/// A module has one per ~35 bytes of text, and every pass reads them all:
/// 20 bytes, with the head as offsets into the module text (its size shares
/// a word with the kind: the scanner caps it at MaxHeadSize). The function a
/// statement is in comes from the functions' ranges (FunctionCursor).
struct Statement {
  static constexpr uint32_t MaxHeadSize = (1u << 24) - 1;
  StatementKind Kind;
  uint32_t HeadSize : 24; ///< see head(); packed after Kind
  SourceRange Range;
  uint32_t HeadBegin = 0; ///< the first word: see head()
  int32_t ParsedIndex = -1;
  /// The first word, e.g. "cp.async.bulk.tensor.2d...", in Text: the text
  /// the statement was scanned from (Module::Text).
  std::string_view head(std::string_view Text) const {
    return std::string_view(Text.data() + HeadBegin, HeadSize);
  }
  /// The whole statement, in the Text it was scanned from.
  std::string_view text(std::string_view Text) const {
    return Text.substr(Range.Begin, Range.End - Range.Begin);
  }
};
static_assert(sizeof(Statement) == 20, "kind and head size share a word");

/// The module's statements, by index from 0 (Function, Instruction and the
/// passes keep indices). A lint that runs each batch of functions as the
/// scan passes it reads no statement before the open batch again, and drops
/// them (dropBefore()): it keeps a batch's worth (~100 KB), not the module's
/// (20 bytes a statement: 4.1 MB on async-dense, 7.2 MB on CUTLASS 77,
/// memory that the kernel zeroes at its first touch). The statements kept
/// are those from firstKept() on; an index before it must not be read.
class StatementTable {
public:
  /// The statements scanned so far, dropped ones included.
  size_t size() const { return Base + Kept.size(); }
  bool empty() const { return size() == 0; }
  Statement &operator[](size_t K) {
    assert(K >= Base && "a statement dropped is read");
    return Kept[K - Base];
  }
  const Statement &operator[](size_t K) const {
    assert(K >= Base && "a statement dropped is read");
    return Kept[K - Base];
  }
  Statement &back() { return Kept.back(); }
  const Statement &back() const { return Kept.back(); }
  Statement &emplace_back() { return Kept.emplace_back(); }
  /// The index of S, a statement kept.
  uint32_t indexOf(const Statement &S) const { return Base + uint32_t(&S - Kept.data()); }
  /// Room for N statements kept at once.
  void reserve(size_t N) { Kept.reserve(N); }
  size_t capacity() const { return Kept.capacity(); }
  /// The statements kept, in order (all of them unless some were dropped).
  const Statement *begin() const { return Kept.data(); }
  const Statement *end() const { return Kept.data() + Kept.size(); }
  uint32_t firstKept() const { return Base; }
  /// Statements before K will not be read again: their room is reused for
  /// the statements to come (the kept ones move to the front).
  void dropBefore(uint32_t K) {
    if (K <= Base)
      return;
    size_t N = std::min<size_t>(K - Base, Kept.size());
    Kept.erase(Kept.begin(), Kept.begin() + std::ptrdiff_t(N));
    Base += uint32_t(N);
  }

private:
  std::vector<Statement> Kept;
  uint32_t Base = 0; ///< the index of Kept[0]
};

enum class StateSpace : uint8_t { None, Reg, Shared, Global, Const, Local, Param, Tex, Generic };

/// A name declared by .reg/.shared/... or a function parameter. Every
/// declaration of a module is parsed before its instructions, and all of them
/// are kept to the end: the name is a view into the module text, like the
/// type (no string per symbol), and the fields are packed (64 bytes).
struct Symbol {
  std::string_view Name;   ///< for "%r<10>", Name is "%r" and RangeCount 10
  std::string_view Type;   ///< ".b32", ".u64", ".pred", ".b8", ...
  uint64_t ArraySize = 0;  ///< bytes-agnostic element count, 0 if unsized
  SourceRange Range;       ///< the declarator
  int32_t Function = -1;   ///< -1: module scope
  unsigned RangeCount = 0; ///< parameterised names %r<N>
  unsigned Align = 0;
  StateSpace Space = StateSpace::None;
  uint8_t VectorWidth = 0; ///< .v2/.v4/.v8 -> 2/4/8
  bool IsArray = false;
  bool Extern = false;
};

struct Function {
  std::string_view Name;
  bool IsEntry = false;
  bool IsPrototype = false;      ///< header ended with ';'
  uint32_t HeaderStatement = 0;
  uint32_t FirstStatement = 0;   ///< first statement inside the body
  uint32_t EndStatement = 0;     ///< one past the closing '}'
  /// Cluster shape from .reqnctapercluster (0 when absent).
  unsigned ClusterDims[3] = {0, 0, 0};
  bool ExplicitCluster = false;
  SourceRange NameRange;
};

/// .version/.target/.address_size as written in the module.
struct ModuleDirectives {
  unsigned VersionMajor = 0, VersionMinor = 0;
  bool HasVersion = false;
  SourceRange VersionRange;
  std::vector<std::string_view> Targets; ///< "sm_90a", "debug", "texmode_..."
  SourceRange TargetRange;
  unsigned AddressSize = 0;
};

struct Module {
  std::string_view Text;           ///< the whole buffer
  StatementTable Statements;
  std::vector<Instruction> Instructions;
  NodeArena Nodes; ///< the Instructions' lists
  std::vector<Function> Functions;
  /// The functions' names (Function::Name views these, not the text: the
  /// flow pass reads every name at its first batch, and mapped text behind
  /// the lint is to stay out of memory). A deque: its strings never move.
  std::deque<std::string> FunctionNames;
  std::vector<Symbol> Symbols;
  ModuleDirectives Directives;
  /// The statements whose kind and head need a full parse, in order, as the
  /// scanner found them (mayNeedFullParse() and headNeedsFullParse() in
  /// Parse/StatementFilter.h): selectForParse() reads these instead of every
  /// statement, and consumes the list.
  std::vector<uint32_t> ParseCandidates;
  /// The lists that the instructions of a repeated text share (see
  /// Instruction::Shift), with the text their views are into: unlike
  /// Nodes, kept from batch to batch.
  NodeArena SharedNodes;
};

/// The function whose body, between its braces, holds a statement (its index
/// into Module::Functions; -1 outside every body: headers, module scope), for
/// a pass that asks in statement order: a cursor over the functions, which
/// are in text order. (Asked out of order, it starts over.) A header inside
/// another function's body (malformed) has an empty range, and its braces'
/// statements belong to the function around it, as here: the cursor stays at
/// the first function not yet ended.
class FunctionCursor {
public:
  /// First: where to start, a function that ends after the first statement
  /// asked (a batch's first function, StatementBatch::FirstFunction).
  explicit FunctionCursor(const Module &M, uint32_t First = 0)
      : Fns(M.Functions), F(First), Start(First) {}
  int32_t at(uint32_t K) {
    if (K < Last)
      F = Start;
    Last = K;
    const size_t N = Fns.size();
    while (F < N && Fns[F].EndStatement <= K)
      ++F;
    return F < N && Fns[F].FirstStatement <= K ? int32_t(F) : -1;
  }

private:
  const std::vector<Function> &Fns;
  uint32_t F, Start, Last = 0;
};

} // namespace ptxlint

#endif
