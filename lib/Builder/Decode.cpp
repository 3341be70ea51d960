//===- Decode.cpp - Parsed instructions back to builder structs -----------===//

#include "ModuleText.h"
#include "ptxlint/Builder.h"
#include "ptxlint/Linter.h"
#include "ptxlint/SpecTables.h"
#include "ptxlint/SymbolTable.h"

#include <array>

namespace ptxlint {
namespace build {
namespace {

enum Group : unsigned {
  GCache, GDim, GLevel, GLoadMode, GCompletion, GMulticast, GCtaGroup, GRedOp,
  GNoftz, GType, GCacheHint, GPrefetch, GCpMask, GRead, NumGroups
};

struct Quals {
  std::vector<std::string_view> Spaces;
  std::array<std::string_view, NumGroups> G{};
  bool has(Group X) const { return !G[X].empty(); }
};

struct Failure {
  std::string Msg;
};

[[noreturn]] void fail(std::string Msg) { throw Failure{std::move(Msg)}; }

/// The decoder's group of each qualifier group of the tables, by name.
const std::pair<std::string_view, Group> TableGroups[] = {
    {"cache", GCache},         {"dim", GDim},
    {"level", GLevel},         {"load_mode", GLoadMode},
    {"completion_mechanism", GCompletion},
    {"multicast", GMulticast}, {"cta_group", GCtaGroup},
    {"redOp", GRedOp},         {"noftz", GNoftz},
    {"type", GType},           {"cache_hint", GCacheHint},
    {"prefetch_size", GPrefetch}, {"cp_mask", GCpMask},
    {"read", GRead}};

/// The group of a qualifier word, from the spec tables (the instructions the
/// builder expresses); -1 when no such group holds it.
int groupOf(std::string_view W) {
  for (const spec::InstructionSpec &I : spec::instructions()) {
    if (I.ClassifyOnly)
      continue;
    const spec::GroupSpec *G = spec::groupOf(I, W);
    if (!G)
      continue;
    for (const auto &[Name, Id] : TableGroups)
      if (G->Name == Name)
        return Id;
  }
  return -1;
}

/// Whether the word is a state space of the tables' instructions.
bool isSpace(std::string_view W) {
  for (const spec::InstructionSpec &I : spec::instructions())
    if (const spec::GroupSpec *G = spec::groupOf(I, W);
        G && !I.ClassifyOnly && G->Kind == spec::GroupKind::StateSpace)
      return true;
  return false;
}

struct Decoder {
  const Instruction &I;
  const SymbolTable *Symbols;
  int32_t Function;
  size_t NextOp = 0;

  // --- operands -------------------------------------------------------------
  size_t count() const { return I.Operands.size(); }
  const Operand &at(size_t K) {
    if (K >= I.Operands.size())
      fail("too few operands");
    return I.Operands[K];
  }
  static Value value(const Operand &O) {
    switch (O.Kind) {
    case OperandKind::Immediate:
      if (!O.HasValue)
        fail("immediate '" + std::string(O.Text) + "' does not fit 64 bits");
      return imm(O.Value);
    case OperandKind::Register:
    case OperandKind::Symbol: {
      Value V = reg(std::string(O.Name) + std::string(O.Component));
      V.Negated = O.Negated;
      return V;
    }
    default:
      fail("operand '" + std::string(O.Text) + "' is not a register or integer");
    }
  }
  static Address address(const Operand &O) {
    if (O.Kind != OperandKind::Address || O.Elements.size() != 1)
      fail("operand '" + std::string(O.Text) + "' is not an address [base+offset]");
    return Address{value(O.Elements[0]), O.HasOffset ? O.Offset : 0};
  }
  static TensorRef tensor(const Operand &O) {
    if (O.Kind != OperandKind::Address || O.Elements.size() != 2 ||
        O.Elements[1].Kind != OperandKind::Vector)
      fail("operand '" + std::string(O.Text) + "' is not [tensorMap, {coords}]");
    TensorRef T;
    T.Map = value(O.Elements[0]);
    for (const Operand &C : O.Elements[1].Elements)
      T.Coords.push_back(value(C));
    return T;
  }
  static std::vector<Value> vector(const Operand &O) {
    if (O.Kind != OperandKind::Vector)
      fail("operand '" + std::string(O.Text) + "' is not a vector {...}");
    std::vector<Value> V;
    for (const Operand &E : O.Elements)
      V.push_back(value(E));
    return V;
  }
  Value nextValue() { return value(at(NextOp++)); }
  Address nextAddress() { return address(at(NextOp++)); }
  void end() {
    if (NextOp != count())
      fail("too many operands (" + std::to_string(count()) + ", expected " +
           std::to_string(NextOp) + ")");
  }
  bool isPredicate(const Operand &O) const {
    if (O.Negated)
      return true;
    if (O.Kind != OperandKind::Register && O.Kind != OperandKind::Symbol)
      return false;
    if (Symbols)
      if (const Symbol *S = Symbols->lookup(O.Name, Function))
        return S->Type == ".pred";
    return O.Name.size() > 2 && O.Name.substr(0, 2) == "%p";
  }

