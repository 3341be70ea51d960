//===- OperandDecoder.cpp - Operands of unparsed statements, from text ----===//

#include "Flow/OperandDecoder.h"
#include "Parse/StatementParser.h" // parseIntegerLiteral

namespace ptxlint {
namespace flow {
namespace {

std::string_view trim(std::string_view S, uint32_t &Offset) {
  while (!S.empty() && isSpace(S.front())) {
    S.remove_prefix(1);
    ++Offset;
  }
  while (!S.empty() && isSpace(S.back()))
    S.remove_suffix(1);
  return S;
}

bool parseInt(std::string_view S, int64_t &Out) {
  bool Neg = false;
  while (!S.empty() && isSpace(S.front()))
    S.remove_prefix(1);
  if (!S.empty() && (S[0] == '-' || S[0] == '+')) {
    Neg = S[0] == '-';
    S.remove_prefix(1);
    while (!S.empty() && isSpace(S.front()))
      S.remove_prefix(1);
  }
  while (!S.empty() && isSpace(S.back()))
    S.remove_suffix(1);
  uint64_t V = 0;
  bool Overflow = false;
  if (S.empty() || !parseIntegerLiteral(S, V, Overflow) || Overflow)
    return false;
  Out = Neg ? int64_t(0 - V) : int64_t(V);
  return true;
}

/// Splits S at top-level separators (',' and, if Bar, '|'), skipping
/// comments. Pieces keep their offset relative to S.
template <class Fn>
void splitTop(std::string_view S, bool Bar, Fn &&Piece) {
  int Depth = 0;
  size_t Start = 0;
  for (size_t K = 0; K < S.size(); ++K) {
    char C = S[K];
    if (C == '/' && K + 1 < S.size() && (S[K + 1] == '/' || S[K + 1] == '*')) {
      size_t E = S[K + 1] == '/' ? S.find('\n', K) : S.find("*/", K + 2);
      K = E == std::string_view::npos ? S.size() : E + (S[K + 1] == '*' ? 1 : 0);
      continue;
    }
    if (C == '{') {
      // A vector ("{%r1, ..., %r128}", a tcgen05.ld's destinations) holds no
      // separator of this level: skip to its '}' by memchr when no comment or
      // nested brace is inside.
      size_t Close = S.find('}', K + 1);
      if (Close != std::string_view::npos) {
        std::string_view In = S.substr(K + 1, Close - K - 1);
        if (In.find('{') == std::string_view::npos &&
            In.find('/') == std::string_view::npos) {
          K = Close;
          continue;
        }
      }
      ++Depth;
    } else if (C == '[' || C == '(')
      ++Depth;
    else if (C == ']' || C == '}' || C == ')')
      --Depth;
    else if (Depth == 0 && (C == ',' || (Bar && C == '|'))) {
      Piece(S.substr(Start, K - Start), uint32_t(Start));
      Start = K + 1;
    }
  }
  Piece(S.substr(Start), uint32_t(Start));
}

/// The second predicate of "setp ... p|q": J is at the '|' and moves past q.
std::string_view predicateAfterBar(std::string_view Rest, size_t &J) {
  ++J;
  return nameAfterSpaces(Rest, J);
}

/// Calls Name(E) for each element of a vector operand's inside ("%r1, %r2")
/// that names a register or symbol (not a number).
template <typename Fn> void forEachVectorName(std::string_view Inner, Fn &&Name) {
  splitTop(Inner, true, [&](std::string_view E, uint32_t) {
    uint32_t D = 0;
    E = trim(E, D);
    if (!E.empty() &&
        (E[0] == '%' || (isIdentChar(E[0]) && !(E[0] >= '0' && E[0] <= '9'))))
      Name(E);
  });
}

/// The operand lists nvcc writes for mov/add/mad/cvta, ld.shared and the
/// parameter passing of calls: only names ("%reg", a symbol, an inline-asm
/// .reg), decimal numbers (negative too), "[name]", "[name+-dec]" and
/// "{%a, %b}", no comments. Pushes exactly what decodeOperands' general
/// splitter would and returns true; returns false (having pushed nothing it
/// keeps) otherwise.
bool decodeSimple(std::string_view R, uint32_t HeadEnd, RegNameTest IsReg,
                  NamePool &Names, std::vector<Opnd> &Pool) {
  size_t N = R.size(), K = 0;
  auto Ws = [&] {
    while (K < N && isSpace(R[K]))
      ++K;
  };
  auto AtName = [&] { // a name starts here (not with a digit)
    return K < N && isIdentStart(R[K]);
  };
  auto Ident = [&] { // at a name's first byte: past the name
    size_t E = K + 1;
    while (E < N && isIdentChar(R[E]))
      ++E;
    return E;
  };
  auto Dec = [&](int64_t &V) { // a decimal literal parseInt reads the same
    size_t B = K;
    uint64_t X = 0;
    while (K < N && R[K] >= '0' && R[K] <= '9' && K - B < 18)
      X = X * 10 + uint64_t(R[K++] - '0');
    if (K == B || (K < N && isIdentChar(R[K])) || (R[B] == '0' && K - B > 1))
      return false; // none, a suffix/hex/float/long one, or octal
    V = int64_t(X);
    return true;
  };
  size_t Start = Pool.size();
  auto Fail = [&] {
    Names.drop(); // a vector's names read so far
    Pool.resize(Start);
    return false;
  };
  Ws();
  if (K == N)
    return true;
  for (;;) {
    Opnd &O = Pool.emplace_back(); // filled in place (Fail drops it)
    size_t B = K;
    char C = R[K];
    if (AtName()) {
      K = Ident();
      O.Name = R.substr(B, K - B);
      O.K = C == '%' || IsReg(O.Name) ? Opnd::Reg : Opnd::Sym;
    } else if ((C >= '0' && C <= '9') ||
               (C == '-' && K + 1 < N && R[K + 1] >= '0' && R[K + 1] <= '9')) {
      O.K = Opnd::Imm;
      O.HasValue = true;
      K += C == '-';
      if (!Dec(O.Value))
        return Fail();
      if (C == '-')
        O.Value = -O.Value;
    } else if (C == '[') {
      ++K;
      Ws();
      if (!AtName())
        return Fail();
      size_t NB = K;
      K = Ident();
      O.K = Opnd::Addr;
      O.Name = R.substr(NB, K - NB);
      O.BaseIsReg = R[NB] == '%' || IsReg(O.Name);
      O.HasValue = true;
      Ws();
      if (K < N && (R[K] == '+' || R[K] == '-')) {
        bool Neg = R[K] == '-';
        ++K;
        Ws();
        int64_t V = 0;
        if (!Dec(V))
          return Fail();
        O.Value = Neg ? -V : V;
        Ws();
      }
      if (K == N || R[K] != ']')
        return Fail();
      ++K;
    } else if (C == '{') {
      ++K;
      O.K = Opnd::Vec;
      for (;;) {
        Ws();
        if (K == N || R[K] != '%')
          return Fail();
        size_t EB = K;
        K = Ident();
        Names.push(R.substr(EB, K - EB));
        Ws();
        if (K < N && R[K] == ',') {
          ++K;
          continue;
        }
        if (K < N && R[K] == '}')
          break;
        return Fail();
      }
      O.Regs = Names.finish();
      ++K;
    } else {
      return Fail();
    }
    O.Range = {HeadEnd + uint32_t(B), HeadEnd + uint32_t(K)};
    Ws();
    if (K < N && R[K] != ',')
      return Fail(); // "%tid.x", "p|q", an expression, a comment
    if (K == N)
      return true;
    ++K;
    Ws();
    if (K == N)
      return Fail(); // a trailing empty operand
  }
}

} // namespace

namespace {
/// The names of a vector's inside as nvcc writes it ("%f1, %f2, ...", a
/// wgmma's 64 accumulators), appended to Names: what forEachVectorName()
/// finds there. False, with nothing appended, for anything else (a
/// comment, '|', a number, an empty element): the splitter reads those.
bool plainVectorNames(std::string_view In, std::vector<std::string_view> &Names) {
  size_t Start = Names.size(), N = In.size(), K = 0;
  auto Ws = [&] {
    while (K < N && isSpace(In[K]))
      ++K;
  };
  Ws();
  while (K < N) {
    if (!isIdentStart(In[K]))
      break;
    size_t B = K++;
    while (K < N && isIdentChar(In[K]))
      ++K;
    Names.push_back(In.substr(B, K - B));
    Ws();
    if (K == N)
      return true;
    if (In[K] != ',')
      break;
    ++K;
    Ws();
  }
  if (K == N && Names.size() == Start)
    return true; // "{}" or "{ }"
  Names.resize(Start);
  return false;
}
} // namespace

namespace {
/// S's operands' text: after the head, without the ';'; K: its first byte
/// that is not a space (the size if none).
std::string_view operandsAfterHead(std::string_view Text, const Statement &S, size_t &K) {
  uint32_t HeadEnd = S.HeadBegin + S.HeadSize;
  uint32_t End = S.Range.End;
  if (End > HeadEnd && Text[End - 1] == ';')
    --End;
  std::string_view Rest = Text.substr(HeadEnd, End > HeadEnd ? End - HeadEnd : 0);
  K = 0;
  while (K < Rest.size() && isSpace(Rest[K]))
    ++K;
  return Rest;
}
} // namespace

std::string_view vectorDest(std::string_view Text, const Statement &S) {
  size_t K;
  std::string_view Rest = operandsAfterHead(Text, S, K);
  if (K == Rest.size() || Rest[K] != '{')
    return std::string_view();
  size_t Close = Rest.find('}', K);
  if (Close == std::string_view::npos)
    return std::string_view();
  return Rest.substr(K + 1, Close - K - 1);
}

void scanDest(std::string_view Text, const Statement &S,
              std::vector<std::string_view> &Names) {
  auto Def = [&](std::string_view Name) { Names.push_back(Name); };
  if (std::string_view In = vectorDest(Text, S); In.data()) {
    if (!plainVectorNames(In, Names))
      forEachVectorName(In, Def);
    return;
  }
  size_t K;
  std::string_view Rest = operandsAfterHead(Text, S, K);
  if (K == Rest.size() || Rest[K] == '{')
    return;
  if (!(isIdentChar(Rest[K]) && !(Rest[K] >= '0' && Rest[K] <= '9')))
    return;
  size_t B = K;
  while (K < Rest.size() && isIdentChar(Rest[K]))
    ++K;
  std::string_view Name = Rest.substr(B, K - B);
  size_t J = K;
  while (J < Rest.size() && isSpace(Rest[J]))
    ++J;
  if (J < Rest.size() && Rest[J] == '|') { // setp p|q, ...
    Def(Name);
    if (std::string_view Q = predicateAfterBar(Rest, J); !Q.empty())
      Def(Q);
  } else if (!(J < Rest.size() && Rest[J] != ',')) {
    Def(Name); // (else "%tid.x", an expression: not a plain register)
  }
}

namespace {

/// One operand's text P (at offset At of the module), as decodeOperandText()
/// reads it.
Opnd decodePiece(std::string_view P, uint32_t At, RegNameTest IsReg,
                 NamePool &Names) {
  std::string_view T = trim(P, At);
  Opnd O;
  O.Range = {At, At + uint32_t(T.size())};
  if (T.empty()) {
    O.K = Opnd::Other;
  } else if (T[0] == '[') {
    O.K = Opnd::Addr;
    size_t Close = T.rfind(']');
    std::string_view In = T.substr(1, Close == std::string_view::npos ? std::string_view::npos : Close - 1);
    size_t Comma = std::string_view::npos;
    int Depth = 0;
    for (size_t K = 0; K < In.size(); ++K) {
      if (In[K] == '{' || In[K] == '[' || In[K] == '(')
        ++Depth;
      else if (In[K] == '}' || In[K] == ']' || In[K] == ')')
        --Depth;
      else if (In[K] == ',' && Depth == 0) {
        Comma = K;
        break;
      }
    }
    std::string_view BaseExpr = In.substr(0, Comma);
    uint32_t Dummy = 0;
    BaseExpr = trim(BaseExpr, Dummy);
    size_t K = 0;
    while (K < BaseExpr.size() && isIdentChar(BaseExpr[K]))
      ++K;
    std::string_view Name = BaseExpr.substr(0, K);
    std::string_view Tail = trim(BaseExpr.substr(K), Dummy);
    int64_t V = 0;
    if (!Name.empty() && !(Name[0] >= '0' && Name[0] <= '9')) {
      O.Name = Name;
      O.BaseIsReg = IsReg(Name);
      if (Tail.empty()) {
        O.HasValue = true;
      } else if ((Tail[0] == '+' || Tail[0] == '-') &&
                 parseInt(Tail.substr(1), V)) {
        O.HasValue = true;
        O.Value = Tail[0] == '-' ? -V : V;
      }
    } else if (parseInt(BaseExpr, V)) {
      O.HasValue = true;
      O.Value = V;
    }
  } else if (T[0] == '{' || T.find('|') != std::string_view::npos) {
    O.K = Opnd::Vec;
    std::string_view In = T[0] == '{' ? T.substr(1, T.size() >= 2 ? T.size() - 2 : 0) : T;
    splitTop(In, true, [&](std::string_view E, uint32_t) {
      uint32_t D = 0;
      E = trim(E, D);
      if (!E.empty() && (E[0] == '%' || (isIdentChar(E[0]) && !(E[0] >= '0' && E[0] <= '9'))))
        Names.push(E);
    });
    O.Regs = Names.finish();
  } else if (T[0] == '!') {
    O.K = Opnd::Reg;
    O.Negated = true;
    uint32_t D = 0;
    O.Name = trim(T.substr(1), D);
  } else if ((T[0] >= '0' && T[0] <= '9') || T[0] == '-') {
    int64_t V;
    if (parseInt(T, V)) {
      O.K = Opnd::Imm;
      O.HasValue = true;
      O.Value = V;
    } else {
      O.K = Opnd::Other;
    }
  } else if (T[0] == '(') {
    O.K = Opnd::Vec; // call tuple
    splitTop(T.substr(1, T.size() >= 2 ? T.size() - 2 : 0), false,
             [&](std::string_view E, uint32_t) {
               uint32_t D = 0;
               E = trim(E, D);
               if (!E.empty() && E[0] == '%')
                 Names.push(E);
             });
    O.Regs = Names.finish();
  } else if (isIdentChar(T[0])) {
    size_t K = 0;
    while (K < T.size() && (isIdentChar(T[K]) || T[K] == '.'))
      ++K;
    O.Name = T.substr(0, K);
    if (K != T.size()) {
      O.K = Opnd::Other; // an expression
    } else {
      O.K = IsReg(O.Name) ? Opnd::Reg : Opnd::Sym;
    }
  } else {
    O.K = Opnd::Other;
  }
  return O;
}

/// The operand list of S: after the head word, up to the ';'.
std::string_view operandText(std::string_view Text, const Statement &S) {
  uint32_t HeadEnd = S.HeadBegin + S.HeadSize;
  uint32_t End = S.Range.End;
  if (End > HeadEnd && Text[End - 1] == ';')
    --End;
  return Text.substr(HeadEnd, End > HeadEnd ? End - HeadEnd : 0);
}

} // namespace

void decodeOperandText(std::string_view Text, const Statement &S,
                       RegNameTest IsReg, NamePool &Names, std::vector<Opnd> &Pool) {
  uint32_t HeadEnd = S.HeadBegin + S.HeadSize;
  std::string_view Rest = operandText(Text, S);
  if (decodeSimple(Rest, HeadEnd, IsReg, Names, Pool))
    return;
  uint32_t Base = HeadEnd;
  if (!trim(Rest, Base).empty())
    splitTop(Rest, false, [&](std::string_view P, uint32_t Off) {
      Pool.push_back(decodePiece(P, HeadEnd + Off, IsReg, Names));
    });
}

bool decodeOperandTextAt(std::string_view Text, const Statement &S, uint32_t K,
                         RegNameTest IsReg, NamePool &Names, Opnd &Out) {
  uint32_t HeadEnd = S.HeadBegin + S.HeadSize;
  std::string_view Rest = operandText(Text, S);
  uint32_t Base = HeadEnd, N = 0;
  bool Found = false;
  if (!trim(Rest, Base).empty())
    splitTop(Rest, false, [&](std::string_view P, uint32_t Off) {
      if (N++ == K) {
        Out = decodePiece(P, HeadEnd + Off, IsReg, Names);
        Found = true;
      }
    });
  return Found;
}

} // namespace flow
} // namespace ptxlint
