//===- Print.cpp - Canonical PTX text of builder instructions -------------===//
//
// The qualifier order is documented in include/ptxlint/Builder.h.
//
//===----------------------------------------------------------------------===//

#include "ModuleText.h"
#include "ptxlint/Builder.h"
#include "ptxlint/SpecTables.h"

#include <algorithm>
#include <type_traits>

namespace ptxlint {
namespace build {

bool CpAsync::operator==(const CpAsync &O) const {
  return Cache == O.Cache && DstSharedCta == O.DstSharedCta &&
         Prefetch == O.Prefetch && Dst == O.Dst && Src == O.Src &&
         CpSize == O.CpSize && SrcSize == O.SrcSize &&
         IgnoreSrc == O.IgnoreSrc && CachePolicy == O.CachePolicy;
}
bool CpAsyncBulk::operator==(const CpAsyncBulk &O) const {
  return Dir == O.Dir && Dst == O.Dst && Src == O.Src && Size == O.Size &&
         Mbar == O.Mbar && CtaMask == O.CtaMask &&
         CachePolicy == O.CachePolicy && ByteMask == O.ByteMask;
}
bool CpReduceAsyncBulk::operator==(const CpReduceAsyncBulk &O) const {
  return Dir == O.Dir && Op == O.Op && Type == O.Type && Dst == O.Dst &&
         Src == O.Src && Size == O.Size && Mbar == O.Mbar &&
         CachePolicy == O.CachePolicy;
}
bool CpAsyncBulkPrefetch::operator==(const CpAsyncBulkPrefetch &O) const {
  return Src == O.Src && Size == O.Size && CachePolicy == O.CachePolicy;
}
bool CpAsyncBulkTensor::operator==(const CpAsyncBulkTensor &O) const {
  return Dir == O.Dir && Dim == O.Dim && Mode == O.Mode &&
         Shared == O.Shared && Tensor == O.Tensor && Mbar == O.Mbar &&
         Im2colInfo == O.Im2colInfo && CtaMask == O.CtaMask &&
         Group == O.Group && CachePolicy == O.CachePolicy;
}
bool CpReduceAsyncBulkTensor::operator==(const CpReduceAsyncBulkTensor &O) const {
  return Dim == O.Dim && Mode == O.Mode && Op == O.Op && Tensor == O.Tensor &&
         Src == O.Src && CachePolicy == O.CachePolicy;
}
bool CpAsyncBulkPrefetchTensor::operator==(const CpAsyncBulkPrefetchTensor &O) const {
  return Dim == O.Dim && Mode == O.Mode && Tensor == O.Tensor &&
         Im2colInfo == O.Im2colInfo && CachePolicy == O.CachePolicy;
}

bool needsNoftz(RedOp Op, RedType T) {
  // A rule of the table whose `if` is the redOp and type and whose need is
  // .noftz ({if: [.add, .f16], need_one_of: [[.noftz]]}).
  std::string_view Words[] = {spelling(Op), spelling(T)};
  for (const spec::RuleSpec &R : tableOf<CpReduceAsyncBulk>().Rules)
    if (R.NeedOneOf.size() == 1 && R.NeedOneOf[0].size() == 1 &&
        R.NeedOneOf[0][0] == spelling(Flag::Noftz) && !R.If.empty() &&
        std::all_of(R.If.begin(), R.If.end(), [&](std::string_view W) {
          return W == Words[0] || W == Words[1];
        }))
      return true;
  return false;
}

namespace {

const char *const CacheHint = spelling(Flag::CacheHint);

std::string val(const Value &V) {
  if (V.IsImm)
    return std::to_string(V.Imm);
  return (V.Negated ? "!" : "") + V.Name;
}
std::string adr(const Address &A) {
  std::string S = "[" + val(A.Base);
  if (A.Offset > 0)
    S += "+" + std::to_string(A.Offset);
  else if (A.Offset < 0)
    S += "-" + std::to_string(-A.Offset);
  return S + "]";
}
std::string vec(const std::vector<Value> &Vs) {
  std::string S = "{";
  for (size_t K = 0; K < Vs.size(); ++K)
    S += (K ? ", " : "") + val(Vs[K]);
  return S + "}";
}
std::string tensor(const TensorRef &T) {
  return "[" + val(T.Map) + ", " + vec(T.Coords) + "]";
}

struct Printer {
  std::string Q;                 ///< name and qualifiers
  std::vector<std::string> Ops;  ///< operands
  void q(const char *S) { Q += S; }
  void op(std::string S) { Ops.push_back(std::move(S)); }
  std::string done() const {
    std::string S = Q;
    for (size_t K = 0; K < Ops.size(); ++K)
      S += (K ? ", " : " ") + Ops[K];
    return S + ";";
  }

