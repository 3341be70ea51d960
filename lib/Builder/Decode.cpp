//===- Decode.cpp - Parsed instructions back to builder structs -----------===//

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
                   const char *Name) {
    for (unsigned G = 0; G < NumGroups; ++G) {
      if (!Q.has(Group(G)))
        continue;
      bool Ok = false;
      for (Group A : Allowed)
        Ok |= A == G;
      if (!Ok)
        fail("qualifier '" + std::string(Q.G[G]) + "' is not part of " + Name);
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
  static void completion(const Quals &Q, bool Mbarrier) {
    const char *Want = Mbarrier ? ".mbarrier::complete_tx::bytes" : ".bulk_group";
    if (Q.G[GCompletion] != Want)
      fail(std::string("this direction completes with ") + Want);
  }
  static bool isLoadInfoMode(LoadMode M) {
    return M == LoadMode::Im2col || M == LoadMode::Im2colW ||
           M == LoadMode::Im2colW128;
  }

  // --- instructions -----------------------------------------------------------
  Inst run() {
    if (I.Opcode != "cp")
      fail("not an instruction of the async-copy family");
    auto M = [&](size_t K) -> std::string_view {
      return K < I.Modifiers.size() ? I.Modifiers[K].Text : std::string_view();
    };
    Inst R;
    if (I.Guard) {
      Value G = reg(std::string(I.Guard->Name));
      G.Negated = I.Guard->Negated;
      R.Guard = G;
    }
    if (M(0) == ".reduce" && M(1) == ".async" && M(2) == ".bulk") {
      if (M(3) == ".tensor")
        R.Op = reduceTensor(quals(4));
      else
        R.Op = reduce(quals(3));
      return R;
    }
    if (M(0) != ".async")
      fail("not an instruction of the async-copy family");
    if (M(1) == ".bulk") {
      if (M(2) == ".prefetch") {
        if (M(3) == ".tensor")
          R.Op = prefetchTensor(quals(4));
        else
          R.Op = prefetch(quals(3));
      } else if (M(2) == ".tensor") {
        R.Op = bulkTensor(quals(3));
      } else if (M(2) == ".commit_group") {
        only(quals(3), {}, "cp.async.bulk.commit_group");
        end();
        R.Op = CpAsyncBulkCommitGroup{};
      } else if (M(2) == ".wait_group") {
        Quals Q = quals(3);
        only(Q, {GRead}, "cp.async.bulk.wait_group");
        CpAsyncBulkWaitGroup W;
        W.Read = Q.has(GRead);
        W.N = groupCount();
        R.Op = W;
      } else {
        R.Op = bulk(quals(2));
      }
      return R;
    }
    if (M(1) == ".commit_group") {
      only(quals(2), {}, "cp.async.commit_group");
      end();
      R.Op = CpAsyncCommitGroup{};
    } else if (M(1) == ".wait_group") {
      only(quals(2), {}, "cp.async.wait_group");
      R.Op = CpAsyncWaitGroup{groupCount()};
    } else if (M(1) == ".wait_all") {
      only(quals(2), {}, "cp.async.wait_all");
      end();
      R.Op = CpAsyncWaitAll{};
    } else {
      R.Op = cpAsync(quals(1));
    }
    return R;
  }

  int64_t groupCount() {
    Value N = nextValue();
    if (!N.IsImm)
      fail("the group count N must be an integer constant");
    end();
    return N.Imm;
  }

  CpAsync cpAsync(const Quals &Q) {
    only(Q, {GCache, GCacheHint, GPrefetch}, "cp.async");
    CpAsync C;
    if (!Q.has(GCache))
      fail("missing cache operator .ca or .cg");
    C.Cache = fromSpelling<CacheOp>(Q.G[GCache]).value_or(CacheOp::CG);
    std::string S = spaces(Q);
    if (S == ".shared.global")
      C.DstSharedCta = false;
    else if (S == ".shared::cta.global")
      C.DstSharedCta = true;
    else
      fail("cp.async copies .global to .shared{::cta}, not '" + S + "'");
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
    only(Q, {GCompletion, GMulticast, GCacheHint, GCpMask}, "cp.async.bulk");
    CpAsyncBulk B;
    std::string S = spaces(Q);
    if (std::optional<BulkDir> D = fromSpelling<BulkDir>(S))
      B.Dir = *D;
    else
      fail("cp.async.bulk has no direction '" + S + "'");
    bool Store = B.Dir == BulkDir::SharedCtaToGlobal;
    completion(Q, !Store);
    if (Q.has(GMulticast) && B.Dir != BulkDir::GlobalToSharedCluster)
      fail(".multicast::cluster needs .shared::cluster.global");
    if (Q.has(GCpMask) && !Store)
      fail(".cp_mask needs .global.shared::cta");
    if (Q.has(GCacheHint) && B.Dir == BulkDir::SharedCtaToSharedCluster)
      fail(".L2::cache_hint needs a .global state space");
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
         "cp.reduce.async.bulk");
    CpReduceAsyncBulk R;
    std::string S = spaces(Q);
    if (std::optional<ReduceDir> D = fromSpelling<ReduceDir>(S))
      R.Dir = *D;
    else
      fail("cp.reduce.async.bulk has no direction '" + S + "'");
    bool Global = R.Dir == ReduceDir::SharedCtaToGlobal;
    completion(Q, !Global);
    R.Op = redOp(Q);
    std::optional<RedType> Type = fromSpelling<RedType>(Q.G[GType]);
    if (!Type || Q.G[GType].empty())
      fail("missing element type");
    R.Type = *Type;
    bool Want = R.Op == RedOp::Add &&
                (R.Type == RedType::F16 || R.Type == RedType::BF16);
    if (Q.has(GNoftz) != Want)
      fail(Want ? ".add.f16/.bf16 needs .noftz" : ".noftz only goes with .add.f16/.bf16");
    if (Q.has(GCacheHint) && !Global)
      fail(".L2::cache_hint needs a .global state space");
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
    only(Q, {GLevel, GCacheHint}, "cp.async.bulk.prefetch");
    if (!Q.has(GLevel) || spaces(Q) != ".global")
      fail("cp.async.bulk.prefetch is written .L2.global");
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
         "cp.async.bulk.tensor");
    CpAsyncBulkTensor T;
    T.Dim = dim(Q);
    T.Mode = loadMode(Q);
    std::string S = spaces(Q);
    if (std::optional<TensorDir> D = fromSpelling<TensorDir>(S))
      T.Dir = *D;
    else
      fail("cp.async.bulk.tensor has no direction '" + S + "'");
    bool Store = T.Dir == TensorDir::SharedCtaToGlobal;
    completion(Q, !Store);
    if (Q.has(GMulticast) && T.Dir != TensorDir::GlobalToSharedCluster)
      fail(".multicast::cluster needs .shared::cluster.global");
    if (Q.has(GCtaGroup) && Store)
      fail(".cta_group needs the mbarrier completion");
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
    only(Q, {GDim, GLoadMode, GCompletion, GRedOp, GCacheHint},
         "cp.reduce.async.bulk.tensor");
    if (spaces(Q) != ".global.shared::cta")
      fail("cp.reduce.async.bulk.tensor is written .global.shared::cta");
    completion(Q, false);
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
         "cp.async.bulk.prefetch.tensor");
    if (!Q.has(GLevel) || spaces(Q) != ".global")
      fail("cp.async.bulk.prefetch.tensor is written .L2.global");
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
