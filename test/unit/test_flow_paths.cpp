// Unit tests of lib/Flow/PathConditions: branch predicates as canonical
// atoms, correlated and contradicting edges, redefinitions, path flags.
#include "Flow/PathConditions.h"
#include "FlowTestUtil.h"

#include <doctest/doctest.h>

#include <memory>

using namespace ptxlint;
using namespace ptxlint::flow;

namespace {

struct Built : FlowBuilt {
  std::unique_ptr<PathConditions> PC;
  explicit Built(std::string Body)
      : FlowBuilt(" .reg .pred %p<8>;\n .reg .b32 %r<8>;\n" + std::move(Body)) {
    REQUIRE(FF->Analyzable);
    PC = std::make_unique<PathConditions>(*FF);
  }
  /// The block that ends with the N-th conditional branch (0-based).
  uint32_t branchBlock(unsigned N) const {
    for (uint32_t B = 0; B < FF->Blocks.size(); ++B) {
      const Block &Bl = FF->Blocks[B];
      if (Bl.End > Bl.Begin && FF->Insts[Bl.End - 1].Op.Kind == OpKind::Branch &&
          FF->Insts[Bl.End - 1].Guarded && N-- == 0)
        return B;
    }
    FAIL("no such branch");
    return 0;
  }
  /// Literals on the taken (S = 0) or fall-through (S = 1) edge.
  std::vector<Lit> edge(unsigned Branch, size_t S) const {
    PathConditions::Lits L = PC->edge(branchBlock(Branch), S);
    return std::vector<Lit>(L.begin(), L.end());
  }
};

bool contradicts(const std::vector<Lit> &A, const std::vector<Lit> &B) {
  for (Lit X : A)
    for (Lit Y : B)
      if (X == negLit(Y))
        return true;
  return false;
}

} // namespace

TEST_CASE("paths: two setp of one register are one atom; eq negates ne") {
  Built T(" mov.u32 %r1, %tid.x;\n"
          " setp.ne.s32 %p1, %r1, 0;\n"
          " @%p1 bra $A;\n"
          " mov.u32 %r2, 1;\n"
          "$A:\n"
          " setp.eq.s32 %p2, %r1, 0;\n"
          " @%p2 bra $B;\n"
          " mov.u32 %r2, 2;\n"
          "$B:\n"
          " ret;");
  // First branch falls through when r1 == 0; the second is taken then.
  // Each edge: the comparison's atom, then the predicate register's own.
  REQUIRE(T.edge(0, 1).size() == 2);
  REQUIRE(T.edge(1, 0).size() == 2);
  CHECK(T.edge(0, 1)[0] == T.edge(1, 0)[0]);
  CHECK(T.edge(0, 1)[1] != T.edge(1, 0)[1]);
  CHECK(contradicts(T.edge(0, 1), T.edge(1, 1)));
  CHECK(contradicts(T.edge(0, 0), T.edge(0, 1)));
}

TEST_CASE("paths: not.pred and and.pred are followed; a redefinition is a "
          "new value") {
  Built T(" mov.u32 %r1, %tid.x;\n"
          " setp.ne.s32 %p1, %r1, 0;\n"
          " @%p1 bra $A;\n"
          " mov.u32 %r2, 1;\n"
          "$A:\n"
          " setp.eq.s32 %p2, %r1, 0;\n"
          " setp.lt.u32 %p3, %r1, 64;\n"
          " and.pred %p4, %p2, %p3;\n"
          " not.pred %p5, %p4;\n"
          " @%p5 bra $B;\n"
          " mov.u32 %r2, 2;\n"
          "$B:\n"
          " add.s32 %r1, %r1, 1;\n"
          " setp.ne.s32 %p6, %r1, 0;\n"
          " @%p6 bra $C;\n"
          " mov.u32 %r2, 3;\n"
          "$C:\n"
          " ret;");
  // Falling through "@%p5 bra" means p4: r1 == 0 and r1 < 64.
  CHECK(contradicts(T.edge(1, 1), T.edge(0, 0)));
  // The taken side (p4 false) says nothing about r1 == 0.
  CHECK_FALSE(contradicts(T.edge(1, 0), T.edge(0, 1)));
  CHECK_FALSE(contradicts(T.edge(1, 0), T.edge(0, 0)));
  // After "add %r1": the comparison is about another value. The atom is the
  // same key, but every definition of %r1 forgets it on the way.
  bool Forgets = false;
  for (uint32_t K : T.PC->events())
    Forgets |= T.FF->Insts[K].Head == "add.s32";
  CHECK(Forgets);
}

