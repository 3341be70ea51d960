//===- FuzzParser.cpp - libFuzzer target: the ANTLR statement parser ------===//
//
// Scans the input, then hands every statement the parser accepts (not only
// the ones StatementFilter selects) to StatementParser, so the grammar and
// the AST builder see every kind of statement text. Checks that AST ranges
// lie inside the buffer.
//
//===----------------------------------------------------------------------===//

#include "Parse/Scanner.h"
#include "Parse/StatementParser.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void checkRange(const ptxlint::SourceRange &R, size_t Size) {
  if (R.Begin > R.End || R.End > Size)
    std::abort();
}

void checkOperand(const ptxlint::Instruction &I, const ptxlint::Operand &O, size_t Size,
                  unsigned Depth) {
  checkRange(I.rangeOf(O), Size);
  checkRange(O.ViewRange, Size);
  if (Depth > 10000)
    std::abort();
  for (const ptxlint::Operand &E : O.Elements)
    checkOperand(I, E, Size, Depth + 1);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string_view Text(reinterpret_cast<const char *>(Data), Size);
  ptxlint::Module M;
  M.Text = Text;
  ptxlint::DiagnosticEngine Diags;
  ptxlint::scanModule(Text, M, Diags);
  ptxlint::StatementParser Parser(M, Diags);
  for (uint32_t K = 0; K < M.Statements.size(); ++K) {
    const ptxlint::Statement &S = M.Statements[K];
    if (S.ParsedIndex == -2) // rejected by the scanner (too long, too deep)
      continue;
    switch (S.Kind) {
    case ptxlint::StatementKind::Instruction:
    case ptxlint::StatementKind::Directive:
    case ptxlint::StatementKind::Declaration:
    case ptxlint::StatementKind::FunctionHeader:
      Parser.parse(K);
      break;
    default:
      break;
    }
  }
  for (const ptxlint::Instruction &I : M.Instructions) {
    checkRange(I.Range, Size);
    checkRange(I.OpcodeRange, Size);
    for (const ptxlint::Modifier &Mod : I.Modifiers)
      checkRange(I.rangeOf(Mod), Size);
    for (const ptxlint::Operand &O : I.Operands)
      checkOperand(I, O, Size, 0);
    if (I.Guard)
      checkOperand(I, *I.Guard, Size, 0);
  }
  for (const ptxlint::Symbol &Sym : M.Symbols)
    checkRange(Sym.Range, Size);
  for (const ptxlint::Diagnostic &D : Diags.diagnostics())
    checkRange(D.Range, Size);
  return 0;
}
