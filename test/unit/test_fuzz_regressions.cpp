// Regression tests for inputs found by the fuzzers (fuzz/). Each input is the
// minimised crash file, written out byte for byte; the test checks the
// invariant the fuzz target asserted.
#include "Parse/Scanner.h"
#include "Parse/StatementParser.h"
#include "ptxlint/Linter.h"
#include "ptxlint/Render.h"

#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>

using namespace ptxlint;

namespace {

/// The invariants fuzz/FuzzScanner.cpp checks.
void checkScannerInvariants(std::string_view Text) {
  Module M;
  DiagnosticEngine Diags;
  scanModule(Text, M, Diags);
  for (const Statement &S : M.Statements) {
    CHECK(S.Range.Begin <= S.Range.End);
    CHECK(S.Range.End <= Text.size());
  }
  for (const Function &F : M.Functions) {
    CHECK(F.HeaderStatement < M.Statements.size());
    CHECK(F.FirstStatement <= F.EndStatement);
    CHECK(F.EndStatement <= M.Statements.size());
  }
  for (const Diagnostic &D : Diags.diagnostics())
    CHECK(D.Range.End <= Text.size());
  // And the whole pipeline must survive it.
  SourceBuffer Buffer("fuzz.ptx", std::string(Text));
  (void)lint(Buffer);
}

} // namespace

// fuzz/scanner, campaign of 22 Nov (crash-93ca4824...): a function body opened
// after the scanner's error budget ran out ("too many syntax errors") kept
// EndStatement = HeaderStatement + 1 < FirstStatement, because the end-of-file
// handling that closes an open function ran only while budget was left. A pass
// iterating [FirstStatement, EndStatement) by size arithmetic would wrap.
TEST_CASE("fuzz: function opened after the error budget is spent") {
  std::string In("\x00n\n", 3);
  In += std::string(46, '}') + "1\n.func{\x01\n/";
  checkScannerInvariants(In);
}

// fuzz/scanner, campaign of 22 Nov (crash-ce4e472e...), ASan heap-buffer-overflow
// in ScannerImpl::terminatedStatement: the "nested more than 256 deep" error
// was the one that exhausted the error budget, error() set P = N, the loop
// stepped to N + 1 and the blank-trimming loop read T[N]. The buffer here has
// no terminating NUL, as in the fuzzer (std::string would hide the read).
TEST_CASE("fuzz: error budget exhausted inside a deeply nested statement") {
  static const char Bytes[] = "e}}}}.g}}}}}}}}}}}}}}}}}}}}}}}}{}}}}}u}}}i}}}}}}}}}}}}1$t9;\n\xe3""\n.(((((((((((((((((((((%((((((((((e(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((([(((((((((((((((((((((((r((((((((((((((((((((((([3(((((((((((((((((((((([((((((((((((((((((((((((((((((((((([3(((((((((((([3";
  std::unique_ptr<char[]> Exact(new char[sizeof(Bytes) - 1]);
  std::memcpy(Exact.get(), Bytes, sizeof(Bytes) - 1);
  std::string_view Text(Exact.get(), sizeof(Bytes) - 1);
  Module M;
  DiagnosticEngine Diags;
  scanModule(Text, M, Diags);
  for (const Statement &S : M.Statements)
    CHECK(S.Range.End <= Text.size());
  checkScannerInvariants(Text);
}

// fuzz/lint, campaign of 22 Nov (crash-f7d5f21e...): a diagnostic at the end of
// a line longer than the 240-byte snippet window, with a fix-it earlier on the
// same line. The renderer computed the fix-it's column as FixByte - Start with
// FixByte < Start: std::string(huge, ' ') threw std::length_error (abort).
// The input is the fuzz target's wrapping (first byte odd: inside a kernel),
// its '.L2::kache_hint' made '.L2::xxxxx_hint' since Q101 corrects the typo
// (then no operand-count fix-it is left of the window).
TEST_CASE("fuzz: fix-it left of a clipped snippet window") {
  static const char Bytes[] = "=\x00""\x00""lired.sm\n\tcp.async.bulk.tensor.4d.shared::cta.global.im2col.mbarrier::complete_t::bytes.L2::xxxxx_hint [%r1], [%rd2, {%r2, %r3, %r4, %r5}], [%r6], {%rs1, %cccccccccccccccccccccccccccccccsiccccccccccccccccccccccccccccccc.im2col_no_offscccccrs2}, %rd1;";
  std::string Text = ".version 8.6\n.target sm_90a\n.address_size 64\n"
                     ".extern .shared .align 128 .b8 smem[];\n"
                     ".visible .entry k(.param .u64 p0, .param .align 64 .b8 tmap[128])\n"
                     "{\n.reg .b32 %r<100>;\n.reg .b64 %rd<100>;\n.reg .pred %p<10>;\n";
  Text.append(Bytes, sizeof(Bytes) - 1);
  Text += "\nret;\n}\n";
  SourceBuffer Buffer("fuzz.ptx", Text);
  LintResult R = lint(Buffer);
  bool FixLeftOfWindow = false;
  for (const Diagnostic &D : R.Diagnostics)
    for (const FixIt &F : D.Fixes)
      if (Buffer.lineCol(F.Range.Begin).Line == Buffer.lineCol(D.Range.Begin).Line &&
          D.Range.Begin > F.Range.Begin + 120)
        FixLeftOfWindow = true;
  CHECK(FixLeftOfWindow); // the input still exercises the case
  std::string Out;
  CHECK_NOTHROW(Out = renderText(Buffer, R.Diagnostics));
  CHECK(Out.size() < 10000);
}
