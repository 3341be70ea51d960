//===- Suppressions.cpp - "// ptxlint: disable=..." comments ---------------===//

#include "Suppress/Suppressions.h"

#include "ptxlint/Config.h"
#include "ptxlint/RuleRegistry.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ptxlint {
namespace {

bool isBlank(char C) { return C == ' ' || C == '\t'; }
bool isCodeChar(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
         (C >= '0' && C <= '9') || C == '-' || C == '_';
}

char lower(char C) { return char(std::tolower(static_cast<unsigned char>(C))); }

/// The next "ptxlint:" at or after From in any case: "PTXLINT:" is found
/// too, to be reported rather than silently ignored. Marker is lower case and
/// ends in a letter and ':'. A ':' ends every label, every 90-300 bytes of
/// compiled code: a memchr per ':' spent more on its calls than on reading
/// (a case-folding Boyer-Moore search over every byte, before that, was 8 %
/// of linting an 11 MB module). So 64 bytes are tested at a time, and at a
/// ':' the letter before it first.
size_t findMarker(std::string_view T, size_t From, std::string_view Marker) {
  const size_t Last = Marker.size() - 1; // the ':'
  const char Letter = Marker[Last - 1];
  auto IsAt = [&](size_t End) { // the ':' at End ends a marker
    return (T[End - 1] | 0x20) == Letter &&
           std::equal(Marker.begin(), Marker.begin() + Last, T.begin() + (End - Last),
                      [](char M, char C) { return M == lower(C); });
  };
  size_t P = From + Last; // where the ':' would be
#if defined(__SSE2__)
  const __m128i Colon = _mm_set1_epi8(Marker[Last]);
  auto Colons = [&](size_t Q) {
    return _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i *>(T.data() + Q)),
                          Colon);
  };
  for (; P + 64 <= T.size(); P += 64) {
    __m128i A = Colons(P), B = Colons(P + 16), C = Colons(P + 32), D = Colons(P + 48);
    if (!_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(A, B), _mm_or_si128(C, D))))
      continue;
    uint64_t Mask = uint64_t(unsigned(_mm_movemask_epi8(A))) |
                    uint64_t(unsigned(_mm_movemask_epi8(B))) << 16 |
                    uint64_t(unsigned(_mm_movemask_epi8(C))) << 32 |
                    uint64_t(unsigned(_mm_movemask_epi8(D))) << 48;
    for (; Mask; Mask &= Mask - 1)
      if (size_t End = P + size_t(__builtin_ctzll(Mask)); IsAt(End))
        return End - Last;
  }
#endif
  for (; P < T.size(); ++P)
    if (T[P] == Marker[Last] && IsAt(P))
      return P - Last;
  return std::string_view::npos;
}

/// " (did you mean 'S003'?)" for a code or name close to a rule's, or "".
std::string suggestRule(std::string_view Code) {
  std::vector<std::string_view> Names{"all"};
  for (const RuleInfo &R : allRules()) {
    Names.push_back(R.Code);
    Names.push_back(R.Name);
  }
  std::string_view Near = closestSpelling(Code, Names);
  return Near.empty() ? "" : " (did you mean '" + std::string(Near) + "'?)";
}

Diagnostic invalid(SourceRange R, std::string Msg) {
  Diagnostic D;
  D.Level = ruleInfo(rules::InvalidSuppression).DefaultSeverity;
  D.Code = std::string(ruleInfo(rules::InvalidSuppression).Code);
  D.Range = R;
  D.Message = std::move(Msg);
  return D;
}

} // namespace

SuppressionSet SuppressionSet::parse(const SourceBuffer &Buffer,
                                     std::vector<Diagnostic> &Invalid) {
  SuppressionSet Set(Buffer);
  Set.finish(Invalid);
  return Set;
}

