// The C++ scanner: every way an asm statement is written, and code around
// it that must not be read as one. Each real statement holds one typo.
// RUN: %ptxlint --no-config -verify %s
#include <cstdint>

// Not statements: a comment asm("cp.async.bulk.commit_groupx;"), a string,
// a character literal that looks like a quote, digit separators.
/* asm volatile("cp.async.bulk.wait_group.readx 0;"); */
const char *Text = "asm(\"cp.async.bulk.commit_groupx;\")";
const char Quote = '"';
const long Big = 1'000'000;
const char *Raw = R"x(asm("cp.async.bulk.commit_groupx;"))x";

__device__ void plain() {
  asm("cp.async.bulk.wait_group.reed 0;"); // expected-error {{'.reed'}}
  __asm__ __volatile__("cp.async.bulk.wait_group.read.read 0;"); // expected-error {{duplicate '.read'}}
  asm volatile("cp.async.commit_group;\n\t"
               "cp.async.wait_groop 0;"); // expected-error {{wait_groop}}
}

// Concatenated literals: the column is the one inside the second literal.
__device__ void concatenated(uint32_t Dst, uint64_t Src) {
  asm volatile("cp.async.ca.shared.global"
               " [%0], [%1], 3;" // expected-error {{cp-size}}
               :: "r"(Dst), "l"(Src) : "memory");
}

// Escapes and a raw string.
__device__ void escapes() {
  asm volatile("cp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group.reed 0;"); // expected-error {{'.reed'}}
  asm volatile(R"(
    cp.async.bulk.commit_group;
    cp.async.bulk.wait_group.reed 1;  // expected-error {{'.reed'}}
  )");
}

// A macro body with line continuations.
#define WAIT_GROUP(N) \
  asm volatile("cp.async.bulk.wait_group.reed %0;" :: "n"(N) : "memory") // expected-error {{'.reed'}}

// asm goto and an asm statement after a preprocessor block.
#if 0
#error "never"
#endif
__device__ void withGoto() {
  asm goto("cp.async.bulk.wait_group.reed 0;" :::: Out); // expected-error {{'.reed'}}
Out:
  return;
}

// A clean statement says nothing.
__device__ void clean(uint32_t Dst, uint64_t Src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(Dst), "l"(Src));
}
