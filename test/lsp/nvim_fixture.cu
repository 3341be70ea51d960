// lsp-neovim-cuda's input: the same half-precision bulk reduction without
// .noftz (Q107), written where people write it: an asm statement.
#include <cstdint>

__device__ void reduce_tile(void *dst, uint32_t src) {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile(
      "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f16 [%0], [%1], 4096;"
      :: "l"(dst), "r"(src) : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}
