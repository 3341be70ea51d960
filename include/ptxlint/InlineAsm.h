//===- InlineAsm.h - Lint the inline PTX of CUDA C++ sources ----*- C++ -*-===//
//
// The second front end: finds the asm statements of a C++ buffer (a lexical
// scan, no compile, no include paths), turns each into a small PTX snippet
// whose %N / %[name] operands are registers typed from their constraints,
// lints the snippet with the same lint() as a .ptx file, and maps every
// diagnostic back to the line and column inside the C++ string literal.
//
// Target and PTX version of a statement: the preprocessor guards around it
// when they say (__CUDA_ARCH__ >= 900, __CUDA_ARCH_FEAT_SM90_ALL,
// __cccl_ptx_isa >= 860, project macros of LintOptions::GuardMacros), else
// LintOptions::Target / PtxVersion, else none: qualifiers and operands are
// checked and target gates skipped.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_INLINEASM_H
#define PTXLINT_INLINEASM_H

#include "ptxlint/Linter.h"

#include <string>
#include <string_view>
#include <vector>

namespace ptxlint {

/// Which front end reads a file. PtxSnippet: PTX statements without their
/// module (--snippet, or a short .ptx file without .version, .entry or .func),
/// linted as the body of a kernel (lintPtxSnippet).
enum class SourceLanguage { Ptx, Cuda, PtxSnippet };

/// The extensions read as CUDA C++ by default (with the dot).
const std::vector<std::string> &defaultCudaExtensions();

/// Ptx for ".ptx"; Cuda for an extension of Extensions (default:
/// defaultCudaExtensions()); nullopt otherwise.
std::optional<SourceLanguage>
languageOfPath(std::string_view Path,
               const std::vector<std::string> *Extensions = nullptr);

struct CudaLintStats {
  size_t AsmStatements = 0; ///< asm statements found
  size_t Checked = 0;       ///< of them, built into a snippet and linted
  size_t Unresolved = 0;    ///< template not made of string literals, etc.
  size_t Guarded = 0;       ///< linted with a target or version from a guard
};

/// Lints the inline PTX of one C++ buffer. Diagnostics refer to byte offsets
/// in Buffer (inside the string literals). Suppression comments are read
/// from Buffer ("// ptxlint: disable=Q107" on the line of the literal).
LintResult lintCuda(const SourceBuffer &Buffer, const LintOptions &Opts = {},
                    CudaLintStats *Stats = nullptr);

/// One checked asm statement as a whole module ptxas can assemble, for
/// cross-checks (scripts/seed-typos.py, the CCCL guard check).
struct AsmSnippet {
  uint32_t Begin = 0;   ///< the asm keyword in the C++ buffer
  std::string Target;   ///< from the guards, else Opts; may be empty
  std::string Ptx;      ///< "8.6"; may be empty
  std::string Module;   ///< .version/.target when known, then the function
};
std::vector<AsmSnippet> asmSnippets(const SourceBuffer &Buffer,
                                    const LintOptions &Opts = {});

/// Lints PTX statements that are not a module (a few lines of a kernel), as
/// one asm statement whose template is the whole text: the registers it uses
/// and does not declare are declared with the types nvcc's names imply (%r
/// .b32, %rd .b64, %rs .b16, %p .pred, %f .f32, %fd .f64); names declared
/// outside the snippet (O212) and the module and flow rules are not judged.
/// A note (M006) says the file was linted so.
LintResult lintPtxSnippet(const SourceBuffer &Buffer, const LintOptions &Opts = {});

/// Whether a .ptx file is a snippet: short, without .version, .entry, .func.
bool looksLikePtxSnippet(std::string_view Text);

/// lint(), lintCuda() or lintPtxSnippet(), as the language says.
LintResult lintAs(SourceLanguage Lang, const SourceBuffer &Buffer,
                  const LintOptions &Opts = {});

} // namespace ptxlint
#endif
