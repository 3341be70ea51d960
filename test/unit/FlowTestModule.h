// A PTX text parsed for the lib/Flow unit tests: the module, its symbols
// and its first function as a FlowFunction.
#ifndef PTXLINT_TEST_FLOWTESTMODULE_H
#define PTXLINT_TEST_FLOWTESTMODULE_H

#include "Flow/FlowFunction.h"
#include "ptxlint/Linter.h"
#include "ptxlint/SymbolTable.h"

#include <string>

struct FlowTestModule {
  explicit FlowTestModule(std::string Text)
      : Buffer("t.ptx", std::move(Text)), M(ptxlint::parseModule(Buffer, Diags)),
        ST(M), FF(M, ST, 0) {}
  ptxlint::SourceBuffer Buffer;
  ptxlint::DiagnosticEngine Diags;
  ptxlint::Module M;
  ptxlint::SymbolTable ST;
  ptxlint::flow::FlowFunction FF;
};

#endif
