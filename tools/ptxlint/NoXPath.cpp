//===- NoXPath.cpp - Keep ANTLR's XPath out of the command -----------------===//
//
// The ANTLR runtime's Parser brings in its tree patterns, whose findAll
// brings in XPath, whose lexer builds its ATN in a static initializer at
// every start of the command (0.28 M instructions). ptxlint never uses XPath:
// these definitions stand in for those of the runtime's XPath.cpp, so that
// the linker takes neither it nor its lexer from the static library. Each
// aborts. (A reference to anything else of XPath.cpp would bring it in
// again, and the link would fail on these definitions twice.)
//
//===----------------------------------------------------------------------===//

#include "tree/xpath/XPath.h"

#include <cstdlib>

namespace antlr4::tree::xpath {

XPath::XPath(Parser *, const std::string &) { std::abort(); }
std::vector<std::unique_ptr<XPathElement>> XPath::split(const std::string &) { std::abort(); }
std::vector<ParseTree *> XPath::findAll(ParseTree *, const std::string &, Parser *) {
  std::abort();
}
std::vector<ParseTree *> XPath::evaluate(ParseTree *) { std::abort(); }
std::unique_ptr<XPathElement> XPath::getXPathElement(Token *, bool) { std::abort(); }

} // namespace antlr4::tree::xpath
