// Regression tests for inputs found by the fuzzers (fuzz/). Each input is the
// minimised crash file, written out byte for byte; the test checks the
// invariant the fuzz target asserted.
#include "Parse/Scanner.h"
#include "Parse/StatementParser.h"
#include "ptxlint/Linter.h"

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