  // --- qualifiers -----------------------------------------------------------
  Quals quals(size_t From) {
    Quals Q;
    for (size_t K = From; K < I.Modifiers.size(); ++K) {
      std::string_view W = I.Modifiers[K].Text;
      if (isSpace(W)) {
        if (Q.Spaces.size() == 2)
          fail("more than two state spaces");
        Q.Spaces.push_back(W);
        continue;
      }
      int G = groupOf(W);
      if (G < 0)
        fail("unknown qualifier '" + std::string(W) + "'");
      if (Q.has(Group(G)))
        fail("qualifier group of '" + std::string(W) + "' written twice");
      Q.G[G] = W;
    }
    return Q;
  }
  static void only(const Quals &Q, std::initializer_list<Group> Allowed,
                   std::string_view Name) {
    for (unsigned G = 0; G < NumGroups; ++G) {
      if (!Q.has(Group(G)))
        continue;
      bool Ok = false;
      for (Group A : Allowed)
        Ok |= A == G;
      if (!Ok)
        fail("qualifier '" + std::string(Q.G[G]) + "' is not part of " + std::string(Name));
    }
  }
  static std::string spaces(const Quals &Q) {
    std::string S;
    for (std::string_view W : Q.Spaces)
      S += W;
    return S;
  }
  static unsigned dim(const Quals &Q) {
    if (!Q.has(GDim))
      fail("missing dimension .1d-.5d");
    unsigned D = unsigned(Q.G[GDim][1] - '0');
    if (D < 1 || D > 5)
      fail("dimension '" + std::string(Q.G[GDim]) + "' is not .1d-.5d");
    return D;
  }
  static LoadMode loadMode(const Quals &Q) {
    return fromSpelling<LoadMode>(Q.G[GLoadMode]).value_or(LoadMode::Tile); // absent: the default
  }
  static RedOp redOp(const Quals &Q) {
    if (std::optional<RedOp> Op = fromSpelling<RedOp>(Q.G[GRedOp]); Op && !Q.G[GRedOp].empty())
      return *Op;
    fail("missing reduction operation");
  }
  /// Want: the mechanism the direction takes (completion(Dir), from the tables).
  static void completion(const Quals &Q, const char *Want) {
    if (Q.G[GCompletion] != Want)
      fail(std::string("this direction completes with ") + Want);
  }
  static std::string needs(Flag F, std::string_view What) {
    return std::string(spelling(F)) + " needs " + std::string(What);
  }
  /// "cp.async.bulk.prefetch is written .L2.global"
  template <typename T> static std::string writtenAs(std::string_view Spaces) {
    return std::string(instructionName<T>()) + " is written " + spelling(Flag::L2) +
           std::string(Spaces);
  }
  static bool isLoadInfoMode(LoadMode M) {
    return M == LoadMode::Im2col || M == LoadMode::Im2colW ||
           M == LoadMode::Im2colW128;
  }

