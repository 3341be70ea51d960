//===- main.cpp - The ptxlint command ---------------------------------------===//
//
// ptxlint [options] FILE|DIR...   ('-' reads standard input)
// Exit status: 0 no error, 1 at least one error diagnostic (with --diff: a
// change), 2 usage, I/O or configuration error.
//
// This file only maps options onto ptxlint::DriverOptions; the work is in
// lib/Driver (files, parallelism, fixes), lib/Config (.ptxlint.yaml), lib/Output
// (formats) and lib/Rules (registry, --explain).
//
//===----------------------------------------------------------------------===//

#include "ptxlint/Driver.h"
#include "ptxlint/RuleDocs.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <cstdlib>
#include <new>
#include <string>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <vector>

using namespace llvm;

// Exit without running static destructors, except under a sanitizer: a leak
// checker runs at exit.
#if defined(__SANITIZE_ADDRESS__)
#define PTXLINT_EXIT_WITHOUT_CLEANUP 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTXLINT_EXIT_WITHOUT_CLEANUP 0
#endif
#endif
#ifndef PTXLINT_EXIT_WITHOUT_CLEANUP
#define PTXLINT_EXIT_WITHOUT_CLEANUP 1
#endif

namespace {

cl::OptionCategory Category("ptxlint options");

cl::list<std::string> Inputs(cl::Positional, cl::desc("<file.ptx | dir | ->..."),
                             cl::cat(Category));
cl::opt<std::string> TargetOpt(
    "target", cl::desc("Target for modules without .target (e.g. sm_90a)"),
    cl::value_desc("sm_XX"), cl::cat(Category));
cl::opt<std::string> PtxVersionOpt(
    "ptx-version",
    cl::desc("PTX ISA version for modules without .version (e.g. 8.6)"),
    cl::value_desc("M.m"), cl::cat(Category));
cl::opt<bool> OverrideOpt(
    "override-directives",
    cl::desc("Let --target/--ptx-version override the module's directives"),
    cl::cat(Category));
cl::list<std::string> SelectOpt(
    "select", cl::CommaSeparated, cl::value_desc("RULE,..."),
    cl::desc("Enable only these rules: codes, code prefixes, names, groups "
             "or 'all' (replaces the configuration's select)"),
    cl::cat(Category));
cl::list<std::string> ExtendSelectOpt(
    "extend-select", cl::CommaSeparated, cl::value_desc("RULE,..."),
    cl::desc("Enable these rules in addition"), cl::cat(Category));
cl::list<std::string> IgnoreOpt("ignore", cl::CommaSeparated,
                                cl::value_desc("RULE,..."),
                                cl::desc("Disable these rules"),
                                cl::cat(Category));
cl::opt<bool> WerrorOpt("warnings-as-errors",
                        cl::desc("Report warnings as errors"),
                        cl::cat(Category));
cl::alias WerrorAlias("Werror", cl::desc("Alias for --warnings-as-errors"),
                      cl::aliasopt(WerrorOpt), cl::NotHidden);
cl::opt<std::string> ConfigOpt(
    "config",
    cl::desc("Use this configuration file for every input instead of the "
             "nearest .ptxlint.yaml"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> NoConfigOpt("no-config",
                          cl::desc("Ignore .ptxlint.yaml files"),
                          cl::cat(Category));
cl::opt<bool> SnippetOpt(
    "snippet",
    cl::desc("Read .ptx files as statements of a kernel body, without a module "
             "(automatic for a short file without .version/.entry/.func)"),
    cl::cat(Category));
cl::opt<bool> FollowLinksOpt(
    "follow-links",
    cl::desc("Walk into links to folders (loops are detected and skipped)"),
    cl::cat(Category));
cl::opt<std::string> StdinNameOpt(
    "stdin-filename",
    cl::desc("The file that standard input ('-') stands for: its name in "
             "diagnostics, and its .ptxlint.yaml"),
    cl::value_desc("path"), cl::cat(Category));
cl::opt<std::string> FormatOpt(
    "format", cl::desc("Output format: text, json, sarif or github"),
    cl::value_desc("text|json|sarif|github"), cl::init("text"),
    cl::cat(Category));
cl::opt<bool> FixOpt("fix",
                     cl::desc("Apply certain fixes in place and report them"),
                     cl::cat(Category));
cl::opt<bool> DiffOpt("diff",
                      cl::desc("Print the fixes as a unified diff; change "
                               "nothing (exit 1 if there is a change)"),
                      cl::cat(Category));
cl::opt<unsigned> JobsOpt("jobs",
                          cl::desc("Use N threads: files at once, and a module's "
                                   "functions when there are fewer files "
                                   "(default: all cores)"),
                          cl::value_desc("N"), cl::init(0), cl::cat(Category));
// -j is its own option, not an alias: only an option may take its value
// glued on ("-j2"; an alias's "-j2" reads as a group of one-letter flags).
cl::opt<unsigned> JobsShortOpt("j", cl::desc("Alias for --jobs"),
                               cl::value_desc("N"), cl::Prefix, cl::init(0),
                               cl::cat(Category));
cl::opt<bool> ListRulesOpt(
    "list-rules",
    cl::desc("List every rule (code, name, default, group, fix, summary); "
             "--format=json for JSON"),
    cl::cat(Category));
cl::opt<std::string> ExplainOpt(
    "explain", cl::desc("Explain a rule: what, why, a bad and a good example"),
    cl::value_desc("CODE"), cl::cat(Category));
cl::opt<bool> RulesDocOpt("generate-rules-doc",
                          cl::desc("Print docs/rules.md (generated)"),
                          cl::Hidden, cl::cat(Category));
cl::opt<bool> VerifyOpt(
    "verify",
    cl::desc("Check diagnostics against expected-error/-warning comments in "
             "the input (test mode)"),
    cl::cat(Category));
enum class ColorMode { Auto, Always, Never };
cl::opt<ColorMode> ColorOpt(
    "color-diagnostics", cl::desc("Colour the output"),
    cl::values(clEnumValN(ColorMode::Auto, "auto", "on a terminal, unless NO_COLOR is set"),
               clEnumValN(ColorMode::Always, "always", "always"),
               clEnumValN(ColorMode::Never, "never", "never")),
    cl::init(ColorMode::Auto), cl::cat(Category));
cl::opt<bool> NoSourceOpt("no-source-snippet",
                          cl::desc("Do not print the source line and caret"),
                          cl::cat(Category));
cl::opt<unsigned> MaxDiagsOpt(
    "max-diagnostics",
    cl::desc("Show at most N diagnostics per file (0: all; default 1000)"),
    cl::init(1000), cl::cat(Category));
cl::opt<bool> PtxasOpt("ptxas",
                       cl::desc("Then assemble with ptxas (see lib/Ptxas) and "
                                "report where ptxas and ptxlint disagree"),
                       cl::cat(Category));
cl::opt<std::string> OutputOpt("o", cl::desc("With --ptxas: write the cubin here"),
                               cl::value_desc("file.cubin"), cl::cat(Category));
cl::opt<unsigned> TensorBoxOpt(
    "tensor-box-bytes",
    cl::desc("Bytes one tensor copy moves (its tensor-map box), for the "
             "mbarrier accounting of F404 where no '// ptxlint: "
             "tensor-box-bytes=N' comment gives it (0: unknown)"),
    cl::value_desc("N"), cl::init(0), cl::cat(Category));
cl::opt<std::string> LangOpt(
    "lang",
    cl::desc("Read every input as PTX or as CUDA C++ (its asm statements); "
             "default: by extension (.ptx; .cu .cuh .h .hpp .cpp .cc .inl), "
             "and '-' is PTX"),
    cl::value_desc("ptx|cuda"), cl::cat(Category));
cl::list<std::string> CudaExtOpt(
    "cuda-extensions", cl::CommaSeparated, cl::value_desc(".cu,.cuh,..."),
    cl::desc("The file extensions read as CUDA C++ (default: .cu, .cuh, .h, "
             ".hpp, .cpp, .cc, .inl)"),
    cl::cat(Category));
cl::opt<bool> PrintSnippetsOpt(
    "print-asm-snippets",
    cl::desc("Print each asm statement of the C++ inputs as a PTX module "
             "(for cross-checks with ptxas) and exit"),
    cl::Hidden, cl::cat(Category));
cl::opt<bool> StatsOpt("print-stats",
                       cl::desc("Print statement counts per file to stderr"),
                       cl::cat(Category));

int usage(const std::string &Msg) {
  errs() << "ptxlint: error: " << Msg << "\n";
  return 2;
}

bool selectors(const cl::list<std::string> &L, std::vector<std::string> &Out,
               const char *Opt, std::string &Err) {
  for (const std::string &S : L) {
    std::string Why;
    if (!ptxlint::isValidSelector(S, &Why)) {
      Err = std::string("--") + Opt + ": " + Why;
      return false;
    }
    Out.push_back(S);
  }
  return true;
}

/// --print-asm-snippets: "// FILE:LINE:COL target=T ptx=V" and the module,
/// per asm statement (the options of the command line only).
int printAsmSnippets(const ptxlint::DriverOptions &D) {
  ptxlint::LintOptions Opts = ptxlint::resolveOptions(nullptr, "", D.Cli, D.Base);
  for (const std::string &Path : D.Inputs) {
    auto Buf = MemoryBuffer::getFileOrSTDIN(Path);
    if (!Buf)
      return usage("cannot open '" + Path + "'");
    ptxlint::SourceBuffer B(Path, (*Buf)->getBuffer().str());
    for (const ptxlint::AsmSnippet &S : ptxlint::asmSnippets(B, Opts)) {
      auto LC = B.lineCol(S.Begin);
      outs() << "// " << Path << ":" << LC.Line << ":" << LC.Column
             << " target=" << S.Target << " ptx=" << S.Ptx << "\n"
             << S.Module << "\n";
    }
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
#if defined(__GLIBC__)
  // The flow passes build and free a working set per function. By default
  // glibc gives freed memory back to the kernel (trimming the heap, unmapping
  // large blocks) and the next function faults it in again, page by page: a
  // third of the run time on an 11 MB module was page faults. A linter
  // process is short-lived, so keep what it freed.
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "ptxlint " PTXLINT_VERSION " (PTX ISA 9.1 async-copy rules)\n";
  });
  std::string Errors;
  raw_string_ostream ErrStream(Errors);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "ptxlint: a linter for PTX asynchronous copy instructions\n\n"
          "  Exit status: 0 no error, 1 errors found, 2 usage, I/O or "
          "configuration error.\n",
          &ErrStream)) {
    errs() << ErrStream.str();
    return 2;
  }
  auto Format = ptxlint::parseOutputFormat(FormatOpt);
  if (!Format)
    return usage("unknown --format '" + FormatOpt +
                 "' (expected text, json, sarif or github)");

