//===- FlowRules.h - The flow-sensitive rules (codes F401..F409) --------===//
//
// Each rule (or rule group) lives in a file of its own and runs on a built
// FlowFunction. FlowPass.cpp builds the function once and runs the rules
// that flowRules() lists and the function can trigger.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_FLOW_FLOWRULES_H
#define PTXLINT_FLOW_FLOWRULES_H

#include "Flow/Dataflow.h"
#include "Flow/FlowFunction.h"
#include "ptxlint/LintContext.h"
#include "ptxlint/RuleRegistry.h"

#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxlint {
namespace flow {

/// The role instructions whose kind is in Kinds (and, with Mbar, those that
/// have an mbarrier operand), in order: found from FlowFunction::RoleTags,
/// without reading the other role instructions' records (every rule read
/// every one to find the few it acts on).
std::vector<uint32_t> roleInstsOf(const FlowFunction &FF, KindSet Kinds,
                                  bool Mbar = false);

/// A diagnostic of a flow rule: the rule-id DiagBuilder (code, severity and
/// spec section from Rules.def; notes in the order given, then the section).
using FlowDiag = DiagBuilder;

/// Facts about the function's mbarrier operations that the pipeline rules
/// (ConsumerWaitRule.cpp) each ask for: the form of an operation's barrier
/// address and whether a wait blocks, each found on the first question and
/// shared through FlowRuleContext::barriers().
class BarrierFacts {
public:
  explicit BarrierFacts(const FlowFunction &FF)
      : FF(FF), Slot(FF.Insts.size(), -1), Blocking(FF.Insts.size(), -1) {}
  /// The form of the barrier address of instruction K (an mbarrier
  /// operation): FlowFunction::form().
  const std::optional<Form> &form(uint32_t K) {
    int32_t &X = Slot[K];
    if (X < 0) {
      const FlowInst &I = FF.Insts[K];
      X = int32_t(Forms.size());
      Forms.push_back(FF.form(FF.operand(I, I.Op.MbarOp), K));
    }
    return Forms[size_t(X)];
  }
  /// Whether the mbarrier wait at K blocks until its phase completes (not
  /// a probe whose result a later test checks). ConsumerWaitRule.cpp.
  bool blocks(uint32_t K);

private:
  const FlowFunction &FF;
  std::vector<int32_t> Slot;               ///< per instruction: its form's index, -1
  std::deque<std::optional<Form>> Forms;   ///< stable references as it grows
  std::vector<int8_t> Blocking;            ///< per instruction: -1 not asked, 0, 1
};

struct FlowRuleContext {
  FlowRuleContext(LintContext &Ctx, const FlowFunction &FF) : Ctx(Ctx), FF(FF) {}
  LintContext &Ctx;
  const FlowFunction &FF;

