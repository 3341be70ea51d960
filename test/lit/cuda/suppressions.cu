// Suppression comments in C++ syntax, on the line of the literal.
// RUN: %ptxlint --no-config -verify %s
#include <cstdint>
__device__ void f() {
  asm volatile("cp.async.bulk.wait_group.reed 0;"); // ptxlint: disable=Q101
  // ptxlint: disable-next-line=unknown-qualifier
  asm volatile("cp.async.bulk.wait_group.reed 0;");
  asm volatile("cp.async.bulk.commit_group;"); /* ptxlint: disable=Q101 */ // expected-warning {{unused suppression}}
  asm volatile("cp.async.bulk.wait_group.reed 0;"); // expected-error {{'.reed'}}
}
