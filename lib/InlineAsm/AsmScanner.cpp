//===- AsmScanner.cpp - Find the asm statements of C++ text ---------------===//

#include "InlineAsm/AsmScanner.h"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <set>

namespace ptxlint {
namespace inlineasm {
namespace {

bool isIdentStart(char C) {
  return std::isalpha(static_cast<unsigned char>(C)) || C == '_' || C == '$' ||
         static_cast<unsigned char>(C) >= 0x80;
}
bool isIdentChar(char C) {
  return isIdentStart(C) || std::isdigit(static_cast<unsigned char>(C));
}
bool isDigit(char C) { return std::isdigit(static_cast<unsigned char>(C)); }

enum class Tok { End, Ident, String, Char, Number, Punct };

struct Token {
  Tok Kind = Tok::End;
  uint32_t Begin = 0, End = 0;
  std::string_view Text;
};

/// Tokens of C++ text. Preprocessor lines are consumed here (the condition
/// stack is kept for the statements); a #define's body is tokenized like
/// code, so asm statements inside macros are found too.
class Lexer {
public:
  explicit Lexer(std::string_view T) : T(T) {}

  Token next() {
    skipBlanks();
    Token K;
    K.Begin = uint32_t(P);
    if (P >= T.size())
      return finish(K, Tok::End);
    char C = T[P];
    if (isIdentStart(C)) {
      size_t Q = P;
      while (Q < T.size() && isIdentChar(T[Q]))
        ++Q;
      std::string_view Word = T.substr(P, Q - P);
      if (Q < T.size() && T[Q] == '"' && isStringPrefix(Word)) {
        P = Q;
        lexString(Word.back() == 'R');
        return finish(K, Tok::String);
      }
      if (Q < T.size() && T[Q] == '\'' &&
          (Word == "u8" || Word == "u" || Word == "U" || Word == "L")) {
        P = Q;
        lexChar();
        return finish(K, Tok::Char);
      }
      P = Q;
      return finish(K, Tok::Ident);
    }
    if (isDigit(C) || (C == '.' && P + 1 < T.size() && isDigit(T[P + 1]))) {
      lexNumber();
      return finish(K, Tok::Number);
    }
    if (C == '"') {
      lexString(false);
      return finish(K, Tok::String);
    }
    if (C == '\'') {
      lexChar();
      return finish(K, Tok::Char);
    }
    ++P;
    return finish(K, Tok::Punct);
  }

  /// Open conditions, outermost first.
  const std::vector<GuardCondition> &guards() const { return Guards; }
  /// Counts directives, so that a caller sees one inside a statement.
  unsigned directives() const { return Directives; }
  bool inMacro() const { return P < DefineEnd; }
  /// The end of the #define body being read (0 outside one).
  size_t macroEnd() const { return inMacro() ? DefineEnd : 0; }
  std::string_view text() const { return T; }
  /// The object-like macros defined so far: name and body (one line).
  struct Macro {
    std::string_view Name;
    std::string Body;
  };
  const std::vector<Macro> &objectMacros() const { return ObjectMacros; }

private:
  Token finish(Token K, Tok Kind) {
    K.Kind = Kind;
    K.End = uint32_t(P);
    K.Text = T.substr(K.Begin, K.End - K.Begin);
    return K;
  }

  static bool isStringPrefix(std::string_view W) {
    return W == "R" || W == "u8" || W == "u" || W == "U" || W == "L" ||
           W == "u8R" || W == "uR" || W == "UR" || W == "LR";
  }

  bool splice(size_t Q) const {
    return T[Q] == '\\' &&
           ((Q + 1 < T.size() && T[Q + 1] == '\n') ||
            (Q + 2 < T.size() && T[Q + 1] == '\r' && T[Q + 2] == '\n'));
  }

