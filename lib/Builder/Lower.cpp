//===- Lower.cpp - Rewrite async copies for the module's target -----------===//

#include "ptxlint/Lower.h"
#include "ptxlint/Builder.h"
#include "ptxlint/Linter.h"
#include "ptxlint/RuleRegistry.h"
#include "ptxlint/SymbolTable.h"
#include "ptxlint/Target.h"

#include <algorithm>

namespace ptxlint {
namespace {

using namespace build;

bool below(const TargetVersion &T, unsigned Maj, unsigned Min) {
  return T.PtxMajor * 10 + T.PtxMinor < Maj * 10 + Min;
}

/// The exact rewrites; returns the instructions that replace I.
std::vector<Inst> rewrite(Inst I, const TargetVersion &T, const LowerOptions &O) {
  if (auto *B = std::get_if<CpAsyncBulk>(&I.Op)) {
    if (B->Dir == BulkDir::GlobalToSharedCta && below(T, 8, 6))
      B->Dir = BulkDir::GlobalToSharedCluster;
  } else if (auto *Tn = std::get_if<CpAsyncBulkTensor>(&I.Op)) {
    if (Tn->Dir == TensorDir::GlobalToSharedCta && below(T, 8, 6) &&
        Tn->Group == CtaGroup::None &&
        (Tn->Mode == LoadMode::Tile || Tn->Mode == LoadMode::Im2col))
      Tn->Dir = TensorDir::GlobalToSharedCluster;
  } else if (auto *C = std::get_if<CpAsync>(&I.Op)) {
    if (C->DstSharedCta && below(T, 7, 8))
      C->DstSharedCta = false;
  } else if (std::holds_alternative<CpAsyncWaitAll>(I.Op) && O.ExpandWaitAll) {
    Inst Commit(CpAsyncCommitGroup{}), Wait(CpAsyncWaitGroup{0});
    Commit.Guard = I.Guard;
    Wait.Guard = I.Guard;
    return {Commit, Wait};
  }
  return {I};
}

} // namespace

LowerResult lowerModule(const SourceBuffer &Buffer, const LowerOptions &Opts) {
  LowerResult R;
  DiagnosticEngine Diags;
  Module M = parseModule(Buffer, Diags);
  SymbolTable Symbols(M);

  TargetVersion TV;
  TV.Target.clear();
  // The target the linter judges the module for (the last one named).
  if (auto T = effectiveTarget(M.Directives.Targets))
    TV.Target = T->name();
  if (Opts.Target)
    TV.Target = *Opts.Target;
  if (M.Directives.HasVersion) {
    TV.PtxMajor = M.Directives.VersionMajor;
    TV.PtxMinor = M.Directives.VersionMinor;
  }
  if (Opts.PtxVersion) {
    TV.PtxMajor = Opts.PtxVersion->first;
    TV.PtxMinor = Opts.PtxVersion->second;
  }

  struct Edit {
    SourceRange Range;
    std::string Text;
  };
  std::vector<Edit> Edits;
  std::string_view Text = Buffer.text();

  FunctionCursor Functions(M);
  for (uint32_t K = 0; K < M.Statements.size(); ++K) {
    const Statement &S = M.Statements[K];
    if (S.Kind != StatementKind::Instruction || S.ParsedIndex < 0)
      continue;
    const Instruction &I = M.Instructions[size_t(S.ParsedIndex)];
    if (I.Opcode != "cp")
      continue;
    std::string Err;
    std::optional<Inst> D = decode(I, &Err, &Symbols, Functions.at(K));
    if (!D) {
      DiagBuilder(Diags, rules::LowerNotDecoded, I.Range,
                  "not lowered: " + Err)
          .spec("9.7.9.25");
      continue;
    }
    std::vector<Inst> New = rewrite(*D, TV, Opts);
    bool Refused = false;
    if (!TV.Target.empty()) {
      for (const Inst &N : New)
        for (const Unsupported &U : checkTarget(N, TV)) {
          if (U.Advisory)
            continue;
          DiagBuilder(Diags, rules::LowerUnsupported, I.Range,
                      "cannot lower " + instructionName(N) + " for " +
                          TV.Target + " / PTX " + std::to_string(TV.PtxMajor) +
                          "." + std::to_string(TV.PtxMinor) + ": " + U.Message)
              .spec("9.7.9.25");
          Refused = true;
        }
    }
    if (Refused) {
      ++R.Refused;
      continue;
    }
    bool Changed = New.size() != 1 || New[0] != *D;
    if (!Changed && !Opts.CanonicalOrder)
      continue;
    // Keep the indentation of the line for every statement after the first.
    uint32_t LineBegin = I.Range.Begin;
    while (LineBegin > 0 && Text[LineBegin - 1] != '\n')
      --LineBegin;
    std::string Indent;
    for (uint32_t K = LineBegin; K < I.Range.Begin && (Text[K] == ' ' || Text[K] == '\t'); ++K)
      Indent += Text[K];
    std::string Out;
    for (size_t K = 0; K < New.size(); ++K)
      Out += (K ? "\n" + Indent : "") + print(New[K]);
    if (Out == Text.substr(I.Range.Begin, I.Range.End - I.Range.Begin))
      continue;
    Edits.push_back({I.Range, std::move(Out)});
  }

  std::sort(Edits.begin(), Edits.end(),
            [](const Edit &A, const Edit &B) { return A.Range.Begin < B.Range.Begin; });
  uint32_t Pos = 0;
  for (const Edit &E : Edits) {
    R.Text.append(Text.substr(Pos, E.Range.Begin - Pos));
    R.Text += E.Text;
    Pos = E.Range.End;
  }
  R.Text.append(Text.substr(Pos));
  R.Rewritten = unsigned(Edits.size());
  R.Diagnostics = Diags.take();
  R.Ok = R.Refused == 0;
  return R;
}

} // namespace ptxlint
