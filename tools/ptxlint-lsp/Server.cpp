//===- Server.cpp - LSP requests and notifications ------------------------===//

#include "Server.h"
#include "Hover.h"

#include "ptxlint/Driver.h"
#include "ptxlint/Linter.h"
#include "ptxlint/RuleDocs.h"
#include "ptxlint/RuleRegistry.h"
#include "ptxlint/ptxlint.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace ptxlint::lsp {

namespace {

// JSON-RPC / LSP error codes.
constexpr int ParseError = -32700, InvalidRequest = -32600, MethodNotFound = -32601,
              InvalidParams = -32602, InternalError = -32603, ServerNotInitialized = -32002;

[[noreturn]] void fail(int Code, std::string Message) { throw LspError{Code, std::move(Message)}; }

const Object &objectField(const Object &O, llvm::StringRef Key) {
  if (const Object *V = O.getObject(Key))
    return *V;
  fail(InvalidParams, ("missing object field '" + Key + "'").str());
}
std::string stringField(const Object &O, llvm::StringRef Key) {
  if (auto V = O.getString(Key))
    return V->str();
  fail(InvalidParams, ("missing string field '" + Key + "'").str());
}

Position positionOf(const Object &O) {
  auto L = O.getInteger("line"), C = O.getInteger("character");
  if (!L || !C || *L < 0 || *C < 0)
    fail(InvalidParams, "a position needs non-negative 'line' and 'character'");
  return {unsigned(*L), unsigned(*C)};
}

/// file:///a/b%20c.ptx -> /a/b c.ptx ("" for other schemes).
std::string uriToPath(llvm::StringRef Uri) {
  if (!Uri.consume_front("file://"))
    return "";
  std::string Out;
  for (size_t K = 0; K < Uri.size(); ++K) {
    if (Uri[K] == '%' && K + 2 < Uri.size() && llvm::isHexDigit(Uri[K + 1]) &&
        llvm::isHexDigit(Uri[K + 2])) {
      Out += char(llvm::hexFromNibbles(Uri[K + 1], Uri[K + 2]));
      K += 2;
    } else {
      Out += Uri[K];
    }
  }
  return Out;
}

int lspSeverity(Severity S) {
  switch (S) {
  case Severity::Error:
  case Severity::Fatal:
    return 1;
  case Severity::Warning:
    return 2;
  case Severity::Remark:
  case Severity::Note:
    return 3;
  case Severity::Ignored:
    break;
  }
  return 4;
}

std::vector<std::string> stringList(const Object &O, llvm::StringRef Key) {
  std::vector<std::string> Out;
  if (const Array *A = O.getArray(Key))
    for (const Value &V : *A)
      if (auto S = V.getAsString())
        Out.push_back(S->str());
  return Out;
}

bool overlaps(SourceRange R, uint32_t Begin, uint32_t End) {
  // An empty range (an insertion point) touches the positions around it.
  return R.Begin <= End && Begin <= R.End;
}

/// "Insert '.noftz'", "Replace 'x' with 'y'", "Remove 'z'".
std::string fixTitle(const std::string &Text, const Diagnostic &D) {
  const FixIt &F = D.Fixes.front();
  std::string Old = Text.substr(F.Range.Begin, F.Range.End - F.Range.Begin);
  std::string T = F.Range.empty()          ? "Insert '" + F.Replacement + "'"
                  : F.Replacement.empty() ? "Remove '" + Old + "'"
                                          : "Replace '" + Old + "' with '" + F.Replacement + "'";
  return T + " [" + D.Code + "]";
}

} // namespace

int Server::run() {
  while (std::optional<Incoming> M = T.next()) {
    if (!M->Message) {
      T.send(Object{{"jsonrpc", "2.0"}, {"id", nullptr},
                    {"error", Object{{"code", ParseError}, {"message", M->Error}}}});
      continue;
    }
    dispatch(*M->Message);
    if (Exited)
      break;
    // Lint what changed once no message waits: a burst of edits costs one lint.
    if (!T.pending())
      for (auto &[Uri, D] : Docs)
        if (D.Stale) {
          lint(D);
          publish(D);
        }
  }
  return ShutDown && Exited ? 0 : 1;
}