  /// Whitespace, comments, line splices and whole preprocessor lines.
  void skipBlanks() {
    while (P < T.size()) {
      char C = T[P];
      if (C == '\n') {
        ++P;
        AtLineStart = true;
        continue;
      }
      if (C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v') {
        ++P;
        continue;
      }
      if (splice(P)) {
        P = T.find('\n', P) + 1;
        continue;
      }
      if (C == '/' && P + 1 < T.size() && T[P + 1] == '/') {
        skipLineComment();
        continue;
      }
      if (C == '/' && P + 1 < T.size() && T[P + 1] == '*') {
        size_t E = T.find("*/", P + 2);
        P = E == std::string_view::npos ? T.size() : E + 2;
        continue;
      }
      if (C == '#' && AtLineStart && P >= DefineEnd) {
        directive();
        continue;
      }
      AtLineStart = false;
      return;
    }
  }

  void skipLineComment() {
    while (P < T.size() && T[P] != '\n') {
      if (splice(P))
        P = T.find('\n', P);
      ++P;
    }
  }

  /// The end of the logical line that starts at From (before its '\n').
  size_t logicalLineEnd(size_t From) const {
    size_t Q = From;
    while (Q < T.size() && T[Q] != '\n') {
      if (splice(Q)) {
        Q = T.find('\n', Q) + 1;
        continue;
      }
      if (T[Q] == '/' && Q + 1 < T.size() && T[Q + 1] == '*') {
        size_t E = T.find("*/", Q + 2);
        Q = E == std::string_view::npos ? T.size() : E + 2;
        continue;
      }
      ++Q;
    }
    return Q;
  }

  /// The text of [From, To) with splices and comments removed, trimmed.
  std::string cleanLine(size_t From, size_t To) const {
    std::string S;
    for (size_t Q = From; Q < To;) {
      if (splice(Q)) {
        Q = T.find('\n', Q) + 1;
        continue;
      }
      if (T[Q] == '/' && Q + 1 < To && T[Q + 1] == '/')
        break;
      if (T[Q] == '/' && Q + 1 < To && T[Q + 1] == '*') {
        size_t E = T.find("*/", Q + 2);
        Q = E == std::string_view::npos ? To : E + 2;
        S.push_back(' ');
        continue;
      }
      S.push_back(T[Q] == '\t' ? ' ' : T[Q]);
      ++Q;
    }
    size_t B = S.find_first_not_of(' ');
    size_t E = S.find_last_not_of(' ');
    return B == std::string::npos ? std::string() : S.substr(B, E - B + 1);
  }

  void directive() {
    ++Directives;
    size_t Hash = P;
    size_t End = logicalLineEnd(P);
    size_t Q = P + 1;
    while (Q < End && (T[Q] == ' ' || T[Q] == '\t'))
      ++Q;
    size_t NameBegin = Q;
    while (Q < End && isIdentChar(T[Q]))
      ++Q;
    std::string_view Name = T.substr(NameBegin, Q - NameBegin);
    std::string Rest = cleanLine(Q, End);
    if (Name == "if" || Name == "ifdef" || Name == "ifndef") {
      GuardCondition G;
      G.Text = Rest;
      G.Offset = uint32_t(Hash);
      G.IfDef = Name != "if";
      G.Negated = Name == "ifndef";
      Guards.push_back(std::move(G));
    } else if (Name == "elif" && !Guards.empty()) {
      GuardCondition &G = Guards.back();
      G.Text = Rest;
      G.Offset = uint32_t(Hash);
      G.IfDef = false;
      G.Negated = false;
      Chained.resize(Guards.size(), false);
      Chained[Guards.size() - 1] = true;
    } else if (Name == "else" && !Guards.empty()) {
      GuardCondition &G = Guards.back();
      Chained.resize(Guards.size(), false);
      // After an #elif the branch is "none of the earlier ones": nothing
      // simple to say, so the condition is dropped.
      if (Chained[Guards.size() - 1])
        G.Text.clear();
      G.Negated = !G.Negated;
      G.Offset = uint32_t(Hash);
    } else if (Name == "endif" && !Guards.empty()) {
      Guards.pop_back();
      if (Chained.size() > Guards.size())
        Chained.resize(Guards.size());
    }
    if (Name == "define") {
      // The body is code: tokenize it (asm statements live in macros).
      while (Q < End && (T[Q] == ' ' || T[Q] == '\t'))
        ++Q;
      size_t MacroBegin = Q;
      while (Q < End && isIdentChar(T[Q]))
        ++Q;
      if (Q < End && T[Q] != '(')
        ObjectMacros.push_back({T.substr(MacroBegin, Q - MacroBegin), cleanLine(Q, End)});
      if (Q < End && T[Q] == '(') {
        size_t Close = T.find(')', Q);
        Q = Close == std::string_view::npos || Close > End ? End : Close + 1;
      }
      DefineEnd = End;
      P = Q;
      AtLineStart = false;
      return;
    }
    P = End;
  }

