// A dropped qualifier is reported where it was dropped: the fix-it (one
// possible value) or a note (several) sits where the spec's syntax writes
// its group, after the last qualifier of an earlier group, even when a later
// group was written first (CUTLASS writes .cta_group::2 before the spaces).
// RUN: %ptxlint --no-config --target=sm_100a -verify %s
// RUN: not %ptxlint --no-config --target=sm_100a --format=json %s > %t.json
// RUN: FileCheck %s < %t.json
#include <cstdint>

__device__ void dropped(uint32_t Smem, uint64_t Desc, uint32_t Bar, int C0, int C1, uint64_t Pol) {
  // expected-error@+1 {{needs '.mbarrier::complete_tx::bytes'}}
  asm volatile("cp.async.bulk.tensor.2d.cta_group::2.shared::cluster.global.L2::cache_hint"
               " [%0], [%1, {%2, %3}], [%4], %5;"
               :: "r"(Smem), "l"(Desc), "r"(C0), "r"(C1), "r"(Bar), "l"(Pol) : "memory");
  // expected-error@+2 {{needs .dim}}
  // expected-note@+1 {{write .dim here}}
  asm volatile("cp.async.bulk.prefetch.tensor.L2.global.tile [%0, {%1, %2}];"
               :: "l"(Desc), "r"(C0), "r"(C1) : "memory");
}
// The fix-it: after '.global' (column 76), not after the cache hint.
// CHECK:      "code": "Q105"
// CHECK:      "fixes": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "range": {
// CHECK-NEXT:       "start": {
// CHECK-NEXT:         "line": 12,
// CHECK-NEXT:         "column": 76,
// CHECK:      "replacement": ".mbarrier::complete_tx::bytes"
// The note: after the name (column 46), before '.L2'.
// CHECK:      "code": "Q105"
// CHECK:      "message": "write .dim here",
// CHECK-NEXT:   "range": {
// CHECK-NEXT:     "start": {
// CHECK-NEXT:       "line": 17,
// CHECK-NEXT:       "column": 46,