void Server::dispatch(const Value &Msg) {
  const Object *O = Msg.getAsObject();
  llvm::Optional<llvm::StringRef> Method;
  if (O)
    Method = O->getString("method");
  const Value *Id = O ? O->get("id") : nullptr;
  if (!Method) {
    // A response to us (we send no requests) is dropped; anything else is
    // not a JSON-RPC message.
    if (!O || (!O->get("result") && !O->get("error")))
        T.send(Object{{"jsonrpc", "2.0"}, {"id", Id ? *Id : Value(nullptr)},
                      {"error", Object{{"code", InvalidRequest},
                                       {"message", "a message needs a 'method'"}}}});
    return;
  }
  const Object *Params = O->getObject("params");
  if (!Id) {
    try {
      notification(*Method, Params);
    } catch (const LspError &) {
      // Notifications have no response; a bad one is ignored.
    } catch (const std::exception &) {
    }
    return;
  }
  Object Reply{{"jsonrpc", "2.0"}, {"id", *Id}};
  try {
    Reply["result"] = request(*Method, Params);
  } catch (const LspError &E) {
    Reply["error"] = Object{{"code", E.Code}, {"message", E.Message}};
  } catch (const std::exception &E) {
    Reply["error"] = Object{{"code", InternalError}, {"message", E.what()}};
  }
  T.send(std::move(Reply));
}

Value Server::request(llvm::StringRef Method, const Object *Params) {
  if (Method == "initialize")
    return initialize(Params);
  if (!Initialized)
    fail(ServerNotInitialized, "the first request must be 'initialize'");
  if (Method == "shutdown") {
    ShutDown = true;
    return nullptr;
  }
  if (!Params)
    fail(InvalidParams, ("'" + Method + "' needs params").str());
  if (Method == "textDocument/codeAction")
    return codeAction(*Params);
  if (Method == "textDocument/hover")
    return hover(*Params);
  fail(MethodNotFound, ("method not supported: " + Method).str());
}

void Server::notification(llvm::StringRef Method, const Object *Params) {
  if (Method == "exit") {
    Exited = true;
    return;
  }
  if (!Initialized || !Params)
    return;
  if (Method == "textDocument/didOpen")
    didOpen(*Params);
  else if (Method == "textDocument/didChange")
    didChange(*Params);
  else if (Method == "textDocument/didSave") {
    // A .ptxlint.yaml beside it may have changed: a whole-module lint.
    Document &D = document(*Params);
    D.Linter.invalidate();
    D.Stale = true;
  }
  else if (Method == "textDocument/didClose") {
    std::string Uri = stringField(objectField(*Params, "textDocument"), "uri");
    T.send(Object{{"jsonrpc", "2.0"},
                  {"method", "textDocument/publishDiagnostics"},
                  {"params", Object{{"uri", Uri}, {"diagnostics", Array{}}}}});
    Docs.erase(Uri);
  }
}

