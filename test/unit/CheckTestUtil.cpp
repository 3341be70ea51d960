//===- CheckTestUtil.cpp - Lint one async-copy instruction in a test ------===//

#include "CheckTestUtil.h"

#include "ptxlint/Ptxas.h"

#include <cstdio>
#include <cstdlib>

#include <algorithm>

namespace ptxlint {
namespace test {

void skipWithoutPtxas() {
  if (findPtxas())
    return;
  std::fprintf(stderr, "ptxas not found: the ptxas cross-checks are skipped\n");
  std::exit(77);
}

Linted lintInstruction(const std::string &Instruction, const std::string &Target,
                       const std::string &Version) {
  Linted L;
  L.Text = ".version " + Version + "\n.target " + Target +
           "\n.address_size 64\n"
           ".global .align 16 .b8 gmem[256];\n"
           ".visible .entry k()\n{\n"
           "  .reg .b16 %h<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
           "  .reg .f32 %f<4>;\n  .reg .pred %p<4>;\n"
           "  .shared .align 16 .b8 smem[256];\n  " +
           Instruction + "\n  ret;\n}\n";
  L.R = lint(SourceBuffer("test.ptx", L.Text));
  return L;
}

std::string Linted::fixed() const {
  std::vector<FixIt> All;
  for (const Diagnostic &D : R.Diagnostics)
    All.insert(All.end(), D.Fixes.begin(), D.Fixes.end());
  // Apply from the end so earlier offsets stay valid.
  std::sort(All.begin(), All.end(), [](const FixIt &A, const FixIt &B) {
    return A.Range.Begin > B.Range.Begin ||
           (A.Range.Begin == B.Range.Begin && A.Range.End > B.Range.End);
  });
  std::string S = Text;
  for (const FixIt &F : All)
    S.replace(F.Range.Begin, F.Range.End - F.Range.Begin, F.Replacement);
  size_t Begin = S.find("smem[256];\n  ") + 13;
  return S.substr(Begin, S.find('\n', Begin) - Begin);
}

} // namespace test
} // namespace ptxlint
