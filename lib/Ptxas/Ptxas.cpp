//===- Ptxas.cpp - Find, run and read ptxas --------------------------------===//

#include "ptxlint/Ptxas.h"
#include "ptxlint/Target.h"
#include "ptxlint/RuleRegistry.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <poll.h>
#include <set>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ptxlint {
namespace {

bool isExecutable(const std::string &P) {
  struct stat St;
  return !P.empty() && ::stat(P.c_str(), &St) == 0 && S_ISREG(St.st_mode) &&
         ::access(P.c_str(), X_OK) == 0;
}

/// The range of line N without its leading blanks and line terminator.
SourceRange lineRange(const SourceBuffer &B, unsigned Line) {
  std::string_view L = B.lineText(Line);
  uint32_t Start = B.lineStart(Line);
  size_t Skip = 0;
  while (Skip < L.size() && (L[Skip] == ' ' || L[Skip] == '\t'))
    ++Skip;
  return {Start + uint32_t(Skip), Start + uint32_t(L.size())};
}

std::string trim(std::string_view S) {
  while (!S.empty() && (S.front() == ' ' || S.front() == '\t'))
    S.remove_prefix(1);
  while (!S.empty() && (S.back() == ' ' || S.back() == '\r' || S.back() == '\n'))
    S.remove_suffix(1);
  return std::string(S);
}

struct TempFile {
  std::string Path;
  ~TempFile() {
    if (!Path.empty())
      ::unlink(Path.c_str());
  }
};

} // namespace

std::optional<std::string> findPtxas() {
  if (const char *P = std::getenv("PTXAS"); P && *P && isExecutable(P))
    return std::string(P);
  if (const char *C = std::getenv("CUDA_HOME"); C && *C) {
    std::string P = std::string(C) + "/bin/ptxas";
    if (isExecutable(P))
      return P;
  }
  if (isExecutable("/usr/local/cuda/bin/ptxas"))
    return std::string("/usr/local/cuda/bin/ptxas");
  if (const char *Path = std::getenv("PATH")) {
    std::string_view All(Path);
    while (!All.empty()) {
      size_t Colon = All.find(':');
      std::string Dir(All.substr(0, Colon));
      All = Colon == std::string_view::npos ? std::string_view() : All.substr(Colon + 1);
      if (Dir.empty())
        continue;
      std::string P = Dir + "/ptxas";
      if (isExecutable(P))
        return P;
    }
  }
  return std::nullopt;
}

std::string ptxasArchFor(std::string_view Target, bool FrontEndOnly) {
  if (auto T = parseTarget(Target))
    return ptxasArch(*T, FrontEndOnly);
  return std::string(Target); // not one we know: ptxas says what it thinks
}

std::vector<Diagnostic> parsePtxasOutput(const SourceBuffer &Buffer,
                                         std::string_view Output) {
  std::vector<Diagnostic> Out;
  while (!Output.empty()) {
    size_t NL = Output.find('\n');
    std::string_view Line = Output.substr(0, NL);
    Output = NL == std::string_view::npos ? std::string_view() : Output.substr(NL + 1);
    if (Line.rfind("ptxas", 0) != 0)
      continue;
    // "ptxas FILE, line N; error   : msg" or "ptxas fatal   : msg".
    unsigned LineNo = 0;
    std::string_view Rest = Line.substr(5);
    size_t At = Rest.find(", line ");
    size_t Semi = Rest.find(';');
    if (At != std::string_view::npos && Semi != std::string_view::npos && Semi > At) {
      for (size_t K = At + 7; K < Semi && Rest[K] >= '0' && Rest[K] <= '9'; ++K)
        LineNo = LineNo * 10 + unsigned(Rest[K] - '0');
      Rest = Rest.substr(Semi + 1);
    }
    size_t Colon = Rest.find(':');
    if (Colon == std::string_view::npos)
      continue;
    std::string Kind = trim(Rest.substr(0, Colon));
    std::string Msg = trim(Rest.substr(Colon + 1));
    // Some fatal errors name their line only in the message: "Unexpected
    // non-ASCII character encountered on line 7".
    size_t On = Msg.rfind(" on line ");
    if (!LineNo && On != std::string::npos)
      for (size_t K = On + 9; K < Msg.size() && Msg[K] >= '0' && Msg[K] <= '9'; ++K)
        LineNo = LineNo * 10 + unsigned(Msg[K] - '0');
    rules::Id Rule;
    if (Kind == "error" || Kind == "fatal") {
      Rule = rules::PtxasError;
      if (Kind == "fatal")
        Msg = "fatal: " + Msg;
    } else if (Kind == "warning") {
      Rule = rules::PtxasWarning;
    } else {
      continue; // "info": statistics
    }
    SourceRange R{0, 0};
    if (LineNo)
      R = lineRange(Buffer, LineNo);
    Out.push_back(makeDiagnostic(Rule, R, "ptxas: " + Msg));
  }
  return Out;
}

