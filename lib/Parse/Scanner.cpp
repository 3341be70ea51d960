//===- Scanner.cpp - Split a PTX module into statements ------------------===//

#include "Support/CharClass.h"
#include "Support/HugePages.h"
#include "Parse/Scanner.h"
#include "Parse/StatementFilter.h"

#include "ptxlint/RuleRegistry.h"
#include "ptxlint/SourceBuffer.h"

#include <algorithm>
#include <cstdio>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <cstring>

namespace ptxlint {
namespace {

/// Directives that end at the end of their line instead of at ';'.
bool isLineDirective(std::string_view W) {
  // By size first: every declaration asks (".reg", ".param", ".shared" are
  // ruled out by their size or by one comparison).
  switch (W.size()) {
  case 4:
    return W == ".loc";
  case 5:
    return W == ".file";
  case 7:
    return W == ".target";
  case 8:
    return W == ".version" || W == ".section" || W == ".maxntid" || W == ".reqntid" ||
           W == ".maxnreg";
  case 9:
    return W == ".noreturn";
  case 13:
    return W == ".address_size" || W == ".minnctapersm" || W == ".maxnctapersm";
  case 15:
    return W == ".maxclusterrank";
  case 16:
    return W == ".explicitcluster";
  case 18:
    return W == ".reqnctapercluster" || W == ".blocksareclusters";
  default:
    return false;
  }
}

/// Words that may lead a function header (".visible .entry f(...)") as well
/// as a variable declaration (".visible .global ..."): run() decides.
bool isLinkageOrFunction(std::string_view W) {
  return W == ".entry" || W == ".func" || W == ".visible" || W == ".extern" ||
         W == ".weak" || W == ".common";
}

enum class BlockKind { Plain, Function, Section };

/// Bytes that need attention inside an instruction or declaration: those
/// that end it or hide its end (';' '/' '"' '{' '}'), the line breaks where a
/// missing ';' shows, and, if Brackets, the brackets whose nesting the
/// scanner limits.
template <bool Brackets> struct SpecialTable {
  bool Table[256] = {};
  constexpr SpecialTable() {
    for (char C : {';', '/', '"', '{', '}', '\n'})
      Table[static_cast<unsigned char>(C)] = true;
    if (Brackets)
      for (char C : {'(', ')', '[', ']'})
        Table[static_cast<unsigned char>(C)] = true;
  }
  constexpr bool operator[](unsigned char C) const { return Table[C]; }
};

#if defined(__SSE2__)
/// The bytes of V that SpecialTable<false> marks (; / " { } and the line
/// break), as a vector mask.
[[gnu::always_inline]] inline __m128i specialBytes(__m128i V) {
  return _mm_or_si128(
      _mm_or_si128(_mm_cmpeq_epi8(V, _mm_set1_epi8(';')), _mm_cmpeq_epi8(V, _mm_set1_epi8('/'))),
      _mm_or_si128(
          _mm_or_si128(_mm_cmpeq_epi8(V, _mm_set1_epi8('"')), _mm_cmpeq_epi8(V, _mm_set1_epi8('{'))),
          _mm_or_si128(_mm_cmpeq_epi8(V, _mm_set1_epi8('}')), _mm_cmpeq_epi8(V, _mm_set1_epi8('\n')))));
}

/// The bytes of V that SpecialTable<false> marks, and '*' and 0x02, as a
/// bit mask (bit K for byte K), in fewer operations than specialBytes():
/// ';' and '{' are the bytes B with B | 0x40 == '{', '"' and the line break
/// those with B | 0x28 == '*' ('*' and 0x02 too: endsInWindows() hands a
/// statement with one to unusualStatement(), as any stop it does not know).
/// For the ';' search, which asks it of every 16 bytes of every statement.
[[gnu::always_inline]] inline unsigned specialMask(__m128i V) {
  const __m128i SemiBrace =
      _mm_cmpeq_epi8(_mm_or_si128(V, _mm_set1_epi8(0x40)), _mm_set1_epi8('{'));
  const __m128i QuoteNewline =
      _mm_cmpeq_epi8(_mm_or_si128(V, _mm_set1_epi8(0x28)), _mm_set1_epi8('*'));
  return unsigned(_mm_movemask_epi8(_mm_or_si128(
      _mm_or_si128(SemiBrace, QuoteNewline),
      _mm_or_si128(_mm_cmpeq_epi8(V, _mm_set1_epi8('/')), _mm_cmpeq_epi8(V, _mm_set1_epi8('}'))))));
}
#endif

/// The bytes of the 16 at W that SpecialTable<false> marks, as a bit mask
/// (bit K for W + K), those before N.
inline unsigned specialsAt(const char *T, uint32_t W, uint32_t N) {
#if defined(__SSE2__)
  if (W + 16 <= N)
    return specialMask(_mm_loadu_si128(reinterpret_cast<const __m128i *>(T + W)));
#endif
  static constexpr SpecialTable<false> Special;
  unsigned Mask = 0;
  for (uint32_t Q = W; Q < N && Q < W + 16; ++Q)
    Mask |= unsigned(Special[static_cast<unsigned char>(T[Q])]) << (Q - W);
  return Mask;
}

/// Every byte a statement's scan stops at: the first at or after P that
/// SpecialTable<true> marks (or N). With SSE2 (every x86-64) it tests 16
/// bytes per step; the table finishes the tail and serves other machines.
uint32_t skipOrdinary(const char *T, uint32_t P, uint32_t N) {
#if defined(__SSE2__)
  while (P + 16 <= N) {
    const __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(T + P));
    const __m128i Brackets =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(V, _mm_set1_epi8('(')),
                                  _mm_cmpeq_epi8(V, _mm_set1_epi8(')'))),
                     _mm_or_si128(_mm_cmpeq_epi8(V, _mm_set1_epi8('[')),
                                  _mm_cmpeq_epi8(V, _mm_set1_epi8(']'))));
    if (unsigned Mask = unsigned(_mm_movemask_epi8(_mm_or_si128(specialBytes(V), Brackets))))
      return P + uint32_t(__builtin_ctz(Mask));
    P += 16;
  }
