// The C++ front end: the asm statement scanner, guards, snippets and the
// library entry point lintCuda().
#include "InlineAsm/AsmScanner.h"
#include "InlineAsm/Guards.h"
#include "InlineAsm/Snippet.h"
#include "ptxlint/InlineAsm.h"

#include <doctest/doctest.h>

using namespace ptxlint;
using namespace ptxlint::inlineasm;

namespace {
std::vector<AsmStatement> scan(std::string_view T) {
  return scanAsmStatements(T);
}
} // namespace

TEST_CASE("scanner: literals are concatenated and every byte knows its offset") {
  std::string T = "void f() { asm volatile(\"cp.async\" /* c */ \"\\t.x;\" :: \"r\"(a), [n] \"l\"(b + (c)) : \"memory\"); }";
  auto S = scan(T);
  REQUIRE(S.size() == 1);
  CHECK(S[0].Unresolved == "");
  CHECK(S[0].Template.Text == "cp.async\t.x;");
  // The tab came from the escape "\t": its offset is the backslash.
  CHECK(T[S[0].Template.Offsets[8]] == '\\');
  CHECK(T[S[0].Template.Offsets[9]] == '.');
  REQUIRE(S[0].Operands.size() == 2);
  CHECK(S[0].Operands[0].Constraint == "r");
  CHECK(S[0].Operands[0].Expression == "a");
  CHECK(!S[0].Operands[0].Output);
  CHECK(S[0].Operands[1].Name == "n");
  CHECK(S[0].Operands[1].Expression == "b + (c)");
  CHECK(T.substr(S[0].Begin, 3) == "asm");
  CHECK(T[S[0].End - 1] == ')');
}

TEST_CASE("scanner: nothing outside asm statements is read as one") {
  std::string T = "// asm(\"x\");\n"
                  "/* asm(\"y\"); */\n"
                  "const char *s = \"asm(\\\"z\\\")\";\n"
                  "char q = '\"'; long n = 1'000'000;\n"
                  "const char *r = R\"d(asm(\"w\"))d\";\n"
                  "int asmx = 0; int my_asm(int);\n"
                  "#define ASM __asm__\n"
                  "__asm__(\"real;\");\n";
  auto S = scan(T);
  REQUIRE(S.size() == 1);
  CHECK(S[0].Template.Text == "real;");
}

TEST_CASE("scanner: raw strings, macro bodies and splices") {
  std::string T = "#define W(N) \\\n  asm volatile(\"wait \" \\\n \"%0;\" :: \"n\"(N))\n"
                  "void g() { asm(R\"(a \"q\" b)\"); }\n";
  auto S = scan(T);
  REQUIRE(S.size() == 2);
  CHECK(S[0].InMacro);
  CHECK(S[0].Template.Text == "wait %0;");
  CHECK(S[1].Template.Text == "a \"q\" b");
  CHECK(!S[1].InMacro);
}

TEST_CASE("scanner: a template that is not made of literals is unresolved") {
  auto S = scan("void f() { asm(PTX_STRING : \"=r\"(x)); asm(\"ok;\"); }");
  REQUIRE(S.size() == 2);
  CHECK(S[0].Unresolved != "");
  CHECK(S[1].Unresolved == "");
}

TEST_CASE("scanner: the conditions open around a statement") {
  std::string T = "#if __CUDA_ARCH__ >= 900\n#ifdef A\n#else\nasm(\"x;\");\n#endif\n#endif\nasm(\"y;\");\n";
  auto S = scan(T);
  REQUIRE(S.size() == 2);
  REQUIRE(S[0].Guards.size() == 2);
  CHECK(S[0].Guards[0].Text == "__CUDA_ARCH__ >= 900");
  CHECK(S[0].Guards[1].Text == "A");
  CHECK(S[0].Guards[1].IfDef);
  CHECK(S[0].Guards[1].Negated);
  CHECK(S[1].Guards.empty());
}

TEST_CASE("guards: the lowest target and version admitted") {
  auto Eval = [](std::string Cond, GuardMacroMap M = {}) {
    GuardCondition G;
    G.Text = std::move(Cond);
    return evaluateGuards({G}, M);
  };
  auto A = Eval("_CCCL_CUDA_COMPILER(NVHPC) || __CUDA_ARCH__ >= 900");
  REQUIRE(A.size() == 1);
  CHECK(A[0].Target == std::optional<std::string>("sm_90"));
  A = Eval("__cccl_ptx_isa >= 860");
  CHECK(!A[0].Target);
  CHECK(A[0].Ptx.str() == "8.6");
  A = Eval("_CCCL_CUDA_COMPILER(NVHPC) || __CUDA_ARCH_FEAT_SM100_ALL || __CUDA_ARCH_FEAT_SM101_ALL");
  REQUIRE(A.size() == 2);
  CHECK(A[0].Target == std::optional<std::string>("sm_100a"));
  CHECK(A[1].Target == std::optional<std::string>("sm_101a")); // that chip exactly
  A = Eval("!(__CUDA_ARCH__ < 800)");
  CHECK(A[0].Target == std::optional<std::string>("sm_80"));
  A = Eval("__CUDA_ARCH__ >= 900 || defined(SOMETHING)");
  REQUIRE(A.size() == 2); // each alternative is admitted: both are checked
  CHECK(A[0].Target == std::optional<std::string>("sm_90"));
  CHECK(!A[1].Target);
  A = Eval("defined(MY_TMA)", {{"MY_TMA", "sm_90a"}});
  CHECK(A[0].Target == std::optional<std::string>("sm_90a"));
  A = Eval("__CUDA_ARCH_SPECIFIC__ >= 1000 && __cccl_ptx_isa >= 870");
  CHECK(A[0].Target == std::optional<std::string>("sm_100a"));
  CHECK(A[0].Ptx.str() == "8.7");
}

