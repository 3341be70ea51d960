//===- SourceBuffer.h - A named text buffer with a line table ---*- C++ -*-===//
#ifndef PTXLINT_SOURCEBUFFER_H
#define PTXLINT_SOURCEBUFFER_H

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ptxlint {

/// Owns the text of one input. Lines are found from a count of the newlines
/// before each 4 KB block, made on the first request for a line/column or
/// by a lint once it has a diagnostic (countLinesBefore), so linting a clean
/// file never pays for it: a request then counts within one block. A table of every line start cost 22 M instructions on a 13 MB
/// module to print a few dozen locations. After the first request the
/// buffer is read-only: threads may then ask at once.
class SourceBuffer {
public:
  SourceBuffer(std::string Name, std::string Text)
      : Name(std::move(Name)), Owned(std::move(Text)) {}
  /// Text owned elsewhere, e.g. a memory-mapped file, which Keep holds alive:
  /// no copy (copying a 100 MB input costs a page fault per 4 KB). Mapped:
  /// Text maps a file (private, read-only), whose pages dropBefore() may drop.
  SourceBuffer(std::string Name, std::string_view Text,
               std::shared_ptr<const void> Keep, bool Mapped = false)
      : Name(std::move(Name)), External(Text), Keep(std::move(Keep)),
        Mapped(Mapped) {}

  const std::string &name() const { return Name; }
  std::string_view text() const {
    return Keep ? External : std::string_view(Owned);
  }

  struct LineCol {
    unsigned Line;   ///< 1-based
    unsigned Column; ///< 1-based, in bytes
  };
  /// Line 1 starts after a UTF-8 byte order mark, which editors hide.
  LineCol lineCol(uint32_t Offset) const;
  /// As lineCol, the column counted in UTF-8 characters, what editors show
  /// and diagnostics print (UTF-8 continuation bytes are not counted).
  LineCol charLineCol(uint32_t Offset) const;
  /// The text of the 1-based line, without its terminator ("\n" or "\r\n").
  std::string_view lineText(unsigned Line) const;
  uint32_t lineStart(unsigned Line) const;

  /// For mapped text: a pass that reads the text front to back calls this
  /// as it goes, with the offset before which it will read no more; the
  /// whole pages from the pass's start (startPass) up to there leave
  /// memory, a megabyte or more at a time, and the kernel reads them again
  /// from the file if they are read again. The peak memory of a large
  /// module is then not its whole text. A no-op for text in memory. Not
  /// thread-safe: the lint's own thread calls it, between its passes.
  void dropBefore(uint32_t Offset) const;
  void startPass() const { DroppedTo = 0; }

  /// Counts the newlines of the blocks before Offset not counted yet, for
  /// lineCol(), and drops them behind as dropBefore() does. A lint that will
  /// print locations calls this in its last pass over the text, so that the
  /// first location asked maps no dropped text back whole. Not thread-safe,
  /// like dropBefore().
  void countLinesBefore(uint32_t Offset) const;

private:
  /// Bytes per block of the newline count.
  static constexpr uint32_t LineBlock = 4096;
  void countLines() const;
  /// Counts the blocks from the first not counted up to block To, front to
  /// back like a lint's pass: mapped text leaves memory behind it, so that
  /// one diagnostic does not bring a large module back whole (only the
  /// blocks around the lines printed come back).
  void countBlocks(size_t To) const;
  /// The offset where line 1 starts (after a byte order mark).
  uint32_t firstLineStart() const;
  /// The offset after the Nth newline (N >= 1), or the text's size.
  uint32_t afterNewline(uint32_t N) const;
  std::string Name;
  std::string Owned;
  std::string_view External;
  std::shared_ptr<const void> Keep;
  bool Mapped = false;
  mutable uint32_t DroppedTo = 0; ///< dropBefore()'s pass so far
  /// BlockNewlines[K]: the newlines in [0, K * LineBlock); one more entry
  /// after the last block, the newlines of the whole text.
  mutable std::vector<uint32_t> BlockNewlines;
};

} // namespace ptxlint
#endif
