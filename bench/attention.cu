// Benchmark input generator: a CUTLASS/FlashAttention-3-like attention forward
// kernel for sm_90a, written with the CCCL cuda::ptx wrappers (TMA tensor
// loads and stores, multicast, mbarrier pipelines, proxy fences, cluster
// barriers) and inline asm for Ampere cp.async. Heavily unrolled register
// tiles and many template instantiations make nvcc emit a large realistic
// module (10 MB+ of PTX):
//
//   nvcc -arch=compute_90a -ptx -o attention.ptx attention.cu
//
// It is never run: only the PTX matters (bench/run.sh compiles it when the
// build directory lacks it).
#include <cuda/ptx>
#include <cstdint>

namespace ptx = cuda::ptx;

struct alignas(64) TmaDesc {
  unsigned char Bytes[128];
};

__device__ __forceinline__ bool wait_parity(uint64_t *Bar, uint32_t Phase) {
  return ptx::mbarrier_try_wait_parity(Bar, Phase);
}

__device__ __forceinline__ void cp_async_16(void *Smem, const void *Gmem, bool Pred) {
  uint32_t S = static_cast<uint32_t>(__cvta_generic_to_shared(Smem));
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %2, 0;\n\t"
               "@p cp.async.cg.shared.global.L2::128B [%0], [%1], 16;\n\t}\n"
               :: "r"(S), "l"(Gmem), "r"(int(Pred)) : "memory");
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int N> __device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" :: "n"(N) : "memory");
}

template <int BN, int HD, int STAGES, bool CAUSAL, int VARIANT>
__global__ void __launch_bounds__(384, 1) __cluster_dims__(2, 1, 1)
attention_fwd(const __grid_constant__ TmaDesc TmQ,
              const __grid_constant__ TmaDesc TmK,
              const __grid_constant__ TmaDesc TmV,
              const __grid_constant__ TmaDesc TmO, const float *Bias,
              float *Lse, int SeqLen, int NumHeads, float Scale) {
  constexpr int BM = 128;
  constexpr int TileBytes = BN * HD * 2;
  extern __shared__ __align__(1024) unsigned char Smem[];
  uint64_t *Full = reinterpret_cast<uint64_t *>(Smem);
  uint64_t *Empty = Full + STAGES;
  uint64_t *QBar = Empty + STAGES;
  float *Q = reinterpret_cast<float *>(Smem + 1024);
  float *K = Q + BM * HD;
  float *V = K + STAGES * BN * HD;
  float *BiasS = V + STAGES * BN * HD;

  const int Warp = threadIdx.x / 32, Lane = threadIdx.x % 32;
  const int Head = blockIdx.y % NumHeads, Batch = blockIdx.y / NumHeads;
  const int MBlock = blockIdx.x;
  const uint32_t Rank = ptx::get_sreg_cluster_ctarank();

  if (threadIdx.x == 0) {
#pragma unroll
    for (int S = 0; S < STAGES; ++S) {
      ptx::mbarrier_init(&Full[S], 1);
      ptx::mbarrier_init(&Empty[S], 256);
    }
    ptx::mbarrier_init(QBar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  ptx::barrier_cluster_arrive(ptx::sem_relaxed);
  ptx::barrier_cluster_wait();

  const int NBlocks = CAUSAL ? min((MBlock + 1) * BM / BN, (SeqLen + BN - 1) / BN)
                             : (SeqLen + BN - 1) / BN;

  if (Warp == 8) {
    // Producer warp group: TMA loads into a STAGES-deep ring.
    if (Lane == 0) {
      int32_t QC[3] = {0, MBlock * BM, Head + Batch * NumHeads};
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, QBar, BM * HD * 2);
      ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, Q, &TmQ,
                                QC, QBar);
      for (int N = 0; N < NBlocks; ++N) {
        const int S = N % STAGES;
        const uint32_t Phase = ((N / STAGES) & 1) ^ 1;
        while (!wait_parity(&Empty[S], Phase)) {
        }
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                       ptx::space_shared, &Full[S],
                                       2 * TileBytes);
        int32_t KC[2] = {N * BN, Head + Batch * NumHeads};
        if (VARIANT & 1) {
          int32_t KC3[3] = {0, N * BN, Head + Batch * NumHeads};
          ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global,
                                    K + S * BN * HD, &TmK, KC3, &Full[S],
                                    uint16_t(0x3));
          ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global,
                                    V + S * BN * HD, &TmV, KC3, &Full[S],
                                    uint16_t(0x3));
        } else {
          ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global,
                                    K + S * BN * HD, &TmK, KC, &Full[S]);
          ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global,
                                    V + S * BN * HD, &TmV, KC, &Full[S]);
        }
      }
    } else if (Lane < 16 && Bias) {
      // Ampere-style cp.async of the bias row, double buffered.
      for (int N = 0; N < NBlocks; ++N) {
        const float *Src = Bias + size_t(Head) * SeqLen + N * BN + Lane * 4;
        cp_async_16(BiasS + (N & 1) * BN + Lane * 4, Src, N * BN + Lane * 4 < SeqLen);
        cp_async_commit();
        cp_async_wait<1>();
      }
      cp_async_wait<0>();
    }
    return;
  }

  // Consumer warps: online softmax over KV tiles, everything in registers.
  const int Row = Warp * 16 + (Lane / 4);
  float QReg[HD / 4];
  float O[HD / 4];
  float P[BN / 4];
  float RowMax = -INFINITY, RowSum = 0.f;
  while (!wait_parity(QBar, 0)) {
  }
