// ptxlint corpus slice: TMA tile loads (with multicast and an L2 hint), a
// tile store and a tensor prefetch, through a tensor map passed by address
// (sm_90a). Written for ptxlint's tests; compiled by gen.sh with nvcc -ptx.
#include <cstdint>

__device__ __forceinline__ unsigned smem_addr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__global__ void __cluster_dims__(2, 1, 1)
tma_tile(const void *tmap_in, const void *tmap_out, uint64_t policy) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ alignas(8) uint64_t bar;
  uint64_t in = reinterpret_cast<uint64_t>(tmap_in);
  uint64_t out = reinterpret_cast<uint64_t>(tmap_out);
  int x = blockIdx.x * 64, y = blockIdx.y * 64;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(smem_addr(&bar)));
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];\n"
                 ::"l"(in), "r"(x), "r"(y + 64) : "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                 ::"r"(smem_addr(&bar)), "r"(unsigned(sizeof(tile))) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint"
                 " [%0], [%1, {%2, %3}], [%4], %5, %6;\n"
                 ::"r"(smem_addr(tile)), "l"(in), "r"(x), "r"(y), "r"(smem_addr(&bar)),
                   "h"((unsigned short)0x3), "l"(policy) : "memory");
  }
  asm volatile("{\n.reg .pred p;\nwait:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n"
               "@!p bra wait;\n}\n" ::"r"(smem_addr(&bar)) : "memory");
  for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x)
    tile[i] += 1.0f;
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];\n"
                 ::"l"(out), "r"(x), "r"(y), "r"(smem_addr(tile)) : "memory");
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
  }
}