void SuppressionSet::search(size_t To, std::vector<Diagnostic> &Invalid) {
  std::string_view T = Buffer->text();
  constexpr std::string_view Marker = "ptxlint:";
  // Markers starting before To end before To + Last: find them in that
  // prefix (markers cannot overlap, so a search goes on after the last one).
  std::string_view Prefix = T.substr(0, To + Marker.size() - 1);
  for (size_t At = findMarker(Prefix, Searched, Marker); At != std::string_view::npos;
       At = findMarker(Prefix, Searched, Marker)) {
    Searched = At + Marker.size();
    size_t LineBegin = T.rfind('\n', At);
    LineBegin = LineBegin == std::string_view::npos ? 0 : LineBegin + 1;
    size_t LineEnd = T.find('\n', At);
    if (LineEnd == std::string_view::npos)
      LineEnd = T.size();
    size_t ContentEnd = LineEnd;
    if (ContentEnd > LineBegin && T[ContentEnd - 1] == '\r')
      --ContentEnd;
    // The marker must open a comment: "//" or "/*", then blanks.
    size_t P = At;
    while (P > LineBegin && isBlank(T[P - 1]))
      --P;
    if (P < LineBegin + 2 || T[P - 2] != '/' ||
        (T[P - 1] != '/' && T[P - 1] != '*'))
      continue;
    bool Block = T[P - 1] == '*';
    size_t CommentBegin = P - 2;
    // Code before the comment? (A first comment earlier on the line makes
    // this one part of it.)
    std::string_view Before = T.substr(LineBegin, CommentBegin - LineBegin);
    size_t FirstComment = std::min(Before.find("//"), Before.find("/*"));
    std::string_view CodePart = Before.substr(0, FirstComment);
    bool HasCode = std::any_of(CodePart.begin(), CodePart.end(),
                               [](char C) { return !isBlank(C); });
    size_t CommentEnd = ContentEnd;
    if (Block) {
      size_t Close = T.find("*/", At);
      if (Close != std::string_view::npos && Close < ContentEnd)
        CommentEnd = Close + 2;
    }
    size_t End = Block && CommentEnd < ContentEnd ? CommentEnd - 2 : CommentEnd;

    // Directive word.
    size_t Q = At + Marker.size();
    while (Q < End && isBlank(T[Q]))
      ++Q;
    size_t WordBegin = Q;
    while (Q < End && (isCodeChar(T[Q])))
      ++Q;
    std::string_view Word = T.substr(WordBegin, Q - WordBegin);
    SourceRange WordRange{uint32_t(WordBegin), uint32_t(Q)};
    std::string_view Spelled = T.substr(At, Marker.size());
    if (Spelled != Marker || std::any_of(Word.begin(), Word.end(), [](char C) {
          return C >= 'A' && C <= 'Z';
        })) {
      std::string Lower(T.substr(At, Q - At));
      std::transform(Lower.begin(), Lower.end(), Lower.begin(), lower);
      Invalid.push_back(invalid({uint32_t(At), uint32_t(Q)},
                                "'" + std::string(T.substr(At, Q - At)) +
                                    "' is not read: suppression comments are "
                                    "lower case ('" + Lower +
                                    "'); this comment suppresses nothing"));
      continue;
    }
    Suppression S;
    if (Word == "disable")
      S.Kind = Suppression::Line;
    else if (Word == "disable-next-line")
      S.Kind = Suppression::NextLine;
    else if (Word == "disable-file")
      S.Kind = Suppression::File;
    else if (Word == "tensor-box-bytes")
      continue; // an annotation read by the flow rules (docs/flow-rules.md)
    else {
      Invalid.push_back(invalid(
          WordRange.empty() ? SourceRange{uint32_t(At), uint32_t(At + Marker.size())}
                            : WordRange,
          "unknown ptxlint directive '" + std::string(Word) +
              "' (expected disable=, disable-next-line= or disable-file=)"));
      continue;
    }
    if (Q >= End || T[Q] != '=') {
      Invalid.push_back(invalid(WordRange, "expected '=' and a list of rule "
                                           "codes after '" +
                                               std::string(Word) + "'"));
      continue;
    }
    ++Q;
    // Codes: CODE[, CODE...]; then whitespace and a free-form reason.
    bool Bad = false, AfterComma = false;
    while (true) {
      while (Q < End && isBlank(T[Q]))
        ++Q;
      size_t CB = Q;
      while (Q < End && isCodeChar(T[Q]))
        ++Q;
      std::string_view Code = T.substr(CB, Q - CB);
      SourceRange CR{uint32_t(CB), uint32_t(Q)};
      if (Code.empty()) {
        Invalid.push_back(invalid({uint32_t(CB), uint32_t(std::min(CB + 1, End))},
                                  std::string("expected a rule code, a rule name or 'all'") +
                                      (AfterComma ? " after ','" : "") +
                                      "; this comment suppresses nothing"));
        Bad = true;
        break;
      }
      if (Code == "all" || Code == "ALL") {
        S.Entries.push_back({"all", CR, false});
      } else if (const RuleInfo *R = findRule(Code)) {
        S.Entries.push_back({std::string(R->Code), CR, false});
      } else {
        Invalid.push_back(invalid(CR, "unknown rule '" + std::string(Code) +
                                          "' in suppression comment" + suggestRule(Code) +
                                          "; it suppresses nothing"));
      }
      size_t Save = Q;
      while (Q < End && isBlank(T[Q]))
        ++Q;
      if (Q < End && T[Q] == ',') {
        ++Q;
        AfterComma = true;
        continue;
      }
      Q = Save;
      break;
    }
    if (Bad || S.Entries.empty())
      continue;
    if (S.Kind == Suppression::Line && !HasCode) {
      Invalid.push_back(invalid(WordRange,
                                "'disable=' covers its own line, which has no "
                                "code; use 'disable-next-line=' or "
                                "'disable-file='"));
      continue;
    }
    S.CommentRange = {uint32_t(CommentBegin), uint32_t(CommentEnd)};
    if (!HasCode && (!Block || CommentEnd == ContentEnd)) {
      // The comment is the whole line: remove the line.
      S.RemovalRange = {uint32_t(LineBegin),
                        uint32_t(LineEnd < T.size() ? LineEnd + 1 : LineEnd)};
    } else {
      size_t RB = CommentBegin;
      while (RB > LineBegin && isBlank(T[RB - 1]))
        --RB;
      S.RemovalRange = {uint32_t(RB), uint32_t(CommentEnd)};
    }
    Items.push_back(std::move(S)); // TargetLine set by finish()
  }
  Searched = std::max(Searched, std::min(To, T.size()));
}