TEST_CASE("paths: a path flag set by mov.pred decides its branch") {
  Built T(" mov.u32 %r1, %tid.x;\n"
          " setp.ne.s32 %p1, %r1, 0;\n"
          " @%p1 bra $A;\n"
          " mov.pred %p2, -1;\n"
          " bra.uni $B;\n"
          "$A:\n"
          " mov.pred %p2, 0;\n"
          "$B:\n"
          " @!%p2 bra $C;\n"
          " mov.u32 %r2, 3;\n"
          "$C:\n"
          " ret;");
  // The flag branch's edges are literals on the flag, which mov.pred sets.
  REQUIRE(T.edge(1, 0).size() == 1);
  unsigned Sets = 0;
  for (uint32_t K : T.PC->events())
    if (T.FF->Insts[K].Head == "mov.pred") {
      ++Sets;
      PathLits Q;
      Q.setTrue();
      T.PC->apply(K, Q, [](auto &&) {});
      CHECK(Q.N == 1);
    }
  CHECK(Sets == 2);
  // With the flag known false, the fall-through (flag true) is infeasible.
  PathLits Known;
  Known.setTrue();
  Known.add(T.edge(1, 0)[0], true);
  CHECK_FALSE(T.PC->takeEdge(T.branchBlock(1), 1, Known, [](auto &&) {}));
}

TEST_CASE("paths: literal sets keep their order through intersect, forget "
          "and assignFrom") {
  PathLits A, B;
  A.setTrue();
  B.setTrue();
  for (Lit X : {2u, 4u, 6u, 8u, 10u})
    A.add(X, true);
  for (Lit X : {4u, 8u, 12u, 2u, 10u}) // the common ones in another order
    B.add(X, true);
  PathLits C = A;
  CHECK_FALSE(C.intersect(A)); // equal: unchanged
  CHECK(C.intersect(B));
  CHECK(std::vector<Lit>(C.L, C.L + C.N) == std::vector<Lit>{2, 4, 8, 10});
  uint32_t Other[] = {66}; // its bit is atom 2's (literal 4): the search says no
  C.forget(AtomSet{{Other, Other + 1}, uint64_t(1) << (66 & 63)});
  CHECK(C.N == 4);
  uint32_t Atoms[] = {2, 9};
  AtomSet Kill{{Atoms, Atoms + 2}, uint64_t(1) << 2 | uint64_t(1) << 9};
  C.forget(Kill);
  CHECK(std::vector<Lit>(C.L, C.L + C.N) == std::vector<Lit>{2, 8, 10});
  PathLits Full;
  Full.setTrue();
  for (Lit X = 20; X < 32; ++X)
    Full.add(X, true);
  Cond F;
  F.assignFrom(Full); // the newest eight
  CHECK(std::vector<Lit>(F.L, F.L + F.N) ==
        std::vector<Lit>{24, 25, 26, 27, 28, 29, 30, 31});
}

TEST_CASE("paths: has() finds a literal in any slot, and none past the "
          "set's end") {
  PathLits Full;
  CHECK_FALSE(Full.has(0)); // none: holds nothing
  Full.setTrue();
  CHECK_FALSE(Full.has(0));
  for (Lit X = 40; X < 52; ++X)
    Full.add(X, true);
  for (Lit X = 40; X < 52; ++X)
    CHECK(Full.has(X)); // every slot of the 12
  CHECK_FALSE(Full.has(39));
  CHECK_FALSE(Full.has(52));
  // Forgetting the first two leaves the last two slots holding old
  // literals: has() must not see them.
  uint32_t Atoms[] = {20};
  Full.forget(AtomSet{{Atoms, Atoms + 1}, uint64_t(1) << 20});
  CHECK(Full.N == 10);
  CHECK_FALSE(Full.has(40));
  CHECK_FALSE(Full.has(41));
  CHECK(Full.has(42));
  CHECK(Full.has(51));
  CHECK(Full.L[10] == 50); // (the slots past N as they were: what has() skips)
  Full.N = 9;
  CHECK_FALSE(Full.has(51));
  Cond C;
  C.setTrue();
  for (Lit X = 60; X < 68; ++X)
    C.add(X, false);
  for (Lit X = 60; X < 68; ++X)
    CHECK(C.has(X)); // every slot of the 8
  CHECK_FALSE(C.has(68));
}
