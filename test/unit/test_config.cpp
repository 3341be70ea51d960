// .ptxlint.yaml parsing (LLVM YAML I/O), selectors and layered resolution.
#include "ptxlint/Config.h"

#include <doctest/doctest.h>

using namespace ptxlint;

namespace {
struct Parsed {
  SourceBuffer Buf;
  ConfigFile Cfg;
  std::vector<Diagnostic> Diags;
  bool Ok;
  explicit Parsed(std::string Text)
      : Buf("/proj/.ptxlint.yaml", std::move(Text)),
        Ok(parseConfig(Buf, Cfg, Diags)) {}
  std::string where() const {
    if (Diags.empty())
      return "";
    auto LC = Buf.lineCol(Diags[0].Range.Begin);
    return std::to_string(LC.Line) + ":" + std::to_string(LC.Column) + " " +
           Diags[0].Message;
  }
};

Severity effective(const LintOptions &O, std::string_view Code) {
  Severity S = findRule(Code)->DefaultSeverity;
  for (const auto &[C, Sev] : O.SeverityOverrides)
    if (C == Code)
      S = Sev;
  return S;
}
} // namespace

TEST_CASE("selectors: all, codes, prefixes, names, groups") {
  const RuleInfo &M001 = *findRule("M001");
  CHECK(selectorMatches("all", M001));
  CHECK(selectorMatches("M001", M001));
  CHECK(selectorMatches("M", M001));
  CHECK(selectorMatches("M0", M001));
  CHECK(selectorMatches("missing-version", M001));
  CHECK(selectorMatches("module", M001));
  CHECK_FALSE(selectorMatches("S", M001));
  CHECK_FALSE(selectorMatches("m", M001)); // prefixes are upper case
  std::string Err;
  CHECK_FALSE(isValidSelector("Q9999", &Err));
  CHECK(Err.find("Q9999") != std::string::npos);
  CHECK(isValidSelector("suppression"));
}

TEST_CASE("a full configuration parses") {
  Parsed P("# comment\nselect: [all]\nextend-select: [X]\nignore: [M002]\n"
           "severity:\n  module: error\n  M001: off\n"
           "target: sm_90a\nptx-version: \"8.6\"\nwarnings-as-errors: true\n"
           "overrides:\n  - files: [\"snippets/*\", \"*.inc.ptx\"]\n"
           "    ignore: [S]\n    target: sm_100a\n");
  REQUIRE_MESSAGE(P.Ok, P.where());
  CHECK(P.Cfg.Directory == "/proj");
  REQUIRE(P.Cfg.Base.Select);
  CHECK(*P.Cfg.Base.Select == std::vector<std::string>{"all"});
  CHECK(P.Cfg.Base.Ignore == std::vector<std::string>{"M002"});
  REQUIRE(P.Cfg.Base.Severities.size() == 2);
  CHECK(P.Cfg.Base.Severities[0].first == "module");
  CHECK(P.Cfg.Base.Severities[0].second == Severity::Error);
  CHECK(P.Cfg.Base.Severities[1].second == Severity::Ignored);
  CHECK(*P.Cfg.Base.Target == "sm_90a");
  CHECK(*P.Cfg.Base.PtxVersion == std::make_pair(8u, 6u));
  CHECK(*P.Cfg.Base.WarningsAsErrors);
  REQUIRE(P.Cfg.Overrides.size() == 1);
  CHECK(P.Cfg.Overrides[0].Files.size() == 2);
  CHECK(*P.Cfg.Overrides[0].Layer.Target == "sm_100a");
}

TEST_CASE("empty and comment-only files are empty configurations") {
  CHECK(Parsed("").Ok);
  CHECK(Parsed("# nothing\n\n").Ok);
}

