//===- Fix.cpp - Apply certain fix-its, atomically ------------------------===//

#include "ptxlint/Driver.h"
#include "ptxlint/RuleRegistry.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

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
    SourceBuffer::LineCol LC = Buffer.lineCol(C.Edits.front().Range.Begin);
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

std::string fixToFixpoint(const std::string &Name, std::string Text,
                          const LintOptions &Opts, LintResult &Final,
                          std::vector<AppliedFix> &Applied, unsigned MaxRounds,
                          SourceLanguage Lang) {
  // Fix rounds see every diagnostic; the final report keeps the limit.
  LintOptions All = Opts;
  All.MaxDiagnostics = 0;
  for (unsigned Round = 0;; ++Round) {
    SourceBuffer B(Name, Text);
    LintResult R = lintAs(Lang, B, All);
    std::vector<AppliedFix> Now;
    std::string New = Round < MaxRounds ? applyFixes(B, R.Diagnostics, Now) : Text;
    if (Now.empty() || New == Text) {
      Final = Opts.MaxDiagnostics && R.Diagnostics.size() > Opts.MaxDiagnostics
                  ? lintAs(Lang, B, Opts)
                  : std::move(R);
      return Text;
    }
    Applied.insert(Applied.end(), Now.begin(), Now.end());
    Text = std::move(New);
  }
}

std::string writeFileAtomically(const std::string &Path, std::string_view Text) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    Real = Path; // keep going: the rename will report a real problem
  auto Perms = llvm::sys::fs::getPermissions(Real);
  if (!Perms)
    return "cannot stat '" + Path + "': " + Perms.getError().message();
  llvm::StringRef Dir = llvm::sys::path::parent_path(Real);
  llvm::SmallString<256> Model(Dir.empty() ? "." : Dir);
  llvm::sys::path::append(Model, "." + llvm::sys::path::filename(Real).str() +
                                     ".ptxlint-%%%%%%.tmp");
  int FD = -1;
  llvm::SmallString<256> Tmp;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Tmp))
    return "cannot create a temporary file next to '" + Path +
           "': " + EC.message();
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      std::string Msg = OS.error().message();
      OS.clear_error();
      llvm::sys::fs::remove(Tmp);
      return "cannot write '" + std::string(Tmp.str()) + "': " + Msg;
    }
  }
  if (std::error_code EC = llvm::sys::fs::setPermissions(Tmp, *Perms)) {
    llvm::sys::fs::remove(Tmp);
    return "cannot set permissions of '" + std::string(Tmp.str()) +
           "': " + EC.message();
  }
  if (std::error_code EC = llvm::sys::fs::rename(Tmp, Real)) {
    llvm::sys::fs::remove(Tmp);
    return "cannot replace '" + Path + "': " + EC.message();
  }
  return {};
}

} // namespace ptxlint
