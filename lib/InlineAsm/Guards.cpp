//===- Guards.cpp - What the #if conditions around a statement admit ------===//

#include "InlineAsm/Guards.h"

#include <algorithm>
#include <cctype>

namespace ptxlint {
namespace inlineasm {
namespace {

/// A lower bound on each of __CUDA_ARCH__ (900), the target variant and
/// the PTX version (86); 0 / Base: the guard says nothing.
struct Bound {
  unsigned Arch = 0;
  TargetVariant Variant = TargetVariant::Base;
  unsigned Ptx = 0;
  bool Exact = false; ///< exactly that chip (__CUDA_ARCH_FEAT_SM101_ALL)
  uint32_t ArchAt = 0, PtxAt = 0;
  bool operator==(const Bound &O) const {
    return Arch == O.Arch && Variant == O.Variant && Ptx == O.Ptx &&
           Exact == O.Exact;
  }
};

/// The alternatives of a condition; empty: it is false. {Bound{}} is "true
/// or unknown", which narrows nothing.
using Alts = std::vector<Bound>;

const Alts Anything = {Bound{}};
constexpr size_t MaxAlternatives = 8;

Alts conj(const Alts &A, const Alts &B) {
  Alts Out;
  for (const Bound &X : A)
    for (const Bound &Y : B) {
      Bound M = X;
      if (Y.Arch > M.Arch || (Y.Exact && Y.Arch == M.Arch)) {
        M.Arch = Y.Arch;
        M.Exact = Y.Exact;
        M.ArchAt = Y.ArchAt;
      }
      if (Y.Variant != TargetVariant::Base)
        M.Variant = Y.Variant;
      if (Y.Ptx > M.Ptx) {
        M.Ptx = Y.Ptx;
        M.PtxAt = Y.PtxAt;
      }
      if (std::find(Out.begin(), Out.end(), M) == Out.end())
        Out.push_back(M);
    }
  return Out.size() > MaxAlternatives ? Anything : Out;
}

Alts disj(Alts A, const Alts &B) {
  for (const Bound &Y : B)
    if (std::find(A.begin(), A.end(), Y) == A.end())
      A.push_back(Y);
  return A.size() > MaxAlternatives ? Anything : A;
}

struct Tok {
  std::string Text;
  bool Number = false;
};

std::vector<Tok> tokenize(std::string_view S) {
  std::vector<Tok> Out;
  for (size_t P = 0; P < S.size();) {
    char C = S[P];
    if (std::isspace(static_cast<unsigned char>(C))) {
      ++P;
      continue;
    }
    size_t Q = P + 1;
    bool Num = std::isdigit(static_cast<unsigned char>(C));
    if (std::isalnum(static_cast<unsigned char>(C)) || C == '_') {
      while (Q < S.size() &&
             (std::isalnum(static_cast<unsigned char>(S[Q])) || S[Q] == '_'))
        ++Q;
    } else if (Q < S.size() &&
               ((C == '&' && S[Q] == '&') || (C == '|' && S[Q] == '|') ||
                ((C == '>' || C == '<' || C == '=' || C == '!') && S[Q] == '='))) {
      ++Q;
    }
    Out.push_back({std::string(S.substr(P, Q - P)), Num});
    P = Q;
  }
  return Out;
}

/// Integer value of a pp-number: 900, 900L, 0x384.
std::optional<unsigned> number(const std::string &S) {
  char *End = nullptr;
  unsigned long V = std::strtoul(S.c_str(), &End, 0);
  while (End && (*End == 'u' || *End == 'U' || *End == 'l' || *End == 'L'))
    ++End;
  if (!End || *End)
    return std::nullopt;
  return unsigned(V);
}

class Evaluator {
public:
  Evaluator(const GuardMacroMap &Macros, uint32_t At)
      : Macros(Macros), At(At) {}