  void lexNumber() {
    ++P;
    while (P < T.size()) {
      char C = T[P];
      if ((C == '+' || C == '-') &&
          (T[P - 1] == 'e' || T[P - 1] == 'E' || T[P - 1] == 'p' ||
           T[P - 1] == 'P')) {
        ++P;
        continue;
      }
      if (C == '\'' && P + 1 < T.size() && isIdentChar(T[P + 1])) {
        P += 2; // a digit separator: 1'000'000
        continue;
      }
      if (isIdentChar(C) || C == '.') {
        ++P;
        continue;
      }
      break;
    }
  }

  void lexChar() {
    ++P; // the opening quote
    while (P < T.size() && T[P] != '\'' && T[P] != '\n') {
      if (T[P] == '\\' && P + 1 < T.size())
        ++P;
      ++P;
    }
    if (P < T.size() && T[P] == '\'')
      ++P;
  }

  /// From the opening quote (after any prefix) past the closing one and a
  /// user-defined suffix.
  void lexString(bool Raw) {
    if (Raw) {
      size_t Open = T.find('(', P + 1);
      if (Open == std::string_view::npos || Open - P - 1 > 16) {
        P = T.size();
        return;
      }
      std::string Close = ")" + std::string(T.substr(P + 1, Open - P - 1)) + "\"";
      size_t E = T.find(Close, Open + 1);
      P = E == std::string_view::npos ? T.size() : E + Close.size();
    } else {
      ++P;
      while (P < T.size() && T[P] != '"' && T[P] != '\n') {
        if (T[P] == '\\' && P + 1 < T.size()) {
          P += splice(P) ? (T[P + 1] == '\r' ? 3 : 2) : 2;
          continue;
        }
        ++P;
      }
      if (P < T.size() && T[P] == '"')
        ++P;
    }
    while (P < T.size() && isIdentChar(T[P]))
      ++P;
  }

