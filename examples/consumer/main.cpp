// Builds one instruction with the typed builder, validates it for a target,
// wraps it in a module and lints that module: the installed C++ API.
#include <ptxlint/Builder.h>
#include <ptxlint/Linter.h>
#include <ptxlint/Lower.h>

#include <cstdio>

int main() {
  using namespace ptxlint::build;
  CpAsyncBulkTensor Load;
  Load.Dir = TensorDir::GlobalToSharedCluster;
  Load.Dim = 2;
  Load.Shared = addr("%rd1");
  Load.Tensor = TensorRef{reg("%rd4"), {reg("%r1"), reg("%r2")}};
  Load.Mbar = addr("%rd3");
  Validation V = validate(Load, {"sm_90a", 8, 0});
  std::printf("%s\n", V.Text.c_str());
  if (!V.Ok)
    return 1;
  ptxlint::SourceBuffer B("consumer.ptx", wrapInModule({Load}, {"sm_90a", 8, 0}));
  ptxlint::LintResult R = ptxlint::lint(B);
  ptxlint::LowerResult L = ptxlint::lowerModule(B);
  std::printf("consumer: %zu statements, %u errors, %u rewritten\n", R.Statements,
              R.Errors, L.Rewritten);
  if (R.Errors || !L.Ok)
    return 1;
  std::printf("consumer: ok\n");
  return 0;
}