PtxasResult runPtxas(const SourceBuffer &Buffer, const PtxasOptions &Opts) {
  PtxasResult R;
  std::string Exe = Opts.PtxasPath;
  if (Exe.empty()) {
    auto Found = findPtxas();
    if (!Found) {
      R.Diagnostics.push_back(makeDiagnostic(rules::PtxasFailed, {0, 0},
          "ptxas not found (set $PTXAS or $CUDA_HOME, or put it on PATH)"));
      R.Errors = 1;
      return R;
    }
    Exe = *Found;
  }

  std::string Arch = Opts.Arch;
  if (Arch.empty()) {
    DiagnosticEngine Ignored;
    Module M = parseModule(Buffer, Ignored);
    // The target the linter judged the module for (the last one named).
    if (auto T = effectiveTarget(M.Directives.Targets))
      Arch = T->name();
    if (Arch.empty())
      Arch = Opts.FallbackArch;
  }
  Arch = ptxasArchFor(Arch, Opts.FrontEndOnly && Opts.OutputFile.empty());

  TempFile In;
  {
    const char *Dir = std::getenv("TMPDIR");
    std::string Tmpl = std::string(Dir && *Dir ? Dir : "/tmp") + "/ptxlint-XXXXXX.ptx";
    std::vector<char> Name(Tmpl.begin(), Tmpl.end());
    Name.push_back('\0');
    int Fd = ::mkstemps(Name.data(), 4);
    if (Fd < 0) {
      R.Diagnostics.push_back(makeDiagnostic(rules::PtxasFailed, {0, 0},
                                       std::string("cannot create a temporary file: ") +
                                           std::strerror(errno)));
      R.Errors = 1;
      return R;
    }
    In.Path = Name.data();
    std::string_view T = Buffer.text();
    size_t Done = 0;
    while (Done < T.size()) {
      ssize_t N = ::write(Fd, T.data() + Done, T.size() - Done);
      if (N <= 0 && errno != EINTR)
        break;
      if (N > 0)
        Done += size_t(N);
    }
    ::close(Fd);
  }

  std::vector<std::string> Args = {Exe, "-arch=" + Arch};
  Args.push_back("-o");
  Args.push_back(Opts.OutputFile.empty() ? "/dev/null" : Opts.OutputFile);
  for (const std::string &A : Opts.ExtraArgs)
    Args.push_back(A);
  Args.push_back(In.Path);
  for (const std::string &A : Args)
    R.Command += (R.Command.empty() ? "" : " ") + A;
  std::vector<char *> Argv;
  for (std::string &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);

  int Pipe[2];
  if (::pipe2(Pipe, O_CLOEXEC) != 0) {
    R.Diagnostics.push_back(makeDiagnostic(rules::PtxasFailed, {0, 0},
                                     "cannot create a pipe for ptxas"));
    R.Errors = 1;
    return R;
  }
  struct rlimit Limit;
  Limit.rlim_cur = Limit.rlim_max = rlim_t(Opts.MemoryLimitBytes);
  pid_t Pid = ::fork();
  if (Pid == 0) {
    // Child: only async-signal-safe calls until exec.
    ::setpgid(0, 0);
    if (Opts.MemoryLimitBytes)
      ::setrlimit(RLIMIT_AS, &Limit);
    ::dup2(Pipe[1], 1);
    ::dup2(Pipe[1], 2);
    ::execv(Argv[0], Argv.data());
    ::_exit(127);
  }
  ::close(Pipe[1]);
  if (Pid < 0) {
    ::close(Pipe[0]);
    R.Diagnostics.push_back(makeDiagnostic(rules::PtxasFailed, {0, 0},
                                     "cannot start ptxas (fork failed)"));
    R.Errors = 1;
    return R;
  }

  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::seconds(Opts.TimeoutSeconds ? Opts.TimeoutSeconds : 20);
  char Chunk[4096];
  for (;;) {
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    Deadline - std::chrono::steady_clock::now())
                    .count();
    if (Left <= 0) {
      R.TimedOut = true;
      ::kill(-Pid, SIGKILL);
      ::kill(Pid, SIGKILL);
      break;
    }
    struct pollfd P = {Pipe[0], POLLIN, 0};
    int N = ::poll(&P, 1, int(std::min<long long>(Left, 1000)));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      continue;
    ssize_t Got = ::read(Pipe[0], Chunk, sizeof(Chunk));
    if (Got < 0 && errno == EINTR)
      continue;
    if (Got <= 0)
      break;
    if (R.Output.size() < (1u << 20))
      R.Output.append(Chunk, size_t(Got));
  }
  ::close(Pipe[0]);
  int Status = 0;
  while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  if (R.TimedOut) {
    R.Diagnostics.push_back(makeDiagnostic(rules::PtxasFailed, {0, 0},
        "ptxas did not finish within " + std::to_string(Opts.TimeoutSeconds) +
            " s and was stopped"));
  } else if (WIFSIGNALED(Status)) {
    R.Killed = true;
    R.Diagnostics.push_back(makeDiagnostic(rules::PtxasFailed, {0, 0},
        "ptxas was ended by signal " + std::to_string(WTERMSIG(Status)) +
            " (memory limit " + std::to_string(Opts.MemoryLimitBytes >> 20) +
            " MiB?)"));
  } else if (WIFEXITED(Status)) {
    R.Ran = WEXITSTATUS(Status) != 127;
    R.ExitCode = WEXITSTATUS(Status);
    R.Accepted = R.ExitCode == 0;
    if (!R.Ran)
      R.Diagnostics.push_back(makeDiagnostic(rules::PtxasFailed, {0, 0},
                                       "cannot execute '" + Exe + "'"));
  }
  // Messages name the temporary file; they are reported on Buffer's lines.
  for (Diagnostic &D : parsePtxasOutput(Buffer, R.Output))
    R.Diagnostics.push_back(std::move(D));
  if (R.Ran && !R.Accepted) {
    bool AnyError = false;
    for (const Diagnostic &D : R.Diagnostics)
      AnyError |= D.Level >= Severity::Error;
    if (!AnyError) {
      // A rejection that printed nothing we could read (memory, crash...).
      std::string Msg = trim(R.Output);
      if (R.ExitCode == 255 && Msg.empty())
        Msg = "ptxas failed with no message (memory limit?)";
      R.Diagnostics.push_back(makeDiagnostic(rules::PtxasFailed, {0, 0},
                                       "ptxas exited with status " +
                                           std::to_string(R.ExitCode) +
                                           (Msg.empty() ? "" : ": " + Msg)));
    }
  }
  for (const Diagnostic &D : R.Diagnostics) {
    R.Errors += D.Level >= Severity::Error;
    R.Warnings += D.Level == Severity::Warning;
  }
  return R;
}

