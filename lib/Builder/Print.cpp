//===- Print.cpp - Canonical PTX text of builder instructions -------------===//
//
// The qualifier order is documented in include/ptxlint/Builder.h.
//
//===----------------------------------------------------------------------===//

#include "ModuleText.h"
#include "Slots.h"
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

std::string text(const Address &A) { return adr(A); }
std::string text(const Value &V) { return val(V); }
std::string text(const TensorRef &T) { return tensor(T); }
std::string text(const std::vector<Value> &Vs) { return vec(Vs); }
std::string text(unsigned V) { return std::to_string(V); }
std::string text(int64_t V) { return std::to_string(V); }
template <typename V> std::string text(const std::optional<V> &F) { return text(*F); }

/// The qualifiers of each instruction, in the order Builder.h documents;
/// the operands follow in the order of the form's slots (Slots.h).
struct Printer {
  std::string Q;                 ///< name and qualifiers
  void q(std::string_view S) { Q += S; }
  template <typename T> std::string done(const T &I) const {
    std::string S = Q;
    bool First = true;
    eachOperandField(I, [&](const spec::OperandSpec &, const auto &Field, bool) {
      if (!isSet(Field))
        return;
      S += (First ? " " : ", ") + text(Field);
      First = false;
    });
    return S + ";";
  }

  void operator()(const CpAsync &I) {
    q(instructionName<CpAsync>());
    q(spelling(I.Cache));
    q(spacesOf(I));
    if (I.CachePolicy)
      q(CacheHint);
    q(spelling(I.Prefetch));
  }
  void operator()(const CpAsyncCommitGroup &) { q(instructionName<CpAsyncCommitGroup>()); }
  void operator()(const CpAsyncWaitGroup &) { q(instructionName<CpAsyncWaitGroup>()); }
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
  }
  void operator()(const CpAsyncBulkPrefetch &I) {
    q(instructionName<CpAsyncBulkPrefetch>());
    q(spelling(Flag::L2));
    q(spacesOf(I));
    if (I.CachePolicy)
      q(CacheHint);
  }
  void dim(unsigned D) { Q += dimSpelling(D); }
  void operator()(const CpAsyncBulkTensor &I) {
    q(instructionName<CpAsyncBulkTensor>());
    dim(I.Dim);
    q(spelling(I.Dir));
    q(spelling(I.Mode));
    q(completion(I.Dir));
    if (I.CtaMask)
      q(spelling(Flag::Multicast));
    q(spelling(I.Group));
    if (I.CachePolicy)
      q(CacheHint);
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
  }
  void operator()(const CpAsyncBulkPrefetchTensor &I) {
    q(instructionName<CpAsyncBulkPrefetchTensor>());
    dim(I.Dim);
    q(spelling(Flag::L2));
    q(spacesOf(I));
    q(spelling(I.Mode));
    if (I.CachePolicy)
      q(CacheHint);
  }
  void operator()(const CpAsyncBulkCommitGroup &) { q(instructionName<CpAsyncBulkCommitGroup>()); }
  void operator()(const CpAsyncBulkWaitGroup &I) {
    q(instructionName<CpAsyncBulkWaitGroup>());
    if (I.Read)
      q(spelling(Flag::Read));
  }
};

struct Namer {
  template <typename T> std::string operator()(const T &) { return instructionName<T>(); }
};

/// Collects (register, type) pairs in first-use order; each slot's type is
/// the first register type its table entry takes (an address: .b64).
struct Uses {
  std::vector<std::pair<std::string, std::string>> Out;
  void add(const Value &V, std::string_view Type) {
    if (V.IsImm || V.Name.empty() || Type.empty() || Type == "any")
      return;
    for (const auto &[N, T] : Out)
      if (N == V.Name)
        return;
    Out.emplace_back(V.Name, std::string(Type));
  }
  static std::string_view first(const spec::Words &W) { return W.empty() ? "" : W[0]; }

  void field(const spec::OperandSpec &, const Address &A, bool) { add(A.Base, ".b64"); }
  void field(const spec::OperandSpec &S, const Value &V, bool Pred) {
    add(V, Pred ? ".pred" : first(S.Regs));
  }
  void field(const spec::OperandSpec &S, const TensorRef &T, bool) {
    add(T.Map, ".b64");
    for (const Value &C : T.Coords)
      add(C, first(S.ElemRegs));
  }
  void field(const spec::OperandSpec &S, const std::vector<Value> &Vs, bool) {
    for (const Value &V : Vs)
      add(V, first(S.ElemRegs));
  }
  template <typename V> void field(const spec::OperandSpec &S, const std::optional<V> &F, bool Pred) {
    if (F)
      field(S, *F, Pred);
  }
  void field(const spec::OperandSpec &, unsigned, bool) {}
  void field(const spec::OperandSpec &, int64_t, bool) {}

  template <typename T> void operator()(const T &I) {
    eachOperandField(I, [&](const spec::OperandSpec &S, const auto &F, bool Pred) {
      field(S, F, Pred);
    });
  }
};

} // namespace

std::string instructionName(const Inst &I) { return std::visit(Namer{}, I.Op); }

std::string print(const Inst &I) {
  std::string S = std::visit(
      [](const auto &Op) {
        Printer P;
        P(Op);
        return P.done(Op);
      },
      I.Op);
  if (I.Guard)
    S = "@" + val(*I.Guard) + " " + S;
  return S;
}

std::vector<std::pair<std::string, std::string>> registerUses(const Inst &I) {
  Uses U;
  if (I.Guard)
    U.add(*I.Guard, ".pred");
  std::visit(U, I.Op);
  return U.Out;
}

} // namespace build
} // namespace ptxlint
