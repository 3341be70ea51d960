//===- FuzzLint.cpp - libFuzzer target: the whole lint pipeline -----------===//
//
// Runs ptxlint::lint (scanner, parser, symbol table, every registered pass:
// directives, checker, flow rules) and renders the diagnostics as text and
// through -verify. If the first byte is odd, the rest of the input is placed
// inside a well-formed sm_90a kernel so the fuzzer reaches the per-function
// passes without having to invent a module header first.
//
//===----------------------------------------------------------------------===//

#include "ptxlint/Linter.h"
#include "ptxlint/Render.h"
#include "ptxlint/Verify.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text;
  if (Size > 0 && (Data[0] & 1)) {
    Text = ".version 8.6\n.target sm_90a\n.address_size 64\n"
           ".extern .shared .align 128 .b8 smem[];\n"
           ".visible .entry k(.param .u64 p0, .param .align 64 .b8 tmap[128])\n"
           "{\n.reg .b32 %r<100>;\n.reg .b64 %rd<100>;\n.reg .pred %p<10>;\n";
    Text.append(reinterpret_cast<const char *>(Data) + 1, Size - 1);
    Text += "\nret;\n}\n";
  } else {
    Text.assign(reinterpret_cast<const char *>(Data), Size);
  }
  size_t Len = Text.size();
  ptxlint::SourceBuffer Buffer("fuzz.ptx", std::move(Text));
  ptxlint::LintOptions Opts;
  Opts.MaxDiagnostics = 200;
  ptxlint::LintResult R = ptxlint::lint(Buffer, Opts);
  for (const ptxlint::Diagnostic &D : R.Diagnostics) {
    if (D.Range.Begin > D.Range.End || D.Range.End > Len)
      std::abort();
    for (const ptxlint::FixIt &F : D.Fixes)
      if (F.Range.Begin > F.Range.End || F.Range.End > Len)
        std::abort();
  }
  ptxlint::TextStyle Style;
  Style.Color = (Size > 1 && (Data[1] & 1));
  std::string Out = ptxlint::renderText(Buffer, R.Diagnostics, Style);
  ptxlint::verifyDiagnostics(Buffer, R.Diagnostics);
  (void)Out;
  return 0;
}
