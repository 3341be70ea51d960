//===- Server.h - The ptxlint language server (LSP 3.17) --------*- C++ -*-===//
//
// Diagnostics on open, change and save (pushed with
// textDocument/publishDiagnostics), code actions from fix-its, hover on an
// instruction (spec tables) or on a diagnostic (its --explain text).
//
// Edits are incremental (TextDocumentSyncKind.Incremental): the server keeps
// each document's text and patches it; it lints a document once the input
// holds no further message, so a burst of keystrokes costs one lint.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_LSP_SERVER_H
#define PTXLINT_LSP_SERVER_H

#include "Document.h"
#include "Transport.h"

#include "ptxlint/Config.h"
#include "ptxlint/Linter.h"

#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptxlint::lsp {

class Server {
public:
  explicit Server(Transport &T) : T(T) {}
  /// Serves until "exit" or the end of the input. Returns the exit status:
  /// 0 after shutdown + exit, 1 otherwise (LSP's rule).
  int run();

private:
  void dispatch(const llvm::json::Value &Msg);
  llvm::json::Value request(llvm::StringRef Method, const llvm::json::Object *Params);
  void notification(llvm::StringRef Method, const llvm::json::Object *Params);

  llvm::json::Value initialize(const llvm::json::Object *Params);
  void didOpen(const llvm::json::Object &Params);
  SourceLanguage languageOf(llvm::StringRef Uri, llvm::StringRef LanguageId) const;
  /// The document's language, or PtxSnippet for a .ptx that looks like one.
  SourceLanguage effectiveLanguage(const Document &D) const;
  void didChange(const llvm::json::Object &Params);
  llvm::json::Value codeAction(const llvm::json::Object &Params);
  llvm::json::Value hover(const llvm::json::Object &Params);

  Document &document(const llvm::json::Object &Params);
  LintOptions optionsFor(const Document &D) const;
  void lint(Document &D);
  void publish(const Document &D);
  llvm::json::Value toLsp(const Document &D, const Diagnostic &Diag) const;
  llvm::json::Value range(const Document &D, SourceRange R) const;

  Transport &T;
  std::map<std::string, Document> Docs;
  ConfigLayer Settings; ///< initializationOptions: target, ptxVersion, select...
  std::optional<uint64_t> TensorBoxBytes; ///< initializationOptions.tensorBoxBytes
  /// initializationOptions.cudaExtensions, as --cuda-extensions (empty: default).
  std::vector<std::string> CudaExtensions;
  /// PTXLINT_LSP_TRACE=1: one line per lint on stderr (path taken, time).
  bool Trace = std::getenv("PTXLINT_LSP_TRACE") != nullptr;
  bool Utf8 = false;    ///< positions in UTF-8 bytes (negotiated) or UTF-16
  bool Initialized = false, ShutDown = false, Exited = false;
};

/// The request failed: a JSON-RPC error code and a message naming why.
struct LspError {
  int Code;
  std::string Message;
};

} // namespace ptxlint::lsp
#endif
