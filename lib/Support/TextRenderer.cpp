//===- TextRenderer.cpp - clang-style text diagnostics --------------------===//

#include "ptxlint/Render.h"

#include <algorithm>

namespace ptxlint {
namespace {

/// Whether byte C starts a character (is not a UTF-8 continuation byte).
bool isCharStart(char C) { return (static_cast<unsigned char>(C) & 0xC0) != 0x80; }

const char *const Reset = "\033[0m";
const char *const Bold = "\033[1m";

const char *colorOf(Severity S) {
  switch (S) {
  case Severity::Error:
  case Severity::Fatal:
    return "\033[1;31m";
  case Severity::Warning:
    return "\033[1;35m";
  case Severity::Note:
    return "\033[1;30m";
  default:
    return "\033[1;36m";
  }
}

class Renderer {
public:
  Renderer(const SourceBuffer &B, const TextStyle &S, std::string &Out)
      : Buf(B), Style(S), Out(Out) {}

  void diagnostic(const Diagnostic &D) {
    header(D.Level, D.Range, D.Message, D.Code);
    if (Style.ShowSource && !Buf.text().empty())
      snippet(D.Range, Style.ShowFixIts ? &D.Fixes : nullptr);
    for (const DiagNote &N : D.Notes) {
      if (N.Range) {
        header(Severity::Note, *N.Range, N.Message, "");
        if (Style.ShowSource)
          snippet(*N.Range, nullptr);
      } else {
        // A note without a location, as clang prints "note: ..." lines.
        paint(colorOf(Severity::Note));
        Out += "note: ";
        paint(Reset);
        Out += N.Message;
        Out += '\n';
      }
    }
  }

private:
  void paint(const char *Code) {
    if (Style.Color)
      Out += Code;
  }

  void header(Severity S, SourceRange R, const std::string &Msg,
              const std::string &Code) {
    SourceBuffer::LineCol LC = Buf.charLineCol(R.Begin);
    paint(Bold);
    Out += Buf.name();
    Out += ':' + std::to_string(LC.Line) + ':' + std::to_string(LC.Column) + ": ";
    paint(Reset);
    paint(colorOf(S));
    Out += severityName(S);
    Out += ": ";
    paint(Reset);
    paint(Bold);
    Out += Msg;
    paint(Reset);
    if (!Code.empty())
      Out += " [" + Code + "]";
    Out += '\n';
  }

  /// Display column (0-based) of byte Col in Line, with tabs expanded; a
  /// UTF-8 character takes one column.
  size_t displayColumn(std::string_view Line, size_t Col) const {
    size_t D = 0;
    for (size_t K = 0; K < Col && K < Line.size(); ++K)
      D = Line[K] == '\t' ? (D / Style.TabStop + 1) * Style.TabStop
                          : D + isCharStart(Line[K]);
    return D + (Col > Line.size() ? Col - Line.size() : 0);
  }

  void snippet(SourceRange R, const std::vector<FixIt> *Fixes) {
    SourceBuffer::LineCol LC = Buf.lineCol(R.Begin);
    std::string_view Line = Buf.lineText(LC.Line);
    // Very long lines (data initialisers) are clipped around the caret.
    constexpr size_t MaxShown = 240;
    size_t Start = 0;
    size_t CaretByte = LC.Column - 1;
    if (Line.size() > MaxShown && CaretByte > MaxShown / 2)
      Start = CaretByte - MaxShown / 2;
    std::string_view Shown = Line.substr(Start, MaxShown);
    std::string Expanded;
    size_t D = 0;
    for (char C : Shown) {
      if (C == '\t') {
        size_t Next = (D / Style.TabStop + 1) * Style.TabStop;
        Expanded.append(Next - D, ' ');
        D = Next;
      } else {
        unsigned char U = static_cast<unsigned char>(C);
        Expanded += (U < 0x20 || U == 0x7f) ? '?' : C;
        D += isCharStart(C);
      }
    }
    Out += Expanded;
    Out += '\n';
    size_t CaretCol = displayColumn(Shown, CaretByte - Start);
    uint32_t LineEndOffset = Buf.lineStart(LC.Line) + uint32_t(Line.size());
    uint32_t End = std::min(R.End, LineEndOffset);
    size_t EndCol = End > R.Begin
                        ? displayColumn(Shown, std::min<size_t>(End - Buf.lineStart(LC.Line) - Start, Shown.size()))
                        : CaretCol + 1;
    std::string Marks(CaretCol, ' ');
    Marks += '^';
    if (EndCol > CaretCol + 1)
      Marks.append(EndCol - CaretCol - 1, '~');
    paint("\033[1;32m");
    Out += Marks;
    paint(Reset);
    Out += '\n';
    if (!Fixes)
      return;
    for (const FixIt &F : *Fixes) {
      SourceBuffer::LineCol FL = Buf.lineCol(F.Range.Begin);
      if (FL.Line != LC.Line || F.Replacement.empty() ||
          F.Replacement.find('\n') != std::string::npos)
        continue; // a deletion shows no text under the caret
      // A clipped long line shows only [Start, Start + Shown.size()): a fix-it
      // outside it has no column there (before: unsigned wrap-around and a
      // std::length_error abort, found by fuzz/FuzzLint).
      size_t FixByte = FL.Column - 1;
      if (FixByte < Start || FixByte > Start + Shown.size())
        continue;
      size_t FixCol = displayColumn(Shown, FixByte - Start);
      paint("\033[0;32m");
      Out += std::string(FixCol, ' ') + F.Replacement;
      paint(Reset);
      Out += '\n';
    }
  }

  const SourceBuffer &Buf;
  const TextStyle &Style;
  std::string &Out;
};

} // namespace

std::string renderText(const SourceBuffer &Buffer,
                       const std::vector<Diagnostic> &Diags,
                       const TextStyle &Style) {
  std::string Out;
  Renderer R(Buffer, Style, Out);
  for (const Diagnostic &D : Diags)
    R.diagnostic(D);
  return Out;
}

} // namespace ptxlint
