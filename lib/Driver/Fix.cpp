//===- Fix.cpp - Apply certain fix-its, atomically ------------------------===//

#include "ptxlint/Driver.h"
#include "Driver/Inputs.h"
#include "ptxlint/RuleRegistry.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ptxlint {

std::string applyFixes(const SourceBuffer &Buffer,
                       const std::vector<Diagnostic> &Diags,
                       std::vector<AppliedFix> &Applied) {
  // Candidates: diagnostics of rules whose fixes are certain (HasFix in the
  // registry). All edits of one diagnostic apply together or not at all.
  struct Candidate {
    const Diagnostic *D;
    std::vector<FixIt> Edits;
  };
  std::vector<Candidate> Cands;
  uint32_t Size = uint32_t(Buffer.text().size());
  for (const Diagnostic &D : Diags) {
    if (D.Fixes.empty() || D.Level == Severity::Ignored)
      continue;
    const RuleInfo *R = findRule(D.Code);
    if (!R || !R->HasFix)
      continue;
    Candidate C{&D, D.Fixes};
    std::sort(C.Edits.begin(), C.Edits.end(), [](const FixIt &A, const FixIt &B) {
      return A.Range.Begin < B.Range.Begin;
    });
    bool Ok = true;
    for (size_t K = 0; K < C.Edits.size(); ++K) {
      const FixIt &F = C.Edits[K];
      if (F.Range.End < F.Range.Begin || F.Range.End > Size)
        Ok = false;
      if (K && F.Range.Begin < C.Edits[K - 1].Range.End)
        Ok = false;
    }
    if (Ok)
      Cands.push_back(std::move(C));
  }
  std::stable_sort(Cands.begin(), Cands.end(),
                   [](const Candidate &A, const Candidate &B) {
                     return A.Edits.front().Range.Begin <
                            B.Edits.front().Range.Begin;
                   });
  std::vector<FixIt> Accepted;
  uint32_t LastEnd = 0;
  int64_t LastInsertAt = -1;
  for (const Candidate &C : Cands) {
    bool Conflict = false;
    uint32_t End = LastEnd;
    int64_t InsertAt = LastInsertAt;
    for (const FixIt &F : C.Edits) {
      if (F.Range.Begin < End || int64_t(F.Range.Begin) == InsertAt) {
        Conflict = true;
        break;
      }
      End = F.Range.End;
      InsertAt = F.Range.empty() ? int64_t(F.Range.Begin) : -1;
    }
    if (Conflict)
      continue; // the next round re-lints and tries again
    LastEnd = End;
    LastInsertAt = InsertAt;
    Accepted.insert(Accepted.end(), C.Edits.begin(), C.Edits.end());
    SourceBuffer::LineCol LC = Buffer.charLineCol(C.Edits.front().Range.Begin);
    Applied.push_back({C.D->Code, C.D->Message, LC.Line, LC.Column});
  }
  std::string Out;
  std::string_view T = Buffer.text();
  Out.reserve(T.size() + 64);
  uint32_t Pos = 0;
  for (const FixIt &F : Accepted) {
    Out.append(T.substr(Pos, F.Range.Begin - Pos));
    Out += F.Replacement;
    Pos = F.Range.End;
  }
  Out.append(T.substr(Pos));
  return Out;
}

namespace {

/// One attempt at the fixed point with the fixes of Excluded codes left
/// out. Returns true when it converged without adding errors; otherwise
/// Culprits gets the codes of the round that failed.
bool tryFixpoint(SourceLanguage Lang, const std::string &Name,
                 const std::string &Original, const LintOptions &All, unsigned MaxRounds,
                 const std::set<std::string> &Excluded, std::string &Text,
                 LintResult &Last, std::vector<AppliedFix> &Applied,
                 std::set<std::string> &Culprits) {
  Text = Original;
  Applied.clear();
  unsigned PrevErrors = 0;
  std::vector<AppliedFix> Round;
  for (unsigned R = 0;; ++R) {
    SourceBuffer B(Name, Text);
    Last = lintAs(Lang, B, All);
    if (R && Last.Errors > PrevErrors) {
      // The last round's fixes made things worse.
      for (const AppliedFix &F : Round)
        Culprits.insert(F.Code);
      return false;
    }
    std::vector<Diagnostic> Fixable;
    for (const Diagnostic &D : Last.Diagnostics)
      if (!D.Fixes.empty() && !Excluded.count(D.Code))
        Fixable.push_back(D);
    Round.clear();
    std::string New = applyFixes(B, Fixable, Round);
    if (Round.empty() || New == Text)
      return true;
    if (R == MaxRounds) {
      // Still changing: these fixes do not converge.
      for (const AppliedFix &F : Round)
        Culprits.insert(F.Code);
      return false;
    }
    Applied.insert(Applied.end(), Round.begin(), Round.end());
    PrevErrors = Last.Errors;
    Text = std::move(New);
  }
}

} // namespace