#endif
  static constexpr SpecialTable<true> Special;
  while (P < N && !Special[static_cast<unsigned char>(T[P])])
    ++P;
  return P;
}

/// Bytes of an instruction's head word: identifier bytes, '.' and ':'.
struct HeadTable {
  bool Table[256] = {};
  constexpr HeadTable() {
    for (int C = 0; C < 256; ++C)
      Table[C] = (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
                 (C >= '0' && C <= '9') || C == '_' || C == '$' || C == '%' ||
                 C == '.' || C == ':';
  }
  constexpr bool operator[](unsigned char C) const { return Table[C]; }
};
constexpr HeadTable HeadChar;

#if defined(__SSE2__)
/// The bytes of V in [Lo, Lo + Count): B + (0x80 - Lo), wrapping, is below
/// -128 + Count as a signed byte (one add and one compare a range).
[[gnu::always_inline]] inline __m128i bytesInRange(__m128i V, char Lo, int Count) {
  return _mm_cmpgt_epi8(_mm_set1_epi8(char(-128 + Count)),
                        _mm_add_epi8(V, _mm_set1_epi8(char(0x80 - Lo))));
}

/// The bytes of V that may be in a head word (HeadTable): letters by their
/// lower-case form, '0'..':' (digits and ':'), '$' '%', '_' and '.';
/// DotColon: those that are '.' or ':', where an identifier ends. Inline:
/// the scanner's fast path and identAndHead() ask it of every statement.
[[gnu::always_inline]] inline __m128i headByteMask(__m128i V, __m128i &DotColon) {
  DotColon = _mm_or_si128(_mm_cmpeq_epi8(V, _mm_set1_epi8('.')),
                          _mm_cmpeq_epi8(V, _mm_set1_epi8(':')));
  return _mm_or_si128(
      _mm_or_si128(bytesInRange(_mm_or_si128(V, _mm_set1_epi8(0x20)), 'a', 26),
                   bytesInRange(V, '0', 11)),
      _mm_or_si128(_mm_or_si128(bytesInRange(V, '$', 2), _mm_cmpeq_epi8(V, _mm_set1_epi8('_'))),
                   DotColon));
}
#endif

/// The first byte at or after P that is not a head-word byte (N if none):
/// identifier bytes, '.' and ':' (".shared::cluster"). For the words of
/// directives and declarations (wordAt), 16 bytes per step with SSE2.
uint32_t skipHeadWord(const char *T, uint32_t P, uint32_t N) {
#if defined(__SSE2__)
  while (P + 16 <= N) {
    __m128i DotColon;
    const __m128i In = headByteMask(_mm_loadu_si128(reinterpret_cast<const __m128i *>(T + P)), DotColon);
    if (unsigned Out = ~unsigned(_mm_movemask_epi8(In)) & 0xFFFF)
      return P + uint32_t(__builtin_ctz(Out));
    P += 16;
  }
#endif
  while (P < N && HeadChar[static_cast<unsigned char>(T[P])])
    ++P;
  return P;
}

/// For a statement starting with an identifier at P: where the identifier
/// ends (IdentEnd: isIdentChar bytes, for the label test) and where the
/// head word it starts ends (HeadEnd: HeadChar bytes, '.' and ':' too), from
/// one 16-byte test where both end in it, as most do ("add.s32", "ld.global",
/// "$L__BB0_6:"). False, with nothing set, where fewer than 16 bytes are left
/// or the identifier is longer: then the byte loops find them.
inline bool identAndHead(const char *T, uint32_t P, uint32_t N, uint32_t &IdentEnd,
                         uint32_t &HeadEnd) {
#if defined(__SSE2__)
  if (P + 16 > N)
    return false;
  const __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(T + P));
  __m128i DotColon;
  const __m128i In = headByteMask(V, DotColon);
  unsigned NotHead = ~unsigned(_mm_movemask_epi8(In)) & 0xFFFF;
  unsigned NotIdent = NotHead | unsigned(_mm_movemask_epi8(DotColon));
  if (!NotIdent)
    return false;
  IdentEnd = P + uint32_t(__builtin_ctz(NotIdent));
  HeadEnd = NotHead ? P + uint32_t(__builtin_ctz(NotHead)) : skipHeadWord(T, P + 16, N);
  return true;
#else
  return false;
#endif
}

/// The first '\n' at or after P (or N): the end of a // comment. Inline,
/// 16 bytes per step: comments are short, and most of a call to memchr was
/// its call.
uint32_t findNewline(const char *T, uint32_t P, uint32_t N) {
#if defined(__SSE2__)
  const __m128i NL = _mm_set1_epi8('\n');
  while (P + 16 <= N) {
    unsigned Mask = unsigned(_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i *>(T + P)), NL)));
    if (Mask)
      return P + uint32_t(__builtin_ctz(Mask));
    P += 16;
  }
#endif
  while (P < N && T[P] != '\n')
    ++P;
  return P;
}

