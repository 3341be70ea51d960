//===- Render.h - Diagnostics as text -----------------------------*- C++ -*-===//
#ifndef PTXLINT_RENDER_H
#define PTXLINT_RENDER_H

#include "ptxlint/Diagnostic.h"
#include "ptxlint/SourceBuffer.h"

#include <string>
#include <vector>

namespace ptxlint {

struct TextStyle {
  bool Color = false;      ///< ANSI colours (the CLI decides: tty, NO_COLOR)
  bool ShowSource = true;  ///< the source line and the caret
  bool ShowFixIts = true;
  unsigned TabStop = 8;
};

/// clang's format: "file:line:col: error: message [code]", the source line
/// with tabs expanded, a caret under Range.Begin and '~' to Range.End, the
/// fix-it text under the caret, then the notes.
std::string renderText(const SourceBuffer &Buffer,
                       const std::vector<Diagnostic> &Diags,
                       const TextStyle &Style = {});

} // namespace ptxlint
#endif