  std::string_view T;
  size_t P = 0;
  bool AtLineStart = true;
  size_t DefineEnd = 0;
  unsigned Directives = 0;
  std::vector<GuardCondition> Guards;
  std::vector<bool> Chained; ///< per open #if: an #elif was seen
  std::vector<Macro> ObjectMacros;
};

unsigned hexValue(char C) {
  if (isDigit(C))
    return unsigned(C - '0');
  return unsigned(std::tolower(static_cast<unsigned char>(C)) - 'a' + 10);
}

/// Appends the characters of one string literal token to Out. Returns an
/// explanation when the literal cannot be read as PTX text.
std::string decodeString(std::string_view T, const Token &K, MappedText &Out) {
  size_t Q = K.Begin;
  std::string_view Prefix;
  while (T[Q] != '"')
    ++Q;
  Prefix = T.substr(K.Begin, Q - K.Begin);
  if (!Prefix.empty() && Prefix != "R" && Prefix != "u8" && Prefix != "u8R")
    return "a wide string literal";
  if (!Prefix.empty() && Prefix.back() == 'R') {
    size_t Open = T.find('(', Q);
    if (Open == std::string_view::npos || Open >= K.End)
      return "an unterminated raw string literal";
    std::string Close = ")" + std::string(T.substr(Q + 1, Open - Q - 1)) + "\"";
    size_t E = T.find(Close, Open);
    if (E == std::string_view::npos || E + Close.size() > K.End)
      return "an unterminated raw string literal";
    for (size_t I = Open + 1; I < E; ++I)
      Out.append(T[I], uint32_t(I));
    return {};
  }
  size_t End = K.End;
  while (End > Q && T[End - 1] != '"')
    --End; // the user-defined suffix
  if (End == Q + 1)
    return "an unterminated string literal";
  for (size_t I = Q + 1; I + 1 < End;) {
    char C = T[I];
    if (C != '\\') {
      Out.append(C, uint32_t(I++));
      continue;
    }
    uint32_t At = uint32_t(I);
    char E = T[I + 1];
    if (E == '\n' || (E == '\r' && I + 2 < End && T[I + 2] == '\n')) {
      I += E == '\r' ? 3 : 2; // a line splice
      continue;
    }
    I += 2;
    switch (E) {
    case 'n': Out.append('\n', At); break;
    case 't': Out.append('\t', At); break;
    case 'r': Out.append('\r', At); break;
    case 'v': Out.append('\v', At); break;
    case 'f': Out.append('\f', At); break;
    case 'a': Out.append('\a', At); break;
    case 'b': Out.append('\b', At); break;
    case 'x': {
      unsigned V = 0;
      while (I + 1 < End && std::isxdigit(static_cast<unsigned char>(T[I])))
        V = V * 16 + hexValue(T[I++]);
      Out.append(char(V & 0xff), At);
      break;
    }
    case 'u':
    case 'U':
      return "a universal character name in the template";
    default:
      if (E >= '0' && E <= '7') {
        unsigned V = unsigned(E - '0');
        for (int N = 0; N < 2 && I + 1 < End && T[I] >= '0' && T[I] <= '7'; ++N)
          V = V * 8 + unsigned(T[I++] - '0');
        Out.append(char(V & 0xff), At);
      } else {
        Out.append(E, At); // \" \\ \' \?
      }
    }
  }
  return {};
}

std::string trim(std::string_view S) {
  size_t B = S.find_first_not_of(" \t\r\n");
  size_t E = S.find_last_not_of(" \t\r\n");
  return B == std::string_view::npos ? std::string()
                                     : std::string(S.substr(B, E - B + 1));
}

bool isOpen(const Token &K) {
  return K.Kind == Tok::Punct && (K.Text == "(" || K.Text == "[" || K.Text == "{");
}
bool isClose(const Token &K) {
  return K.Kind == Tok::Punct && (K.Text == ")" || K.Text == "]" || K.Text == "}");
}
bool isPunct(const Token &K, char C) {
  return K.Kind == Tok::Punct && K.Text[0] == C;
}

class StatementParser {
public:
  explicit StatementParser(Lexer &L) : L(L), T(L.text()) {}