/// Whether a statement whose last token ends with Last, followed by a line
/// break, is complete before the next line starting at Next. Operands end
/// with a name, a number or a closing bracket; a next line that starts with
/// a guard '@', a label, or (after operands) any name cannot continue it, as
/// PTX names never contain '.' and operands are separated by ','. After a
/// bare opcode ("bra.uni" then "$L1;" on the next line) only a guard, an
/// opcode with qualifiers ("cp.async.wait_group") or an instruction without
/// operands ("ret;") starts a new statement.
bool lineEndsStatement(std::string_view T, uint32_t Last, bool HasOperands, uint32_t Next) {
  char L = T[Last];
  if (!(isIdentChar(L) || L == ')' || L == ']' || L == '}' || L == '>'))
    return false;
  uint32_t N = uint32_t(T.size());
  while (Next < N && isSpace(T[Next]))
    ++Next;
  if (Next >= N)
    return false;
  if (T[Next] == '@')
    return true;
  if (!isIdentStart(T[Next]) || T[Next] == '%')
    return false;
  uint32_t E = Next;
  while (E < N && isIdentChar(T[E]))
    ++E;
  bool Label = E < N && T[E] == ':' && !(E + 1 < N && T[E + 1] == ':');
  std::string_view Word = T.substr(Next, E - Next);
  size_t After = T.find_first_not_of(" \t", E);
  bool NoOperands = (Word == "ret" || Word == "exit" || Word == "trap") &&
                    After != std::string_view::npos && T[After] == ';';
  return HasOperands || Label || NoOperands || (E < N && T[E] == '.');
}

/// The first byte at or after P with its high bit set (or N). This reads
/// every byte of the module and almost never finds one: with SSE2, 64 bytes
/// per step (the OR of four blocks has a high bit where any of them has),
/// then 16 to find which.
uint32_t findNonAscii(const char *T, uint32_t P, uint32_t N) {
#if defined(__SSE2__)
  auto Block = [T](uint32_t Q) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i *>(T + Q));
  };
  while (P + 64 <= N &&
         !_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(Block(P), Block(P + 16)),
                                         _mm_or_si128(Block(P + 32), Block(P + 48)))))
    P += 64;
  while (P + 16 <= N) {
    int Mask = _mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i *>(T + P)));
    if (Mask)
      return P + uint32_t(__builtin_ctz(unsigned(Mask)));
    P += 16;
  }
#endif
  while (P < N && static_cast<unsigned char>(T[P]) < 0x80)
    ++P;
  return P;
}

} // namespace

NonAsciiCheck::NonAsciiCheck(std::string_view Text, DiagnosticEngine &Diags)
    : Text(Text), Diags(Diags), P(byteOrderMark(Text)) {}

uint32_t NonAsciiCheck::byteOrderMark(std::string_view Text) {
  return Text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
}

void NonAsciiCheck::checkBefore(uint32_t Offset) {
  const char *T = Text.data();
  const uint32_t N = uint32_t(Text.size());
  Offset = std::min(Offset, N);
  if (!Started) {
    Started = true;
    if (uint32_t Bom = byteOrderMark(Text))
      DiagBuilder(Diags, rules::NonAscii, {0, Bom},
                  "UTF-8 byte order mark: ptxas accepts only ASCII")
          .fix({0, Bom}, "");
  }
  while (Reported < MaxReported && P < Offset) {
    P = findNonAscii(T, P, Offset);
    if (P == Offset)
      break;
    unsigned char C = static_cast<unsigned char>(T[P]);
    uint32_t Len = (C >> 5) == 6 ? 2 : (C >> 4) == 14 ? 3 : (C >> 3) == 30 ? 4 : 1;
    uint32_t CodePoint = Len == 1 ? C : C & (0x7F >> Len);
    for (uint32_t K = 1; K < Len; ++K) {
      unsigned char Next = P + K < N ? static_cast<unsigned char>(T[P + K]) : 0;
      if ((Next & 0xC0) != 0x80) {
        Len = 1; // not UTF-8: show the byte
        break;
      }
      CodePoint = CodePoint << 6 | (Next & 0x3F);
    }
    // Overlong forms and surrogates are not UTF-8 either.
    constexpr uint32_t Least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (Len > 1 && (CodePoint < Least[Len] || CodePoint > 0x10FFFF ||
                    (CodePoint >= 0xD800 && CodePoint <= 0xDFFF)))
      Len = 1;
    char Buf[16];
    if (Len == 1)
      std::snprintf(Buf, sizeof Buf, "byte 0x%02X", C);
    else
      std::snprintf(Buf, sizeof Buf, "U+%04X", CodePoint);
    std::string Shown = Len == 1 ? Buf : std::string(Buf) + " '" + std::string(Text.substr(P, Len)) + "'";
    bool Last = ++Reported == MaxReported;
    DiagBuilder(Diags, rules::NonAscii, {P, P + Len},
                "non-ASCII " + Shown +
                    ": ptxas accepts only ASCII, in comments and strings too" +
                    (Last ? " (further lines not reported)" : ""));
    // On from the next line (perhaps past Offset: a later step goes on there).
    const void *NL = std::memchr(T + P, '\n', N - P);
    P = NL ? uint32_t(static_cast<const char *>(NL) - T) + 1 : N;
  }
}

namespace {

class ScannerImpl {
public:
  ScannerImpl(std::string_view Text, Module &M, DiagnosticEngine &Diags,
              const ScanLimits &Limits, uint32_t Start)
      : T(Text), N(uint32_t(Text.size())), P(Start), M(M), Diags(Diags),
        Limits(Limits) {}