  if (RulesDocOpt) {
    outs() << ptxlint::renderRulesMarkdown();
    return 0;
  }
  if (ListRulesOpt) {
    outs() << (*Format == ptxlint::OutputFormat::Json
                   ? ptxlint::renderRuleTableJson()
                   : ptxlint::renderRuleTable());
    return 0;
  }
  if (!ExplainOpt.empty()) {
    // Codes are upper case; "s003" means S003.
    std::string Upper = ExplainOpt;
    for (char &C : Upper)
      C = char(std::toupper(static_cast<unsigned char>(C)));
    const ptxlint::RuleInfo *R = ptxlint::findRule(ExplainOpt);
    if (!R)
      R = ptxlint::findRule(Upper);
    if (!R)
      return usage("unknown rule '" + ExplainOpt + "' (see --list-rules)");
    outs() << ptxlint::renderRuleExplanation(*R);
    return 0;
  }
  if (Inputs.empty())
    return usage("no input files (try --help)");

  ptxlint::DriverOptions D;
  D.Inputs.assign(Inputs.begin(), Inputs.end());
  D.Base.MaxDiagnostics = MaxDiagsOpt;
  D.Base.OverrideTarget = OverrideOpt;
  D.Base.OverridePtxVersion = OverrideOpt;
  std::string Err;
  if (!SelectOpt.empty()) {
    D.Cli.Select.emplace();
    if (!selectors(SelectOpt, *D.Cli.Select, "select", Err))
      return usage(Err);
  }
  if (!selectors(ExtendSelectOpt, D.Cli.ExtendSelect, "extend-select", Err) ||
      !selectors(IgnoreOpt, D.Cli.Ignore, "ignore", Err))
    return usage(Err);
  if (WerrorOpt)
    D.Cli.WarningsAsErrors = true;
  if (TensorBoxOpt)
    D.Base.TensorBoxBytes = TensorBoxOpt;
  if (!TargetOpt.empty()) {
    if (!ptxlint::isValidTargetName(TargetOpt))
      return usage("invalid --target '" + TargetOpt +
                   "' (not a target ptxlint knows, such as sm_90a or sm_100f)");
    D.Cli.Target = TargetOpt;
  }
  if (!PtxVersionOpt.empty()) {
    auto V = ptxlint::parseVersionPair(PtxVersionOpt);
    if (!V)
      return usage("invalid --ptx-version '" + PtxVersionOpt +
                   "' (expected MAJOR.MINOR such as 8.6)");
    D.Cli.PtxVersion = *V;
  }
  D.ConfigPath = ConfigOpt;
  D.NoConfig = NoConfigOpt;
  D.FollowLinks = FollowLinksOpt;
  D.Snippet = SnippetOpt;
  D.StdinName = StdinNameOpt;
  if (!D.ConfigPath.empty() && D.NoConfig)
    return usage("--config and --no-config exclude each other");
  D.Format = *Format;
  D.Fix = FixOpt;
  D.Diff = DiffOpt;
  D.Verify = VerifyOpt;
  D.Stats = StatsOpt;
  D.Jobs = JobsShortOpt.getNumOccurrences() ? JobsShortOpt : JobsOpt;
  D.Ptxas = PtxasOpt;
  if (LangOpt == "ptx")
    D.Lang = ptxlint::SourceLanguage::Ptx;
  else if (LangOpt == "cuda")
    D.Lang = ptxlint::SourceLanguage::Cuda;
  else if (!LangOpt.empty())
    return usage("unknown --lang '" + LangOpt + "' (expected ptx or cuda)");
  for (const std::string &E : CudaExtOpt) {
    if (E.size() < 2 || E[0] != '.')
      return usage("invalid --cuda-extensions entry '" + E +
                   "' (expected an extension with its dot, such as .cu)");
    D.CudaExtensions.push_back(E);
  }
  D.PtxasOutput = OutputOpt;
  const char *NoColor = std::getenv("NO_COLOR");
  D.Style.Color = *Format == ptxlint::OutputFormat::Text &&
                  (ColorOpt == ColorMode::Always ||
                   (ColorOpt == ColorMode::Auto && !(NoColor && *NoColor) &&
                    sys::Process::StandardOutIsDisplayed()));
  D.Style.ShowSource = !NoSourceOpt;

  if (PrintSnippetsOpt)
    return printAsmSnippets(D);

  int RC;
  try {
    RC = ptxlint::runDriver(D, [](std::string_view Text, bool ToStderr) {
      if (Text.empty())
        return;
      raw_ostream &OS = ToStderr ? errs() : outs();
      OS << Text;
      OS.flush();
    });
  } catch (const std::bad_alloc &) {
    // Outside a file's lint (the driver reports those per file).
    outs().flush();
    errs() << "ptxlint: error: out of memory\n";
    return 2;
  }
  outs().flush();
#if PTXLINT_EXIT_WITHOUT_CLEANUP
  // The report is out; what static objects would free (ANTLR's tables)
  // the process's end frees faster, as clang's driver does too (-disable-free):
  // 0.04 ms a run.
  std::_Exit(RC);
#else
  return RC;
#endif
}
