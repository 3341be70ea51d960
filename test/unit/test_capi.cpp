// The C API: handles, accessors, errors reported without exceptions.
#include "ptxlint/ptxlint.h"

#include <doctest/doctest.h>

#include <string>

TEST_CASE("C API: lint a string, read diagnostics, render") {
  const std::string Text = ".target sm_90a\n.address_size 64\n.entry k()\n{\n\tret\n}\n";
  ptxlint_options *O = ptxlint_options_create();
  REQUIRE(O);
  ptxlint_result *R = ptxlint_lint_string("k.ptx", Text.data(), Text.size(), O);
  REQUIRE(R);
  // M001 (no .version) and S003 (missing ';').
  REQUIRE(ptxlint_result_count(R) == 2);
  CHECK(ptxlint_result_errors(R) == 1);
  CHECK(ptxlint_result_warnings(R) == 1);
  bool SawS003 = false;
  for (size_t I = 0; I < ptxlint_result_count(R); ++I) {
    if (std::string(ptxlint_diag_code(R, I)) != "S003")
      continue;
    SawS003 = true;
    CHECK(ptxlint_diag_severity(R, I) == PTXLINT_ERROR);
    CHECK(ptxlint_diag_line(R, I) == 5);
    CHECK(ptxlint_diag_column(R, I) == 5);
    REQUIRE(ptxlint_diag_fix_count(R, I) == 1);
    CHECK(std::string(ptxlint_diag_fix_text(R, I, 0)) == ";");
    CHECK(ptxlint_diag_fix_begin(R, I, 0) == ptxlint_diag_begin(R, I));
  }
  CHECK(SawS003);
  std::string Rendered = ptxlint_result_render(R);
  CHECK(Rendered.find("k.ptx:5:5: error:") != std::string::npos);
  // Out of range: harmless defaults.
  CHECK(ptxlint_diag_severity(R, 99) == -1);
  CHECK(std::string(ptxlint_diag_code(R, 99)).empty());
  ptxlint_result_destroy(R);

  // Options: a --ptx-version for the module and a disabled rule.
  CHECK(ptxlint_options_set_ptx_version(O, 8, 0, 0) == 0);
  CHECK(ptxlint_options_set_severity(O, "S003", PTXLINT_IGNORED) == 0);
  R = ptxlint_lint_string("k.ptx", Text.data(), Text.size(), O);
  REQUIRE(R);
  CHECK(ptxlint_result_count(R) == 0);
  ptxlint_result_destroy(R);
  ptxlint_options_destroy(O);
}

TEST_CASE("C API: failures return NULL/-1 and set the last error") {
  CHECK(ptxlint_lint_file("/nonexistent/x.ptx", nullptr) == nullptr);
  CHECK(std::string(ptxlint_last_error()).find("cannot open") != std::string::npos);
  ptxlint_options *O = ptxlint_options_create();
  CHECK(ptxlint_options_set_severity(O, "no-such-rule", PTXLINT_ERROR) == -1);
  CHECK(std::string(ptxlint_last_error()).find("unknown rule") != std::string::npos);
  CHECK(ptxlint_options_set_severity(O, "S003", 42) == -1);
  CHECK(ptxlint_options_set_target(nullptr, "sm_90a", 0) == -1);
  ptxlint_options_destroy(O);
  CHECK(ptxlint_result_count(nullptr) == 0);
  ptxlint_result_destroy(nullptr);
  CHECK(std::string(ptxlint_version()) == "0.1.0");
}

TEST_CASE("C API: lowering") {
  const std::string Text =
      ".version 8.0\n.target sm_90a\n.address_size 64\n.entry k()\n{\n"
      "\t.reg .b64 %rd<4>;\n"
      "\tcp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%rd1], [%rd2], 16, "
      "[%rd3];\n\tcp.async.wait_all;\n\tret;\n}\n";
  ptxlint_result *R = ptxlint_lower_string("k.ptx", Text.data(), Text.size(), nullptr);
  REQUIRE(R);
  std::string Out = ptxlint_result_text(R);
  CHECK(Out.find(".shared::cluster.global") != std::string::npos);
  CHECK(Out.find("cp.async.commit_group;\n\tcp.async.wait_group 0;") != std::string::npos);
  CHECK(ptxlint_result_errors(R) == 0);
  ptxlint_result_destroy(R);
}

TEST_CASE("C API: an unknown target and a folder fail with a message") {
  ptxlint_options *O = ptxlint_options_create();
  REQUIRE(O);
  CHECK(ptxlint_options_set_target(O, "sm_zz", 0) == -1);
  CHECK(std::string(ptxlint_last_error()).find("unknown target 'sm_zz'") !=
        std::string::npos);
  CHECK(ptxlint_options_set_target(O, "sm_90a", 0) == 0);
  CHECK(ptxlint_lint_file("/tmp", O) == nullptr);
  CHECK(std::string(ptxlint_last_error()).find("cannot open '/tmp': Is a directory") !=
        std::string::npos);
  ptxlint_options_destroy(O);
}

TEST_CASE("C API: CUDA C++ sources, by extension or by the language option") {
  const std::string Cu =
      "__device__ void f(void *d, unsigned s) {\n"
      "  asm volatile(\"cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f16 [%0], [%1], 64;\"\n"
      "               :: \"l\"(d), \"r\"(s));\n}\n";
  ptxlint_options *O = ptxlint_options_create();
  REQUIRE(O);
  REQUIRE(ptxlint_options_set_target(O, "sm_90a", 0) == 0);
  auto Codes = [&](const char *Name) {
    ptxlint_result *R = ptxlint_lint_string(Name, Cu.data(), Cu.size(), O);
    REQUIRE(R);
    std::string S;
    for (size_t I = 0; I < ptxlint_result_count(R); ++I)
      S += std::string(ptxlint_diag_code(R, I)) + "@" + std::to_string(ptxlint_diag_line(R, I)) +
           ":" + std::to_string(ptxlint_diag_column(R, I)) + " ";
    ptxlint_result_destroy(R);
    return S;
  };
  // Q107 (.add.f16 needs .noftz) inside the string literal, line 2.
  CHECK(Codes("k.cu") == "Q107@2:67 ");
  // Another name is PTX unless the option says CUDA.
  CHECK(Codes("<string>").find("Q107") == std::string::npos);
  REQUIRE(ptxlint_options_set_language(O, PTXLINT_LANG_CUDA) == 0);
  CHECK(Codes("<string>") == "Q107@2:67 ");
  REQUIRE(ptxlint_options_set_language(O, PTXLINT_LANG_PTX) == 0);
  CHECK(Codes("k.cu").find("Q107") == std::string::npos);
  CHECK(ptxlint_options_set_language(O, 7) == -1);
  CHECK(std::string(ptxlint_last_error()).find("unknown language") != std::string::npos);
  CHECK(ptxlint_options_set_language(nullptr, PTXLINT_LANG_AUTO) == -1);
  ptxlint_options_destroy(O);
}
