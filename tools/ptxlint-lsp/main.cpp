//===- main.cpp - ptxlint-lsp: the language server over stdio --------------===//
//
// ptxlint-lsp            serve LSP 3.17 on standard input/output
// ptxlint-lsp --version  print the version
//
// Editors start it as a child process; see editors/README.md.
//
//===----------------------------------------------------------------------===//

#include "Server.h"

#include "ptxlint/ptxlint.h"

#include <cstdio>
#include <cstring>

int main(int Argc, char **Argv) {
  for (int K = 1; K < Argc; ++K) {
    if (!std::strcmp(Argv[K], "--version")) {
      std::printf("ptxlint-lsp %s\n", ptxlint_version());
      return 0;
    }
    if (!std::strcmp(Argv[K], "--stdio"))
      continue; // what VS Code's client passes; stdio is the only transport
    std::fprintf(stderr,
                 "usage: ptxlint-lsp [--stdio] [--version]\n"
                 "  the ptxlint language server: LSP 3.17 over standard input/output\n");
    return std::strcmp(Argv[K], "--help") ? 2 : 0;
  }
  ptxlint::lsp::Transport T(stdin, stdout);
  ptxlint::lsp::Server S(T);
  return S.run();
}