  void run();

private:
  // --- low-level helpers --------------------------------------------------
  /// Skips whitespace and comments; returns false on an unterminated comment.
  void skipSpaceAndComments();
  /// Skips a comment starting at P if there is one; returns true if skipped.
  bool skipComment();
  void skipString();
  std::string_view wordAt(uint32_t P) const;
  /// Where the last non-blank byte of [From, To) ends, or Before if none.
  uint32_t lastTokenEnd(uint32_t From, uint32_t To, uint32_t Before) const {
    for (uint32_t Q = To; Q > From; --Q)
      if (!isSpace(T[Q - 1]))
        return Q;
    return Before;
  }

  // --- statement kinds ----------------------------------------------------
  void lineStatement(StatementKind K);
  void functionHeader();
  /// IdentEnd, HeadEnd: where the identifier at P and the head word end,
  /// if the caller found them.
  void terminatedStatement(StatementKind K, uint32_t IdentEnd = 0,
                           uint32_t HeadEnd = 0);
  bool fastStatement();
  bool endsAtSemicolon(StatementKind K, uint32_t B, uint32_t HeadB, uint32_t HeadE);
  /// endsAtSemicolon() from W, a 16-byte look at or before the statement's
  /// start, and Mask, the bytes of it that SpecialTable<false> marks from
  /// the start on (specialsAt()): the fast path has that look at hand.
  /// OpSize: as emit() takes it.
  bool endsInWindows(StatementKind K, uint32_t B, uint32_t HeadB, uint32_t HeadE, uint32_t W,
                     unsigned Mask, uint32_t OpSize = 0);
  /// The rest of a statement that endsAtSemicolon() could
  /// not end, byte class by byte class from P (after its head). Out of
  /// line: the fast path ends nearly every statement, and its frame stays
  /// small without this one's state.
  __attribute__((noinline)) void unusualStatement(StatementKind K, uint32_t B,
                                                  uint32_t HeadB, uint32_t HeadE);
  /// Inline: the fast path's kind is a constant there, and the candidate
  /// test folds to the prefix test. OpSize: the size of an instruction's
  /// opcode word (its head's bytes before the first '.'), where the caller
  /// knows it (0 where not).
  __attribute__((always_inline)) void emit(StatementKind K, uint32_t B, uint32_t E,
                                           uint32_t HeadB, uint32_t HeadE, uint32_t OpSize = 0);
  /// The last statement emitted may need a parse (out of line: few do):
  /// listed if its head says so, asked now, while its text is in the cache
  /// and, for a mapped module, in memory.
  __attribute__((noinline)) void addParseCandidate(StatementKind K, uint32_t HeadB,
                                                   uint32_t HeadSize) {
    if (headNeedsFullParse(K, std::string_view(T.data() + HeadB, HeadSize), T.data() + N))
      M.ParseCandidates.push_back(uint32_t(M.Statements.size() - 1));
  }

  void error(rules::Id Rule, SourceRange R, std::string Msg);

  std::string_view T;
  uint32_t N;
  uint32_t P;
  Module &M;
  DiagnosticEngine &Diags;
  const ScanLimits &Limits;

