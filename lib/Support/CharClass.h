//===- CharClass.h - PTX character classes by table -------------*- C++ -*-===//
//
// The scanner, the lexer and the flow decoder test every byte of a module
// against these classes; a table lookup per byte is a third of the cost of a
// chain of compares.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_SUPPORT_CHARCLASS_H
#define PTXLINT_SUPPORT_CHARCLASS_H

#include <cstdint>
#include <string_view>

namespace ptxlint {
namespace charclass {

enum : uint8_t {
  IdentStart = 1, ///< a-z A-Z _ $ %
  IdentChar = 2,  ///< IdentStart and 0-9
  Space = 4,      ///< ' ' \t \n \r \f \v
  Digit = 8,      ///< 0-9
  WordChar = 16,  ///< a-z A-Z 0-9 _ $: the grammar's WORD (no '%')
};

struct Table {
  uint8_t T[256] = {};
  constexpr Table() {
    for (int C = 0; C < 256; ++C) {
      bool Letter = (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z');
      bool Dig = C >= '0' && C <= '9';
      bool Start = Letter || C == '_' || C == '$' || C == '%';
      bool Sp = C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' ||
                C == '\v';
      bool Word = Letter || Dig || C == '_' || C == '$';
      T[C] = uint8_t((Start ? IdentStart : 0) | (Start || Dig ? IdentChar : 0) |
                     (Sp ? Space : 0) | (Dig ? Digit : 0) | (Word ? WordChar : 0));
    }
  }
};
inline constexpr Table Classes;

inline bool is(char C, uint8_t Class) {
  return Classes.T[static_cast<unsigned char>(C)] & Class;
}

} // namespace charclass

inline bool isIdentStart(char C) { return charclass::is(C, charclass::IdentStart); }
inline bool isIdentChar(char C) { return charclass::is(C, charclass::IdentChar); }
inline bool isSpace(char C) { return charclass::is(C, charclass::Space); }
inline bool isDigit(char C) { return charclass::is(C, charclass::Digit); }
inline bool isWordChar(char C) { return charclass::is(C, charclass::WordChar); }

/// Skips the spaces at T[K...], then reads the name there (identifier
/// bytes, possibly none); K moves past both.
inline std::string_view nameAfterSpaces(std::string_view T, size_t &K) {
  while (K < T.size() && isSpace(T[K]))
    ++K;
  size_t B = K;
  while (K < T.size() && isIdentChar(T[K]))
    ++K;
  return T.substr(B, K - B);
}

} // namespace ptxlint
#endif
