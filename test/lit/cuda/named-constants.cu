// "n" operands written as a name: the constant's value when the file gives
// it one (an object-like macro, a const/constexpr variable initialized with a
// literal, an enumerator), under integer casts and qualification; no check
// when the name has two values in the file or none (a template parameter).
// RUN: %ptxlint --no-config -verify %s
#include <cstdint>

#define COPY_BYTES 16
#define BAD_BYTES (12)
constexpr int kGood = 8;
static const uint32_t kOdd{6};
namespace cfg { constexpr int kLane = 4; }
enum CopySize { Four = 4, Eight = Four + 4, Sixteen = 16, Seventeen };
struct A { static constexpr int kBytes = 16; };
struct B { static constexpr int kBytes = 12; }; // two values: not used

__device__ void named(uint32_t Dst, uint64_t Src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(Dst), "l"(Src), "n"(COPY_BYTES));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;"
               :: "r"(Dst), "l"(Src), "n"(BAD_BYTES)); // expected-error@-1 {{cp-size}}
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(Dst), "l"(Src), "n"(int32_t(kGood)));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;"
               :: "r"(Dst), "l"(Src), "n"((int)kOdd)); // expected-error@-1 {{cp-size}}
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;"
               :: "r"(Dst), "l"(Src), "n"(static_cast<int>(cfg::kLane)));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(Dst), "l"(Src), "n"(Sixteen));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;"
               :: "r"(Dst), "l"(Src), "n"(Seventeen)); // expected-error@-1 {{cp-size}}
  // Eight = Four + 4 is not a literal: Eight has no value, and neither has
  // what follows it.
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(Dst), "l"(Src), "n"(Eight));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(Dst), "l"(Src), "n"(A::kBytes));
}

template <int N>
__device__ void templated(uint32_t Dst, uint64_t Src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(Dst), "l"(Src), "n"(N));
}