  /// After the asm keyword K: the statement, or false (not a statement:
  /// "__asm__" in a macro of its own, say).
  bool parse(const Token &Keyword, AsmStatement &S) {
    S.Begin = Keyword.Begin;
    S.Guards = L.guards();
    S.InMacro = L.inMacro();
    MacroEnd = L.macroEnd();
    unsigned DirectivesBefore = L.directives();
    Lexer Before = L; // not a statement: the tokens are read again
    Token K = next();
    while (K.Kind == Tok::Ident &&
           (K.Text == "volatile" || K.Text == "__volatile__" ||
            K.Text == "__volatile" || K.Text == "inline" ||
            K.Text == "__inline__" || K.Text == "goto"))
      K = next();
    if (!isPunct(K, '(')) {
      L = Before;
      return false;
    }
    // The template: adjacent literals up to ':' or ')'.
    unsigned Section = 0;
    for (K = next(); K.Kind != Tok::End; K = next()) {
      if (isPunct(K, ':') || isPunct(K, ')'))
        break;
      if (K.Kind == Tok::String) {
        if (S.Unresolved.empty())
          S.Unresolved = decodeString(T, K, S.Template);
        continue;
      }
      if (S.Unresolved.empty())
        S.Unresolved = "the template is not made of string literals only ('" +
                       std::string(K.Text) + "')";
      if (isOpen(K))
        skipBalanced();
    }
    // Operands: [name] "constraint" (expression), ...
    while (isPunct(K, ':')) {
      ++Section;
      K = next();
      if (Section > 2) { // clobbers, goto labels
        while (K.Kind != Tok::End && !isPunct(K, ')') && !isPunct(K, ':')) {
          if (isOpen(K))
            skipBalanced();
          K = next();
        }
        continue;
      }
      while (K.Kind != Tok::End && !isPunct(K, ')') && !isPunct(K, ':')) {
        AsmOperand Op;
        Op.Output = Section == 1;
        if (isPunct(K, '[')) {
          K = next();
          if (K.Kind == Tok::Ident)
            Op.Name = std::string(K.Text);
          while (K.Kind != Tok::End && !isPunct(K, ']'))
            K = next();
          K = next();
        }
        MappedText Constraint;
        Op.ConstraintBegin = K.Begin;
        while (K.Kind == Tok::String) {
          decodeString(T, K, Constraint);
          Op.ConstraintEnd = K.End;
          K = next();
        }
        Op.Constraint = Constraint.Text;
        if (isPunct(K, '(')) {
          uint32_t ExprBegin = K.End;
          uint32_t ExprEnd = skipBalanced();
          Op.Expression = trim(T.substr(ExprBegin, ExprEnd - ExprBegin));
          K = next();
        } else if (S.Unresolved.empty()) {
          S.Unresolved = "an operand without a constraint and expression";
        }
        S.Operands.push_back(std::move(Op));
        // nvcc takes a missing comma between operands ("r"(a) "l"(b), as
        // CUTLASS's SM100 UTCCP copies write it): the next operand begins.
        if (K.Kind == Tok::String || isPunct(K, '['))
          continue;
        // Anything else up to the comma (a malformed operand) is skipped.
        while (K.Kind != Tok::End && !isPunct(K, ',') && !isPunct(K, ')') &&
               !isPunct(K, ':')) {
          if (isOpen(K))
            skipBalanced();
          K = next();
        }
        if (isPunct(K, ','))
          K = next();
      }
    }
    S.End = K.End;
    if (K.Kind == Tok::End && S.Unresolved.empty())
      S.Unresolved = "the statement has no closing ')'";
    if (L.directives() != DirectivesBefore && S.Unresolved.empty())
      S.Unresolved = "a preprocessor directive inside the statement";
    return true;
  }

private:
  /// The next token; a statement inside a #define ends with the macro.
  Token next() {
    Token K = L.next();
    if (MacroEnd && K.Begin >= MacroEnd)
      K.Kind = Tok::End;
    return K;
  }

  /// After an opening bracket: skips to its match; returns the offset of
  /// the closing bracket (the end of the text if none).
  uint32_t skipBalanced() {
    unsigned Depth = 1;
    for (Token K = next(); K.Kind != Tok::End; K = next()) {
      if (isOpen(K))
        ++Depth;
      else if (isClose(K) && --Depth == 0)
        return K.Begin;
    }
    return uint32_t(T.size());
  }

