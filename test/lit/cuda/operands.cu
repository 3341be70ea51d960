// Operands: %N and %[name] typed from their constraints, immediates, %%, %=,
// scopes and several instructions in one string.
// RUN: %ptxlint --no-config -verify %s
#include <cstdint>

__device__ void typed(uint32_t Smem, uint64_t Gmem, uint32_t Bar, uint32_t Size) {
  // Clean: a 32-bit shared address, a 64-bit global one.
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(Smem), "l"(Gmem), "r"(Size), "r"(Bar) : "memory");
  // Named operands.
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%[dst]], [%[src]], %[n], [%[bar]];"
               :: [dst] "r"(Smem), [src] "l"(Gmem), [n] "r"(Size), [bar] "r"(Bar) : "memory");
  // The size is a 32-bit operand: an 'l' register is refused.
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(Smem), "l"(Gmem), "l"(uint64_t(Size)), "r"(Bar) : "memory"); // expected-error@-1 {{%2}}
}

__device__ void immediates(uint32_t Dst, uint64_t Src, int N) {
  // A literal immediate is checked...
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;"
               :: "r"(Dst), "l"(Src), "n"(12)); // expected-error@-1 {{cp-size}}
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;"
               :: "r"(Dst), "l"(Src), "n"(16));
  // ...one whose value is not visible is not; the operand count still is.
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;"
               :: "r"(Dst), "l"(Src), "n"(N));
  asm volatile("cp.async.wait_group %0, %0;" :: "n"(N)); // expected-error {{takes 1 operand}}
}

__device__ void references(uint32_t Dst, uint64_t Src) {
  // %3: the statement has three operands.
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %3;" // expected-error {{'%3' names no operand}}
               :: "r"(Dst), "l"(Src), "r"(4));
  asm volatile("cp.async.ca.shared.global [%[dst]], [%[sorc]], 16;" // expected-error {{'%[sorc]' names no operand}}
               :: [dst] "r"(Dst), [src] "l"(Src));
}

// %%, %=, a scope with its own registers, several instructions.
__device__ uint32_t scoped(uint32_t Bar, uint32_t Parity) {
  uint32_t Done;
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               "LAB_WAIT_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
               "@p bra DONE_%=;\n\t"
               "bra LAB_WAIT_%=;\n\t"
               "DONE_%=:\n\t"
               "selp.u32 %0, 1, 0, p;\n\t"
               "mov.u32 %0, %%laneid;\n\t"
               "cp.async.bulk.commit_group.x;\n\t" // expected-error {{'.x'}}
               "}"
               : "=r"(Done) : "r"(Bar), "r"(Parity) : "memory");
  return Done;
}
