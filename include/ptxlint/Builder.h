//===- Builder.h - Typed construction of async-copy instructions -*- C++ -*-===//
//
// A code generator builds an instruction of the async-copy family (PTX ISA
// 9.1, section 9.7.9.25) as a struct: one enum or optional field per
// qualifier group, never a string of qualifiers. Optional qualifiers that
// come with an operand are implied by that operand, so they cannot be
// mismatched: a CachePolicy prints ".L2::cache_hint", a CtaMask prints
// ".multicast::cluster", a ByteMask prints ".cp_mask", and ".noftz" is printed
// exactly when the spec requires it (.add.f16 / .add.bf16).
//
// print() writes canonical PTX. The canonical qualifier order, the same for
// every instruction of the family, is:
//
//    opcode words   cp.async / cp.async.bulk / cp.reduce.async.bulk.tensor ...
//    1 .ca/.cg             cache operator (cp.async)
//    2 .Nd                 dimension (tensor forms)
//    3 .L2                 prefetch level (prefetch forms)
//    4 .dst  5 .src        state spaces, destination first (as ptxas reads them)
//    6 .load_mode          always explicit: .tile is printed, never implied
//    7 .completion         .mbarrier::complete_tx::bytes / .bulk_group
//    8 .multicast::cluster
//    9 .cta_group::N
//   10 .redOp 11 .noftz 12 .type   (reductions)
//   13 .L2::cache_hint
//   14 .L2::64B/128B/256B  prefetch size (cp.async)
//   15 .cp_mask
//   16 .read                (cp.async.bulk.wait_group)
//
// followed by the operands in the order of the form's slots in spec-tables/
// (each slot names the struct field holding it: builder_field, so print,
// decode and the structural checks take operand order, presence, register
// types, ranges and element counts from the tables). ptxas accepts any qualifier
// order except for the two state spaces; the fixed order makes generated
// code diffable and is what lowerModule() rewrites to.
//
// validate() checks an instruction against a target and PTX version by
// printing it into a small module and running ptxlint::lint over it, i.e. the
// same checker and diagnostics the linter uses; structuralErrors() adds the
// shape problems of a struct that print() cannot show (rule L001).
// checkTarget() and formsFor() ask the same checker: which targets and PTX
// versions take a form is data in spec-tables/ (the features of each
// instruction, the chips of targets.yaml), read by nothing else.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_BUILDER_H
#define PTXLINT_BUILDER_H

#include "ptxlint/AST.h"
#include "ptxlint/Diagnostic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ptxlint {
class SymbolTable; // internal (not installed): decode() only passes it on

namespace build {

/// An operand value: a register (or symbol) name or an integer immediate.
struct Value {
  std::string Name;    ///< "%r1"; empty for an immediate
  int64_t Imm = 0;
  bool IsImm = false;
  bool Negated = false; ///< "!%p" (ignore-src, guards)

