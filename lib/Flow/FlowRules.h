//===- FlowRules.h - The flow-sensitive rules (codes F401..F409) --------===//
//
// Each rule (or rule group) lives in a file of its own and runs on a built
// FlowFunction. FlowPass.cpp builds the function once and runs the rules
// that flowRules() lists and the function can trigger.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_FLOW_FLOWRULES_H
#define PTXLINT_FLOW_FLOWRULES_H

#include "Flow/FlowFunction.h"
#include "ptxlint/LintContext.h"
#include "ptxlint/RuleRegistry.h"

#include <optional>
#include <string>
#include <vector>

namespace ptxlint {
namespace flow {

/// A diagnostic of a flow rule: the rule's severity and code, notes in the
/// order given, then the spec section.
class FlowDiag {
public:
  FlowDiag(DiagnosticEngine &E, rules::Id Rule, SourceRange R, std::string Msg,
           std::optional<Severity> Level = std::nullopt)
      : B(E, Level.value_or(ruleInfo(Rule).DefaultSeverity),
          std::string(ruleInfo(Rule).Code), R, std::move(Msg)),
        Section(ruleInfo(Rule).Section) {}
  FlowDiag(const FlowDiag &) = delete;
  ~FlowDiag() { B.spec(Section); }
  FlowDiag &note(SourceRange R, std::string Msg) {
    B.note(R, std::move(Msg));
    return *this;
  }

private:
  DiagBuilder B;
  std::string_view Section;
};

struct FlowRuleContext {
  FlowRuleContext(LintContext &Ctx, const FlowFunction &FF) : Ctx(Ctx), FF(FF) {}
  LintContext &Ctx;
  const FlowFunction &FF;

  /// Starts a diagnostic for Rule at R (severity and spec from Rules.def).
  FlowDiag diag(rules::Id Rule, SourceRange R, std::string Msg) const {
    return FlowDiag(Ctx.Diags, Rule, R, std::move(Msg));
  }
  /// A report of Rule that is likely but not certain (the accesses may
  /// overlap, the analysis cannot prove they do): a warning.
  FlowDiag likely(rules::Id Rule, SourceRange R, std::string Msg) const {
    return FlowDiag(Ctx.Diags, Rule, R, std::move(Msg), Severity::Warning);
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

private:
  std::optional<uint64_t> computeCopyBytes(const FlowInst &I) const;
  mutable std::vector<uint8_t> BytesMemo; ///< 0 unknown yet, 1 none, 2 value
  mutable std::vector<uint64_t> BytesVal;
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
/// completion): one tracking of every copy's completion.
void runCompletionRules(const FlowRuleContext &C);
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
