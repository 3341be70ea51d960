//===- Incremental.cpp - Function-level re-linting -------------------------===//

#include "Incremental.h"

#include <algorithm>
#include <cstring>

namespace ptxlint::lsp {

namespace {

bool isIdent(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || (C >= '0' && C <= '9') ||
         C == '_' || C == '$' || C == '.';
}

/// Text[I..] starts the word W (not part of a longer word).
bool wordAt(std::string_view Text, size_t I, std::string_view W) {
  return Text.compare(I, W.size(), W) == 0 && (I == 0 || !isIdent(Text[I - 1])) &&
         (I + W.size() >= Text.size() || !isIdent(Text[I + W.size()]));
}

/// Only blanks and linkage words (.visible, .weak, .extern) in S.
bool onlyLinkage(std::string_view S) {
  size_t I = 0;
  while (I < S.size()) {
    if (S[I] == ' ' || S[I] == '\t' || S[I] == '\r') {
      ++I;
      continue;
    }
    bool Ok = false;
    for (std::string_view W : {".visible", ".weak", ".extern"})
      if (wordAt(S, I, W)) {
        I += W.size();
        Ok = true;
        break;
      }
    if (!Ok)
      return false;
  }
  return true;
}

/// S rules: the parser's view of the text is in doubt beyond the statement.
bool hasSyntaxError(const std::vector<Diagnostic> &Diags) {
  return std::any_of(Diags.begin(), Diags.end(),
                     [](const Diagnostic &D) { return !D.Code.empty() && D.Code[0] == 'S'; });
}

struct Piece {
  uint32_t Synth, Real, Len;
};

} // namespace

std::optional<std::vector<FunctionSpan>> findFunctions(std::string_view T) {
  std::vector<FunctionSpan> Out;
  unsigned Depth = 0;
  size_t StmtStart = 0;              // after the last top-level ';' or '}'
  size_t Keyword = std::string_view::npos; // ".entry"/".func" of this statement
  FunctionSpan Cur;
  bool InFunction = false;
  for (size_t I = 0; I < T.size(); ++I) {
    char C = T[I];
    if (C == '/' && I + 1 < T.size() && T[I + 1] == '/') {
      size_t E = T.find('\n', I);
      if (E == std::string_view::npos)
        break;
      I = E;
      continue;
    }
    if (C == '/' && I + 1 < T.size() && T[I + 1] == '*') {
      size_t E = T.find("*/", I + 2);
      if (E == std::string_view::npos)
        return std::nullopt;
      I = E + 1;
      continue;
    }
    if (C == '"') {
      size_t E = I + 1;
      while (E < T.size() && T[E] != '"' && T[E] != '\n')
        E += T[E] == '\\' ? 2 : 1;
      if (E >= T.size() || T[E] != '"')
        return std::nullopt;
      I = E;
      continue;
    }
    if (Depth == 0) {
      if (C == ';') {
        StmtStart = I + 1;
        Keyword = std::string_view::npos;
      } else if (C == '.' && (wordAt(T, I, ".entry") || wordAt(T, I, ".func"))) {
        Keyword = I;
      } else if (C == '{' && Keyword != std::string_view::npos) {
        size_t Line = T.rfind('\n', Keyword);
        Line = Line == std::string_view::npos ? 0 : Line + 1;
        // An '=' before the brace: an initializer after a prototype whose
        // ';' is missing. Not a layout to rely on.
        if (Line < StmtStart || !onlyLinkage(T.substr(Line, Keyword - Line)) ||
            T.substr(Keyword, I - Keyword).find('=') != std::string_view::npos)
          return std::nullopt;
        Cur = {uint32_t(Line), uint32_t(I), 0};
        InFunction = true;
      }
    }
    if (C == '{') {
      ++Depth;
    } else if (C == '}') {
      if (Depth == 0)
        return std::nullopt;
      if (--Depth == 0) {
        if (InFunction) {
          Cur.End = uint32_t(I + 1);
          Out.push_back(Cur);
          InFunction = false;
        }
        StmtStart = I + 1;
        Keyword = std::string_view::npos;
      }
    }
  }
  if (Depth != 0)
    return std::nullopt;
  return Out;
}

static void shift(SourceRange &R, uint32_t From, int64_t Delta) {
  if (R.Begin >= From)
    R.Begin = uint32_t(int64_t(R.Begin) + Delta);
  if (R.End >= From)
    R.End = uint32_t(int64_t(R.End) + Delta);
}

void IncrementalLinter::edited(uint32_t Begin, uint32_t End, size_t Inserted) {
  if (!Valid)
    return;
  // The function whose body holds the whole edit, braces excluded.
  auto It = std::upper_bound(Functions.begin(), Functions.end(), Begin,
                             [](uint32_t B, const FunctionSpan &F) { return B < F.Begin; });
  if (It == Functions.begin()) {
    Valid = false;
    return;
  }
  --It;
  if (!(Begin > It->Open && End < It->End)) {
    Valid = false;
    return;
  }
  int64_t Delta = int64_t(Inserted) - int64_t(End - Begin);
  Dirty[size_t(It - Functions.begin())] = true;
  It->End = uint32_t(int64_t(It->End) + Delta);
  for (auto G = It + 1; G != Functions.end(); ++G) {
    G->Begin = uint32_t(int64_t(G->Begin) + Delta);
    G->Open = uint32_t(int64_t(G->Open) + Delta);
    G->End = uint32_t(int64_t(G->End) + Delta);
  }
  if (Delta)
    for (Diagnostic &D : Diags)
      forEachRange(D, [&](SourceRange &R) { shift(R, End, Delta); });
}

int IncrementalLinter::owner(uint32_t Offset) const {
  auto It = std::upper_bound(Functions.begin(), Functions.end(), Offset,
                             [](uint32_t O, const FunctionSpan &F) { return O < F.Begin; });
  if (It == Functions.begin())
    return -1;
  --It;
  return Offset < It->End ? int(It - Functions.begin()) : -1;
}

void IncrementalLinter::full(const std::string &Name, const std::string &Text,
                             const LintOptions &Opts) {
  SourceBuffer Buf(Name, Text);
  Diags = ptxlint::lint(Buf, Opts).Diagnostics;
  std::optional<std::vector<FunctionSpan>> F = findFunctions(Text);
  // Suppression comments may reach across functions (a disable at the top
  // of the file, X001 for one that nothing uses), and so may the parser's
  // recovery from a syntax error: whole-module lints only, until both are
  // gone.
  Valid = F && Text.find("ptxlint:") == std::string::npos && !hasSyntaxError(Diags);
  Functions = Valid ? std::move(*F) : std::vector<FunctionSpan>();
  Dirty.assign(Functions.size(), false);
}

bool IncrementalLinter::partial(const std::string &Name, const std::string &Text,
                                const LintOptions &Opts) {
  if (!Valid)
    return false;
  std::string Synth;
  std::vector<Piece> Pieces;
  auto Add = [&](uint32_t B, uint32_t E) {
    if (E > B) {
      Pieces.push_back({uint32_t(Synth.size()), B, E - B});
      Synth.append(Text, B, E - B);
    }
  };
  uint32_t Cursor = 0;
  for (size_t K = 0; K < Functions.size(); ++K) {
    const FunctionSpan &F = Functions[K];
    Add(Cursor, F.Begin); // module scope between functions
    if (Dirty[K]) {
      // The edited body must still be one function with balanced braces.
      std::string_view Body(Text.data() + F.Begin, F.End - F.Begin);
      auto One = findFunctions(Body);
      if (!One || One->size() != 1 || One->front().End != Body.size() ||
          One->front().Open != F.Open - F.Begin || Body.find("ptxlint:") != std::string_view::npos)
        return false;
      Add(F.Begin, F.End);
    }
    Cursor = F.End;
  }
  Add(Cursor, uint32_t(Text.size()));

  SourceBuffer Buf(Name, std::move(Synth));
  std::vector<Diagnostic> New = ptxlint::lint(Buf, Opts).Diagnostics;
  if (hasSyntaxError(New))
    return false;
  uint32_t SynthSize = uint32_t(Buf.text().size());
  auto Map = [&](uint32_t S, bool IsEnd) {
    // An end offset belongs to the piece its last byte is in.
    uint32_t Probe = IsEnd && S > 0 ? S - 1 : S;
    if (Probe >= SynthSize)
      return uint32_t(Text.size());
    auto It = std::upper_bound(Pieces.begin(), Pieces.end(), Probe,
                               [](uint32_t O, const Piece &P) { return O < P.Synth; });
    --It;
    return It->Real + (S - It->Synth);
  };
  auto MapRange = [&](SourceRange &R) {
    uint32_t B = Map(R.Begin, false);
    uint32_t E = R.End == R.Begin ? B : Map(R.End, true);
    R = {B, E};
  };
  std::vector<Diagnostic> Out;
  for (Diagnostic &D : Diags) {
    int O = owner(D.Range.Begin);
    if (O >= 0 && !Dirty[size_t(O)])
      Out.push_back(std::move(D));
  }
  for (Diagnostic &D : New) {
    forEachRange(D, MapRange);
    Out.push_back(std::move(D));
  }
  std::stable_sort(Out.begin(), Out.end(), [](const Diagnostic &A, const Diagnostic &B) {
    return A.Range.Begin < B.Range.Begin;
  });
  Diags = std::move(Out);
  Dirty.assign(Functions.size(), false);
  return true;
}

const std::vector<Diagnostic> &IncrementalLinter::lint(const std::string &Name,
                                                       const std::string &Text,
                                                       const LintOptions &Opts) {
  LastIncremental = partial(Name, Text, Opts);
  if (!LastIncremental)
    full(Name, Text, Opts);
  return Diags;
}

} // namespace ptxlint::lsp