#pragma unroll
  for (int D = 0; D < HD / 4; ++D) {
    QReg[D] = Q[Row * HD + ((D * 4 + Lane % 4) ^ (Row & 7))] * Scale;
    O[D] = 0.f;
  }
  for (int N = 0; N < NBlocks; ++N) {
    const int S = N % STAGES;
    while (!wait_parity(&Full[S], (N / STAGES) & 1)) {
    }
    const float *Ks = K + S * BN * HD;
    const float *Vs = V + S * BN * HD;
    float TileMax = RowMax;
#pragma unroll
    for (int J = 0; J < BN / 4; ++J) {
      float Acc = 0.f;
#pragma unroll
      for (int D = 0; D < HD / 4; ++D)
        Acc = fmaf(QReg[D], Ks[(J * 4 + Lane % 4) * HD + ((D * 4 + J) ^ (Lane & 7))], Acc);
      if (VARIANT & 2)
        Acc += BiasS[(N & 1) * BN + J * 4 + Lane % 4];
      const int Col = N * BN + J * 4 + Lane % 4;
      if (CAUSAL && Col > MBlock * BM + Row)
        Acc = -INFINITY;
      if (Col >= SeqLen)
        Acc = -INFINITY;
      P[J] = Acc;
      TileMax = fmaxf(TileMax, Acc);
    }
    TileMax = fmaxf(TileMax, __shfl_xor_sync(0xffffffff, TileMax, 1));
    TileMax = fmaxf(TileMax, __shfl_xor_sync(0xffffffff, TileMax, 2));
    const float Correction = exp2f(RowMax - TileMax);
    RowMax = TileMax;
    RowSum *= Correction;
#pragma unroll
    for (int J = 0; J < BN / 4; ++J) {
      P[J] = exp2f(P[J] - RowMax);
      RowSum += P[J];
    }
#pragma unroll
    for (int D = 0; D < HD / 4; ++D) {
      float Acc = O[D] * Correction;
#pragma unroll
      for (int J = 0; J < BN / 4; ++J)
        Acc = fmaf(P[J], Vs[(J * 4 + (Lane >> 3)) * HD + ((D * 4 + Lane % 4) ^ (J & 7))], Acc);
      O[D] = Acc;
    }
    if (VARIANT & 4) {
      // Generic-proxy write into the stage, then the proxy fence before the
      // buffer is handed back to the async proxy.
      Full[STAGES * 3 + (Lane & 1)] = N;
      ptx::fence_proxy_async(ptx::space_shared);
    }
    ptx::mbarrier_arrive(&Empty[S]);
  }

  // Epilogue: normalise, stage O in shared memory, TMA store.
  const float Inv = RowSum > 0.f ? 1.f / RowSum : 0.f;
  float *Os = K; // reuse stage 0
#pragma unroll
  for (int D = 0; D < HD / 4; ++D)
    Os[Row * HD + ((D * 4 + Lane % 4) ^ (Row & 7))] = O[D] * Inv;
  if (Lane % 4 == 0)
    Lse[(size_t(blockIdx.y) * SeqLen) + MBlock * BM + Row] = RowMax + log2f(RowSum);
  ptx::fence_proxy_async(ptx::space_shared);
  asm volatile("bar.sync 1, 256;" ::: "memory");
  if (threadIdx.x == 0) {
    int32_t OC[3] = {0, MBlock * BM, Head + Batch * NumHeads};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &TmO, OC, Os);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
  (void)Rank;
}

// Instantiations: head dims, KV tile widths, pipeline depths, masking and
// variants (multicast, bias, proxy fence), like a library's dispatch table.
#define ATTN(BN, HD, ST, CAUSAL, V)                                            \
  template __global__ void attention_fwd<BN, HD, ST, CAUSAL, V>(               \
      const __grid_constant__ TmaDesc, const __grid_constant__ TmaDesc,        \
      const __grid_constant__ TmaDesc, const __grid_constant__ TmaDesc,        \
      const float *, float *, int, int, float);
#define ATTN_V(BN, HD, ST, CAUSAL)                                             \
  ATTN(BN, HD, ST, CAUSAL, 0) ATTN(BN, HD, ST, CAUSAL, 1)                      \
  ATTN(BN, HD, ST, CAUSAL, 2) ATTN(BN, HD, ST, CAUSAL, 3)                      \
  ATTN(BN, HD, ST, CAUSAL, 4) ATTN(BN, HD, ST, CAUSAL, 7)
#define ATTN_C(BN, HD, ST) ATTN_V(BN, HD, ST, false) ATTN_V(BN, HD, ST, true)

ATTN_C(64, 64, 2)
ATTN_C(64, 128, 2)
ATTN_C(64, 128, 3)
ATTN_C(128, 64, 3)
ATTN_C(128, 128, 2)
ATTN_C(32, 128, 4)