  std::vector<std::pair<BlockKind, uint32_t>> Blocks; // kind, '{' offset
  BlockKind PendingBlock = BlockKind::Plain;
  bool InSection = false; ///< the innermost open block is a .section's
  int32_t CurrentFunction = -1;
  size_t FunctionDepth = 0; ///< Blocks.size() when the body opened
  unsigned ErrorBudget = 50;
};

void ScannerImpl::error(rules::Id Rule, SourceRange R, std::string Msg) {
  if (ErrorBudget == 0)
    return;
  if (--ErrorBudget == 0) {
    DiagBuilder(Diags, Rule, R,
                "too many syntax errors; giving up on the rest of the file");
    P = N; // stop scanning: the input is not PTX
    return;
  }
  DiagBuilder(Diags, Rule, R,
              std::move(Msg));
}

bool ScannerImpl::skipComment() {
  if (P + 1 >= N || T[P] != '/')
    return false;
  if (T[P + 1] == '/') {
    P = findNewline(T.data(), P + 2, N);
    return true;
  }
  if (T[P + 1] == '*') {
    uint32_t Start = P;
    size_t End = T.find("*/", P + 2);
    if (End == std::string_view::npos) {
      error(rules::SyntaxError, {Start, Start + 2}, "unterminated '/*' comment");
      P = N;
    } else {
      P = uint32_t(End + 2);
    }
    return true;
  }
  return false;
}

void ScannerImpl::skipSpaceAndComments() {
  while (P < N) {
    if (isSpace(T[P])) {
      ++P;
      continue;
    }
    if (T[P] != '/' || !skipComment())
      return;
  }
}

void ScannerImpl::skipString() {
  // P is at the opening quote.
  uint32_t Start = P++;
  while (P < N && T[P] != '"' && T[P] != '\n') {
    if (T[P] == '\\' && P + 1 < N)
      ++P;
    ++P;
  }
  if (P < N && T[P] == '"') {
    ++P;
    return;
  }
  error(rules::SyntaxError, {Start, Start + 1}, "missing terminating '\"'");
}

std::string_view ScannerImpl::wordAt(uint32_t Q) const {
  uint32_t E = skipHeadWord(T.data(), Q, N); // a leading '.' included
  return T.substr(Q, E - Q);
}

inline void ScannerImpl::emit(StatementKind K, uint32_t B, uint32_t E, uint32_t HeadB,
                       uint32_t HeadE, uint32_t OpSize) {
  // Filled in place: a Statement built aside was assembled byte by byte
  // (the kind and the head's size share a word) and then copied.
  Statement &S = M.Statements.emplace_back();
  S.Kind = K;
  // A head of 16 MB is no instruction's: its first 16 MB tell as much.
  S.HeadSize = std::min(HeadE - HeadB, Statement::MaxHeadSize);
  S.Range = {B, E};
  S.HeadBegin = HeadB;
  if (!mayNeedFullParse(K, T.data() + HeadB, S.HeadSize))
    return;
  // The fast path knows where an instruction's opcode word ends: its row
  // by one hash lookup here, not a call that finds it again (the scan's time
  // follows its instruction count: -0.2 ms of async-dense's 3.6).
  if (OpSize && OpSize <= 8 && HeadB + 8 <= N) {
    const int Slot = opcodeSlot(opcodeKey(T.data() + HeadB, OpSize));
    if (Slot < 0)
      return;
    if (!ParsedOpcodeSlots.Qualifiers[Slot]) {
      M.ParseCandidates.push_back(uint32_t(M.Statements.size() - 1));
      return;
    }
  }
  addParseCandidate(K, HeadB, S.HeadSize);
}

/// A statement that ends at the end of its line (a trailing // comment is
/// not part of it).
void ScannerImpl::lineStatement(StatementKind K) {
  uint32_t B = P;
  std::string_view Head = wordAt(P);
  uint32_t E = P;
  while (E < N && T[E] != '\n') {
    if (T[E] == '"') {
      uint32_t Save = P;
      P = E;
      skipString();
      E = P;
      P = Save;
      continue;
    }
    if (T[E] == '/' && E + 1 < N && (T[E + 1] == '/' || T[E + 1] == '*'))
      break;
    if (K == StatementKind::SectionData && T[E] == '}')
      break;
    ++E;
  }
  uint32_t End = E;
  while (End > B && isSpace(T[End - 1]))
    --End;
  emit(K, B, End, B, B + uint32_t(Head.size()));
  if (Head == ".section")
    PendingBlock = BlockKind::Section;
  P = E;
}

/// ".visible .entry name(...) .maxntid 1,1,1 {" or "... ;" (a prototype).
void ScannerImpl::functionHeader() {
  uint32_t B = P;
  int Paren = 0;
  uint32_t HeadEnd = B + uint32_t(wordAt(B).size());
  while (P < N) {
    // Parameter lists are long: skip ordinary bytes 16 at a time.
    P = skipOrdinary(T.data(), P, N);
    if (P >= N)
      break;
    char C = T[P];
    if (C == '/' && skipComment())
      continue;
    if (C == '"') {
      skipString();
      continue;
    }
    if (C == '(')
      ++Paren;
    else if (C == ')')
      --Paren;
    else if (Paren <= 0 && (C == '{' || C == ';'))
      break;
    else if (C == '}') {
      break; // malformed; let the caller report the brace
    }
    ++P;
  }
  bool Prototype = P < N && T[P] == ';';
  uint32_t E = Prototype ? P + 1 : P;
  uint32_t End = E;
  while (End > B && isSpace(T[End - 1]))
    --End;
  emit(StatementKind::FunctionHeader, B, End, B, HeadEnd);
  Function F;
  F.HeaderStatement = uint32_t(M.Statements.size() - 1);
  F.IsPrototype = Prototype;
  F.FirstStatement = F.EndStatement = F.HeaderStatement + 1;
  M.Functions.push_back(F);
  if (Prototype) {
    P = E;
  } else {
    PendingBlock = BlockKind::Function;
  }
}

/// An instruction or declaration: ends at ';' outside braces. A '}' at depth 0
/// or the end of input means the ';' is missing.
void ScannerImpl::terminatedStatement(StatementKind K, uint32_t IdentEnd,
                                      uint32_t HeadEnd) {
  uint32_t B = P;
  uint32_t HeadB = P;
  // Skip a guard predicate "@!%p" to find the opcode.
  if (K == StatementKind::Instruction && T[P] == '@') {
    uint32_t Q = P + 1;
    while (Q < N && (T[Q] == '!' || isSpace(T[Q])))
      ++Q;
    while (Q < N && isIdentChar(T[Q]))
      ++Q;
    while (Q < N && isSpace(T[Q]))
      ++Q;
    HeadB = Q;
  }
  // The caller may have read the identifier the head starts with, or the
  // whole head.
  uint32_t HeadE = HeadB == B && IdentEnd > HeadB ? IdentEnd : HeadB;
  if (HeadB == B && HeadEnd > HeadB) {
    HeadE = HeadEnd;
  } else {
    // A byte loop: instruction heads are short ("add.s32"), and
    // skipHeadWord() here cost more than it saved on CUTLASS code
    // (measured). Four bytes per test first, without branching between them
    // (long heads such as "cp.async.bulk.tensor.2d..." are common in
    // async-dense code).
    auto Head = [&](uint32_t Q) { return unsigned(HeadChar[static_cast<unsigned char>(T[Q])]); };
    while (HeadE + 4 <= N && (Head(HeadE) & Head(HeadE + 1) & Head(HeadE + 2) & Head(HeadE + 3)))
      HeadE += 4;
    if (HeadE + 4 <= N) {
      while (Head(HeadE)) // one of these four bytes ends the head
        ++HeadE;
    } else {
      while (HeadE < N && Head(HeadE))
        ++HeadE;
    }
  }
  // The head has none of the bytes the loops after it look for.
  P = HeadE;
  if (!endsAtSemicolon(K, B, HeadB, HeadE))
    unusualStatement(K, B, HeadB, HeadE);
}

/// Most statements have no comment, string or line break before their ';',
/// only balanced braces (vector operands), and are too short to nest brackets
/// past the limit: then the ';' ends them, found without stopping at each
/// bracket, and this emits the statement. False for anything else, which
/// unusualStatement() takes from the head on (P).
inline bool ScannerImpl::endsAtSemicolon(StatementKind K, uint32_t B, uint32_t HeadB,
                                         uint32_t HeadE) {
  return endsInWindows(K, B, HeadB, HeadE, P, specialsAt(T.data(), P, N));
}

/// The bytes that endsAtSemicolon() stops at, walked from the masks of
/// 16-byte looks at W, W + 16, ...: each load waits on W alone, and a brace
/// of a vector operand is the next bit of a mask, not a search of its own
/// from that brace. (The head has none of those bytes: from the start on is
/// from HeadE on.)
inline bool ScannerImpl::endsInWindows(StatementKind K, uint32_t B, uint32_t HeadB,
                                       uint32_t HeadE, uint32_t W, unsigned Mask, uint32_t OpSize) {
  uint32_t OpenBraces = 0;
  for (;;) {
    while (!Mask) {
      W += 16;
      if (W >= N) {
        P = HeadE;
        return false; // no ';' before the end
      }
      Mask = specialsAt(T.data(), W, N);
    }
    const uint32_t Semi = W + uint32_t(__builtin_ctz(Mask));
    Mask &= Mask - 1;
    if (Semi - HeadE >= Limits.MaxStatementNesting)
      break;
    const char C = T[Semi];
    if (C == ';') {
      P = Semi + 1;
      emit(K, B, P, HeadB, HeadE, OpSize);
      return true;
    }
    if (C == '{')
      ++OpenBraces;
    else if (C == '}' && OpenBraces > 0)
      --OpenBraces;
    else
      break;
  }
  P = HeadE;
  return false;
}

void ScannerImpl::unusualStatement(StatementKind K, uint32_t B, uint32_t HeadB,
                                   uint32_t HeadE) {
  // ';' ends the statement whatever the bracket depth: PTX has no ';' inside
  // operands, and an unclosed '[' must not swallow the rest of the file.
  // Only '{' depth is tracked, to tell a vector's '}' from a block's '}'.
  uint32_t Braces = 0, Nesting = 0;
  bool TooDeep = false;
  // Where the last token seen ends (comments excluded), and where the bytes
  // not yet looked at start: a missing ';' is reported after that token.
  uint32_t TokenEnd = HeadE, Seen = P;
  while (P < N) {
    // Most bytes of a statement are ordinary: skip them 16 at a time.
    P = skipOrdinary(T.data(), P, N);
    if (P >= N)
      break;
    TokenEnd = lastTokenEnd(Seen, P, TokenEnd);
    Seen = P;
    char C = T[P];
    if (C == '\n') {
      if (Braces == 0 && Nesting == 0 &&
          TokenEnd > B && lineEndsStatement(T, TokenEnd - 1, TokenEnd > HeadE, P + 1))
        break; // the next line is a new statement: this one lacks its ';'
      ++P;
      continue;
    }
    if (C == '/') {
      if (!skipComment())
        ++P;
      else
        Seen = P;
      continue;
    }
    if (C == '"') {
      skipString();
      TokenEnd = Seen = P;
      continue;
    }
    if (C == ';') {
      ++P;
      emit(K, B, P, HeadB, HeadE);
      if (TooDeep)
        M.Statements.back().ParsedIndex = -2; // mark: never parse
      return;
    }
    if (C == '{' || C == '(' || C == '[') {
      Braces += C == '{';
      if (++Nesting > Limits.MaxStatementNesting && !TooDeep) {
        TooDeep = true;
        error(rules::InputTooLarge, {P, P + 1},
              "brackets nested more than " +
                  std::to_string(Limits.MaxStatementNesting) +
                  " deep in one statement");
      }
    } else { // '}' ')' ']'
      if (C == '}') {
        if (Braces == 0)
          break; // block close: the statement lacks its ';'
        --Braces;
      }
      if (Nesting > 0)
        --Nesting;
    }
    ++P;
  }
  // error() sets P = N when the error budget runs out, and the loop may then
  // step once more: never read past the buffer (found by fuzz/FuzzScanner).
  if (P > N)
    P = N;
  // The statement ends after its last token: a trailing comment is not part
  // of it, and the fix puts the ';' before the comment.
  uint32_t LastTokenEnd = lastTokenEnd(Seen, P, TokenEnd);
  // Missing ';': report after the last token, as a compiler does.
  emit(K, B, LastTokenEnd, HeadB, HeadE);
  M.Statements.back().ParsedIndex = -2;
  DiagBuilder(Diags, rules::MissingSemicolon, {LastTokenEnd, LastTokenEnd},
              K == StatementKind::Instruction
                  ? "expected ';' after instruction"
                  : "expected ';' after declaration")
      .fix({LastTokenEnd, LastTokenEnd}, ";");
}

/// Most statements are an instruction, a label or a declaration after a
/// line break and indentation, or a // comment: this takes one from P as
/// run()'s general dispatch would, from one look at its first 16 bytes for
/// the whitespace, the identifier the statement starts with (for the label
/// test) and its head word. False, with P at the first byte that is not
/// whitespace if it found one, for anything else (a brace, a line directive,
/// a function header, a long identifier, a statement in a .section, the end
/// of the text): the general dispatch takes it.
inline bool ScannerImpl::fastStatement() {
#if defined(__SSE2__)
  if (P + 16 > N || InSection)
    return false;
  const char *Text = T.data();
  const __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(Text + P));
  // isSpace: ' ' and '\t'..'\r'.
  const __m128i Space =
      _mm_or_si128(_mm_cmpeq_epi8(V, _mm_set1_epi8(' ')), bytesInRange(V, '\t', 5));
  unsigned NotSpace = ~unsigned(_mm_movemask_epi8(Space)) & 0xFFFF;
  if (!NotSpace) {
    // 16 blanks (the padding before a trailing comment): the next look
    // goes on after them, not a byte loop of the general dispatch.
    P += 16;
    return true;
  }
  const unsigned S = unsigned(__builtin_ctz(NotSpace));
  const uint32_t Start = P + S;
  P = Start;
  const char C = Text[Start];
  const bool Word = isIdentStart(C); // an instruction or a label
  if (!Word && C != '.') {
    if (C == '@') { // a guard
      terminatedStatement(StatementKind::Instruction);
      return true;
    }
    if (C != '/' || Start + 1 >= N || Text[Start + 1] != '/')
      return false;
    // The comment's end from this look too where it lies in it (the first
    // '\n' after Start is after "//"), else from the bytes after it: as the
    // ';' below, out of the chain of dependent steps.
    const unsigned NL =
        unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(V, _mm_set1_epi8('\n')))) & (~0u << S);
    P = NL ? Start - S + uint32_t(__builtin_ctz(NL)) : findNewline(Text, Start - S + 16, N);
    return true;
  }
  __m128i DotColon;
  const __m128i In = headByteMask(V, DotColon);
  const unsigned From = ~0u << S; // the whitespace before Start is no head
  // Where the ';' search starts: the first byte at or after the head that
  // SpecialTable<false> marks is the first at or after Start (a head
  // has none of those bytes), so it is found from this look and the bytes
  // after it, not from the head's end. The scan's time is a chain of
  // dependent steps, each statement's start waiting on the previous one's
  // ';': with the head's end out of that chain (long heads such as
  // "cp.async.bulk.tensor..." take a second look), the scan alone took
  // 11-22 % less time on the real modules.
  const unsigned FirstMask = specialMask(V) & From;
  unsigned NotHead = ~unsigned(_mm_movemask_epi8(In)) & 0xFFFF & From;
  if (!Word) {
    // A directive or declaration: its head is its first word. Line
    // directives and the words that may lead a function header go to the
    // general dispatch.
    const uint32_t WordEnd = NotHead ? Start - S + uint32_t(__builtin_ctz(NotHead))
                                     : skipHeadWord(Text, Start - S + 16, N);
    std::string_view W = T.substr(Start, WordEnd - Start);
    if (isLineDirective(W) || isLinkageOrFunction(W))
      return false;
    StatementKind K = W == ".pragma" ? StatementKind::Directive : StatementKind::Declaration;
    if (!endsInWindows(K, Start, Start, WordEnd, Start - S, FirstMask))
      unusualStatement(K, Start, Start, WordEnd);
    return true;
  }
  unsigned NotIdent = (NotHead | unsigned(_mm_movemask_epi8(DotColon))) & From;
  if (!NotIdent)
    return false; // an identifier of 16 bytes or more
  const uint32_t IdentEnd = P - S + uint32_t(__builtin_ctz(NotIdent));
  if (IdentEnd < N && Text[IdentEnd] == ':' && !(IdentEnd + 1 < N && Text[IdentEnd + 1] == ':')) {
    emit(StatementKind::Label, Start, IdentEnd + 1, Start, IdentEnd);
    P = IdentEnd + 1;
    return true;
  }
  const uint32_t HeadEnd = NotHead ? Start - S + uint32_t(__builtin_ctz(NotHead))
                                   : skipHeadWord(Text, Start - S + 16, N);
  // The opcode word's size where the identifier ends it (not at "::").
  const uint32_t OpSize = Text[IdentEnd] == ':' ? 0 : IdentEnd - Start;
  if (!endsInWindows(StatementKind::Instruction, Start, Start, HeadEnd, Start - S, FirstMask, OpSize))
    unusualStatement(StatementKind::Instruction, Start, Start, HeadEnd);
  return true;
