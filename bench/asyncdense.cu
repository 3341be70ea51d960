// Kernels dense in async copies, written with the toolkit's cuda::ptx wrappers (CCCL), for the
// benchmark's async-dense module (bench/asyncdense.py compiles this with nvcc -ptx and replicates
// the result). Each instantiation runs a small TMA/bulk pipeline: barriers initialised and fenced,
// expect_tx then bulk and tensor loads signalling them, waits, a generic write fenced before bulk
// stores and reductions, commit and wait. Correct protocol throughout: the module lints clean.
#include <cuda/ptx>
#include <cstdint>

namespace ptx = cuda::ptx;

struct alignas(64) TensorMap {
  char Bytes[128];
};

constexpr int Stages = 4;
constexpr uint32_t Tile = 1024;

template <int Dims>
__device__ inline void tensorLoad(void *Dst, const TensorMap &Map, int X, uint64_t *Bar) {
  if constexpr (Dims == 1) {
    const int32_t C[1] = {X};
    ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, Dst, &Map, C, Bar);
  } else if constexpr (Dims == 2) {
    const int32_t C[2] = {X, X + 1};
    ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, Dst, &Map, C, Bar);
  } else if constexpr (Dims == 3) {
    const int32_t C[3] = {X, X + 1, X + 2};
    ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, Dst, &Map, C, Bar);
  } else if constexpr (Dims == 4) {
    const int32_t C[4] = {X, X + 1, X + 2, X + 3};
    ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, Dst, &Map, C, Bar);
  } else {
    const int32_t C[5] = {X, X + 1, X + 2, X + 3, X + 4};
    ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, Dst, &Map, C, Bar);
  }
}

template <int Dims>
__device__ inline void tensorStore(const TensorMap &Map, int X, const void *Src) {
  if constexpr (Dims == 1) {
    const int32_t C[1] = {X};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &Map, C, Src);
  } else if constexpr (Dims == 2) {
    const int32_t C[2] = {X, X + 1};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &Map, C, Src);
  } else {
    const int32_t C[3] = {X, X + 1, X + 2};
    ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_add, &Map, C, Src);
  }
}

template <int Dims, int Unroll>
__global__ void asyncDense(const __grid_constant__ TensorMap Map, char *Gmem, float *Acc, int X0) {
  __shared__ alignas(128) char Smem[Stages][Tile];
  __shared__ uint64_t Bar[Stages];
  if (threadIdx.x == 0) {
#pragma unroll
    for (int S = 0; S < Stages; ++S)
      ptx::mbarrier_init(&Bar[S], 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  if (threadIdx.x != 0)
    return;
#pragma unroll
  for (int K = 0; K < Unroll; ++K) {
    const int S = K % Stages;
    const uint32_t Parity = uint32_t(K / Stages) & 1;
    const uint32_t Size = Tile; // the wrappers take sizes by reference
    if (K % 2 == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &Bar[S], Size);
      ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, Smem[S], Gmem + K * Tile, Size, &Bar[S]);
    } else {
      ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &Bar[S], Size);
      tensorLoad<Dims>(Smem[S], Map, X0 + K, &Bar[S]);
      ptx::mbarrier_arrive(&Bar[S]);
    }
    while (!ptx::mbarrier_try_wait_parity(&Bar[S], Parity)) {
    }
    Smem[S][threadIdx.x] = char(K);
    ptx::fence_proxy_async(ptx::space_shared);
    if (K % 3 == 0)
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, Gmem + (K + Unroll) * Tile, Smem[S], Size);
    else if (K % 3 == 1)
      ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_add,
                                Acc + K * (Tile / 4), reinterpret_cast<const float *>(Smem[S]), Size);
    else
      tensorStore<Dims % 3 + 1>(Map, X0 - K, Smem[S]);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
  ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
}

#define INSTANTIATE(D)                                                                                        \
  template __global__ void asyncDense<D, 4>(const __grid_constant__ TensorMap, char *, float *, int);         \
  template __global__ void asyncDense<D, 8>(const __grid_constant__ TensorMap, char *, float *, int);         \
  template __global__ void asyncDense<D, 12>(const __grid_constant__ TensorMap, char *, float *, int);        \
  template __global__ void asyncDense<D, 16>(const __grid_constant__ TensorMap, char *, float *, int);
INSTANTIATE(1)
INSTANTIATE(2)
INSTANTIATE(3)
INSTANTIATE(4)
INSTANTIATE(5)
