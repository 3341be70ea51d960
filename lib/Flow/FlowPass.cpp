//===- FlowPass.cpp - Runs the flow-sensitive rules on each function ------===//
//
// Only functions that contain async-copy or mbarrier work are analysed: the
// check is a scan of the statement heads, so modules of plain code cost
// nothing. Each such function is decoded and its CFG built once; every rule
// then runs its own linear dataflow over it. Functions are independent, so
// with LintOptions::Threads > 1 several are analysed at once.
//
//===----------------------------------------------------------------------===//

#include "Flow/FlowRules.h"
#include "Flow/FlowPass.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

namespace ptxlint {
namespace build { // the tables' spellings (the flow library links no builder)
#include "ptxlint/BuilderEnums.inc"
} // namespace build
namespace flow {

unsigned FlowRuleContext::lineOf(const FlowInst &I) const {
  return Ctx.Buffer.lineCol(I.Range.Begin).Line;
}

std::vector<uint32_t> roleInstsOf(const FlowFunction &FF, KindSet Kinds, bool Mbar) {
  // (No branch per instruction: kinds come in no order a predictor learns.)
  std::vector<uint32_t> Out(FF.RoleInsts.size());
  size_t N = 0;
  for (size_t X = 0; X < FF.RoleInsts.size(); ++X) {
    const FlowFunction::RoleTag &T = FF.RoleTags[X];
    Out[N] = FF.RoleInsts[X];
    N += size_t(inSet(Kinds, T.Kind) | (Mbar & T.Mbar));
  }
  Out.resize(N);
  return Out;
}

std::optional<uint64_t> FlowRuleContext::tensorBoxBytes(const FlowInst &I) const {
  std::string_view T = FF.M.Text;
  static constexpr std::string_view Tag = "ptxlint: tensor-box-bytes=";
  auto Parse = [&](std::string_view Line) -> std::optional<uint64_t> {
    size_t P = Line.find(Tag);
    if (P == std::string_view::npos)
      return std::nullopt;
    size_t C = Line.rfind("//", P);
    if (C == std::string_view::npos)
      return std::nullopt; // only inside a comment
    uint64_t V = 0;
    size_t K = P + Tag.size();
    bool Any = false;
    while (K < Line.size() && Line[K] >= '0' && Line[K] <= '9' &&
           V < (1ull << 40)) {
      V = V * 10 + uint64_t(Line[K++] - '0');
      Any = true;
    }
    return Any ? std::optional<uint64_t>(V) : std::nullopt;
  };
  // The rest of the statement's own line.
  size_t LineEnd = T.find('\n', I.Range.End);
  if (LineEnd == std::string_view::npos)
    LineEnd = T.size();
  if (auto V = Parse(T.substr(I.Range.End, LineEnd - I.Range.End)))
    return V;
  // The comment-only lines directly above it (at most 8). A line's start is
  // found by memrchr, not a byte at a time (async-dense: a tensor copy in
  // every few lines).
  auto StartOfLine = [&](size_t At) -> size_t {
    const void *NL = memrchr(T.data(), '\n', At);
    return NL ? size_t(static_cast<const char *>(NL) - T.data()) + 1 : 0;
  };
  size_t LineStart = StartOfLine(I.Range.Begin);
  for (int N = 0; N < 8 && LineStart > 0; ++N) {
    size_t End = LineStart - 1;
    size_t Begin = StartOfLine(End);
    std::string_view Line = T.substr(Begin, End - Begin);
    size_t First = Line.find_first_not_of(" \t\r");
    if (First == std::string_view::npos) {
      LineStart = Begin;
      continue; // blank line
    }
    if (Line.compare(First, 2, "//") != 0)
      break; // code: the annotation belongs to something else
    if (auto V = Parse(Line))
      return V;
    LineStart = Begin;
  }
  if (Ctx.Options.TensorBoxBytes)
    return *Ctx.Options.TensorBoxBytes;
  return std::nullopt;
}

std::optional<uint64_t> FlowRuleContext::copyBytes(const FlowInst &I) const {
  size_t K = size_t(&I - FF.Insts.data());
  if (K >= FF.Insts.size())
    return computeCopyBytes(I);
  if (BytesMemo.empty()) {
    BytesMemo.assign(FF.Insts.size(), 0);
    BytesVal.assign(FF.Insts.size(), 0);
  }
  if (!BytesMemo[K]) {
    auto V = computeCopyBytes(I);
    BytesMemo[K] = V ? 2 : 1;
    BytesVal[K] = V.value_or(0);
  }
  if (BytesMemo[K] == 1)
    return std::nullopt;
  return BytesVal[K];
}

std::optional<uint64_t> FlowRuleContext::computeCopyBytes(const FlowInst &I) const {
  if (I.Op.Kind == OpKind::TensorCopy || I.Op.Kind == OpKind::TensorReduce)
    return tensorBoxBytes(I);
  if (auto V = FF.constant(FF.operand(I, I.Op.SizeOp)))
    if (*V > 0)
      return uint64_t(*V);
  return std::nullopt;
}

const std::vector<FlowRuleEntry> &flowRules() {
  static const std::vector<FlowRuleEntry> Rules = {
      {"cluster-shape", {}, false, runClusterRule}, // local checks: no CFG
      {"completion", {}, true, runCompletionRules},
      {"consumer-wait", {OpKind::MbarWait}, true, runConsumerWaitRule},
      {"stage-acquire", {OpKind::MmaCommitArrive}, true, runStageAcquireRule},
      {"publish", {OpKind::MbarArrive}, true, runPublishRule},
      {"tmem-read", {OpKind::MmaCommitArrive}, true, runTmemReadRule},
      {"wait-group-noop", {OpKind::CpAsyncWait, OpKind::BulkWait}, true,
       runWaitCountRule},
      {"mbarrier-tx", {OpKind::MbarExpectTx, OpKind::MbarArriveExpectTx}, true,
       runMbarrierTxRule},
      {"proxy-fence", {}, true, runProxyFenceRule},
      {"dead-prefetch", {OpKind::BulkPrefetch, OpKind::TensorPrefetch}, true,
       runPrefetchRule},
  };
  return Rules;
}

namespace {

bool startsWith(std::string_view S, std::string_view P) {
  return S.size() >= P.size() && S.compare(0, P.size(), P) == 0;
}

/// Whether any flow rule can report in this function, from the statement
/// heads alone: every rule needs two async-copy/mbarrier instructions, or
/// one and a generic access of shared memory (F405-F407), except the local
/// multicast/cta_group checks. Skips the many one-copy wrapper functions.
bool interesting(const Module &M, const Function &F) {
  unsigned Async = 0;
  bool SharedAccess = false;
  for (uint32_t K = F.FirstStatement; K < F.EndStatement && K < M.Statements.size(); ++K) {
    const Statement &St = M.Statements[K];
    std::string_view H = St.head(M.Text);
    if (St.Kind != StatementKind::Instruction || H.size() < 2)
      continue;
    if (startsWith(H, "cp.") || startsWith(H, "mbarrier.")) {
      if (++Async >= 2 || H.find(build::spelling(build::Flag::Multicast)) != std::string_view::npos ||
          H.find(build::spelling(build::CtaGroup::Two)) != std::string_view::npos)
        return true;
      continue;
    }
    if (!SharedAccess &&
        (startsWith(H, "st") || startsWith(H, "ld") || startsWith(H, "red") ||
         startsWith(H, "atom")) &&
        H.find(".param") == std::string_view::npos &&
        H.find(".global") == std::string_view::npos &&
        H.find(".local") == std::string_view::npos &&
        H.find(".const") == std::string_view::npos)
      SharedAccess = true;
  }
  return Async == 1 && SharedAccess;
}

/// Whether the function has an instruction of one of the rule's kinds.
bool hasNeeded(const FlowFunction &FF, const FlowRuleEntry &R) {
  if (R.Needs.empty())
    return true;
  for (OpKind K : R.Needs)
    if (FF.has(K))
      return true;
  return false;
}

/// Decodes function K and runs the flow rules that can report in it.
void analyse(LintContext &Ctx, uint32_t K, ClassCache &Classes) {
  FlowFunction FF(Ctx.M, Ctx.Symbols, K, &Classes);
  FlowRuleContext C(Ctx, FF);
  for (const FlowRuleEntry &R : flowRules())
    if ((!R.NeedsCfg || FF.Analyzable) && hasNeeded(FF, R))
      R.Run(C);
}

class FlowPass : public LintPass {
public:
  const char *name() const override { return "flow"; }
  void runBatch(LintContext &Ctx, const StatementBatch &B) override {
    std::vector<uint32_t> Work;
    for (uint32_t K = B.FirstFunction; K < B.EndFunction; ++K) {
      const Function &F = Ctx.M.Functions[K];
      if (!F.IsPrototype && interesting(Ctx.M, F))
        Work.push_back(K);
    }
    if (Work.empty())
      return;
    unsigned Threads =
        unsigned(std::min<size_t>(Ctx.Options.threadCount(), Work.size()));
    if (Threads <= 1) {
      // Each function's symbols are asked for while the one before it is
      // analysed: its build looks up its shared arrays by name, and those
      // records and slots, last read by the scan, were a miss each.
      Ctx.Symbols.warm(int32_t(Work[0]));
      for (size_t X = 0; X < Work.size(); ++X) {
        if (X + 1 < Work.size())
          Ctx.Symbols.warm(int32_t(Work[X + 1]));
        analyse(Ctx, Work[X], Classes);
      }
      return;
    }
    // Functions are independent: each worker takes the next one and keeps
    // its diagnostics apart; they are reported in function order after, so
    // the output does not depend on the thread count. The rules only read
    // the module, except for the buffer's lazily built line table: build it
    // now.
    Ctx.Buffer.lineCol(0);
    std::vector<DiagnosticEngine> Found(Work.size());
    std::atomic<size_t> Next{0};
    auto Worker = [&] {
      ClassCache Cache; // one per thread
      for (size_t X; (X = Next.fetch_add(1)) < Work.size();) {
        LintContext Local{Ctx.Buffer, Ctx.M,        Ctx.Symbols,
                          Ctx.Options, Ctx.Settings, Found[X]};
        analyse(Local, Work[X], Cache);
      }
    };
    std::vector<std::thread> Pool;
    for (unsigned T = 1; T < Threads; ++T)
      Pool.emplace_back(Worker);
    Worker();
    for (std::thread &T : Pool)
      T.join();
    for (DiagnosticEngine &E : Found)
      for (Diagnostic &D : E.take())
        Ctx.Diags.report(std::move(D));
  }

private:
  ClassCache Classes; ///< of the module's heads, when one thread analyses
};

} // namespace
} // namespace flow

std::unique_ptr<LintPass> createFlowPass() {
  return std::make_unique<flow::FlowPass>();
}

} // namespace ptxlint