Value Server::initialize(const Object *Params) {
  if (Initialized)
    fail(InvalidRequest, "'initialize' was already received");
  Initialized = true;
  if (Params) {
    // LSP 3.17: the client lists the encodings it can take; UTF-8 saves the
    // conversion, UTF-16 is the default every client supports.
    if (const Object *Caps = Params->getObject("capabilities"))
      if (const Object *General = Caps->getObject("general"))
        if (const Array *Enc = General->getArray("positionEncodings"))
          for (const Value &E : *Enc)
            Utf8 |= E.getAsString() == llvm::StringRef("utf-8");
    if (const Object *Init = Params->getObject("initializationOptions")) {
      if (auto S = Init->getString("target"))
        Settings.Target = S->str();
      if (auto S = Init->getString("ptxVersion"))
        Settings.PtxVersion = parseVersionPair(*S);
      if (auto N = Init->getInteger("tensorBoxBytes"); N && *N > 0)
        TensorBoxBytes = uint64_t(*N);
      if (Init->get("select"))
        Settings.Select = stringList(*Init, "select");
      Settings.ExtendSelect = stringList(*Init, "extendSelect");
      CudaExtensions = stringList(*Init, "cudaExtensions");
      for (const std::string &E : CudaExtensions)
        if (E.size() < 2 || E[0] != '.')
          fail(InvalidParams, "initializationOptions.cudaExtensions: '" + E +
                                  "' is not an extension such as '.cu'");
      Settings.Ignore = stringList(*Init, "ignore");
      for (const std::string &S : Settings.Ignore)
        if (std::string Why; !isValidSelector(S, &Why))
          fail(InvalidParams, "initializationOptions.ignore: " + Why);
    }
  }
  return Object{
      {"capabilities",
       Object{{"positionEncoding", Utf8 ? "utf-8" : "utf-16"},
              {"textDocumentSync",
               Object{{"openClose", true}, {"change", 2}, {"save", Object{{"includeText", false}}}}},
              {"hoverProvider", true},
              {"codeActionProvider",
               Object{{"codeActionKinds", Array{"quickfix", "source.fixAll.ptxlint"}}}}}},
      {"serverInfo", Object{{"name", "ptxlint-lsp"}, {"version", ptxlint_version()}}}};
}

Document &Server::document(const Object &Params) {
  std::string Uri = stringField(objectField(Params, "textDocument"), "uri");
  auto It = Docs.find(Uri);
  if (It == Docs.end())
    fail(InvalidParams, "document not open: " + Uri);
  return It->second;
}

SourceLanguage Server::languageOf(llvm::StringRef Uri, llvm::StringRef LanguageId) const {
  // The client's language id first (an editor may map any name to CUDA),
  // then the extension as the command line reads it; PTX otherwise, as the
  // client chose to send the document to a PTX linter.
  if (LanguageId == "ptx")
    return SourceLanguage::Ptx;
  if (LanguageId == "cuda" || LanguageId == "cuda-cpp" || LanguageId == "cpp" ||
      LanguageId == "c")
    return SourceLanguage::Cuda;
  return languageOfPath(uriToPath(Uri), CudaExtensions.empty() ? nullptr : &CudaExtensions)
      .value_or(SourceLanguage::Ptx);
}

SourceLanguage Server::effectiveLanguage(const Document &D) const {
  // As the command: a short .ptx without .version/.entry/.func (a file being
  // started, a few lines pasted) is linted as the body of a kernel.
  if (D.language() == SourceLanguage::Ptx && looksLikePtxSnippet(D.text()))
    return SourceLanguage::PtxSnippet;
  return D.language();
}

void Server::didOpen(const Object &Params) {
  const Object &TD = objectField(Params, "textDocument");
  std::string Uri = stringField(TD, "uri");
  Docs.erase(Uri);
  Docs.emplace(Uri, Document(Uri, stringField(TD, "text"), TD.getInteger("version").getValueOr(0),
                             Utf8, languageOf(Uri, TD.getString("languageId").getValueOr(""))));
}

void Server::didChange(const Object &Params) {
  Document &D = document(Params);
  D.setVersion(objectField(Params, "textDocument").getInteger("version").getValueOr(D.version() + 1));
  const Array *Changes = Params.getArray("contentChanges");
  if (!Changes)
    fail(InvalidParams, "didChange needs 'contentChanges'");
  for (const Value &C : *Changes) {
    const Object *CO = C.getAsObject();
    if (!CO)
      continue;
    std::string Text = stringField(*CO, "text");
    if (const Object *R = CO->getObject("range"))
      D.edit(positionOf(objectField(*R, "start")), positionOf(objectField(*R, "end")), Text);
    else
      D.replaceAll(std::move(Text));
  }
}