  // --- instructions -----------------------------------------------------------
  Inst run() {
    spec::Words Mods;
    for (const Modifier &M : I.Modifiers)
      Mods.push_back(M.Text);
    size_t NameWords = 0;
    const spec::InstructionSpec *Spec = spec::findInstruction(I.Opcode, Mods, NameWords);
    if (!Spec || Spec->ClassifyOnly)
      fail("not an instruction of the async-copy family");
    Inst R;
    if (I.Guard) {
      Value G = reg(std::string(I.Guard->Name));
      G.Negated = I.Guard->Negated;
      R.Guard = G;
    }
    // The builder struct whose table name (builder_struct) is Spec's.
    auto is = [&](auto Struct) {
      return Spec->Name == instructionName<decltype(Struct)>();
    };
    Quals Q = quals(NameWords);
    if (is(CpAsync{}))
      R.Op = cpAsync(Q);
    else if (is(CpAsyncCommitGroup{}))
      R.Op = noOperands<CpAsyncCommitGroup>(Q);
    else if (is(CpAsyncWaitGroup{})) {
      only(Q, {}, Spec->Name);
      R.Op = CpAsyncWaitGroup{groupCount()};
    } else if (is(CpAsyncWaitAll{}))
      R.Op = noOperands<CpAsyncWaitAll>(Q);
    else if (is(CpAsyncBulk{}))
      R.Op = bulk(Q);
    else if (is(CpReduceAsyncBulk{}))
      R.Op = reduce(Q);
    else if (is(CpAsyncBulkPrefetch{}))
      R.Op = prefetch(Q);
    else if (is(CpAsyncBulkTensor{}))
      R.Op = bulkTensor(Q);
    else if (is(CpReduceAsyncBulkTensor{}))
      R.Op = reduceTensor(Q);
    else if (is(CpAsyncBulkPrefetchTensor{}))
      R.Op = prefetchTensor(Q);
    else if (is(CpAsyncBulkCommitGroup{}))
      R.Op = noOperands<CpAsyncBulkCommitGroup>(Q);
    else if (is(CpAsyncBulkWaitGroup{})) {
      only(Q, {GRead}, Spec->Name);
      CpAsyncBulkWaitGroup W;
      W.Read = Q.has(GRead);
      W.N = groupCount();
      R.Op = W;
    } else
      fail(std::string(Spec->Name) + " has no builder struct");
    return R;
  }

  template <typename T> T noOperands(const Quals &Q) {
    only(Q, {}, instructionName<T>());
    end();
    return T{};
  }

  int64_t groupCount() {
    Value N = nextValue();
    if (!N.IsImm)
      fail("the group count N must be an integer constant");
    end();
    return N.Imm;
  }

  CpAsync cpAsync(const Quals &Q) {
    only(Q, {GCache, GCacheHint, GPrefetch}, instructionName<CpAsync>());
    CpAsync C;
    if (!Q.has(GCache))
      fail("missing cache operator .ca or .cg");
    C.Cache = fromSpelling<CacheOp>(Q.G[GCache]).value_or(CacheOp::CG);
    std::string S = spaces(Q);
    if (std::optional<CpAsyncDir> D = fromSpelling<CpAsyncDir>(S))
      C.DstSharedCta = *D == CpAsyncDir::SharedCtaGlobal;
    else
      fail("cp.async has no direction '" + S + "'");
    C.Prefetch = fromSpelling<PrefetchSize>(Q.G[GPrefetch]).value_or(PrefetchSize::None);
    C.Dst = nextAddress();
    C.Src = nextAddress();
    Value Sz = nextValue();
    if (!Sz.IsImm)
      fail("cp-size must be an integer constant");
    C.CpSize = unsigned(Sz.Imm);
    bool Hint = Q.has(GCacheHint);
    size_t Rest = count() - NextOp;
    if (Rest > (Hint ? 2u : 1u))
      fail("too many operands");
    if (Rest == (Hint ? 2u : 1u)) {
      const Operand &O = at(NextOp++);
      if (isPredicate(O))
        C.IgnoreSrc = value(O);
      else
        C.SrcSize = value(O);
    }
    if (Hint)
      C.CachePolicy = nextValue();
    end();
    return C;
  }

