// Target and PTX version from the preprocessor guards around a statement;
// C002 when a guard admits a target or version the instruction lacks.
// RUN: %ptxlint --no-config -verify %s
// RUN: %ptxlint --no-config --no-source-snippet %s | FileCheck %s
#include <cstdint>

__device__ void ptxVersion(uint32_t Dst, uint64_t Src, uint32_t Size, uint32_t Bar) {
#if __cccl_ptx_isa >= 800
  // expected-warning@+1 {{guard admits PTX ISA 8.0}}
  asm("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
      :: "r"(Dst), "l"(Src), "r"(Size), "r"(Bar) : "memory");
#endif
// CHECK: guards.cu:[[@LINE-3]]:{{[0-9]+}}: warning: the preprocessor guard admits PTX ISA 8.0: {{.*}} [C002]
// CHECK-NEXT: guards.cu:8:1: note: the guard that admits PTX ISA 8.0
#if __cccl_ptx_isa >= 860
  asm("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
      :: "r"(Dst), "l"(Src), "r"(Size), "r"(Bar) : "memory");
#endif
}

__device__ void architecture() {
#if _CCCL_CUDA_COMPILER(NVHPC) || __CUDA_ARCH__ >= 800
  asm volatile("cp.async.bulk.commit_group;"); // expected-warning {{guard admits target sm_80}}
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.commit_group;");
#endif
#if __CUDA_ARCH__ < 900
#else
  asm volatile("cp.async.bulk.commit_group;");
#endif
#ifndef __CUDA_ARCH__
  asm volatile("cp.async.bulk.commit_group;"); // host pass: no guard says
#endif
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("cp.async.bulk.commit_group;");
#elif __CUDA_ARCH__ >= 700
  asm volatile("cp.async.bulk.commit_group;"); // expected-warning {{guard admits target sm_70}}
#endif
}