TEST_CASE("snippet: operands become typed registers, %% and %= are unescaped") {
  auto S = scan("asm(\"mov.b32 %0, %%laneid; L%=: add %[x], %1, %2;\" : \"=r\"(a) : [x] \"l\"(b), \"n\"(16));");
  REQUIRE(S.size() == 1);
  Snippet Snip = buildSnippet(S[0]);
  std::string Body = Snip.Text.substr(Snip.BodyBegin, Snip.BodyEnd - Snip.BodyBegin);
  CHECK(Body == "mov.b32 %_0, %laneid; L0: add %_1, %_1, 16;");
  CHECK(Snip.Text.find(".reg .b32 %_0;") != std::string::npos);
  CHECK(Snip.Text.find(".reg .b64 %_1;") != std::string::npos);
  CHECK(Snip.StandIns.empty());
  CHECK(Snip.BadReferences.empty());
}

TEST_CASE("lintCuda: diagnostics point into the literal; the entry point takes a string") {
  std::string T = "__device__ void f() {\n"
                  "  asm volatile(\"cp.async.bulk\"\n"
                  "               \".wait_group.reed 0;\");\n"
                  "}\n";
  SourceBuffer B("k.cu", T);
  CudaLintStats Stats;
  LintResult R = lintCuda(B, {}, &Stats);
  CHECK(Stats.AsmStatements == 1);
  CHECK(Stats.Checked == 1);
  REQUIRE(R.Diagnostics.size() == 1);
  CHECK(R.Diagnostics[0].Code == "Q101");
  auto LC = B.lineCol(R.Diagnostics[0].Range.Begin);
  CHECK(LC.Line == 3);
  CHECK(LC.Column == 28);
  CHECK(R.Diagnostics[0].Range.End - R.Diagnostics[0].Range.Begin == 5);
  CHECK(R.Errors == 1);
}

TEST_CASE("languageOfPath: by extension") {
  CHECK(languageOfPath("a/k.ptx") == SourceLanguage::Ptx);
  CHECK(languageOfPath("a/k.cuh") == SourceLanguage::Cuda);
  CHECK(languageOfPath("a/k.hpp") == SourceLanguage::Cuda);
  CHECK(!languageOfPath("a/k.txt"));
  std::vector<std::string> Only = {".cu"};
  CHECK(!languageOfPath("a/k.h", &Only));
}

TEST_CASE("scanner: operands without a comma between them (nvcc takes it)") {
  auto S = scan("asm volatile(\"tcgen05.cp.cta_group::2.128x256b [%0], %1;\" : : \"r\"(d)  \"l\"(s));");
  REQUIRE(S.size() == 1);
  REQUIRE(S[0].Operands.size() == 2);
  CHECK(S[0].Operands[1].Constraint == "l");
  CHECK(S[0].Operands[1].Expression == "s");
}

TEST_CASE("guards: a target raises the PTX version to the first that knows it") {
  GuardCondition Isa, Arch;
  Isa.Text = "__cccl_ptx_isa >= 800";
  Arch.Text = "_CCCL_CUDA_COMPILER(NVHPC) || __CUDA_ARCH_FEAT_SM100_ALL";
  auto A = evaluateGuards({Isa, Arch}, {});
  REQUIRE(A.size() == 1);
  CHECK(A[0].Target == std::optional<std::string>("sm_100a"));
  CHECK(A[0].Ptx.str() == "8.6");
}

TEST_CASE("scanner and lintCuda: arbitrary text never crashes or hangs") {
  // Pieces of C++ and asm syntax, glued at random (a fixed seed), often cut
  // in the middle of a literal, a comment, a raw string or a directive.
  const char *Pieces[] = {"asm", "__asm__", " volatile", "(", ")", "\"", "R\"x(", ")x\"",
                          "'", "\\", "\\\n", "\n", "#if __CUDA_ARCH__ >= 900\n", "#else\n",
                          "#endif\n", "#define M(x) ", "/*", "*/", "//", ":", "::", ",",
                          "\"r\"", "(a)", "[n]", "%", "%0", "%[n]", "%%", "cp.async.bulk",
                          ".wait_group", " 0;", "{", "}", "u8", "1'0", "\r\n", "\\x2", "\\7",
                          "asm volatile(\"cp.async.bulk.wait_group.reed %0;\" :: \"n\"(1));"};
  uint32_t State = 12345;
  size_t Found = 0;
  auto Next = [&] { State = State * 1103515245u + 12345u; return State >> 8; };
  for (int Round = 0; Round < 3000; ++Round) {
    std::string T;
    for (unsigned N = Next() % 40; N; --N)
      T += Pieces[Next() % (sizeof(Pieces) / sizeof(Pieces[0]))];
    SourceBuffer B("fuzz.cu", T);
    CudaLintStats Stats;
    LintResult R = lintCuda(B, {}, &Stats);
    Found += Stats.Checked;
    for (const Diagnostic &D : R.Diagnostics) {
      CHECK(D.Range.Begin <= T.size());
      CHECK(D.Range.End <= T.size());
    }
  }
  CHECK(Found > 100); // the pieces do make statements (and diagnostics)
}