  CpAsyncBulk bulk(const Quals &Q) {
    only(Q, {GCompletion, GMulticast, GCacheHint, GCpMask}, instructionName<CpAsyncBulk>());
    CpAsyncBulk B;
    std::string S = spaces(Q);
    if (std::optional<BulkDir> D = fromSpelling<BulkDir>(S))
      B.Dir = *D;
    else
      fail("cp.async.bulk has no direction '" + S + "'");
    bool Store = B.Dir == BulkDir::SharedCtaToGlobal;
    completion(Q, ptxlint::build::completion(B.Dir));
    if (Q.has(GMulticast) && B.Dir != BulkDir::GlobalToSharedCluster)
      fail(needs(Flag::Multicast, spelling(BulkDir::GlobalToSharedCluster)));
    if (Q.has(GCpMask) && !Store)
      fail(needs(Flag::CpMask, spelling(BulkDir::SharedCtaToGlobal)));
    if (Q.has(GCacheHint) && B.Dir == BulkDir::SharedCtaToSharedCluster)
      fail(needs(Flag::CacheHint, "a .global state space"));
    B.Dst = nextAddress();
    B.Src = nextAddress();
    B.Size = nextValue();
    if (!Store)
      B.Mbar = nextAddress();
    if (Q.has(GMulticast))
      B.CtaMask = nextValue();
    if (Q.has(GCacheHint))
      B.CachePolicy = nextValue();
    if (Q.has(GCpMask))
      B.ByteMask = nextValue();
    end();
    return B;
  }

  CpReduceAsyncBulk reduce(const Quals &Q) {
    only(Q, {GCompletion, GRedOp, GNoftz, GType, GCacheHint},
         instructionName<CpReduceAsyncBulk>());
    CpReduceAsyncBulk R;
    std::string S = spaces(Q);
    if (std::optional<ReduceDir> D = fromSpelling<ReduceDir>(S))
      R.Dir = *D;
    else
      fail("cp.reduce.async.bulk has no direction '" + S + "'");
    bool Global = R.Dir == ReduceDir::SharedCtaToGlobal;
    completion(Q, ptxlint::build::completion(R.Dir));
    R.Op = redOp(Q);
    std::optional<RedType> Type = fromSpelling<RedType>(Q.G[GType]);
    if (!Type || Q.G[GType].empty())
      fail("missing element type");
    R.Type = *Type;
    bool Want = needsNoftz(R.Op, R.Type);
    if (Q.has(GNoftz) != Want)
      fail(Want ? std::string(spelling(R.Op)) + spelling(R.Type) + " needs " + spelling(Flag::Noftz)
                : std::string(spelling(Flag::Noftz)) + " does not go with " + spelling(R.Op) +
                      spelling(R.Type));
    if (Q.has(GCacheHint) && !Global)
      fail(needs(Flag::CacheHint, "a .global state space"));
    R.Dst = nextAddress();
    R.Src = nextAddress();
    R.Size = nextValue();
    if (!Global)
      R.Mbar = nextAddress();
    if (Q.has(GCacheHint))
      R.CachePolicy = nextValue();
    end();
    return R;
  }

  CpAsyncBulkPrefetch prefetch(const Quals &Q) {
    only(Q, {GLevel, GCacheHint}, instructionName<CpAsyncBulkPrefetch>());
    if (!Q.has(GLevel) || spaces(Q) != spelling(PrefetchDir::Global))
      fail(writtenAs<CpAsyncBulkPrefetch>(spelling(PrefetchDir::Global)));
    CpAsyncBulkPrefetch P;
    P.Src = nextAddress();
    P.Size = nextValue();
    if (Q.has(GCacheHint))
      P.CachePolicy = nextValue();
    end();
    return P;
  }

