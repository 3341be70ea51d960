#include <cstdint>
__device__ void reduce(uint64_t Dst, uint32_t Src) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group"
               ".add.f16 [%0], [%1], 4096;" :: "l"(Dst), "r"(Src) : "memory");
  asm volatile("cp.async.bulk.wait_group.read\x2eread 0;" ::: "memory");
}
