//===- main.cpp - The ptxlint command ---------------------------------------===//
//
// ptxlint [options] FILE...   ('-' reads standard input)
// Exit status: 0 no error, 1 at least one error diagnostic, 2 usage or I/O
// error.
//
//===----------------------------------------------------------------------===//

#include "ptxlint/Linter.h"
#include "ptxlint/Ptxas.h"
#include "ptxlint/Render.h"
#include "ptxlint/Verify.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace llvm;

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
cl::opt<bool> StatsOpt("print-stats",
                       cl::desc("Print statement counts per file to stderr"),
                       cl::cat(Category));

bool parseVersion(StringRef S, std::pair<unsigned, unsigned> &V) {
  auto [Maj, Min] = S.split('.');
  return !Maj.getAsInteger(10, V.first) && !Min.getAsInteger(10, V.second);
}

/// Expands directories into the *.ptx files under them, sorted, so that
/// output order never depends on the file system.
bool expandInputs(std::vector<std::string> &Files) {
  bool Ok = true;
  for (const std::string &In : Inputs) {
    if (In != "-" && sys::fs::is_directory(In)) {
      std::vector<std::string> Found;
      std::error_code EC;
      for (sys::fs::recursive_directory_iterator It(In, EC), End;
           It != End && !EC; It.increment(EC))
        if (StringRef(It->path()).endswith(".ptx") &&
            !sys::fs::is_directory(It->path()))
          Found.push_back(It->path());
      if (EC) {
        errs() << "ptxlint: error: cannot read directory '" << In
               << "': " << EC.message() << "\n";
        Ok = false;
      }
      std::sort(Found.begin(), Found.end());
      Files.insert(Files.end(), Found.begin(), Found.end());
    } else {
      Files.push_back(In);
    }
  }
  return Ok;
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "ptxlint 0.1.0 (PTX ISA 9.1 async-copy rules)\n";
  });
  std::string Errors;
  raw_string_ostream ErrStream(Errors);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "ptxlint: a linter for PTX asynchronous copy instructions\n\n"
          "  Exit status: 0 no error, 1 errors found, 2 usage or I/O error.\n",
          &ErrStream)) {
    errs() << ErrStream.str();
    return 2;
  }
  if (Inputs.empty()) {
    errs() << "ptxlint: error: no input files (try --help)\n";
    return 2;
  }

  ptxlint::LintOptions Opts;
  Opts.MaxDiagnostics = MaxDiagsOpt;
  if (!TargetOpt.empty()) {
    Opts.Target = TargetOpt;
    Opts.OverrideTarget = OverrideOpt;
  }
  if (!PtxVersionOpt.empty()) {
    std::pair<unsigned, unsigned> V;
    if (!parseVersion(PtxVersionOpt, V)) {
      errs() << "ptxlint: error: invalid --ptx-version '" << PtxVersionOpt
             << "' (expected MAJOR.MINOR such as 8.6)\n";
      return 2;
    }
    Opts.PtxVersion = V;
    Opts.OverridePtxVersion = OverrideOpt;
  }

  ptxlint::TextStyle Style;
  const char *NoColor = std::getenv("NO_COLOR");
  Style.Color = ColorOpt == ColorMode::Always ||
                (ColorOpt == ColorMode::Auto &&
                 !(NoColor && *NoColor) && sys::Process::StandardOutIsDisplayed());
  Style.ShowSource = !NoSourceOpt;

  std::vector<std::string> Files;
  bool IoError = !expandInputs(Files);
  bool AnyError = false;
  for (const std::string &File : Files) {
    auto BufOrErr = MemoryBuffer::getFileOrSTDIN(File, /*IsText=*/false,
                                                 /*RequiresNullTerminator=*/false);
    if (!BufOrErr) {
      errs() << "ptxlint: error: cannot open '" << File
             << "': " << BufOrErr.getError().message() << "\n";
      IoError = true;
      continue;
    }
    ptxlint::SourceBuffer Buffer(File == "-" ? "<stdin>" : File,
                                 (*BufOrErr)->getBuffer().str());
    BufOrErr->reset();
    ptxlint::LintResult R = ptxlint::lint(Buffer, Opts);
    if (StatsOpt)
      errs() << Buffer.name() << ": " << R.Statements << " statements, "
             << R.ParsedStatements << " parsed, " << R.Errors << " errors, "
             << R.Warnings << " warnings\n";
    if (VerifyOpt) {
      ptxlint::VerifyResult V = ptxlint::verifyDiagnostics(Buffer, R.Diagnostics);
      if (!V.Ok) {
        outs() << Buffer.name() << ": -verify failed\n" << V.Report;
        AnyError = true;
      }
      continue;
    }
    if (PtxasOpt) { // lint, then assemble; ptxas's messages and disagreements join
      ptxlint::PtxasOptions PO;
      PO.OutputFile = OutputOpt;
      auto C = ptxlint::assembleAndCompare(Buffer, R, PO);
      for (auto *L : {&C.Ptxas.Diagnostics, &C.Disagreements})
        R.Diagnostics.insert(R.Diagnostics.end(), L->begin(), L->end());
      AnyError |= !C.Ptxas.Accepted;
    }
    outs() << ptxlint::renderText(Buffer, R.Diagnostics, Style);
    if (R.Errors)
      AnyError = true;
  }
  outs().flush();
  if (IoError)
    return 2;
  return AnyError ? 1 : 0;
}