  void operator()(const CpAsync &I) {
    q(instructionName<CpAsync>());
    q(spelling(I.Cache));
    q(spelling(I.DstSharedCta ? CpAsyncDir::SharedCtaGlobal : CpAsyncDir::SharedGlobal));
    if (I.CachePolicy)
      q(CacheHint);
    q(spelling(I.Prefetch));
    op(adr(I.Dst));
    op(adr(I.Src));
    op(std::to_string(I.CpSize));
    if (I.SrcSize)
      op(val(*I.SrcSize));
    if (I.IgnoreSrc)
      op(val(*I.IgnoreSrc));
    if (I.CachePolicy)
      op(val(*I.CachePolicy));
  }
  void operator()(const CpAsyncCommitGroup &) { q(instructionName<CpAsyncCommitGroup>()); }
  void operator()(const CpAsyncWaitGroup &I) {
    q(instructionName<CpAsyncWaitGroup>());
    op(std::to_string(I.N));
  }
  void operator()(const CpAsyncWaitAll &) { q(instructionName<CpAsyncWaitAll>()); }
  void operator()(const CpAsyncBulk &I) {
    q(instructionName<CpAsyncBulk>());
    q(spelling(I.Dir));
    q(completion(I.Dir));
    if (I.CtaMask)
      q(spelling(Flag::Multicast));
    if (I.CachePolicy)
      q(CacheHint);
    if (I.ByteMask)
      q(spelling(Flag::CpMask));
    op(adr(I.Dst));
    op(adr(I.Src));
    op(val(I.Size));
    if (I.Mbar)
      op(adr(*I.Mbar));
    if (I.CtaMask)
      op(val(*I.CtaMask));
    if (I.CachePolicy)
      op(val(*I.CachePolicy));
    if (I.ByteMask)
      op(val(*I.ByteMask));
  }
  void operator()(const CpReduceAsyncBulk &I) {
    q(instructionName<CpReduceAsyncBulk>());
    q(spelling(I.Dir));
    q(completion(I.Dir));
    q(spelling(I.Op));
    if (needsNoftz(I.Op, I.Type))
      q(spelling(Flag::Noftz));
    q(spelling(I.Type));
    if (I.CachePolicy)
      q(CacheHint);
    op(adr(I.Dst));
    op(adr(I.Src));
    op(val(I.Size));
    if (I.Mbar)
      op(adr(*I.Mbar));
    if (I.CachePolicy)
      op(val(*I.CachePolicy));
  }
  void operator()(const CpAsyncBulkPrefetch &I) {
    q(instructionName<CpAsyncBulkPrefetch>());
    q(spelling(Flag::L2));
    q(spelling(PrefetchDir::Global));
    if (I.CachePolicy)
      q(CacheHint);
    op(adr(I.Src));
    op(val(I.Size));
    if (I.CachePolicy)
      op(val(*I.CachePolicy));
  }
  void dim(unsigned D) { Q += "." + std::to_string(D) + "d"; }
  void operator()(const CpAsyncBulkTensor &I) {
    q(instructionName<CpAsyncBulkTensor>());
    dim(I.Dim);
    q(spelling(I.Dir));
    q(spelling(I.Mode));
    bool Store = I.Dir == TensorDir::SharedCtaToGlobal;
    q(completion(I.Dir));
    if (I.CtaMask)
      q(spelling(Flag::Multicast));
    q(spelling(I.Group));
    if (I.CachePolicy)
      q(CacheHint);
    if (Store) {
      op(tensor(I.Tensor));
      op(adr(I.Shared));
    } else {
      op(adr(I.Shared));
      op(tensor(I.Tensor));
      if (I.Mbar)
        op(adr(*I.Mbar));
      if (!I.Im2colInfo.empty())
        op(vec(I.Im2colInfo));
      if (I.CtaMask)
        op(val(*I.CtaMask));
    }
    if (I.CachePolicy)
      op(val(*I.CachePolicy));
  }
  void operator()(const CpReduceAsyncBulkTensor &I) {
    constexpr ReduceTensorDir Dir = ReduceTensorDir::SharedCtaToGlobal; // its one
    q(instructionName<CpReduceAsyncBulkTensor>());
    dim(I.Dim);
    q(spelling(Dir));
    q(spelling(I.Mode));
    q(completion(Dir));
    q(spelling(I.Op));
    if (I.CachePolicy)
      q(CacheHint);
    op(tensor(I.Tensor));
    op(adr(I.Src));
    if (I.CachePolicy)
      op(val(*I.CachePolicy));
  }
  void operator()(const CpAsyncBulkPrefetchTensor &I) {
    q(instructionName<CpAsyncBulkPrefetchTensor>());
    dim(I.Dim);
    q(spelling(Flag::L2));
    q(spelling(PrefetchTensorDir::Global));
    q(spelling(I.Mode));
    if (I.CachePolicy)
      q(CacheHint);
    op(tensor(I.Tensor));
    if (!I.Im2colInfo.empty())
      op(vec(I.Im2colInfo));
    if (I.CachePolicy)
      op(val(*I.CachePolicy));
  }
  void operator()(const CpAsyncBulkCommitGroup &) { q(instructionName<CpAsyncBulkCommitGroup>()); }
  void operator()(const CpAsyncBulkWaitGroup &I) {
    q(instructionName<CpAsyncBulkWaitGroup>());
    if (I.Read)
      q(spelling(Flag::Read));
    op(std::to_string(I.N));
  }
};

struct Namer {
  template <typename T> std::string operator()(const T &) { return instructionName<T>(); }
};

/// Collects (register, type) pairs in first-use order.
struct Uses {
  std::vector<std::pair<std::string, std::string>> Out;
  void add(const Value &V, const char *Type) {
    if (V.IsImm || V.Name.empty())
      return;
    for (const auto &[N, T] : Out)
      if (N == V.Name)
        return;
    Out.emplace_back(V.Name, Type);
  }
  void add(const std::optional<Value> &V, const char *Type) {
    if (V)
      add(*V, Type);
  }
  void add(const Address &A) { add(A.Base, ".b64"); }
  void add(const std::optional<Address> &A) {
    if (A)
      add(*A);
  }
  void add(const TensorRef &T) {
    add(T.Map, ".b64");
    for (const Value &C : T.Coords)
      add(C, ".b32");
  }
  void add16(const std::vector<Value> &Vs) {
    for (const Value &V : Vs)
      add(V, ".b16");
  }