  bool operator==(const Value &O) const {
    return IsImm == O.IsImm && Negated == O.Negated &&
           (IsImm ? Imm == O.Imm : Name == O.Name);
  }
  bool operator!=(const Value &O) const { return !(*this == O); }
};
inline Value reg(std::string Name) { return Value{std::move(Name), 0, false, false}; }
inline Value notReg(std::string Name) { return Value{std::move(Name), 0, false, true}; }
inline Value imm(int64_t V) { return Value{std::string(), V, true, false}; }

/// [Base], [Base+Offset].
struct Address {
  Value Base;
  int64_t Offset = 0;
  bool operator==(const Address &O) const { return Base == O.Base && Offset == O.Offset; }
  bool operator!=(const Address &O) const { return !(*this == O); }
};
inline Address addr(std::string Base, int64_t Offset = 0) {
  return Address{reg(std::move(Base)), Offset};
}

/// [TensorMap, {Coords...}].
struct TensorRef {
  Value Map;
  std::vector<Value> Coords;
  bool operator==(const TensorRef &O) const { return Map == O.Map && Coords == O.Coords; }
};

// --- qualifier groups ---------------------------------------------------------
// CacheOp, PrefetchSize, LoadMode, CtaGroup, RedOp, RedType: one enumerator
// per value of a qualifier group of spec-tables/*.yaml (the group's
// builder_enum); BulkDir, ReduceDir, TensorDir: one per form (direction,
// .dst.src) of cp.async.bulk, cp.reduce.async.bulk, cp.async.bulk.tensor.
// Each with spelling(E) (".tile::gather4", ".shared::cta.global"; "" for
// None) and enumSize(E), generated at build time.
#include "ptxlint/BuilderEnums.inc"

/// The enumerator spelled S (".im2col::w"), nullopt when none is; "" gives an
/// enum's None.
template <typename E> std::optional<E> fromSpelling(std::string_view S) {
  for (unsigned K = 0; K < enumSize(E{}); ++K)
    if (S == spelling(E(K)))
      return E(K);
  return std::nullopt;
}

// --- the instructions ---------------------------------------------------------

/// cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size |
/// , ignore-src}{, cache-policy}
struct CpAsync {
  CacheOp Cache = CacheOp::CG;
  bool DstSharedCta = false;   ///< ".shared::cta" rather than ".shared"
  PrefetchSize Prefetch = PrefetchSize::None;
  Address Dst, Src;
  unsigned CpSize = 16;        ///< 4, 8 or 16 (.cg: 16)
  std::optional<Value> SrcSize;
  std::optional<Value> IgnoreSrc; ///< a predicate (Negated for "!p")
  std::optional<Value> CachePolicy;
  bool operator==(const CpAsync &O) const;
};
struct CpAsyncCommitGroup {
  bool operator==(const CpAsyncCommitGroup &) const { return true; }
};
struct CpAsyncWaitGroup {
  int64_t N = 0;
  bool operator==(const CpAsyncWaitGroup &O) const { return N == O.N; }
};
struct CpAsyncWaitAll {
  bool operator==(const CpAsyncWaitAll &) const { return true; }
};

/// cp.async.bulk.dst.src.completion{.multicast::cluster}{.L2::cache_hint}{.cp_mask}
struct CpAsyncBulk {
  BulkDir Dir = BulkDir::GlobalToSharedCluster;
  Address Dst, Src;
  Value Size;
  std::optional<Address> Mbar;     ///< required by the mbarrier directions
  std::optional<Value> CtaMask;    ///< .multicast::cluster (global->cluster)
  std::optional<Value> CachePolicy;
  std::optional<Value> ByteMask;   ///< .cp_mask (shared::cta->global)
  bool operator==(const CpAsyncBulk &O) const;
};

/// cp.reduce.async.bulk.dst.src.completion.redOp{.noftz}.type{.L2::cache_hint}
struct CpReduceAsyncBulk {
  ReduceDir Dir = ReduceDir::SharedCtaToGlobal;
  RedOp Op = RedOp::Add;
  RedType Type = RedType::U32;
  Address Dst, Src;
  Value Size;
  std::optional<Address> Mbar;     ///< required by SharedCtaToSharedCluster
  std::optional<Value> CachePolicy;///< global destination only
  bool operator==(const CpReduceAsyncBulk &O) const;
};

/// cp.async.bulk.prefetch.L2.global{.L2::cache_hint} [src], size{, policy}
struct CpAsyncBulkPrefetch {
  Address Src;
  Value Size;
  std::optional<Value> CachePolicy;
  bool operator==(const CpAsyncBulkPrefetch &O) const;
};

/// cp.async.bulk.tensor.Nd.dst.src.load_mode.completion{.multicast::cluster}
///   {.cta_group::N}{.L2::cache_hint}
/// load:  [Shared], [Tensor], [Mbar]{, {Im2colInfo}}{, CtaMask}{, CachePolicy}
/// store: [Tensor], [Shared]{, CachePolicy}
struct CpAsyncBulkTensor {
  TensorDir Dir = TensorDir::GlobalToSharedCluster;
  unsigned Dim = 1;                ///< 1..5
  LoadMode Mode = LoadMode::Tile;
  Address Shared;                  ///< dstMem of a load, srcMem of a store
  TensorRef Tensor;
  std::optional<Address> Mbar;     ///< loads
  std::vector<Value> Im2colInfo;   ///< .im2col: Dim-2 offsets; ::w: 2
  std::optional<Value> CtaMask;    ///< .multicast::cluster
  CtaGroup Group = CtaGroup::None;
  std::optional<Value> CachePolicy;
  bool operator==(const CpAsyncBulkTensor &O) const;
};

/// cp.reduce.async.bulk.tensor.Nd.global.shared::cta.load_mode.bulk_group
///   .redOp{.L2::cache_hint} [Tensor], [Src]{, CachePolicy}
struct CpReduceAsyncBulkTensor {
  unsigned Dim = 1;
  LoadMode Mode = LoadMode::Tile;  ///< .tile or .im2col_no_offs
  RedOp Op = RedOp::Add;
  TensorRef Tensor;
  Address Src;
  std::optional<Value> CachePolicy;
  bool operator==(const CpReduceAsyncBulkTensor &O) const;
};

/// cp.async.bulk.prefetch.tensor.Nd.L2.global.load_mode{.L2::cache_hint}
///   [Tensor]{, {Im2colInfo}}{, CachePolicy}
struct CpAsyncBulkPrefetchTensor {
  unsigned Dim = 1;
  LoadMode Mode = LoadMode::Tile;
  TensorRef Tensor;
  std::vector<Value> Im2colInfo;
  std::optional<Value> CachePolicy;
  bool operator==(const CpAsyncBulkPrefetchTensor &O) const;
};

struct CpAsyncBulkCommitGroup {
  bool operator==(const CpAsyncBulkCommitGroup &) const { return true; }
};
struct CpAsyncBulkWaitGroup {
  bool Read = false;               ///< .read
  int64_t N = 0;
  bool operator==(const CpAsyncBulkWaitGroup &O) const {
    return Read == O.Read && N == O.N;
  }
};

using AsyncCopy =
    std::variant<CpAsync, CpAsyncCommitGroup, CpAsyncWaitGroup, CpAsyncWaitAll,
                 CpAsyncBulk, CpReduceAsyncBulk, CpAsyncBulkPrefetch,
                 CpAsyncBulkTensor, CpReduceAsyncBulkTensor,
                 CpAsyncBulkPrefetchTensor, CpAsyncBulkCommitGroup,
                 CpAsyncBulkWaitGroup>;

/// One instruction with its optional guard predicate (@p / @!p).
struct Inst {
  AsyncCopy Op;
  std::optional<Value> Guard;
  Inst() = default;
  template <typename T> Inst(T X) : Op(std::move(X)) {}
  bool operator==(const Inst &O) const { return Op == O.Op && Guard == O.Guard; }
  bool operator!=(const Inst &O) const { return !(*this == O); }
};

// --- text ---------------------------------------------------------------------

/// The instruction name: "cp.async.bulk.tensor".
std::string instructionName(const Inst &I);
/// Canonical PTX, ending with ';' (no indentation, no newline).
std::string print(const Inst &I);

/// Reads a parsed instruction of the family back into its typed form (any
/// qualifier order). nullopt with *Error set when it is not one the builder
/// can express (unknown or duplicated qualifier, wrong operand count...).
/// Symbols (with the instruction's Function) tells a predicate ignore-src
/// from a src-size register in cp.async; without it, a "!p" or a name
/// starting with "%p" is taken for a predicate.
std::optional<Inst> decode(const Instruction &I, std::string *Error = nullptr,
                           const SymbolTable *Symbols = nullptr,
                           int32_t Function = -1);
/// Parses one instruction's text ("cp.async.bulk...;") with the library
/// parser and decodes it.
std::optional<Inst> parseInst(std::string_view Text, std::string *Error = nullptr);

/// Each register name the instruction uses with the PTX type its slot takes
/// (".b64" addresses, ".b32" sizes and coordinates, ".b16" masks, ".pred"),
/// in first-use order; for declaring them.
std::vector<std::pair<std::string, std::string>> registerUses(const Inst &I);

// --- targets and validation -----------------------------------------------------

/// What an instruction is validated against.
struct TargetVersion {
  std::string Target = "sm_90a"; ///< as in .target
  unsigned PtxMajor = 8, PtxMinor = 6;
};

/// Structural problems that no target fixes (a .cg copy of 8 bytes, three
/// coordinates for a .2d tensor, a missing mbarrier...). Empty: well-formed.
std::vector<std::string> structuralErrors(const Inst &I);

/// One requirement of the instruction that the target or version misses.
struct Unsupported {
  std::string Message;  ///< "cp.async.bulk to .shared::cta needs PTX ISA 8.6"
  bool Advisory = false;///< accepted, but the spec advises against it
};
/// What the target or PTX version of T misses for I, as the linter's checker
/// reports it from the spec tables (rules T301-T305, M003-M005): empty when T
/// takes I; Advisory for the warnings.
std::vector<Unsupported> checkTarget(const Inst &I, const TargetVersion &T);
/// checkTarget for each of Insts, with one lint run.
std::vector<std::vector<Unsupported>>
checkTargets(const std::vector<Inst> &Insts, const TargetVersion &T);

/// Every target ptxlint knows (ptxlint::knownTargets(), spec-tables/
/// targets.yaml), oldest first ("sm_50" ... "sm_121f").
const std::vector<std::string> &knownTargets();
/// Lowest PTX version that accepts .target T ({0,0} when unknown).
std::pair<unsigned, unsigned> minPtxForTarget(const std::string &T);

struct Validation {
  bool Ok = false;
  std::string Text;                    ///< print(I)
  /// Diagnostics with ranges into Text. Rule codes are the linter's; L001
  /// for structuralErrors().
  std::vector<Diagnostic> Diagnostics;
};
/// Prints I into a one-kernel module for T, lints it with ptxlint::lint and
/// keeps the diagnostics that judge the instruction itself (syntax, module,
/// qualifier, operand and target rules; not flow or style rules).
Validation validate(const Inst &I, const TargetVersion &T);

/// A complete module around instructions: .version/.target/.address_size,
/// one .entry, every register declared with its slot type.
std::string wrapInModule(const std::vector<Inst> &Insts, const TargetVersion &T,
                         const std::string &KernelName = "ptxlint_builder");

/// Every form of the family the builder can make, with fixed register names
/// (one instance per combination of qualifier choices and optional operands).
std::vector<Inst> allForms();
/// The forms T takes with no problem (checkTarget empty, advisories included).
std::vector<Inst> formsFor(const TargetVersion &T);

} // namespace build
} // namespace ptxlint
#endif
