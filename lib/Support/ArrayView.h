//===- ArrayView.h - A read-only run of elements owned elsewhere -----------===//
//
// C++17 has no std::span. The lexer's tokens of a statement and the flow
// build's operands of an instruction are each a run of a larger array, read
// in hot loops: a pointer and a count, with nothing to free.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_SUPPORT_ARRAYVIEW_H
#define PTXLINT_SUPPORT_ARRAYVIEW_H

#include <cstddef>

namespace ptxlint {

/// Count elements from Data; valid while their owner does not move them.
/// SizeT lets a view kept in a packed record hold a 32-bit count, and a
/// view is packed (a pointer and a 32-bit count: 12 bytes, not 16 with
/// the padding after the count), so that the record can use those 4 bytes.
template <typename T, typename SizeT = size_t> struct [[gnu::packed]] ArrayView {
  const T *Data = nullptr;
  SizeT Count = 0;
  size_t size() const { return Count; }
  bool empty() const { return Count == 0; }
  const T &operator[](size_t K) const { return Data[K]; }
  const T &back() const { return Data[Count - 1]; }
  const T *begin() const { return Data; }
  const T *end() const { return Data + Count; }
};

} // namespace ptxlint
#endif
