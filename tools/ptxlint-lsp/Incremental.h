//===- Incremental.h - Re-lint only the function an edit touched -*- C++ -*-===//
//
// A large module is mostly function bodies, and ptxlint's rules judge each
// function on its own: the directives and module-scope declarations, plus
// the function itself, decide its diagnostics. So after an edit strictly
// inside one function body the server lints a much smaller module, the
// module-scope text with only the edited functions, maps the diagnostics
// back, and keeps every other function's diagnostics from before (shifted).
// Anything else (an edit at module scope or on a function's braces, a body
// whose braces no longer balance, a module with suppression comments, which
// may reach across functions) re-lints the whole module.
//
// ctest "lsp-incremental" checks that the result equals a full lint after
// every edit of a series (and over the corpus when it is there).
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_LSP_INCREMENTAL_H
#define PTXLINT_LSP_INCREMENTAL_H

#include "ptxlint/Diagnostic.h"
#include "ptxlint/Linter.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxlint::lsp {

/// A function definition at module scope: [Begin, End) runs from the start
/// of the line of its header to one past its closing brace; Open is its '{'.
struct FunctionSpan {
  uint32_t Begin = 0, Open = 0, End = 0;
};

/// The function definitions of a module in order, or nullopt when its layout
/// is not one the incremental path relies on (unbalanced braces, a header
/// sharing its line with other text, an unterminated comment or string).
std::optional<std::vector<FunctionSpan>> findFunctions(std::string_view Text);

class IncrementalLinter {
public:
  /// Records an edit of the text: [Begin, End) of the text before it was
  /// replaced by Inserted bytes.
  void edited(uint32_t Begin, uint32_t End, size_t Inserted);
  /// The next lint() lints the whole module (new text, new options).
  void invalidate() { Valid = false; }

  /// The diagnostics of Text (ranges are byte offsets into it) with Opts;
  /// only the edited functions are linted again when that is exact.
  const std::vector<Diagnostic> &lint(const std::string &Name, const std::string &Text,
                                      const LintOptions &Opts);

  /// Whether the last lint() took the incremental path (for tests, benches).
  bool lastWasIncremental() const { return LastIncremental; }

private:
  void full(const std::string &Name, const std::string &Text, const LintOptions &Opts);
  bool partial(const std::string &Name, const std::string &Text, const LintOptions &Opts);
  int owner(uint32_t Offset) const; ///< function index, -1: module scope

  std::vector<FunctionSpan> Functions;
  std::vector<bool> Dirty;
  std::vector<Diagnostic> Diags;
  bool Valid = false; ///< Functions and Diags describe the current text
  bool LastIncremental = false;
};

} // namespace ptxlint::lsp
#endif