  CpAsyncBulkTensor bulkTensor(const Quals &Q) {
    only(Q, {GDim, GLoadMode, GCompletion, GMulticast, GCtaGroup, GCacheHint},
         instructionName<CpAsyncBulkTensor>());
    CpAsyncBulkTensor T;
    T.Dim = dim(Q);
    T.Mode = loadMode(Q);
    std::string S = spaces(Q);
    if (std::optional<TensorDir> D = fromSpelling<TensorDir>(S))
      T.Dir = *D;
    else
      fail("cp.async.bulk.tensor has no direction '" + S + "'");
    bool Store = T.Dir == TensorDir::SharedCtaToGlobal;
    completion(Q, ptxlint::build::completion(T.Dir));
    if (Q.has(GMulticast) && T.Dir != TensorDir::GlobalToSharedCluster)
      fail(needs(Flag::Multicast, spelling(TensorDir::GlobalToSharedCluster)));
    if (Q.has(GCtaGroup) && Store)
      fail(std::string(Q.G[GCtaGroup]) + " needs the mbarrier completion");
    if (Q.has(GCtaGroup))
      T.Group = fromSpelling<CtaGroup>(Q.G[GCtaGroup]).value_or(CtaGroup::None);
    if (Store) {
      T.Tensor = tensor(at(NextOp++));
      T.Shared = nextAddress();
    } else {
      T.Shared = nextAddress();
      T.Tensor = tensor(at(NextOp++));
      T.Mbar = nextAddress();
      if (isLoadInfoMode(T.Mode) && NextOp < count() &&
          at(NextOp).Kind == OperandKind::Vector)
        T.Im2colInfo = vector(at(NextOp++));
      if (Q.has(GMulticast))
        T.CtaMask = nextValue();
    }
    if (Q.has(GCacheHint))
      T.CachePolicy = nextValue();
    end();
    return T;
  }

  CpReduceAsyncBulkTensor reduceTensor(const Quals &Q) {
    constexpr ReduceTensorDir Dir = ReduceTensorDir::SharedCtaToGlobal; // its one
    only(Q, {GDim, GLoadMode, GCompletion, GRedOp, GCacheHint},
         instructionName<CpReduceAsyncBulkTensor>());
    if (spaces(Q) != spelling(Dir))
      fail(std::string(instructionName<CpReduceAsyncBulkTensor>()) + " is written " +
           spelling(Dir));
    completion(Q, ptxlint::build::completion(Dir));
    CpReduceAsyncBulkTensor R;
    R.Dim = dim(Q);
    R.Mode = loadMode(Q);
    R.Op = redOp(Q);
    R.Tensor = tensor(at(NextOp++));
    R.Src = nextAddress();
    if (Q.has(GCacheHint))
      R.CachePolicy = nextValue();
    end();
    return R;
  }

  CpAsyncBulkPrefetchTensor prefetchTensor(const Quals &Q) {
    only(Q, {GDim, GLevel, GLoadMode, GCacheHint},
         instructionName<CpAsyncBulkPrefetchTensor>());
    if (!Q.has(GLevel) || spaces(Q) != spelling(PrefetchTensorDir::Global))
      fail(writtenAs<CpAsyncBulkPrefetchTensor>(spelling(PrefetchTensorDir::Global)));
    CpAsyncBulkPrefetchTensor P;
    P.Dim = dim(Q);
    P.Mode = loadMode(Q);
    P.Tensor = tensor(at(NextOp++));
    if (isLoadInfoMode(P.Mode) && NextOp < count() &&
        at(NextOp).Kind == OperandKind::Vector)
      P.Im2colInfo = vector(at(NextOp++));
    if (Q.has(GCacheHint))
      P.CachePolicy = nextValue();
    end();
    return P;
  }
};

} // namespace

std::optional<Inst> decode(const Instruction &I, std::string *Error,
                           const SymbolTable *Symbols, int32_t Function) {
  try {
    Decoder D{I, Symbols, Function};
    return D.run();
  } catch (const Failure &F) {
    if (Error)
      *Error = F.Msg;
    return std::nullopt;
  }
}

std::optional<Inst> parseInst(std::string_view Text, std::string *Error) {
  std::string Src = ".entry ptxlint_parse()\n{\n";
  Src += Text;
  Src += "\n}\n";
  SourceBuffer Buf("<inst>", std::move(Src));
  DiagnosticEngine Diags;
  Module M = parseModule(Buf, Diags);
  if (!Diags.diagnostics().empty()) {
    if (Error)
      *Error = Diags.diagnostics().front().Message;
    return std::nullopt;
  }
  for (const Statement &S : M.Statements)
    if (S.Kind == StatementKind::Instruction) {
      if (S.ParsedIndex < 0) {
        if (Error)
          *Error = "not an instruction of the async-copy family";
        return std::nullopt;
      }
      return decode(M.Instructions[size_t(S.ParsedIndex)], Error);
    }
  if (Error)
    *Error = "no instruction";
  return std::nullopt;
}

} // namespace build
} // namespace ptxlint