  Lexer &L;
  std::string_view T;
  size_t MacroEnd = 0;
};

} // namespace

std::vector<AsmStatement> scanAsmStatements(std::string_view Text) {
  std::vector<AsmStatement> Out;
  Lexer L(Text);
  StatementParser Parser(L);
  for (Token K = L.next(); K.Kind != Tok::End; K = L.next()) {
    if (K.Kind != Tok::Ident ||
        !(K.Text == "asm" || K.Text == "__asm__" || K.Text == "__asm"))
      continue;
    AsmStatement S;
    if (Parser.parse(K, S))
      Out.push_back(std::move(S));
  }
  return Out;
}

std::optional<std::string> integerLiteral(std::string_view E) {
  while (E.size() >= 2 && E.front() == '(' && E.back() == ')')
    E = E.substr(1, E.size() - 2);
  std::string S;
  for (char C : E)
    if (C != '\'' && C != ' ')
      S.push_back(C);
  bool Negative = !S.empty() && S[0] == '-';
  if (Negative)
    S.erase(0, 1);
  if (S.empty() || !isDigit(S[0]))
    return std::nullopt;
  char *End = nullptr;
  unsigned long long V = std::strtoull(S.c_str(), &End, 0);
  while (End && (*End == 'u' || *End == 'U' || *End == 'l' || *End == 'L'))
    ++End;
  if (!End || *End)
    return std::nullopt;
  return (Negative ? "-" : "") + std::to_string(V);
}


namespace {

/// Records name = value, or marks the name ambiguous on a second value.
void define(NamedConstants &Out, std::set<std::string, std::less<>> &Ambiguous,
            std::string_view Name, const std::string &Value) {
  if (Ambiguous.count(Name))
    return;
  auto [It, New] = Out.emplace(std::string(Name), Value);
  if (!New && It->second != Value) {
    Ambiguous.emplace(Name);
    Out.erase(It);
  }
}

} // namespace

NamedConstants scanNamedConstants(std::string_view Text) {
  NamedConstants Out;
  std::set<std::string, std::less<>> Ambiguous;
  Lexer L(Text);
  // The last three tokens, newest last; whether the declaration being read
  // says const/constexpr; enumerator state inside an enum's braces.
  Token Prev[3];
  bool Const = false, EnumHead = false, InEnum = false;
  // The value of an enumerator written without one; HaveNext: known.
  long long NextEnumerator = 0;
  bool HaveNext = false;
  std::string_view Enumerator;
  auto Push = [&](const Token &K) {
    Prev[0] = Prev[1];
    Prev[1] = Prev[2];
    Prev[2] = K;
  };
  auto IsPunct = [](const Token &K, char C) {
    return K.Kind == Tok::Punct && K.Text.size() == 1 && K.Text[0] == C;
  };
  for (Token K = L.next(); K.Kind != Tok::End; Push(K), K = L.next()) {
    bool Ends = IsPunct(K, ';') || IsPunct(K, ',') || IsPunct(K, '}');
    if (InEnum) {
      if (K.Kind == Tok::Ident && (IsPunct(Prev[2], '{') || IsPunct(Prev[2], ','))) {
        Enumerator = K.Text;
        continue;
      }
      if (Ends && !Enumerator.empty()) {
        // "A = 4," or "A," (the previous value plus one).
        std::optional<std::string> V;
        if (IsPunct(Prev[1], '=') && Prev[2].Kind == Tok::Number)
          V = integerLiteral(Prev[2].Text);
        else if (IsPunct(Prev[0], '=') && IsPunct(Prev[1], '-') && Prev[2].Kind == Tok::Number)
          V = integerLiteral("-" + std::string(Prev[2].Text));
        else if (Prev[2].Kind == Tok::Ident && Prev[2].Text == Enumerator && HaveNext)
          V = std::to_string(NextEnumerator);
        if (V)
          define(Out, Ambiguous, Enumerator, *V);
        HaveNext = false;
        if (V) {
          errno = 0;
          long long N = std::strtoll(V->c_str(), nullptr, 10);
          HaveNext = errno == 0 && N < LLONG_MAX;
          NextEnumerator = HaveNext ? N + 1 : 0;
        }
        Enumerator = {};
      }
      if (IsPunct(K, '}'))
        InEnum = false;
      continue;
    }
    if (K.Kind == Tok::Ident && K.Text == "enum") {
      EnumHead = true;
      continue;
    }
    if (IsPunct(K, '{') && EnumHead) {
      InEnum = true;
      EnumHead = false;
      NextEnumerator = 0;
      HaveNext = true;
      continue;
    }
    if (K.Kind == Tok::Ident && (K.Text == "const" || K.Text == "constexpr"))
      Const = true;
    // "NAME = 4;" or "NAME{4};" in a const declaration.
    if (Const && Ends && Prev[2].Kind == Tok::Number && Prev[0].Kind == Tok::Ident &&
        (IsPunct(Prev[1], '=') || IsPunct(Prev[1], '{'))) {
      if (std::optional<std::string> V = integerLiteral(Prev[2].Text))
        define(Out, Ambiguous, Prev[0].Text, *V);
    }
    // A declaration ends at ';' and a body starts at '{', but "NAME{4}" is
    // a brace initializer of the declaration being read.
    bool BraceInit = IsPunct(K, '{') && Prev[2].Kind == Tok::Ident;
    bool InitEnd = IsPunct(K, '}') && Prev[2].Kind == Tok::Number && IsPunct(Prev[1], '{');
    if (IsPunct(K, ';') || (IsPunct(K, '{') && !BraceInit) || (IsPunct(K, '}') && !InitEnd))
      Const = EnumHead = false;
  }
  for (const Lexer::Macro &M : L.objectMacros())
    if (std::optional<std::string> V = integerLiteral(M.Body))
      define(Out, Ambiguous, M.Name, *V);
  return Out;
}

} // namespace inlineasm
} // namespace ptxlint