  void operator()(const CpAsync &I) {
    add(I.Dst);
    add(I.Src);
    add(I.SrcSize, ".b32");
    add(I.IgnoreSrc, ".pred");
    add(I.CachePolicy, ".b64");
  }
  void operator()(const CpAsyncBulk &I) {
    add(I.Dst);
    add(I.Src);
    add(I.Size, ".b32");
    add(I.Mbar);
    add(I.CtaMask, ".b16");
    add(I.CachePolicy, ".b64");
    add(I.ByteMask, ".b16");
  }
  void operator()(const CpReduceAsyncBulk &I) {
    add(I.Dst);
    add(I.Src);
    add(I.Size, ".b32");
    add(I.Mbar);
    add(I.CachePolicy, ".b64");
  }
  void operator()(const CpAsyncBulkPrefetch &I) {
    add(I.Src);
    add(I.Size, ".b32");
    add(I.CachePolicy, ".b64");
  }
  void operator()(const CpAsyncBulkTensor &I) {
    add(I.Shared);
    add(I.Tensor);
    add(I.Mbar);
    add16(I.Im2colInfo);
    add(I.CtaMask, ".b16");
    add(I.CachePolicy, ".b64");
  }
  void operator()(const CpReduceAsyncBulkTensor &I) {
    add(I.Tensor);
    add(I.Src);
    add(I.CachePolicy, ".b64");
  }
  void operator()(const CpAsyncBulkPrefetchTensor &I) {
    add(I.Tensor);
    add16(I.Im2colInfo);
    add(I.CachePolicy, ".b64");
  }
  template <typename T> void operator()(const T &) {}
};

} // namespace

std::string instructionName(const Inst &I) { return std::visit(Namer{}, I.Op); }

std::string print(const Inst &I) {
  Printer P;
  std::visit(P, I.Op);
  std::string S = P.done();
  if (I.Guard)
    S = "@" + val(*I.Guard) + " " + S;
  return S;
}

std::vector<std::pair<std::string, std::string>> registerUses(const Inst &I) {
  Uses U;
  U.add(I.Guard, ".pred");
  std::visit(U, I.Op);
  return U.Out;
}

} // namespace build
} // namespace ptxlint