#else
  return false;
#endif
}

void ScannerImpl::run() {
  while (true) {
    if (fastStatement())
      continue;
    skipSpaceAndComments();
    if (P >= N)
      break;
    char C = T[P];

    if (C == '{') {
      Blocks.push_back({PendingBlock, P});
      InSection = PendingBlock == BlockKind::Section;
      if (PendingBlock == BlockKind::Function && CurrentFunction < 0) {
        CurrentFunction = int32_t(M.Functions.size() - 1);
        FunctionDepth = Blocks.size();
      }
      emit(StatementKind::BlockOpen, P, P + 1, P, P + 1);
      if (CurrentFunction >= 0 && Blocks.size() == FunctionDepth)
        M.Functions[CurrentFunction].FirstStatement =
            uint32_t(M.Statements.size());
      PendingBlock = BlockKind::Plain;
      ++P;
      continue;
    }
    if (C == '}') {
      if (Blocks.empty()) {
        error(rules::UnbalancedBrace, {P, P + 1}, "extraneous closing brace ('}')");
        ++P;
        continue;
      }
      emit(StatementKind::BlockClose, P, P + 1, P, P + 1);
      if (CurrentFunction >= 0 && Blocks.size() == FunctionDepth) {
        M.Functions[CurrentFunction].EndStatement = uint32_t(M.Statements.size());
        CurrentFunction = -1;
      }
      Blocks.pop_back();
      InSection = !Blocks.empty() && Blocks.back().first == BlockKind::Section;
      // The scan never reads before the statement it is at. (Here, not at
      // every statement: a test per statement cost 3 % of the scan.) No
      // function is open or waits for its body: every range is final.
      if (CurrentFunction < 0 && PendingBlock != BlockKind::Function && Limits.Passed)
        Limits.Passed(P);
      ++P;
      continue;
    }
    if (InSection) {
      lineStatement(StatementKind::SectionData);
      continue;
    }
    if (C == '.') {
      std::string_view W = wordAt(P);
      if (isLineDirective(W)) {
        lineStatement(StatementKind::Directive);
        continue;
      }
      // Leading attribute words decide between a function header and a
      // variable declaration: ".visible .entry" vs ".visible .global".
      uint32_t Q = P;
      bool IsFunction = false;
      for (std::string_view X = W;;) {
        if (X == ".entry" || X == ".func") {
          IsFunction = true;
          break;
        }
        if (X != ".visible" && X != ".extern" && X != ".weak" &&
            X != ".common")
          break;
        Q += uint32_t(X.size());
        while (Q < N && isSpace(T[Q]))
          ++Q;
        if (Q >= N || T[Q] != '.')
          break;
        X = wordAt(Q);
      }
      if (IsFunction) {
        functionHeader();
        continue;
      }
      terminatedStatement(W == ".pragma" ? StatementKind::Directive
                                         : StatementKind::Declaration,
                          0, P + uint32_t(W.size()));
      continue;
    }
    if (isIdentStart(C)) {
      // A label is an identifier immediately followed by ':' (not '::').
      uint32_t Q, HeadE = 0;
      if (!identAndHead(T.data(), P, N, Q, HeadE))
        for (Q = P; Q < N && isIdentChar(T[Q]);)
          ++Q;
      if (Q < N && T[Q] == ':' && !(Q + 1 < N && T[Q + 1] == ':')) {
        emit(StatementKind::Label, P, Q + 1, P, Q);
        P = Q + 1;
        continue;
      }
      terminatedStatement(StatementKind::Instruction, Q, HeadE);
      continue;
    }
    if (C == '@') {
      terminatedStatement(StatementKind::Instruction);
      continue;
    }
    if (C == ';') { // an empty statement is legal
      ++P;
      continue;
    }
    // Not PTX: report once and resynchronise at the next line (a non-ASCII
    // byte already has its S005).
    uint32_t Bad = P;
    unsigned char U = static_cast<unsigned char>(C);
    if (U >= 0x80) {
      const void *NL = std::memchr(T.data() + P, '\n', N - P);
      P = NL ? uint32_t(static_cast<const char *>(NL) - T.data()) + 1 : N;
      continue;
    }
    std::string Shown;
    if (U >= 0x20 && U < 0x7f)
      Shown = std::string("'") + C + "'";
    else {
      char Buf[8];
      std::snprintf(Buf, sizeof Buf, "0x%02X", U);
      Shown = std::string("byte ") + Buf;
    }
    error(rules::SyntaxError, {Bad, Bad + 1},
          "unexpected " + Shown + " at the start of a statement");
    const void *NL = std::memchr(T.data() + P, '\n', N - P);
    P = NL ? uint32_t(static_cast<const char *>(NL) - T.data()) + 1 : N;
  }
  if (!Blocks.empty() && ErrorBudget > 0) {
    uint32_t Open = Blocks.back().second;
    error(rules::UnbalancedBrace, {Open, Open + 1},
          "'{' is never closed (" + std::to_string(Blocks.size()) +
              " block(s) open at end of file)");
  }
  // Close a function left open, also when the error budget ran out (else
  // EndStatement < FirstStatement; found by fuzz/FuzzScanner).
  if (CurrentFunction >= 0)
    M.Functions[CurrentFunction].EndStatement = uint32_t(M.Statements.size());
}

} // namespace

