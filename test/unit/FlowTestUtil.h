// Shared by the lib/Flow unit tests: parses a one-function module and builds
// the FlowFunction of that function.
#ifndef PTXLINT_TEST_FLOWTESTUTIL_H
#define PTXLINT_TEST_FLOWTESTUTIL_H

#include "Flow/FlowFunction.h"
#include "ptxlint/Linter.h"
#include "ptxlint/SymbolTable.h"

#include <memory>
#include <string>

namespace ptxlint::flow {

struct FlowBuilt {
  SourceBuffer Buffer;
  DiagnosticEngine Diags;
  Module M;
  std::unique_ptr<SymbolTable> ST;
  std::unique_ptr<FlowFunction> FF;
  explicit FlowBuilt(std::string Body, std::string Header = ".entry k()")
      : Buffer("t.ptx", ".version 8.6\n.target sm_100a\n.address_size 64\n" +
                            Header + "\n{\n" + Body + "\n}\n") {
    M = parseModule(Buffer, Diags);
    ST = std::make_unique<SymbolTable>(M);
    FF = std::make_unique<FlowFunction>(M, *ST, 0);
  }
};

} // namespace ptxlint::flow
#endif