LintAndAssembleResult lintAndAssemble(const SourceBuffer &Buffer,
                                      const LintOptions &LintOpts,
                                      const PtxasOptions &PtxasOpts) {
  return assembleAndCompare(Buffer, lint(Buffer, LintOpts), PtxasOpts);
}

LintAndAssembleResult assembleAndCompare(const SourceBuffer &Buffer,
                                         const LintResult &Lint,
                                         const PtxasOptions &PtxasOpts) {
  LintAndAssembleResult R;
  R.Lint = Lint;
  R.Ptxas = runPtxas(Buffer, PtxasOpts);
  if (!R.Ptxas.Ran)
    return R; // no verdict to compare with

  // Error lines of each side. ptxas stops at its first fatal error, so lines
  // after it say nothing about ptxas's verdict.
  std::map<unsigned, const Diagnostic *> LintLines, PtxasLines;
  unsigned FatalLine = ~0u;
  for (const Diagnostic &D : R.Ptxas.Diagnostics) {
    if (D.Level < Severity::Error || D.Code != ruleInfo(rules::PtxasError).Code)
      continue;
    bool Fatal = D.Message.rfind("ptxas: fatal:", 0) == 0;
    if (D.Range.End == 0) {
      // Module-level. Besides the closing "Ptx assembly aborted due to
      // errors", a fatal error without a line leaves every line unjudged.
      if (Fatal && D.Message.find("assembly aborted") == std::string::npos)
        FatalLine = 0;
      continue;
    }
    unsigned L = Buffer.lineCol(D.Range.Begin).Line;
    PtxasLines.emplace(L, &D);
    if (Fatal)
      FatalLine = std::min(FatalLine, L);
  }
  // Flow rules (group "flow") judge instruction sequences, which ptxas never
  // checks: their errors are not a verdict to compare.
  auto IsFlow = [](const Diagnostic &D) {
    const RuleInfo *Info = findRule(D.Code);
    return Info && Info->Group == "flow";
  };
  unsigned LintErrors = 0;
  for (const Diagnostic &D : R.Lint.Diagnostics)
    if (D.Level >= Severity::Error && !IsFlow(D)) {
      LintLines.emplace(Buffer.lineCol(D.Range.Begin).Line, &D);
      ++LintErrors;
    }

  for (auto &[Line, D] : PtxasLines)
    if (!LintLines.count(Line))
      R.Disagreements.push_back(makeDiagnostic(rules::PtxasDisagreement, lineRange(Buffer, Line),
          "ptxas rejects this line but ptxlint reports no error here (" +
              D->Message + ")"));
  for (auto &[Line, D] : LintLines)
    if (!PtxasLines.count(Line) && Line < FatalLine)
      R.Disagreements.push_back(makeDiagnostic(rules::PtxasDisagreement, D->Range,
          "ptxlint reports an error here [" + D->Code +
              "] but ptxas reports none on this line"));
  bool LintOk = LintErrors == 0, PtxasOk = R.Ptxas.Accepted;
  if (LintOk != PtxasOk) {
    Diagnostic D = makeDiagnostic(rules::PtxasDisagreement, {0, 0},
        PtxasOk ? "verdicts differ: ptxlint reports " +
                      std::to_string(R.Lint.Errors) +
                      " error(s), ptxas accepts the module"
                : "verdicts differ: ptxlint accepts the module, ptxas rejects it");
    R.Disagreements.insert(R.Disagreements.begin(), std::move(D));
  }
  R.Agree = R.Disagreements.empty();
  return R;
}

} // namespace ptxlint
