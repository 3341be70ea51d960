//===- Driver.cpp - Many files, in parallel, in a deterministic order -----===//

#include "ptxlint/Driver.h"
#include "Driver/Inputs.h"
#include "Support/HugePages.h"
#include "ptxlint/Ptxas.h"
#include "ptxlint/Verify.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <new>
#include <thread>

namespace ptxlint {
namespace {

/// --cuda-extensions, or null for the default list.
const std::vector<std::string> *cudaExtensions(const DriverOptions &O) {
  return O.CudaExtensions.empty() ? nullptr : &O.CudaExtensions;
}

struct Task {
  std::string Path;
  LintOptions Opts;
  bool Skip = false; ///< its configuration is bad
  std::vector<ConfigFinder::BadFile> BadConfigs; ///< to print before it
};

struct Outcome {
  std::unique_ptr<SourceBuffer> Buffer;
  std::vector<Diagnostic> Diags;
  std::string IoError;
  std::string Stats;
  std::string VerifyReport;
  bool VerifyFailed = false;
  std::vector<AppliedFix> Fixed;
  std::string Diff;
  bool Changed = false;
  bool SourceOut = false; ///< --fix on standard input: print Buffer's text
  bool PtxasRejected = false;
};

Outcome process(const Task &T, const DriverOptions &O) {
  Outcome R;
  InputText In;
  std::string ReadError;
  // Large inputs are mapped, unless fixed (the text is copied at once).
  if (!readInput(T.Path, In, ReadError, !O.Fix && !O.Diff)) {
    R.IoError = ReadError;
    return R;
  }
  // A large input's run allocates up to about twice its size: let those
  // pages be huge, a fault per 2 MB instead of per 4 KB (CUTLASS 77's 13 MB:
  // 2,850-3,400 -> ~570 faults, FA3 paged/split's 2.9 MB: 1,540 -> ~320; a
  // first-touched 4 KB page costs ~2 us on the benchmark's VM,
  // bench/pagefaults.c). The block adviseHugeHeap allocates (4 MB more)
  // stays under the command's mmap threshold (32 MB, main.cpp), so it is
  // heap.
  if (In.Size >= HugeHeapMinInput)
    adviseHugeHeap(std::min<size_t>(2 * In.Size, size_t(26) << 20));
  std::string Name = T.Path != "-"          ? T.Path
                     : O.StdinName.empty() ? "<stdin>"
                                           : O.StdinName;
  SourceLanguage Lang =
      O.Lang ? *O.Lang
             : languageOfPath(T.Path, cudaExtensions(O)).value_or(SourceLanguage::Ptx);
  if (Lang == SourceLanguage::Ptx && (O.Snippet || looksLikePtxSnippet(In.view())))
    Lang = SourceLanguage::PtxSnippet;
  LintResult LR;
  CudaLintStats Asm; // C++ sources, for --print-stats
  if (O.Fix || O.Diff) {
    std::string Text(In.view());
    const FileStamp Stamp = In.Stamp;
    In = InputText();
    std::string New = fixToFixpoint(Name, Text, T.Opts, LR, R.Fixed, 8, Lang);
    R.Changed = New != Text;
    R.SourceOut = T.Path == "-" && !O.Diff;
    if (R.Changed && O.Diff) {
      R.Diff = unifiedDiff(Name, Text, New);
    } else if (R.Changed && T.Path != "-") {
      std::string Err = writeFileAtomically(T.Path, New,
                                            Stamp.Regular ? &Stamp : nullptr);
      if (!Err.empty()) {
        // Nothing was written: no fix is reported.
        R.IoError = Err;
        R.Fixed.clear();
        R.Changed = false;
      }
    }
    // Report against what is on disk now (the original text for --diff or a
    // failed write).
    if (O.Diff || !R.IoError.empty()) {
      R.Buffer = std::make_unique<SourceBuffer>(Name, std::move(Text));
      LR = lintAs(Lang, *R.Buffer, T.Opts);
    } else {
      R.Buffer = std::make_unique<SourceBuffer>(Name, std::move(New));
    }
  } else {
    // Lint the text in place: no copy.
    std::string_view View = In.view();
    R.Buffer = std::make_unique<SourceBuffer>(Name, View, std::move(In.Data),
                                              In.Mapping != nullptr);
    LR = Lang == SourceLanguage::Cuda ? lintCuda(*R.Buffer, T.Opts, &Asm)
                                      : lintAs(Lang, *R.Buffer, T.Opts);
    if (In.changedSinceRead()) {
      // Diagnostics of a text that is no longer the file's: none.
      Outcome Changed;
      Changed.IoError = changedWhileRead(T.Path);
      return Changed;
    }
  }
  if (O.Stats)
    R.Stats = Name + ": " +
              (Lang == SourceLanguage::Cuda
                   ? std::to_string(Asm.AsmStatements) + " asm statements, " +
                         std::to_string(Asm.Checked) + " checked, "
                   : std::string()) +
              std::to_string(LR.Statements) + " statements, " +
              std::to_string(LR.ParsedStatements) + " parsed, " +
              std::to_string(LR.Errors) + " errors, " +
              std::to_string(LR.Warnings) + " warnings\n";
  if (O.Ptxas && !O.Verify && Lang == SourceLanguage::Ptx) {
    // Lint, then assemble; ptxas's messages and the disagreements join.
    PtxasOptions PO;
    PO.OutputFile = O.PtxasOutput;
    LintAndAssembleResult C = assembleAndCompare(*R.Buffer, LR, PO);
    for (auto *L : {&C.Ptxas.Diagnostics, &C.Disagreements})
      LR.Diagnostics.insert(LR.Diagnostics.end(), L->begin(), L->end());
    R.PtxasRejected = !C.Ptxas.Accepted;
  }
  R.Diags = std::move(LR.Diagnostics);
  std::stable_sort(R.Diags.begin(), R.Diags.end(),
                   [](const Diagnostic &A, const Diagnostic &B) {
                     return A.Range.Begin < B.Range.Begin;
                   });
  if (O.Verify) {
    VerifyResult V = verifyDiagnostics(*R.Buffer, R.Diags);
    R.VerifyFailed = !V.Ok;
    R.VerifyReport = V.Report;
  }
  return R;
}

void count(const std::vector<Diagnostic> &Diags, RunSummary &S) {
  for (const Diagnostic &D : Diags) {
    if (D.Level >= Severity::Error)
      ++S.Errors;
    else if (D.Level == Severity::Warning)
      ++S.Warnings;
    else
      ++S.Notes;
  }
}

} // namespace

int runDriver(const DriverOptions &O, const DriverWriter &Write) {
  bool IoError = false, ConfigError = false, AnyError = false, AnyDiff = false;
  std::string Out;
  std::unique_ptr<DiagnosticSink> Sink = createSink(O.Format, Out, O.Style);
  RunSummary Summary;
  bool DiagnosticsShown = !O.Diff && !O.Verify;
  // --fix on standard input prints the fixed text on standard output, alone:
  // the report (in any format) then goes to standard error.
  const bool ReportToStderr =
      O.Fix && !O.Diff &&
      std::find(O.Inputs.begin(), O.Inputs.end(), "-") != O.Inputs.end();
  // There the report is held to the end, in one piece.
  auto Flush = [&] {
    if (ReportToStderr)
      return;
    Write(Out, false);
    Out.clear();
  };
  // A problem of the run: on stderr at once, and in the JSON/SARIF report.
  auto Report = [&](ToolNotice N) {
    IoError |= N.Level >= Severity::Error;
    Write(renderNotice(N), true);
    if (DiagnosticsShown)
      Sink->notice(N);
  };
  auto Finish = [&] {
    if (DiagnosticsShown) {
      Summary.ExecutionSuccessful = !IoError && !ConfigError;
      Sink->end(Summary);
    }
    Write(Out, ReportToStderr);
    Out.clear();
  };
  if (DiagnosticsShown) {
    Sink->begin();
    Flush();
  }

  // Configuration of each file, decided up front (cheap, cached per folder).
  ConfigFinder Finder;
  std::vector<ConfigFinder::BadFile> Bad;
  if (!O.ConfigPath.empty()) {
    std::string IoErr;
    if (!Finder.setExplicit(O.ConfigPath, Bad, IoErr)) {
      Report({Severity::Error, IoErr});
      Finish();
      return 2;
    }
  }
  std::vector<ToolNotice> Notices;
  std::vector<std::string> Files = expandInputs(
      O.Inputs, InputFilter{O.Lang, cudaExtensions(O)}, O.FollowLinks, Notices);
  for (ToolNotice &N : Notices)
    Report(std::move(N));

  std::vector<Task> Tasks(Files.size());
  for (size_t K = 0; K < Files.size(); ++K) {
    Task &T = Tasks[K];
    T.Path = Files[K];
    // Standard input takes the configuration of the file it stands for.
    const std::string &ConfigPath =
        T.Path == "-" && !O.StdinName.empty() ? O.StdinName : T.Path;
    const ConfigFile *Cfg = nullptr;
    if (!O.NoConfig) {
      ConfigFinder::Result R = Finder.find(ConfigPath, Bad);
      T.Skip = R.Failed;
      Cfg = R.Config;
    }
    // Bad config files found so far are printed before this file.
    for (ConfigFinder::BadFile &B : Bad)
      T.BadConfigs.push_back(std::move(B));
    Bad.clear();
    if (!T.Skip)
      T.Opts = resolveOptions(Cfg, ConfigPath, O.Cli, O.Base);
  }

  // Lint in parallel; print in input order as soon as each file is ready.
  std::vector<Outcome> Results(Tasks.size());
  std::vector<char> Done(Tasks.size(), 0);
  std::mutex M;
  std::condition_variable CV;
  std::atomic<size_t> Next{0};
  const unsigned Cores =
      O.Jobs ? O.Jobs : std::max(1u, std::thread::hardware_concurrency());
  const unsigned Jobs = unsigned(std::max<size_t>(1, std::min<size_t>(Cores, Tasks.size())));
  // Cores no file keeps busy analyse a module's functions in parallel (one
  // big module on a many-core machine).
  for (Task &T : Tasks)
    T.Opts.Threads = std::max(1u, Cores / Jobs);
  auto Worker = [&] {
    for (size_t K; (K = Next.fetch_add(1)) < Tasks.size();) {
      Outcome R;
      if (!Tasks[K].Skip) {
        try {
          R = process(Tasks[K], O);
        } catch (const std::bad_alloc &) {
          // Whatever the file held is freed by now: report, go on.
          R = Outcome();
          R.IoError = "out of memory while linting '" + Tasks[K].Path + "'";
        }
      }
      std::lock_guard<std::mutex> L(M);
      Results[K] = std::move(R);
      Done[K] = 1;
      CV.notify_all();
    }
  };
  std::vector<std::thread> Pool;
  for (unsigned J = 1; J < Jobs; ++J)
    Pool.emplace_back(Worker);
  // With one job (or one file) the main thread does the work itself.
  if (Jobs <= 1)
    Worker();

  unsigned FixedTotal = 0, FilesFixed = 0;
  for (size_t K = 0; K < Tasks.size(); ++K) {
    Outcome R;
    {
      std::unique_lock<std::mutex> L(M);
      CV.wait(L, [&] { return Done[K] != 0; });
      R = std::move(Results[K]);
    }
    for (ConfigFinder::BadFile &B : Tasks[K].BadConfigs) {
      ConfigError = true;
      count(B.Diags, Summary);
      if (DiagnosticsShown) {
        Sink->file(*B.Buffer, B.Diags);
      } else {
        std::string Text = renderText(*B.Buffer, B.Diags, O.Style);
        Write(Text, true);
      }
    }
    if (Tasks[K].Skip) {
      ConfigError = true;
      Report({Severity::Error, "'" + Tasks[K].Path +
                                   "' not linted: its configuration file is invalid"});
      Flush();
      continue;
    }
    if (!R.IoError.empty())
      Report({Severity::Error, R.IoError});
    if (!R.Buffer) {
      Flush();
      continue;
    }
    ++Summary.Files;
    if (!R.Stats.empty())
      Write(R.Stats, true);
    for (const AppliedFix &F : R.Fixed)
      Write("ptxlint: " + R.Buffer->name() + ":" + std::to_string(F.Line) + ":" +
                std::to_string(F.Column) + (O.Diff ? ": would fix [" : ": fixed [") +
                F.Code + "] " +
                F.Message + "\n",
            true);
    if (R.Changed && !O.Diff) {
      FixedTotal += unsigned(R.Fixed.size());
      ++FilesFixed;
    }
    if (R.SourceOut)
      Write(R.Buffer->text(), false);
    if (O.Diff) {
      AnyDiff |= !R.Diff.empty();
      Out += R.Diff;
    } else if (O.Verify) {
      if (R.VerifyFailed) {
        Out += R.Buffer->name() + ": -verify failed\n" + R.VerifyReport;
        AnyError = true;
      }
    } else {
      AnyError |= R.PtxasRejected;
      count(R.Diags, Summary);
      Sink->file(*R.Buffer, R.Diags);
    }
    Flush();
  }
  for (std::thread &T : Pool)
    T.join();
  Finish();
  if (O.Fix && !O.Diff && FixedTotal)
    Write("ptxlint: fixed " + std::to_string(FixedTotal) + " problem" +
              (FixedTotal == 1 ? "" : "s") + " in " +
              std::to_string(FilesFixed) + " file" +
              (FilesFixed == 1 ? "" : "s") + "\n",
          true);
  AnyError |= Summary.Errors > 0;
  if (IoError || ConfigError)
    return 2;
  if (O.Diff)
    return AnyDiff ? 1 : 0;
  return AnyError ? 1 : 0;
}

} // namespace ptxlint