std::string fixToFixpoint(const std::string &Name, std::string Text,
                          const LintOptions &Opts, LintResult &Final,
                          std::vector<AppliedFix> &Applied, unsigned MaxRounds,
                          SourceLanguage Lang) {
  // Fix rounds see every diagnostic; the final report keeps the limit.
  LintOptions All = Opts;
  All.MaxDiagnostics = 0;
  // A fix is offered only where it converges (a second --fix changes
  // nothing) and never adds errors: a rule whose fixes fail that is left
  // out and the fixes are computed again from the original text.
  std::set<std::string> Excluded;
  std::string Fixed;
  LintResult Last;
  std::vector<AppliedFix> Done;
  for (;;) {
    std::set<std::string> Culprits;
    if (tryFixpoint(Lang, Name, Text, All, MaxRounds, Excluded, Fixed, Last, Done,
                    Culprits))
      break;
    size_t Before = Excluded.size();
    Excluded.insert(Culprits.begin(), Culprits.end());
    if (Excluded.size() == Before) {
      // Nothing new to leave out (cannot happen: a failing round applied
      // fixes of codes not excluded); keep the text as it was.
      Fixed = Text;
      Done.clear();
      SourceBuffer B(Name, Fixed);
      Last = lintAs(Lang, B, All);
      break;
    }
  }
  Applied.insert(Applied.end(), Done.begin(), Done.end());
  if (Opts.MaxDiagnostics && Last.Diagnostics.size() > Opts.MaxDiagnostics) {
    SourceBuffer B(Name, Fixed);
    Final = lintAs(Lang, B, Opts);
  } else {
    Final = std::move(Last);
  }
  return Fixed;
}

namespace {

std::string sysError(const std::string &What, const std::string &Path) {
  return "cannot " + What + " '" + Path + "': " + std::strerror(errno);
}

/// write() all of Text, retrying on EINTR and short writes.
bool writeAll(int FD, std::string_view Text) {
  while (!Text.empty()) {
    ssize_t N = ::write(FD, Text.data(), Text.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Text.remove_prefix(size_t(N));
  }
  return true;
}

/// Why Target (stat'ed as St) must not be replaced, or "".
std::string refusal(const std::string &Path, const struct stat &St,
                    const FileStamp *Expected) {
  if (!S_ISREG(St.st_mode))
    return "'" + Path + "' is not a regular file; not fixed";
  if (Expected && *Expected != stampOf(St))
    return "'" + Path + "' changed while it was being fixed; not fixed";
  // Mode bits, not access(): root may write a 0444 file, but the user who
  // made it read-only meant it to stay unchanged.
  if ((St.st_mode & 0222) == 0)
    return "'" + Path + "' is read-only; not fixed";
  if (St.st_nlink > 1)
    return "'" + Path + "' has " + std::to_string(St.st_nlink) +
           " hard links; not fixed (replacing it would split them)";
  return {};
}

} // namespace

std::string writeFileAtomically(const std::string &Path, std::string_view Text,
                                const FileStamp *Expected) {
  // The file behind a symlink is replaced; the link stays a link.
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    Real = Path; // stat reports the real problem
  std::string Target(Real.str());
  struct stat St;
  if (::stat(Target.c_str(), &St) != 0)
    return sysError("stat", Path);
  if (std::string Why = refusal(Path, St, Expected); !Why.empty())
    return Why;
  if (::access(Target.c_str(), W_OK) != 0)
    return sysError("write", Path);
  llvm::StringRef Dir = llvm::sys::path::parent_path(Real);
  llvm::SmallString<256> Model(Dir.empty() ? "." : Dir);
  llvm::sys::path::append(Model, "." + llvm::sys::path::filename(Real).str() +
                                     ".ptxlint-%%%%%%.tmp");
  int FD = -1;
  llvm::SmallString<256> Tmp;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(
          Model, FD, Tmp, llvm::sys::fs::OF_None, 0600))
    return "cannot create a temporary file next to '" + Path +
           "': " + EC.message() + "; not fixed";
  std::string TmpPath(Tmp.str());
  std::string Err;
  // The new file takes the old one's owner, group and mode, and is on disk
  // before the rename makes it the file.
  if (!writeAll(FD, Text))
    Err = sysError("write", TmpPath);
  else if ((St.st_uid != ::geteuid() || St.st_gid != ::getegid()) &&
           ::fchown(FD, St.st_uid, St.st_gid) != 0)
    Err = "cannot keep the owner and group of '" + Path +
          "': " + std::strerror(errno);
  else if (::fchmod(FD, St.st_mode & 07777) != 0)
    Err = sysError("set the permissions of", TmpPath);
  else if (::fsync(FD) != 0)
    Err = sysError("write", TmpPath);
  if (::close(FD) != 0 && Err.empty())
    Err = sysError("write", TmpPath);
  // Last look: an edit made while the fixes were computed and written wins.
  struct stat Now;
  if (Err.empty() && ::stat(Target.c_str(), &Now) != 0)
    Err = sysError("stat", Path);
  if (Err.empty() && stampOf(Now) != stampOf(St))
    Err = "'" + Path + "' changed while it was being fixed";
  if (Err.empty() && ::rename(TmpPath.c_str(), Target.c_str()) != 0)
    Err = sysError("replace", Path);
  if (!Err.empty()) {
    ::unlink(TmpPath.c_str());
    return Err + "; not fixed";
  }
  // The rename itself is durable once the folder is.
  int DirFD = ::open(std::string(Dir.empty() ? "." : Dir).c_str(),
                     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (DirFD >= 0) {
    (void)::fsync(DirFD);
    ::close(DirFD);
  }
  return {};
}

} // namespace ptxlint
