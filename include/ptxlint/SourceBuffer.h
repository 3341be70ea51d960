//===- SourceBuffer.h - A named text buffer with a line table ---*- C++ -*-===//
#ifndef PTXLINT_SOURCEBUFFER_H
#define PTXLINT_SOURCEBUFFER_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptxlint {

/// Owns the text of one input. Line starts are computed lazily, on the first
/// request for a line/column, so linting a clean file never pays for them.
class SourceBuffer {
public:
  SourceBuffer(std::string Name, std::string Text)
      : Name(std::move(Name)), Text(std::move(Text)) {}

  const std::string &name() const { return Name; }
  std::string_view text() const { return Text; }

  struct LineCol {
    unsigned Line;   ///< 1-based
    unsigned Column; ///< 1-based, in bytes
  };
  LineCol lineCol(uint32_t Offset) const;
  /// The text of the 1-based line, without its terminator ("\n" or "\r\n").
  std::string_view lineText(unsigned Line) const;
  uint32_t lineStart(unsigned Line) const;

private:
  void buildLineTable() const;
  std::string Name;
  std::string Text;
  mutable std::vector<uint32_t> LineStarts;
};

} // namespace ptxlint
#endif