LintOptions Server::optionsFor(const Document &D) const {
  // The .ptxlint.yaml that governs the file (as the command finds it), then
  // the editor's settings on top, as the command line would be. Read again
  // for every lint: an edit of the configuration shows on the next change.
  std::string Path = uriToPath(D.uri());
  ConfigFinder Finder;
  std::vector<ConfigFinder::BadFile> Bad;
  ConfigFinder::Result Cfg = Path.empty() ? ConfigFinder::Result{} : Finder.find(Path, Bad);
  LintOptions Base;
  Base.Threads = 0; // a large module's functions on every core
  Base.TensorBoxBytes = TensorBoxBytes;
  return resolveOptions(Cfg.Config, Path, Settings, Base);
}

void Server::lint(Document &D) {
  std::string Path = uriToPath(D.uri());
  auto Start = std::chrono::steady_clock::now();
  const std::string &Name = Path.empty() ? D.uri() : Path;
  SourceLanguage Lang = effectiveLanguage(D);
  if (Lang != SourceLanguage::Ptx)
    D.Diagnostics = lintAs(Lang, SourceBuffer(Name, D.text()), optionsFor(D)).Diagnostics;
  else
    D.Diagnostics = D.Linter.lint(Name, D.text(), optionsFor(D));
  D.Stale = false;
  if (Trace) {
    double Ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
                    .count();
    std::fprintf(stderr, "ptxlint-lsp: lint %s: %s %.1f ms, %zu diagnostics\n", D.uri().c_str(),
                 effectiveLanguage(D) == SourceLanguage::Cuda         ? "cuda"
                 : effectiveLanguage(D) == SourceLanguage::PtxSnippet ? "snippet"
                 : D.Linter.lastWasIncremental()                      ? "incremental"
                                                                      : "full",
                 Ms, D.Diagnostics.size());
  }
}

Value Server::range(const Document &D, SourceRange R) const {
  Position A = D.position(R.Begin), B = D.position(R.End);
  return Object{{"start", Object{{"line", A.Line}, {"character", A.Character}}},
                {"end", Object{{"line", B.Line}, {"character", B.Character}}}};
}

Value Server::toLsp(const Document &D, const Diagnostic &Diag) const {
  std::string Message = Diag.Message;
  Array Related;
  for (const DiagNote &N : Diag.Notes) {
    if (N.Range)
      Related.push_back(Object{{"location", Object{{"uri", D.uri()}, {"range", range(D, *N.Range)}}},
                               {"message", N.Message}});
    else
      Message += "\n" + N.Message; // "see PTX ISA section ..."
  }
  Object O{{"range", range(D, Diag.Range)},
           {"severity", lspSeverity(Diag.Level)},
           {"code", Diag.Code},
           {"source", "ptxlint"},
           {"message", Message}};
  if (!Related.empty())
    O["relatedInformation"] = std::move(Related);
  return O;
}

void Server::publish(const Document &D) {
  Array Diags;
  for (const Diagnostic &X : D.Diagnostics)
    Diags.push_back(toLsp(D, X));
  T.send(Object{{"jsonrpc", "2.0"},
                {"method", "textDocument/publishDiagnostics"},
                {"params", Object{{"uri", D.uri()}, {"version", D.version()},
                                  {"diagnostics", std::move(Diags)}}}});
}

