//===- AsmScanner.h - Find the asm statements of C++ text -------*- C++ -*-===//
//
// A lexical scan of C++ (comments, string and character literals with every
// prefix, raw strings, digit separators, line splices, preprocessor lines):
// no compile and no include paths. It reports each asm / __asm__ statement
// (volatile, __volatile__, inline, goto) with its template literals decoded
// byte by byte to the offsets they came from, its operands, and the
// preprocessor conditions open around it. Code outside asm statements is
// only skipped, never interpreted, so nothing there can be misread as PTX.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_INLINEASM_ASMSCANNER_H
#define PTXLINT_INLINEASM_ASMSCANNER_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxlint {
namespace inlineasm {

/// Decoded text whose every byte knows the offset of the source character
/// (or escape sequence) it came from.
struct MappedText {
  std::string Text;
  std::vector<uint32_t> Offsets; ///< one per byte of Text
  void append(char C, uint32_t At) {
    Text.push_back(C);
    Offsets.push_back(At);
  }
};

struct AsmOperand {
  std::string Name;          ///< [name], or empty
  std::string Constraint;    ///< "=r", "+l", "n" (decoded)
  std::string Expression;    ///< the C++ expression, trimmed
  uint32_t ConstraintBegin = 0, ConstraintEnd = 0; ///< the literal, quotes included
  bool Output = false;
};

/// One open preprocessor condition around a statement.
struct GuardCondition {
  std::string Text;      ///< "__CUDA_ARCH__ >= 900" (continuations joined)
  uint32_t Offset = 0;   ///< the '#' of its directive
  bool Negated = false;  ///< inside the #else (or a later #elif) branch
  bool IfDef = false;    ///< #ifdef NAME (Text is NAME); #ifndef: Negated
};

struct AsmStatement {
  uint32_t Begin = 0, End = 0; ///< from the keyword to the closing ')'
  MappedText Template;         ///< the concatenated literals, decoded
  /// Why the template could not be read (a macro or #if between its pieces,
  /// a wide literal...); empty when it was.
  std::string Unresolved;
  std::vector<AsmOperand> Operands; ///< outputs, then inputs: %0, %1...
  std::vector<GuardCondition> Guards; ///< outermost first
  bool InMacro = false;             ///< inside a #define body
  /// Registers the template names without operands, declared as they are:
  /// {type, name}. Only a PTX snippet has them (lintPtxSnippet).
  std::vector<std::pair<std::string, std::string>> ImplicitRegisters;
};

/// Every asm statement of Text, in order.
std::vector<AsmStatement> scanAsmStatements(std::string_view Text);

/// The value of an integer literal expression ("16", "(16u)", "0x10ull",
/// "1'024", "-4"), in decimal; nullopt for anything else.
std::optional<std::string> integerLiteral(std::string_view Expression);

/// The integer constants Text names, for "n" operands written as a name:
/// object-like macros (`#define N 4`), const/constexpr variables
/// initialized with a literal (`constexpr int N = 4;`, `const unsigned N{4};`,
/// at any scope) and enumerators (`enum { A = 1, B }`). A name given two
/// different values (two classes' own `kBytes`, say) is left out: which one
/// an expression means needs name lookup. Values in decimal.
using NamedConstants = std::map<std::string, std::string, std::less<>>;
NamedConstants scanNamedConstants(std::string_view Text);

} // namespace inlineasm
} // namespace ptxlint
#endif