  Alts run(std::string_view Text, bool Negated) {
    Toks = tokenize(Text);
    K = 0;
    Alts R = parseOr(Negated);
    return K == Toks.size() ? R : Anything;
  }
  Alts runDefined(const std::string &Name, bool Negated) {
    return defined(Name, Negated);
  }

private:
  bool accept(const char *S) {
    if (K < Toks.size() && Toks[K].Text == S) {
      ++K;
      return true;
    }
    return false;
  }

  Alts parseOr(bool Neg) {
    Alts L = parseAnd(Neg);
    while (accept("||")) {
      Alts R = parseAnd(Neg);
      L = Neg ? conj(L, R) : disj(L, R);
    }
    return L;
  }
  Alts parseAnd(bool Neg) {
    Alts L = parseUnary(Neg);
    while (accept("&&")) {
      Alts R = parseUnary(Neg);
      L = Neg ? disj(L, R) : conj(L, R);
    }
    return L;
  }

  Alts parseUnary(bool Neg) {
    if (K >= Toks.size())
      return Anything;
    if (accept("!"))
      return parseUnary(!Neg);
    if (accept("(")) {
      Alts R = parseOr(Neg);
      accept(")");
      return R;
    }
    const Tok T = Toks[K++];
    if (T.Number) {
      std::optional<unsigned> V = number(T.Text);
      if (!V)
        return Anything;
      return (*V != 0) != Neg ? Anything : Alts{};
    }
    if (T.Text == "defined") {
      bool Paren = accept("(");
      std::string Name = K < Toks.size() ? Toks[K++].Text : std::string();
      if (Paren)
        accept(")");
      return defined(Name, Neg);
    }
    if (accept("(")) { // a function-like macro
      for (unsigned Depth = 1; K < Toks.size() && Depth; ++K)
        Depth += Toks[K].Text == "(" ? 1 : Toks[K].Text == ")" ? -1 : 0;
      // nvcc is not NVHPC: the alternative it guards is not ours.
      if (T.Text == "_CCCL_CUDA_COMPILER")
        return Neg ? Anything : Alts{};
      return Anything;
    }
    static const char *const Ops[] = {">=", ">", "<=", "<", "==", "!="};
    for (const char *Op : Ops)
      if (K + 1 < Toks.size() && Toks[K].Text == Op && Toks[K + 1].Number) {
        K += 2;
        std::optional<unsigned> V = number(Toks[K - 1].Text);
        return V ? compare(T.Text, Neg ? negate(Op) : Op, *V) : Anything;
      }
    return Neg ? Anything : named(T.Text);
  }

  static std::string negate(std::string_view Op) {
    if (Op == ">=") return "<";
    if (Op == ">") return "<=";
    if (Op == "<=") return ">";
    if (Op == "<") return ">=";
    if (Op == "==") return "!=";
    return "==";
  }

  /// NAME op V, where op is already negated when needed.
  Alts compare(const std::string &Name, std::string_view Op, unsigned V) {
    unsigned Low = Op == ">=" || Op == "==" ? V : Op == ">" ? V + 1 : 0;
    if (Low == 0)
      return Anything; // an upper bound says nothing about the lowest
    Bound B;
    if (Name == "__CUDA_ARCH__" || Name == "__CUDA_ARCH_SPECIFIC__" ||
        Name == "__CUDA_ARCH_FAMILY_SPECIFIC__") {
      B.Arch = Low;
      B.ArchAt = At;
      B.Variant = Name == "__CUDA_ARCH__"          ? TargetVariant::Base
                  : Name == "__CUDA_ARCH_SPECIFIC__" ? TargetVariant::Arch
                                                     : TargetVariant::Family;
    } else if (Name == "__cccl_ptx_isa") {
      B.Ptx = Low / 10; // 860 -> 8.6
      B.PtxAt = At;
    } else {
      return Anything;
    }
    return {B};
  }

