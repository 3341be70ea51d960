//===- Snippet.cpp - An asm statement as a PTX module ---------------------===//

#include "InlineAsm/Snippet.h"

#include <cctype>
#include <string_view>
#include <cstdlib>

namespace ptxlint {
namespace inlineasm {
namespace {

bool isDigit(char C) { return std::isdigit(static_cast<unsigned char>(C)); }

/// The PTX register type of a constraint, "" for an immediate ('n'), or
/// nullopt when the constraint is none ptxlint knows.
std::optional<std::string> registerType(const std::vector<AsmOperand> &Ops,
                                        size_t K, unsigned Depth = 0) {
  for (char C : Ops[K].Constraint) {
    switch (C) {
    case 'r': return ".b32";
    case 'l': return ".b64";
    case 'h': return ".b16";
    case 'f': return ".f32";
    case 'd': return ".f64";
    case 'q': return ".b128";
    case 'n': return "";
    default:
      if (isDigit(C) && Depth == 0) { // tied to an output: its type
        size_t Tied = size_t(C - '0');
        if (Tied < Ops.size())
          return registerType(Ops, Tied, Depth + 1);
      }
    }
  }
  return std::nullopt;
}

/// The value of an "n" operand's expression: a literal, or a name of
/// Constants (qualified or not), under casts to an integer type:
/// "int32_t(16)", "(uint32_t)kBytes", "static_cast<int>(Foo::kN)".
std::optional<std::string> immediateValue(std::string_view E, const NamedConstants &Constants) {
  auto Trim = [](std::string_view &V) {
    while (!V.empty() && (V.front() == ' ' || V.front() == '\t' || V.front() == '\n'))
      V.remove_prefix(1);
    while (!V.empty() && (V.back() == ' ' || V.back() == '\t' || V.back() == '\n'))
      V.remove_suffix(1);
  };
  auto IsName = [](std::string_view V) {
    return !V.empty() && (std::isalpha(static_cast<unsigned char>(V[0])) || V[0] == '_') &&
           V.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:") ==
               std::string_view::npos;
  };
  for (int Depth = 0; Depth < 8; ++Depth) {
    Trim(E);
    if (std::optional<std::string> V = integerLiteral(E))
      return V;
    if (IsName(E)) {
      size_t Colon = E.rfind("::");
      auto It = Constants.find(Colon == std::string_view::npos ? E : E.substr(Colon + 2));
      return It == Constants.end() ? std::nullopt : std::optional<std::string>(It->second);
    }
    // T(x), static_cast<T>(x), (T)x, (x): peel one layer.
    if (E.size() >= 2 && E.back() == ')') {
      size_t Open = E.find('(');
      std::string_view Callee = E.substr(0, Open);
      Trim(Callee);
      if (Callee.substr(0, 12) == "static_cast<" && Callee.back() == '>')
        Callee = Callee.substr(12, Callee.size() - 13);
      if (Open != std::string_view::npos && (Callee.empty() || IsName(Callee))) {
        E = E.substr(Open + 1, E.size() - Open - 2);
        continue;
      }
    }
    if (!E.empty() && E.front() == '(') {
      size_t Close = E.find(')');
      if (Close != std::string_view::npos && IsName(E.substr(1, Close - 1))) {
        E = E.substr(Close + 1); // a C-style cast to a type name
        continue;
      }
    }
    return std::nullopt;
  }
  return std::nullopt;
}

class Builder {
public:
  Builder(const AsmStatement &S, const NamedConstants &Constants)
      : S(S), Constants(Constants) {}