TEST_CASE("errors point at the offending line and column") {
  CHECK(Parsed("select: [Q9999]\n").where() ==
        "1:10 unknown rule, code prefix or group 'Q9999' (see ptxlint "
        "--list-rules)");
  CHECK(Parsed("severity:\n  M001: loud\n").where() ==
        "2:9 unknown severity 'loud' (expected error, warning, note or off)");
  CHECK(Parsed("severity:\n  Z: error\n").where().rfind("2:6 unknown rule", 0) == 0);
  CHECK(Parsed("colour: red\n").where() == "1:1 unknown key 'colour'");
  CHECK(Parsed("ptx-version: 8\n").where().rfind("1:14 invalid PTX version", 0) == 0);
  CHECK(Parsed("target: gfx90a\n").where().rfind("1:9 invalid target", 0) == 0);
  CHECK(Parsed("overrides:\n  - ignore: [M001]\n").where().find("missing required key 'files'") !=
        std::string::npos);
  Parsed Bad("select: [M001\n");
  CHECK_FALSE(Bad.Ok);
  CHECK(Bad.Diags[0].Code == "X101");
  CHECK(Bad.Diags[0].Level == Severity::Error);
}

TEST_CASE("layers: file, matching overrides, then the command line") {
  Parsed P("severity: {M001: error}\nignore: [M002]\ntarget: sm_90a\n"
           "overrides:\n  - files: [\"snippets/*\"]\n    ignore: [M001]\n"
           "    ptx-version: \"8.0\"\n");
  REQUIRE(P.Ok);
  ConfigLayer None;
  LintOptions Top = resolveOptions(&P.Cfg, "/proj/src/k.ptx", None, {});
  CHECK(effective(Top, "M001") == Severity::Error);
  CHECK(effective(Top, "M002") == Severity::Ignored);
  CHECK(effective(Top, "S001") == Severity::Error);
  CHECK(*Top.Target == "sm_90a");
  CHECK_FALSE(Top.PtxVersion);

  // '*' crosses '/' below the config's folder.
  LintOptions Snip = resolveOptions(&P.Cfg, "/proj/snippets/a/b.ptx", None, {});
  CHECK(effective(Snip, "M001") == Severity::Ignored);
  CHECK(*Snip.PtxVersion == std::make_pair(8u, 0u));

  ConfigLayer Cli;
  Cli.Select = std::vector<std::string>{"M"};
  Cli.Severities.push_back({"M002", Severity::Note});
  Cli.WarningsAsErrors = true;
  LintOptions C = resolveOptions(&P.Cfg, "/proj/src/k.ptx", Cli, {});
  CHECK(effective(C, "M002") == Severity::Note);   // re-selected, then a note
  CHECK(effective(C, "S001") == Severity::Ignored); // not selected
  CHECK(effective(C, "M001") == Severity::Error);
  CHECK(C.WarningsAsErrors);
}

TEST_CASE("override globs without '/' match the file name") {
  PathOverride O;
  O.Files = {"*_test.ptx"};
  CHECK(overrideMatches(O, "/proj", "/proj/deep/dir/a_test.ptx"));
  CHECK_FALSE(overrideMatches(O, "/proj", "/proj/deep/dir/a.ptx"));
  O.Files = {"deep/*.ptx"};
  CHECK(overrideMatches(O, "/proj", "/proj/deep/dir/a.ptx"));
  CHECK_FALSE(overrideMatches(O, "/proj", "/other/deep/a.ptx"));
}

TEST_CASE("versions and targets") {
  CHECK(*parseVersionPair("9.1") == std::make_pair(9u, 1u));
  CHECK_FALSE(parseVersionPair("9"));
  CHECK_FALSE(parseVersionPair("9.x"));
  CHECK(isValidTargetName("sm_90a"));
  CHECK(isValidTargetName("sm_100f"));
  CHECK(isValidTargetName("sm_80"));
  CHECK_FALSE(isValidTargetName("sm_9"));
  CHECK_FALSE(isValidTargetName("sm_90b"));
}
