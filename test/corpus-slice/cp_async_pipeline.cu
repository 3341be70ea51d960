// ptxlint corpus slice: a cp.async double-buffered copy (sm_80 and later).
// Written for ptxlint's tests; compiled by gen.sh with nvcc -ptx.
#include <cstdint>

__device__ __forceinline__ void cp_async16(void *smem, const void *gmem) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void cp_async4_zfill(void *smem, const void *gmem, int n) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(s), "l"(gmem), "r"(n));
}

template <int Stages>
__global__ void pipeline(const float4 *in, float4 *out, const float *tail, float *tail_out, int n) {
  __shared__ float4 buf[Stages][128];
  __shared__ float tbuf[128];
  int t = threadIdx.x;
  for (int s = 0; s < Stages; ++s) {
    cp_async16(&buf[s][t], &in[(blockIdx.x * Stages + s) * 128 + t]);
    asm volatile("cp.async.commit_group;\n");
  }
  cp_async4_zfill(&tbuf[t], &tail[t], t < n ? 4 : 0);
  asm volatile("cp.async.commit_group;\n");
  asm volatile("cp.async.wait_group 1;\n");
  __syncthreads();
  float4 acc = make_float4(0, 0, 0, 0);
  for (int s = 0; s < Stages; ++s) {
    acc.x += buf[s][t].x; acc.y += buf[s][t].y;
    acc.z += buf[s][t].z; acc.w += buf[s][t].w;
  }
  asm volatile("cp.async.wait_all;\n");
  __syncthreads();
  out[blockIdx.x * 128 + t] = acc;
  tail_out[t] = tbuf[t];
}

template __global__ void pipeline<2>(const float4 *, float4 *, const float *, float *, int);
template __global__ void pipeline<3>(const float4 *, float4 *, const float *, float *, int);