Value Server::codeAction(const Object &Params) {
  Document &D = document(Params);
  if (D.Stale)
    lint(D);
  const Object &R = objectField(Params, "range");
  uint32_t Begin = D.offset(positionOf(objectField(R, "start")));
  uint32_t End = D.offset(positionOf(objectField(R, "end")));
  std::vector<std::string> Only;
  if (const Object *Ctx = Params.getObject("context"))
    Only = stringList(*Ctx, "only");
  auto Wanted = [&](llvm::StringRef Kind) {
    if (Only.empty())
      return true;
    return std::any_of(Only.begin(), Only.end(), [&](const std::string &K) {
      return Kind == K || Kind.startswith(K + ".");
    });
  };
  Array Actions;
  bool AnyCertain = false;
  for (const Diagnostic &Diag : D.Diagnostics) {
    if (Diag.Fixes.empty())
      continue;
    const RuleInfo *Rule = findRule(Diag.Code);
    bool Certain = Rule && Rule->HasFix; // what --fix would apply
    AnyCertain |= Certain;
    if (!Wanted("quickfix") || !overlaps(Diag.Range, Begin, End))
      continue;
    Array Edits;
    for (const FixIt &F : Diag.Fixes)
      Edits.push_back(Object{{"range", range(D, F.Range)}, {"newText", F.Replacement}});
    Actions.push_back(Object{
        {"title", fixTitle(D.text(), Diag)},
        {"kind", "quickfix"},
        {"diagnostics", Array{toLsp(D, Diag)}},
        {"isPreferred", Certain},
        {"edit", Object{{"changes", Object{{D.uri(), std::move(Edits)}}}}}});
  }
  if (AnyCertain && Wanted("source.fixAll.ptxlint")) {
    // Every certain fix, to a fixpoint, as `ptxlint --fix` does.
    LintResult Final;
    std::vector<AppliedFix> Applied;
    std::string Fixed =
        fixToFixpoint(D.uri(), D.text(), optionsFor(D), Final, Applied, 8, effectiveLanguage(D));
    if (Fixed != D.text())
      Actions.push_back(Object{
          {"title", "Fix all certain ptxlint problems (" + std::to_string(Applied.size()) + ")"},
          {"kind", "source.fixAll.ptxlint"},
          {"edit", Object{{"changes",
                           Object{{D.uri(), Array{Object{
                                                {"range", range(D, {0, uint32_t(D.text().size())})},
                                                {"newText", std::move(Fixed)}}}}}}}}});
  }
  return Actions;
}

Value Server::hover(const Object &Params) {
  Document &D = document(Params);
  if (D.Stale)
    lint(D);
  uint32_t At = D.offset(positionOf(objectField(Params, "position")));
  std::string Md;
  // A diagnostic under the cursor: its message and the rule's --explain text.
  for (const Diagnostic &Diag : D.Diagnostics)
    if (Diag.Range.Begin <= At && At <= std::max(Diag.Range.End, Diag.Range.Begin + 1))
      if (const RuleInfo *Rule = findRule(Diag.Code))
        Md += "**" + Diag.Code + "** " + Diag.Message + "\n\n```\n" +
              renderRuleExplanation(*Rule) + "```\n\n---\n\n";
  const std::string &Text = D.text();
  size_t LineBegin = Text.rfind('\n', At ? At - 1 : 0);
  LineBegin = LineBegin == std::string::npos || At == 0 ? 0 : LineBegin + 1;
  size_t LineEnd = std::min(Text.find('\n', At), Text.size());
  std::string_view Line = std::string_view(Text).substr(LineBegin, LineEnd - LineBegin);
  if (D.language() == SourceLanguage::Cuda) {
    // A guard around the statement may say more; the hover shows what the
    // settings give (the diagnostics use the guards).
    LintOptions O = optionsFor(D);
    ModuleDirectives M{O.Target.value_or(""), "", "Settings"};
    if (O.PtxVersion)
      M.Version = std::to_string(O.PtxVersion->first) + "." + std::to_string(O.PtxVersion->second);
    Md += instructionHover(stringLiteralAt(Line, At - LineBegin), M);
  } else
    Md += instructionHover(Line, findDirectives(Text));
  if (Md.empty())
    return nullptr;
  return Object{{"contents", Object{{"kind", "markdown"}, {"value", Md}}}};
}

} // namespace ptxlint::lsp