void SuppressionSet::finish(std::vector<Diagnostic> &Invalid) {
  search(Buffer->text().size(), Invalid);
  // Lines are counted once the pass is over (a count during the lint's scan
  // would read the whole text again there); the comment's line is the
  // marker's.
  for (Suppression &S : Items) {
    unsigned Line = Buffer->lineCol(S.CommentRange.Begin).Line;
    S.TargetLine = S.Kind == Suppression::Line       ? Line
                   : S.Kind == Suppression::NextLine ? Line + 1
                                                     : 0;
  }
  std::stable_sort(Items.begin(), Items.end(),
                   [](const Suppression &A, const Suppression &B) {
                     return A.TargetLine < B.TargetLine;
                   });
}

bool SuppressionSet::suppresses(const Diagnostic &D) {
  if (Items.empty())
    return false;
  unsigned Line = Buffer->lineCol(D.Range.Begin).Line;
  bool Hit = false;
  auto Match = [&](Suppression &S) {
    for (Suppression::Entry &E : S.Entries)
      if (E.Code == "all" || E.Code == D.Code) {
        E.Used = true;
        Hit = true;
      }
  };
  // File-level items sort first (TargetLine 0).
  for (Suppression &S : Items) {
    if (S.TargetLine != 0)
      break;
    Match(S);
  }
  auto [B, E] = std::equal_range(
      Items.begin(), Items.end(), Line,
      [](const auto &X, const auto &Y) {
        if constexpr (std::is_same_v<std::decay_t<decltype(X)>, unsigned>)
          return X < Y.TargetLine;
        else
          return X.TargetLine < Y;
      });
  for (auto It = B; It != E; ++It)
    Match(*It);
  return Hit;
}

std::vector<Diagnostic> SuppressionSet::unused() const {
  std::vector<Diagnostic> Out;
  const RuleInfo &Rule = ruleInfo(rules::UnusedSuppression);
  std::string_view T = Buffer->text();
  for (const Suppression &S : Items) {
    std::vector<const Suppression::Entry *> Unused, Used;
    for (const Suppression::Entry &E : S.Entries) {
      // A suppression of X001 itself cannot be judged by X001.
      if (E.Code == Rule.Code || E.Used)
        Used.push_back(&E);
      else
        Unused.push_back(&E);
    }
    if (Unused.empty())
      continue;
    Diagnostic D;
    D.Level = Rule.DefaultSeverity;
    D.Code = std::string(Rule.Code);
    D.Range = {Unused.front()->Range.Begin, Unused.back()->Range.End};
    std::string List;
    for (const Suppression::Entry *E : Unused)
      List += (List.empty() ? "" : ", ") + E->Code;
    const char *Where = S.Kind == Suppression::File       ? "in this file"
                        : S.Kind == Suppression::NextLine ? "on the next line"
                                                          : "on this line";
    D.Message = "unused suppression: " + List + " reported nothing " + Where;
    if (Used.empty()) {
      D.Fixes.push_back({S.RemovalRange, ""});
    } else {
      std::string Keep;
      for (const Suppression::Entry *E : Used)
        Keep += (Keep.empty() ? "" : ",") +
                std::string(T.substr(E->Range.Begin, E->Range.End - E->Range.Begin));
      D.Fixes.push_back(
          {{S.Entries.front().Range.Begin, S.Entries.back().Range.End}, Keep});
    }
    Out.push_back(std::move(D));
  }
  std::sort(Out.begin(), Out.end(), [](const Diagnostic &A, const Diagnostic &B) {
    return A.Range.Begin < B.Range.Begin;
  });
  return Out;
}

} // namespace ptxlint
