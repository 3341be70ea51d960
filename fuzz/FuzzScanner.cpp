//===- FuzzScanner.cpp - libFuzzer target: the statement scanner ----------===//
//
// Feeds arbitrary bytes to scanModule and checks the scanner's invariants:
// every statement range lies inside the buffer and is well formed, and
// statements come in source order.
//
//===----------------------------------------------------------------------===//

#include "Parse/Scanner.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string_view Text(reinterpret_cast<const char *>(Data), Size);
  ptxlint::Module M;
  M.Text = Text;
  ptxlint::DiagnosticEngine Diags;
  ptxlint::scanModule(Text, M, Diags);
  uint32_t Prev = 0;
  for (const ptxlint::Statement &S : M.Statements) {
    if (S.Range.Begin > S.Range.End || S.Range.End > Size)
      std::abort();
    if (S.Range.Begin < Prev)
      std::abort();
    Prev = S.Range.Begin;
    if (uint64_t(S.HeadBegin) + S.HeadSize > Size)
      std::abort();
  }
  for (const ptxlint::Function &F : M.Functions)
    if (F.HeaderStatement >= M.Statements.size() ||
        F.FirstStatement > F.EndStatement ||
        F.EndStatement > M.Statements.size())
      std::abort();
  for (const ptxlint::Diagnostic &D : Diags.diagnostics())
    if (D.Range.Begin > D.Range.End || D.Range.End > Size)
      std::abort();
  return 0;
}
