//===- ptxlint-bench.cpp - In-process timings for bench/run.py ------------===//
//
//   ptxlint-bench latency [ITERATIONS]
//       Lints a one-instruction input through the library API (ptxlint::lint)
//       in a loop and prints the median time per call in microseconds, for
//       (a) a bare instruction with the target given in LintOptions (what a
//       JIT validating one instruction does) and (b) the smallest complete
//       module around it (.version/.target/kernel/declarations).
//   ptxlint-bench phases FILE [REPEAT]
//       Times the phases of linting FILE in-process (best of REPEAT): scan
//       only, scan + parse (parseModule), and the whole lint().
//
// Output is "key value" lines, parsed by bench/run.py.
//
//===----------------------------------------------------------------------===//

#include "Parse/Scanner.h"
#include "ptxlint/Linter.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point A, Clock::time_point B) {
  return std::chrono::duration<double>(B - A).count();
}

/// Median over batches of the time per lint() call, in microseconds.
double latencyMicros(const std::string &Text, const ptxlint::LintOptions &Opts,
                     long Iterations, unsigned &Errors) {
  ptxlint::SourceBuffer Buffer("one.ptx", Text);
  Errors = ptxlint::lint(Buffer, Opts).Errors; // warm up
  const long Batch = std::max(1L, Iterations / 20);
  std::vector<double> PerCall;
  for (long Done = 0; Done < Iterations; Done += Batch) {
    auto T0 = Clock::now();
    for (long I = 0; I < Batch; ++I) {
      ptxlint::LintResult R = ptxlint::lint(Buffer, Opts);
      if (R.Errors != Errors)
        std::abort();
    }
    PerCall.push_back(seconds(T0, Clock::now()) * 1e6 / double(Batch));
  }
  std::sort(PerCall.begin(), PerCall.end());
  return PerCall[PerCall.size() / 2];
}

int latency(long Iterations) {
  const std::string Insn =
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
      "complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];\n";
  ptxlint::LintOptions Bare;
  Bare.Target = "sm_90a";
  Bare.PtxVersion = std::make_pair(8u, 6u);
  unsigned E1 = 0, E2 = 0;
  double B = latencyMicros(Insn, Bare, Iterations, E1);
  const std::string Module =
      ".version 8.6\n.target sm_90a\n.address_size 64\n"
      ".visible .entry k(.param .u64 p)\n{\n"
      ".reg .b32 %r<5>;\n.reg .b64 %rd<2>;\n" +
      Insn + "ret;\n}\n";
  double M = latencyMicros(Module, {}, Iterations, E2);
  std::printf("latency_bare_us %.3f\nlatency_bare_errors %u\n"
              "latency_module_us %.3f\nlatency_module_errors %u\n",
              B, E1, M, E2);
  return 0;
}

int phases(const char *Path, int Repeat) {
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    std::fprintf(stderr, "ptxlint-bench: cannot open %s\n", Path);
    return 2;
  }
  std::ostringstream SS;
  SS << In.rdbuf();
  ptxlint::SourceBuffer Buffer(Path, SS.str());
  double Scan = 1e30, Parse = 1e30, Lint = 1e30;
  size_t Statements = 0, Parsed = 0;
  for (int R = 0; R < Repeat; ++R) {
    {
      ptxlint::Module M;
      M.Text = Buffer.text();
      ptxlint::DiagnosticEngine D;
      auto T0 = Clock::now();
      ptxlint::scanModule(Buffer.text(), M, D);
      Scan = std::min(Scan, seconds(T0, Clock::now()));
      Statements = M.Statements.size();
    }
    {
      ptxlint::DiagnosticEngine D;
      auto T0 = Clock::now();
      ptxlint::Module M = ptxlint::parseModule(Buffer, D, &Parsed);
      Parse = std::min(Parse, seconds(T0, Clock::now()));
    }
    {
      auto T0 = Clock::now();
      ptxlint::LintResult LR = ptxlint::lint(Buffer);
      Lint = std::min(Lint, seconds(T0, Clock::now()));
    }
  }
  std::printf("bytes %zu\nstatements %zu\nparsed %zu\n"
              "scan_s %.6f\nscan_parse_s %.6f\nlint_s %.6f\n",
              Buffer.text().size(), Statements, Parsed, Scan, Parse, Lint);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  std::string Mode = argc > 1 ? argv[1] : "";
  if (Mode == "latency")
    return latency(argc > 2 ? std::atol(argv[2]) : 20000);
  if (Mode == "phases" && argc > 2)
    return phases(argv[2], argc > 3 ? std::atoi(argv[3]) : 3);
  std::fprintf(stderr, "usage: ptxlint-bench latency [N] | phases FILE [REPEAT]\n");
  return 2;
}