  Snippet build() {
    // The body first (it decides which registers are declared), then the
    // module around it.
    Snippet Body;
    const MappedText &T = S.Template;
    for (size_t I = 0; I < T.Text.size(); ++I) {
      char C = T.Text[I];
      if (C != '%' || I + 1 >= T.Text.size()) {
        emit(Body, std::string(1, C), T.Offsets[I], T.Offsets[I]);
        continue;
      }
      char N = T.Text[I + 1];
      if (N == '%') {
        emit(Body, "%", T.Offsets[I], T.Offsets[I]);
        ++I;
        continue;
      }
      if (N == '=') {
        emit(Body, "0", T.Offsets[I], T.Offsets[I + 1]);
        ++I;
        continue;
      }
      size_t J = I + 1;
      std::optional<size_t> Index;
      std::string Label;
      if (isDigit(N)) {
        size_t V = 0;
        for (; J < T.Text.size() && isDigit(T.Text[J]); ++J)
          V = V * 10 + size_t(T.Text[J] - '0');
        Index = V;
        Label = "%" + std::to_string(V);
      } else if (N == '[') {
        size_t Close = T.Text.find(']', J);
        if (Close == std::string::npos) {
          emit(Body, "%", T.Offsets[I], T.Offsets[I]);
          continue;
        }
        std::string Name = T.Text.substr(J + 1, Close - J - 1);
        J = Close + 1;
        Label = "%[" + Name + "]";
        for (size_t K = 0; K < S.Operands.size(); ++K)
          if (S.Operands[K].Name == Name)
            Index = K;
        if (!Index)
          Index = S.Operands.size(); // reported below
      } else {
        emit(Body, "%", T.Offsets[I], T.Offsets[I]);
        continue;
      }
      uint32_t From = T.Offsets[I], To = T.Offsets[J - 1];
      if (*Index >= S.Operands.size()) {
        Body.BadReferences.push_back(
            {From, To + 1,
             "'" + Label + "' names no operand: the statement has " +
                 std::to_string(S.Operands.size()) + " operand" +
                 (S.Operands.size() == 1 ? "" : "s")});
        uint32_t Begin = uint32_t(Body.Text.size());
        emit(Body, "0", From, To);
        Body.StandIns.push_back({Begin, Begin + 1}); // C001 says it all
      } else {
        reference(Body, *Index, From, To);
      }
      I = J - 1;
    }

    Snippet Out;
    std::string Head = "{\n";
    for (const auto &[Type, Name] : S.ImplicitRegisters)
      Head += ".reg " + Type + " " + Name + ";\n";
    for (size_t K = 0; K < Declared.size(); ++K)
      if (!Declared[K].empty())
        Head += ".reg " + Declared[K] + " %_" + std::to_string(K) + ";\n";
    emit(Out, Head, NoOffset, NoOffset);
    Out.BodyBegin = uint32_t(Out.Text.size());
    for (auto [B, E] : Body.StandIns)
      Out.StandIns.push_back({B + Out.BodyBegin, E + Out.BodyBegin});
    for (Snippet::Reference R : Body.References)
      Out.References.push_back({R.Begin + Out.BodyBegin, R.End + Out.BodyBegin, R.Operand});
    Out.Text += Body.Text;
    Out.Map.insert(Out.Map.end(), Body.Map.begin(), Body.Map.end());
    Out.BodyEnd = uint32_t(Out.Text.size());
    emit(Out, "\n}\n", NoOffset, NoOffset);
    Out.BadReferences = std::move(Body.BadReferences);
    return Out;
  }

private:
  /// Appends Text; its first byte maps to From, the others to To.
  static void emit(Snippet &Out, const std::string &Text, uint32_t From,
                   uint32_t To) {
    for (size_t K = 0; K < Text.size(); ++K) {
      Out.Text.push_back(Text[K]);
      Out.Map.push_back(K == 0 ? From : To);
    }
  }

  void reference(Snippet &Body, size_t K, uint32_t From, uint32_t To) {
    std::optional<std::string> Type = registerType(S.Operands, K);
    uint32_t Begin = uint32_t(Body.Text.size());
    if (Type && Type->empty()) { // 'n': an immediate
      std::optional<std::string> V = immediateValue(S.Operands[K].Expression, Constants);
      emit(Body, V ? *V : "0", From, To);
      if (!V)
        Body.StandIns.push_back({Begin, uint32_t(Body.Text.size())});
      return;
    }
    if (!Type) { // a constraint ptxlint does not model: nothing said about it
      Type = ".b32";
      Body.StandIns.push_back({Begin, Begin + 2 + uint32_t(std::to_string(K).size())});
    }
    if (Declared.size() <= K)
      Declared.resize(K + 1);
    Declared[K] = *Type;
    emit(Body, "%_" + std::to_string(K), From, To);
    Body.References.push_back({Begin, uint32_t(Body.Text.size()), K});
  }

  const AsmStatement &S;
  const NamedConstants &Constants;
  std::vector<std::string> Declared; ///< per operand: its register type
};

} // namespace

Snippet buildSnippet(const AsmStatement &S, const NamedConstants &Constants) {
  return Builder(S, Constants).build();
}

} // namespace inlineasm
} // namespace ptxlint
