//===- Snippet.h - An asm statement as a PTX module --------------*- C++ -*-===//
//
// The template of an asm statement becomes the body of a small PTX function:
//   %N, %[name]   a register %_N declared from its constraint: r .b32, l .b64,
//                 h .b16, f .f32, d .f64, q .b128 ("=", "+", "&" and a tied
//                 operand's digit take the type of what they name)
//   n             the immediate itself when its expression is an integer
//                 literal or a constant the file names (scanNamedConstants),
//                 under integer casts; otherwise 0, and nothing said about
//                 it is reported
//   %%  %=        '%' and a number (the statement's unique id)
// Every byte of the snippet knows the byte of the C++ file it came from.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_INLINEASM_SNIPPET_H
#define PTXLINT_INLINEASM_SNIPPET_H

#include "InlineAsm/AsmScanner.h"

#include <optional>
#include <string>
#include <vector>

namespace ptxlint {
namespace inlineasm {

constexpr uint32_t NoOffset = ~uint32_t(0);

struct Snippet {
  std::string Text;
  std::vector<uint32_t> Map;   ///< per byte of Text: C++ offset or NoOffset
  uint32_t BodyBegin = 0, BodyEnd = 0; ///< the template's bytes in Text
  /// Snippet ranges whose text is a stand-in (an immediate of unknown value):
  /// diagnostics about them are dropped.
  std::vector<std::pair<uint32_t, uint32_t>> StandIns;
  /// A %N or %[name] the operand lists lack: its C++ range and the message.
  struct BadReference {
    uint32_t Begin, End;
    std::string Message;
  };
  std::vector<BadReference> BadReferences;
  /// Where each operand reference went in Text: [Begin, End) and its index.
  struct Reference {
    uint32_t Begin, End;
    size_t Operand;
  };
  std::vector<Reference> References;
};

/// Builds the PTX module of S; Constants are the file's named constants.
Snippet buildSnippet(const AsmStatement &S, const NamedConstants &Constants = {});

} // namespace inlineasm
} // namespace ptxlint
#endif
