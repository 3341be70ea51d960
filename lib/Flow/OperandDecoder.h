//===- OperandDecoder.h - Operands of unparsed statements, from text ------===//
//
// The flow rules read operands of instructions the statement parser never
// builds (arithmetic, loads, branches: most of a kernel). They are decoded
// from the statement's text by a light splitter: registers, immediates,
// addresses "[base+off]", vectors "{a, b}", "p|q" and call tuples. Anything
// else is Opnd::Other, which the rules treat as unknown.
//
// FlowFunction calls these lazily (FlowFunction::operand()); nothing else
// should: an instruction's operands are read through that accessor.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_FLOW_OPERANDDECODER_H
#define PTXLINT_FLOW_OPERANDDECODER_H

#include "Flow/FlowFunction.h"
#include "Support/CharClass.h"

#include <string_view>
#include <vector>

namespace ptxlint {
namespace flow {

/// Whether a name is a .reg variable (names not starting with '%' are
/// looked up in the symbol table): a function and its context, not a
/// std::function, as it is asked for every name an operand list holds.
struct RegNameTest {
  const void *Ctx;
  bool (*Fn)(const void *Ctx, std::string_view Name);
  bool operator()(std::string_view Name) const { return Fn(Ctx, Name); }
};

/// Appends the operands of instruction statement S (its text after the
/// head, up to the ';') to Pool, the names of vector operands to Names.
/// IsReg(Name) says whether a name that does not start with '%' is a .reg
/// variable.
void decodeOperandText(std::string_view Text, const Statement &S,
                       RegNameTest IsReg, NamePool &Names, std::vector<Opnd> &Pool);

/// At most how many operands decodeOperandText() appends to its pool for S
/// at any time: decodeSimple() appends one per byte it reads after the head
/// at most (each is followed by a comma or the end), splitTop() a piece per
/// separator and one after the last.
inline size_t maxOperandCount(const Statement &S) {
  return S.Range.End - (S.HeadBegin + S.HeadSize) + 1;
}

/// Operand K of S alone, decoded as decodeOperandText() decodes it (the
/// others are only split off, not decoded); false if S has fewer operands.
bool decodeOperandTextAt(std::string_view Text, const Statement &S, uint32_t K,
                         RegNameTest IsReg, NamePool &Names, Opnd &Out);

/// The inside of S's destination when it is a vector ("%f1, %f2" of
/// "{%f1, %f2}"); a view with no data (not an empty one) otherwise.
std::string_view vectorDest(std::string_view Text, const Statement &S);

/// The registers S's destination operand names: a register, "p|q", or
/// "{a, b}", appended to Names in order.
void scanDest(std::string_view Text, const Statement &S,
              std::vector<std::string_view> &Names);

/// The registers an instruction's destination operand names: a register,
/// "p|q", or "{a, b}". Def(Name) is called for each, in order.
/// The destination as nvcc writes it: a register of at most 8 bytes right
/// before a comma ("%r12,"). Returns false for anything else; scanDest()
/// then reads it the general way. Every instruction's destination is read,
/// so this is the common case and reads no byte twice. A statement that
/// ends with its ';' (all but those missing it) needs no bound in the loops:
/// the ';' is neither a space nor a name's byte.
inline bool scanShortDest(std::string_view Text, const Statement &S,
                   std::string_view &Name) {
  const char *P = Text.data() + S.HeadBegin + S.HeadSize;
  const char *E = Text.data() + S.Range.End;
  if (P >= E || E[-1] != ';')
    return false;
  while (isSpace(*P))
    ++P;
  if (*P != '%')
    return false;
  const char *B = P++;
  while (isIdentChar(*P))
    ++P;
  if (P - B > 8 || *P != ',')
    return false; // long, or "p|q", spaces, an expression, a comment
  Name = std::string_view(B, size_t(P - B));
  return true;
}

} // namespace flow
} // namespace ptxlint
#endif
