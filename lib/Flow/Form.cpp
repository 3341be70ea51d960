//===- Form.cpp - Arithmetic on value forms (base + C + G * t) -------------===//

#include "Flow/FlowFunction.h"

#include <algorithm>
#include <cstdint>

namespace ptxlint {
namespace flow {
namespace {

int64_t gcd(int64_t A, int64_t B) {
  A = A < 0 ? -A : A;
  B = B < 0 ? -B : B;
  while (B) {
    int64_t T = A % B;
    A = B;
    B = T;
  }
  return A;
}

/// G as stored: a stride too large to keep is coarsened to 1 (any value).
int32_t storedStride(int64_t G) { return G > INT32_MAX ? 1 : int32_t(G); }

} // namespace

Form Form::sum(const Form &A, const Form &B, bool Sub) {
  if ((A.Base >= 0 && B.Base >= 0) || (Sub && (B.Base >= 0 || (A.G && B.G))))
    return Form();
  Form R;
  R.Base = A.Base >= 0 ? A.Base : B.Base;
  if (Sub ? __builtin_sub_overflow(A.C, B.C, &R.C)
          : __builtin_add_overflow(A.C, B.C, &R.C))
    return Form();
  R.G = storedStride(gcd(A.G, B.G));
  return R;
}

Form Form::scale(const Form &A, int64_t F) {
  Form R;
  int64_t G;
  if (A.Base >= 0 || __builtin_mul_overflow(A.C, F, &R.C) ||
      __builtin_mul_overflow(int64_t(A.G), F, &G))
    return Form();
  R.G = storedStride(gcd(G, 0));
  return R;
}

bool Form::elementOf(const Form &A) const {
  if (G != 0 || (A.G != 8 && A.G != 16) || Base != A.Base)
    return false;
  int64_t D = C - A.C;
  return D >= 0 && D % A.G == 0 && D / A.G < 64;
}

bool Form::onLatticeOf(const Form &D) const {
  // A stride of 1 is an unknown offset: no evidence of a common address.
  if (Base < 0 || Base != D.Base || G == 1 || D.G == 1)
    return false;
  if (G == 0 && D.G == 0)
    return C == D.C;
  if (G == 0)
    return C >= D.C && (C - D.C) % D.G == 0;
  if (D.G == 0)
    return D.C >= C && (D.C - C) % G == 0;
  // Two rings: only the same ring (without stage counts, two lattices
  // meet somewhere: 54's two-stage staging ring and its A tiles).
  return G == D.G && C == D.C;
}

bool Form::meets(uint64_t Size, const Form &S, uint64_t SSize) const {
  if (*this == S)
    return true;
  if (Base != S.Base || G == 1 || S.G == 1)
    return false;
  int64_t R = int64_t(std::max<uint64_t>(Size, 1));
  int64_t W = int64_t(std::max<uint64_t>(SSize, 1));
  int64_t M = gcd(G, S.G); // both lattices are within M's
  if (M == 0)
    return S.C < C + R && C < S.C + W;
  // Where S starts in the record of this form's bytes, [0, M).
  int64_t D = ((S.C - C) % M + M) % M;
  return D < R || D + W > M;
}

Form Form::either(const Form &A, const Form &B) {
  if (A == B)
    return A;
  int64_t D;
  if (A.Base != B.Base || __builtin_sub_overflow(A.C, B.C, &D))
    return Form();
  Form R = A.C < B.C ? A : B;
  R.G = storedStride(gcd(gcd(A.G, B.G), D));
  return R;
}

} // namespace flow
} // namespace ptxlint