  /// Starts a diagnostic for Rule at R (severity and spec from Rules.def).
  FlowDiag diag(rules::Id Rule, SourceRange R, std::string Msg) const {
    return DiagBuilder(Ctx.Diags, Rule, R, std::move(Msg));
  }
  /// A report of Rule that is likely but not certain (the accesses may
  /// overlap, the analysis cannot prove they do): a warning.
  FlowDiag likely(rules::Id Rule, SourceRange R, std::string Msg) const {
    return DiagBuilder(Ctx.Diags, Rule, Severity::Warning, R, std::move(Msg));
  }
  /// The instruction's text as written (for messages), without the guard.
  std::string_view headOf(const FlowInst &I) const { return I.Head; }
  /// 1-based line of an instruction (for messages).
  unsigned lineOf(const FlowInst &I) const;
  /// Tensor-map box bytes of a tensor copy: the annotation comment on its
  /// line or the line above ("// ptxlint: tensor-box-bytes=N"), else
  /// LintOptions::TensorBoxBytes.
  std::optional<uint64_t> tensorBoxBytes(const FlowInst &I) const;
  /// Bytes a copy moves, when known (immediate or constant register size,
  /// tensor box size for tensor copies).
  std::optional<uint64_t> copyBytes(const FlowInst &I) const;
  /// FlowFunction::callHasEffects(I), found once per call instruction: the
  /// rules ask on every visit, and each answer is a look-up of the callee.
  bool callHasEffects(const FlowInst &I) const {
    if (CallEffects.empty())
      CallEffects.assign(FF.Insts.size(), -1);
    int8_t &E = CallEffects[size_t(&I - FF.Insts.data())];
    if (E < 0)
      E = FF.callHasEffects(I);
    return E != 0;
  }
  /// The function's skip regions (Dataflow.h), found on the first request
  /// and shared by the rules that ask.
  const SkipRegionMap &skipRegions() const {
    if (!Skips)
      Skips.emplace(FF);
    return *Skips;
  }
  /// The function's mbarrier facts, shared by the rules that ask.
  BarrierFacts &barriers() const {
    if (!Barriers)
      Barriers.emplace(FF);
    return *Barriers;
  }

private:
  mutable std::optional<SkipRegionMap> Skips;
  mutable std::vector<int8_t> CallEffects; ///< per instruction: -1 not asked, 0, 1
  mutable std::optional<BarrierFacts> Barriers;
  std::optional<uint64_t> computeCopyBytes(const FlowInst &I) const;
  mutable std::vector<uint8_t> BytesMemo; ///< 0 unknown yet, 1 none, 2 value
  mutable std::vector<uint64_t> BytesVal;
};

/// "Whoever waits on barrier Bar then touches Object": binds a barrier to
/// the shared objects its waiters access (until their next wait, at most 64
/// role instructions on), so that an arrive on Bar hands those objects over.
struct BarrierUse {
  AddrKey Bar;
  int32_t Object;
  uint32_t Wait, Use; ///< the waiter's wait and its later instruction
};
/// Every (barrier, object) pair where ObjectOf(I) (-1: none) names what a
/// waiter's later instruction I touches.
template <class ObjectFn>
std::vector<BarrierUse> barrierUses(const FlowFunction &FF, ObjectFn &&ObjectOf) {
  std::vector<BarrierUse> Uses;
  const std::vector<uint32_t> &RI = FF.RoleInsts;
  for (size_t X = 0; X < RI.size(); ++X) {
    const FlowInst &Wt = FF.Insts[RI[X]];
    if (Wt.Op.Kind != OpKind::MbarWait)
      continue;
    AddrKey Bar = FF.address(FF.operand(Wt, Wt.Op.MbarOp));
    if (!Bar.valid())
      continue;
    for (size_t Y = X + 1; Y < RI.size() && Y < X + 64; ++Y) {
      const FlowInst &I = FF.Insts[RI[Y]];
      if (I.Op.Kind == OpKind::MbarWait)
        break;
      int32_t O = ObjectOf(I);
      if (O >= 0)
        Uses.push_back({Bar, O, RI[X], RI[Y]});
    }
  }
  return Uses;
}
/// Whether Uses binds barrier Bar (same object; offsets equal when both
/// are known) to Object.
inline bool barrierGuards(const std::vector<BarrierUse> &Uses,
                          const AddrKey &Bar, int32_t Object) {
  for (const BarrierUse &U : Uses)
    if (U.Object == Object && U.Bar.Base == Bar.Base &&
        (!U.Bar.OffKnown || !Bar.OffKnown || U.Bar.Off == Bar.Off))
      return true;
  return false;
}

/// barrierUses(FF, ObjectOf), built on the first question (most functions
/// never ask).
template <class ObjectFn> class BarrierBinding {
public:
  BarrierBinding(const FlowFunction &FF, ObjectFn ObjectOf)
      : FF(FF), ObjectOf(std::move(ObjectOf)) {}
  /// Whether an arrive on Bar hands Object to the barrier's waiters.
  bool binds(const AddrKey &Bar, int32_t Object) { return barrierGuards(uses(), Bar, Object); }
  /// Every (wait, later instruction) pair that ObjectOf names.
  const std::vector<BarrierUse> &uses() {
    if (!Built) {
      Built = true;
      Uses = barrierUses(FF, ObjectOf);
    }
    return Uses;
  }

private:
  const FlowFunction &FF;
  ObjectFn ObjectOf;
  bool Built = false;
  std::vector<BarrierUse> Uses;
};

/// One entry of the flow-rule registry: a rule (or a rule group sharing one
/// dataflow), the instruction kinds it cannot report without (any one of
/// them present lets it run; none listed: always runs) and its entry point.
/// FlowPass runs an entry on a function only when the function has one of
/// its kinds, so the rules need no prefilter of their own.
struct FlowRuleEntry {
  const char *Name;
  std::vector<OpKind> Needs;
  bool NeedsCfg; ///< runs only on an analyzable function (a CFG was built)
  void (*Run)(const FlowRuleContext &);
};
/// Every flow rule, in the order they run (diagnostics keep this order).
const std::vector<FlowRuleEntry> &flowRules();

/// F401 (cp.async commit), F402 (bulk-group protocol), F406 (write to an
/// in-flight bulk store source), F407 (read of a copy destination before
/// completion): one tracking of every copy's completion
/// (CompletionTracker.h), each rule in its own file.
void runCompletionRules(const FlowRuleContext &C);
/// F407 across roles: a consumer's read of shared memory with no wait on
/// the full barrier a TMA load signals since the slot was released.
void runConsumerWaitRule(const FlowRuleContext &C);
/// F407 across roles, the other way: a signal that hands a stage of a
/// ring to its waiters, with no wait on the barrier they release it with.
void runStageAcquireRule(const FlowRuleContext &C);
/// F407 across roles, a one-shot hand-off: a read of a shared variable
/// that another thread writes and publishes with an mbarrier arrive, with
/// no wait on that barrier before it.
void runPublishRule(const FlowRuleContext &C);
/// F407, tensor memory: a tcgen05.ld (or a tcgen05.mma reading A from
/// tensor memory) with no wait on a barrier that hands tensor memory over.
void runTmemReadRule(const FlowRuleContext &C);
/// F403: wait_group N that waits for nothing, negative N.
void runWaitCountRule(const FlowRuleContext &C);
/// F404: mbarrier transaction byte accounting.
void runMbarrierTxRule(const FlowRuleContext &C);
/// F405: generic-proxy shared writes (and mbarrier.init) reaching an
/// async-proxy access without fence.proxy.async.
void runProxyFenceRule(const FlowRuleContext &C);
/// F408: multicast ctaMask and .cta_group::2 against the declared cluster.
void runClusterRule(const FlowRuleContext &C);
/// F409: dead prefetch.
void runPrefetchRule(const FlowRuleContext &C);

} // namespace flow
} // namespace ptxlint
#endif
