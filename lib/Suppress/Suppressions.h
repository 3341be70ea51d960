//===- Suppressions.h - "// ptxlint: disable=..." comments -------*- C++ -*-===//
//
//   inst;  // ptxlint: disable=Q101,O201      this line
//   // ptxlint: disable-next-line=Q101        the next line
//   // ptxlint: disable-file=M001,M002         the whole file (anywhere)
//
// Codes may be rule codes or names; "all" stands for every rule. A
// diagnostic is matched on the line of its caret (Range.Begin). Text after
// the list (separated by whitespace) is a free-form reason. Comments may be
// "//" or "/* ... */".
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_SUPPRESS_SUPPRESSIONS_H
#define PTXLINT_SUPPRESS_SUPPRESSIONS_H

#include "ptxlint/Diagnostic.h"
#include "ptxlint/SourceBuffer.h"

#include <string>
#include <vector>

namespace ptxlint {

struct Suppression {
  enum KindTy { Line, NextLine, File } Kind = Line;
  unsigned TargetLine = 0;   ///< 1-based line covered (0 for File)
  SourceRange CommentRange;  ///< from "//" (or "/*") to the end of the comment
  SourceRange RemovalRange;  ///< the comment plus the blanks before it
  struct Entry {
    std::string Code;        ///< canonical rule code, or "all"
    SourceRange Range;       ///< as written
    bool Used = false;
  };
  std::vector<Entry> Entries;
};

class SuppressionSet {
public:
  /// Finds the suppression comments of Buffer. Malformed ones become X002
  /// diagnostics in Invalid (not reported yet, so that the caller can route
  /// them through the same filter).
  static SuppressionSet parse(const SourceBuffer &Buffer,
                              std::vector<Diagnostic> &Invalid);

  /// parse() in steps, for a pass over the text (the lint's scan) that reads
  /// the comments while the text is in memory: an empty set, then search()
  /// as the pass goes, then finish(). Same set and Invalid as parse().
  explicit SuppressionSet(const SourceBuffer &B) : Buffer(&B) {}
  /// Reads the comments whose marker starts before To and after those read
  /// (a comment may reach past To: the whole text is read).
  void search(size_t To, std::vector<Diagnostic> &Invalid);
  /// Reads the rest and orders the set by line: only then is it complete.
  void finish(std::vector<Diagnostic> &Invalid);

  bool empty() const { return Items.empty(); }
  /// True if a suppression covers D; marks the matching entries used.
  bool suppresses(const Diagnostic &D);
  /// X001 diagnostics for every entry that suppressed nothing, with a fix
  /// that removes it (or the whole comment).
  std::vector<Diagnostic> unused() const;
  const std::vector<Suppression> &items() const { return Items; }

private:
  const SourceBuffer *Buffer;
  size_t Searched = 0; ///< where search() goes on
  std::vector<Suppression> Items;
};

} // namespace ptxlint
#endif
