//===- FuzzConfig.cpp - libFuzzer target: the .ptxlint.yaml loader --------===//
//
// Parses the input as a configuration file (LLVM YAML I/O underneath), then
// resolves the options for a few paths, which runs the override globs of the
// file against them. Built only when include/ptxlint/Config.h exists.
//
//===----------------------------------------------------------------------===//

#include "ptxlint/Config.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  ptxlint::SourceBuffer Buffer(
      "/fuzz/project/.ptxlint.yaml",
      std::string(reinterpret_cast<const char *>(Data), Size));
  ptxlint::ConfigFile Cfg;
  std::vector<ptxlint::Diagnostic> Diags;
  bool Ok = ptxlint::parseConfig(Buffer, Cfg, Diags);
  for (const ptxlint::Diagnostic &D : Diags)
    if (D.Range.Begin > D.Range.End || D.Range.End > Size)
      std::abort();
  if (!Ok)
    return 0;
  static const char *const Paths[] = {"/fuzz/project/k.ptx",
                                      "/fuzz/project/sub/dir/a.ptx",
                                      "/elsewhere/b.ptx"};
  for (const char *P : Paths)
    (void)ptxlint::resolveOptions(&Cfg, P, ptxlint::ConfigLayer{},
                                  ptxlint::LintOptions{});
  return 0;
}