void scanModule(std::string_view Text, Module &M, DiagnosticEngine &Diags,
                const ScanLimits &Limits) {
  M.Text = Text;
  if (Text.size() >= UINT32_MAX) {
    DiagBuilder(Diags, rules::InputTooLarge, {0, 0},
                "input is larger than 4 GiB; ptxlint reads at most 4 GiB per file");
    return;
  }
  // A caller that reserved the table keeps a window of it
  // (StatementTable::dropBefore()); else the whole module is kept.
  if (M.Statements.capacity() == 0) {
    // Rough guess: one statement per 30 bytes keeps reallocations rare.
    M.Statements.reserve(Text.size() / 30 + 16);
    // The parse candidates (4 bytes each) are not reserved: room for one per
    // statement, the most there can be, lay mostly unfilled inside the heap's
    // huge pages (Driver.cpp), which are resident whole (async-dense's peak
    // 21.1 -> 19.2 MB without it).
    // Huge pages (2,150 fewer page faults on CUTLASS 77's 8.7 MB table) only
    // over as many statements as a compiled module has at most (nvcc writes
    // 37-46 bytes a statement), not the whole reservation: a huge page is
    // resident whole once touched, and one the table ended early in held up to
    // 2 MB unused (FA3 paged/split's 1.5 MB table peaked 0.5-0.8 MB higher in
    // one run of five).
    adviseHugePages(M.Statements.begin(),
                    std::min(M.Statements.capacity(), Text.size() / 36) * sizeof(Statement));
  }
  if (!Limits.NonAsciiByCaller)
    NonAsciiCheck(Text, Diags).checkBefore(uint32_t(Text.size()));
  ScannerImpl(Text, M, Diags, Limits, NonAsciiCheck::byteOrderMark(Text)).run();
}

} // namespace ptxlint
