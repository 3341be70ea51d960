// ptxlint corpus slice: a bulk copy into shared memory completed on an
// mbarrier, then a bulk store and a bulk reduction (sm_90 and later).
// Written for ptxlint's tests; compiled by gen.sh with nvcc -ptx.
#include <cstdint>

__device__ __forceinline__ unsigned smem_addr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__global__ void bulk_roundtrip(const float *in, float *out, float *acc) {
  __shared__ alignas(128) float tile[1024];
  __shared__ alignas(8) uint64_t bar;
  const unsigned bytes = sizeof(tile);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(smem_addr(&bar)));
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                 ::"r"(smem_addr(&bar)), "r"(bytes) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
                 ::"r"(smem_addr(tile)), "l"(in + blockIdx.x * 1024), "r"(bytes), "r"(smem_addr(&bar))
                 : "memory");
  }
  asm volatile("{\n.reg .pred p;\nwait:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n"
               "@!p bra wait;\n}\n" ::"r"(smem_addr(&bar)) : "memory");
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    tile[i] *= 2.0f;
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n"
                 ::"l"(out + blockIdx.x * 1024), "r"(smem_addr(tile)), "r"(bytes) : "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], %2;\n"
                 ::"l"(acc), "r"(smem_addr(tile)), "r"(bytes) : "memory");
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
  }
  __syncthreads();
}