  Alts defined(const std::string &Name, bool Neg) {
    if (Neg)
      return Anything;
    if (Name == "__CUDA_ARCH_SPECIFIC__" || Name == "__CUDA_ARCH_FAMILY_SPECIFIC__") {
      Bound B;
      B.Variant = Name == "__CUDA_ARCH_SPECIFIC__" ? TargetVariant::Arch
                                                 : TargetVariant::Family;
      B.ArchAt = At;
      return {B};
    }
    return named(Name);
  }

  /// A macro tested for being defined or non-zero.
  Alts named(const std::string &Name) {
    // __CUDA_ARCH_FEAT_SM90_ALL, __CUDA_ARCH_FEAT_SM100_ALL
    constexpr std::string_view Feat = "__CUDA_ARCH_FEAT_SM";
    if (Name.compare(0, Feat.size(), Feat) == 0 &&
        Name.size() > Feat.size() + 4 &&
        Name.compare(Name.size() - 4, 4, "_ALL") == 0) {
      if (std::optional<unsigned> N = number(
              Name.substr(Feat.size(), Name.size() - Feat.size() - 4))) {
        Bound B;
        B.Arch = *N * 10;
        B.Variant = TargetVariant::Arch;
        B.Exact = true;
        B.ArchAt = At;
        return {B};
      }
    }
    for (const auto &[Macro, Value] : Macros) {
      if (Macro != Name)
        continue;
      Bound B;
      if (std::optional<Target> T = parseTarget(Value)) {
        B.Arch = T->Number * 10;
        B.Variant = T->Variant;
        B.ArchAt = At;
      } else if (std::optional<PtxVersion> P = parsePtxVersion(Value)) {
        B.Ptx = P->key();
        B.PtxAt = At;
      }
      return {B};
    }
    return Anything;
  }

  const GuardMacroMap &Macros;
  uint32_t At;
  std::vector<Tok> Toks;
  size_t K = 0;
};

/// The lowest known target of the variant with a number of at least Arch/10
/// (exactly Arch/10 when Exact: sm_101a is its own chip, renamed sm_110a).
std::optional<std::string> lowestTarget(unsigned Arch, TargetVariant V,
                                        bool Exact) {
  if (Exact) {
    std::optional<Target> T = parseTarget(
        "sm_" + std::to_string(Arch / 10) +
        (V == TargetVariant::Arch ? "a" : V == TargetVariant::Family ? "f" : ""));
    return T ? std::optional<std::string>(T->name()) : std::nullopt;
  }
  for (const Target &T : knownTargets())
    if (T.Number * 10 >= Arch && T.Variant == V && !T.Spelled101)
      return T.name();
  return std::nullopt;
}

} // namespace

std::vector<GuardAlternative>
evaluateGuards(const std::vector<GuardCondition> &Guards,
               const GuardMacroMap &Macros) {
  Alts All = Anything;
  for (const GuardCondition &G : Guards) {
    if (G.Text.empty())
      continue;
    Evaluator E(Macros, G.Offset);
    Alts A = G.IfDef ? E.runDefined(G.Text, G.Negated) : E.run(G.Text, G.Negated);
    All = conj(All, A);
  }
  std::vector<GuardAlternative> Out;
  for (const Bound &B : All) {
    GuardAlternative G;
    if (B.Arch)
      G.Target = lowestTarget(B.Arch, B.Variant, B.Exact);
    if (G.Target)
      G.TargetGuard = B.ArchAt;
    if (B.Ptx) {
      G.Ptx = PtxVersion{B.Ptx / 10, B.Ptx % 10};
      G.PtxGuard = B.PtxAt;
      // A target needs a PTX version that knows it: "__cccl_ptx_isa >= 800"
      // around an sm_100a-only branch admits PTX 8.6 at the lowest.
      if (std::optional<Target> T = G.Target ? parseTarget(*G.Target) : std::nullopt)
        if (G.Ptx < T->minPtx())
          G.Ptx = T->minPtx();
    }
    Out.push_back(std::move(G));
  }
  if (Out.empty()) // a condition that is never true: judge without guards
    Out.push_back(GuardAlternative{});
  return Out;
}

} // namespace inlineasm
} // namespace ptxlint
