//===- Sinks.cpp - text, JSON, SARIF 2.1.0 and GitHub renderers -----------===//

#include "ptxlint/Output.h"
#include "ptxlint/RuleDocs.h"
#include "ptxlint/RuleRegistry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace ptxlint {
namespace {

llvm::StringRef sv(std::string_view S) { return {S.data(), S.size()}; }

constexpr const char *ToolVersion = PTXLINT_VERSION; // CMakeLists.txt project()
/// Where each rule is explained: docs/rules.md's anchor for its code.
std::string ruleHelpUri(std::string_view Code) {
  return std::string(PTXLINT_HOMEPAGE) + "/blob/main/docs/rules.md#" + std::string(Code);
}
/// SARIF's conventional name for the root that relative paths start from.
constexpr const char *SrcRoot = "%SRCROOT%";

/// Per-file fingerprint occurrence counter.
struct Fingerprints {
  std::map<std::pair<std::string, std::string>, unsigned> Seen;
  std::string next(const SourceBuffer &B, const Diagnostic &D) {
    std::string Line(B.lineText(B.lineCol(D.Range.Begin).Line));
    unsigned N = Seen[{D.Code, Line}]++;
    return diagnosticFingerprint(B, D, N);
  }
};

// --- text -------------------------------------------------------------------

class TextSink : public DiagnosticSink {
public:
  TextSink(std::string &Out, const TextStyle &S) : DiagnosticSink(Out), Style(S) {}
  void file(const SourceBuffer &B, const std::vector<Diagnostic> &D) override {
    Out += renderText(B, D, Style);
  }

private:
  TextStyle Style;
};

// --- JSON (docs/json-format.md) ----------------------------------------------

void writeRange(llvm::json::OStream &J, const SourceBuffer &B, SourceRange R) {
  auto Pos = [&](uint32_t Off) {
    SourceBuffer::LineCol LC = B.charLineCol(Off);
    J.object([&] {
      J.attribute("line", LC.Line);
      J.attribute("column", LC.Column);
      J.attribute("offset", int64_t(Off));
    });
  };
  J.object([&] {
    J.attributeBegin("start");
    Pos(R.Begin);
    J.attributeEnd();
    J.attributeBegin("end");
    Pos(std::max(R.Begin, R.End));
    J.attributeEnd();
  });
}

class JsonSink : public DiagnosticSink {
public:
  explicit JsonSink(std::string &Out)
      : DiagnosticSink(Out), OS(Out), J(OS, 2) {}
  void begin() override {
    J.objectBegin();
    J.attribute("version", 1);
    J.attributeObject("tool", [&] {
      J.attribute("name", "ptxlint");
      J.attribute("version", ToolVersion);
    });
    J.attributeBegin("diagnostics");
    J.arrayBegin();
  }
  void file(const SourceBuffer &B, const std::vector<Diagnostic> &Diags) override {
    Fingerprints FP;
    for (const Diagnostic &D : Diags) {
      const RuleInfo *R = findRule(D.Code);
      J.object([&] {
        J.attribute("file", B.name());
        J.attribute("code", D.Code);
        J.attribute("rule", R ? llvm::StringRef(R->Name.data(), R->Name.size())
                              : llvm::StringRef());
        J.attribute("severity", severityName(D.Level));
        J.attribute("message", D.Message);
        J.attributeBegin("range");
        writeRange(J, B, D.Range);
        J.attributeEnd();
        J.attributeArray("notes", [&] {
          for (const DiagNote &N : D.Notes)
            J.object([&] {
              J.attribute("message", N.Message);
              J.attributeBegin("range");
              if (N.Range)
                writeRange(J, B, *N.Range);
              else
                J.value(nullptr);
              J.attributeEnd();
            });
        });
        J.attributeArray("fixes", [&] {
          for (const FixIt &F : D.Fixes)
            J.object([&] {
              J.attributeBegin("range");
              writeRange(J, B, F.Range);
              J.attributeEnd();
              J.attribute("replacement", F.Replacement);
            });
        });
        J.attribute("fingerprint", FP.next(B, D));
      });
    }
  }
  void end(const RunSummary &S) override {
    J.arrayEnd();
    J.attributeEnd();
    J.attributeArray("notifications", [&] {
      for (const ToolNotice &N : Notices)
        J.object([&] {
          J.attribute("severity", severityName(N.Level));
          J.attribute("message", N.Message);
        });
    });
    J.attributeObject("summary", [&] {
      J.attribute("files", int64_t(S.Files));
      J.attribute("errors", S.Errors);
      J.attribute("warnings", S.Warnings);
      J.attribute("notes", S.Notes);
      J.attribute("executionSuccessful", S.ExecutionSuccessful);
    });
    J.objectEnd();
    OS << '\n';
  }

private:
  llvm::raw_string_ostream OS;
  llvm::json::OStream J;
};

// --- GitHub workflow commands ---------------------------------------------------

class GithubSink : public DiagnosticSink {
public:
  using DiagnosticSink::DiagnosticSink;
  void notice(const ToolNotice &N) override {
    Out += std::string(N.Level >= Severity::Error ? "::error::" : "::warning::") +
           escapeGithubData("ptxlint: " + N.Message) + "\n";
  }
  void file(const SourceBuffer &B, const std::vector<Diagnostic> &Diags) override {
    for (const Diagnostic &D : Diags) {
      const char *Cmd = D.Level >= Severity::Error     ? "error"
                        : D.Level == Severity::Warning ? "warning"
                                                       : "notice";
      SourceBuffer::LineCol S = B.charLineCol(D.Range.Begin);
      SourceBuffer::LineCol E = B.charLineCol(std::max(D.Range.Begin, D.Range.End));
      const RuleInfo *R = findRule(D.Code);
      std::string Title = "ptxlint " + D.Code;
      if (R)
        Title += " (" + std::string(R->Name) + ")";
      Out += "::" + std::string(Cmd) + " file=" + escapeGithubProperty(B.name()) +
             ",line=" + std::to_string(S.Line) + ",col=" + std::to_string(S.Column);
      if (E.Line >= S.Line)
        Out += ",endLine=" + std::to_string(E.Line);
      if (E.Line == S.Line && E.Column > S.Column)
        Out += ",endColumn=" + std::to_string(E.Column);
      Out += ",title=" + escapeGithubProperty(Title);
      std::string Msg = D.Message;
      for (const DiagNote &N : D.Notes) {
        Msg += "\nnote: ";
        if (N.Range) {
          SourceBuffer::LineCol NL = B.charLineCol(N.Range->Begin);
          Msg += std::to_string(NL.Line) + ":" + std::to_string(NL.Column) + ": ";
        }
        Msg += N.Message;
      }
      Out += "::" + escapeGithubData(Msg) + "\n";
    }
  }
};

// --- SARIF 2.1.0 ----------------------------------------------------------------

const char *sarifLevel(Severity S) {
  switch (S) {
  case Severity::Error:
  case Severity::Fatal:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Ignored:
    return "none";
  default:
    return "note";
  }
}

class SarifSink : public DiagnosticSink {
public:
  explicit SarifSink(std::string &Out)
      : DiagnosticSink(Out), OS(Out), J(OS, 2) {}

  void begin() override {
    J.objectBegin();
    J.attribute("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    J.attribute("version", "2.1.0");
    J.attributeBegin("runs");
    J.arrayBegin();
    J.objectBegin();
    J.attributeObject("tool", [&] {
      J.attributeObject("driver", [&] {
        J.attribute("name", "ptxlint");
        J.attribute("informationUri", PTXLINT_HOMEPAGE);
        J.attribute("version", ToolVersion);
        J.attribute("semanticVersion", ToolVersion);
        J.attributeArray("rules", [&] {
          for (const RuleInfo &R : allRules())
            rule(R);
        });
      });
    });
    llvm::SmallString<256> Cwd;
    if (!llvm::sys::fs::current_path(Cwd)) {
      std::string Base = pathToUri(std::string(Cwd.str()));
      if (Base.empty() || Base.back() != '/')
        Base += '/';
      J.attributeObject("originalUriBaseIds", [&] {
        J.attributeObject(SrcRoot, [&] { J.attribute("uri", Base); });
      });
    }
    J.attribute("columnKind", "utf16CodeUnits");
    J.attributeBegin("results");
    J.arrayBegin();
  }

  void file(const SourceBuffer &B, const std::vector<Diagnostic> &Diags) override {
    Fingerprints FP;
    std::string Uri = pathToUri(B.name());
    bool Relative = Uri.rfind("file://", 0) != 0;
    auto Artifact = [&] {
      J.attributeObject("artifactLocation", [&] {
        J.attribute("uri", Uri);
        if (Relative)
          J.attribute("uriBaseId", SrcRoot);
      });
    };
    for (const Diagnostic &D : Diags) {
      J.object([&] {
        J.attribute("ruleId", D.Code);
        if (auto It = RuleIndex.find(D.Code); It != RuleIndex.end())
          J.attribute("ruleIndex", int64_t(It->second));
        J.attribute("level", sarifLevel(D.Level));
        std::string Text = D.Message;
        for (const DiagNote &N : D.Notes)
          if (!N.Range)
            Text += "\nnote: " + N.Message;
        J.attributeObject("message", [&] { J.attribute("text", Text); });
        J.attributeArray("locations", [&] {
          J.object([&] {
            J.attributeObject("physicalLocation", [&] {
              Artifact();
              region(B, D.Range);
            });
          });
        });
        bool HasRelated = false;
        for (const DiagNote &N : D.Notes)
          HasRelated |= N.Range.has_value();
        if (HasRelated) {
          J.attributeArray("relatedLocations", [&] {
            int64_t Id = 0;
            for (const DiagNote &N : D.Notes) {
              if (!N.Range)
                continue;
              J.object([&] {
                J.attribute("id", Id++);
                J.attributeObject("physicalLocation", [&] {
                  Artifact();
                  region(B, *N.Range);
                });
                J.attributeObject("message",
                                  [&] { J.attribute("text", N.Message); });
              });
            }
          });
        }
        if (!D.Fixes.empty()) {
          J.attributeArray("fixes", [&] {
            J.object([&] {
              J.attributeObject("description", [&] {
                J.attribute("text", "ptxlint fix for " + D.Code);
              });
              J.attributeArray("artifactChanges", [&] {
                J.object([&] {
                  Artifact();
                  J.attributeArray("replacements", [&] {
                    for (const FixIt &F : D.Fixes)
                      J.object([&] {
                        J.attributeBegin("deletedRegion");
                        J.object([&] { regionFields(B, F.Range, true); });
                        J.attributeEnd();
                        J.attributeObject("insertedContent", [&] {
                          J.attribute("text", F.Replacement);
                        });
                      });
                  });
                });
              });
            });
          });
        }
        J.attributeObject("partialFingerprints", [&] {
          J.attribute("ptxlintFingerprint/v1", FP.next(B, D));
        });
      });
    }
  }

  void end(const RunSummary &S) override {
    J.arrayEnd();
    J.attributeEnd(); // results
    J.attributeArray("invocations", [&] {
      J.object([&] {
        J.attribute("executionSuccessful", S.ExecutionSuccessful);
        J.attributeArray("toolExecutionNotifications", [&] {
          for (const ToolNotice &N : Notices)
            J.object([&] {
              J.attribute("level", sarifLevel(N.Level));
              J.attributeObject("message",
                                [&] { J.attribute("text", N.Message); });
            });
        });
      });
    });
    J.objectEnd(); // run
    J.arrayEnd();
    J.attributeEnd(); // runs
    J.objectEnd();
    OS << '\n';
  }

private:
  void rule(const RuleInfo &R) {
    RuleIndex[std::string(R.Code)] = RuleIndex.size();
    const RuleDoc *Doc = ruleDoc(R.Code);
    J.object([&] {
      J.attribute("id", sv(R.Code));
      J.attribute("name", sv(R.Name));
      J.attributeObject("shortDescription",
                        [&] { J.attribute("text", sv(R.Summary)); });
      if (Doc)
        J.attributeObject("fullDescription",
                          [&] { J.attribute("text", sv(Doc->Explanation)); });
      std::string Help = renderRuleExplanation(R);
      std::string Markdown = std::string(R.Summary) + ".";
      if (Doc) {
        Markdown += "\n\n" + std::string(Doc->Explanation);
        if (!Doc->Bad.empty())
          Markdown += "\n\nBad:\n\n```\n" + std::string(Doc->Bad) + "\n```";
        if (!Doc->Good.empty())
          Markdown += "\n\nGood:\n\n```\n" + std::string(Doc->Good) + "\n```";
      }
      J.attribute("helpUri", ruleHelpUri(R.Code));
      J.attributeObject("help", [&] {
        J.attribute("text", Help);
        J.attribute("markdown", Markdown);
      });
      J.attributeObject("defaultConfiguration", [&] {
        J.attribute("enabled", R.DefaultSeverity != Severity::Ignored);
        J.attribute("level", R.DefaultSeverity == Severity::Ignored
                                 ? "warning"
                                 : sarifLevel(R.DefaultSeverity));
      });
      J.attributeObject("properties", [&] {
        J.attributeArray("tags", [&] { J.value(sv(R.Group)); });
        if (!R.Section.empty())
          J.attribute("ptxIsaSection", sv(R.Section));
        J.attribute("hasFix", R.HasFix);
      });
    });
  }

  void regionFields(const SourceBuffer &B, SourceRange R, bool ForDeletion) {
    uint32_t EndOff = std::max(R.Begin, R.End);
    SourceBuffer::LineCol S = B.lineCol(R.Begin), E = B.lineCol(EndOff);
    unsigned SC = utf16Column(B.lineText(S.Line), S.Column);
    unsigned EC = utf16Column(B.lineText(E.Line), E.Column);
    J.attribute("startLine", S.Line);
    J.attribute("startColumn", SC);
    J.attribute("endLine", E.Line);
    // An empty range is an insertion point for a fix, one column for a result.
    J.attribute("endColumn", (!ForDeletion && E.Line == S.Line && EC <= SC)
                                 ? SC + 1
                                 : EC);
  }

  void region(const SourceBuffer &B, SourceRange R) {
    J.attributeBegin("region");
    J.object([&] { regionFields(B, R, false); });
    J.attributeEnd();
  }

  llvm::raw_string_ostream OS;
  llvm::json::OStream J;
  std::map<std::string, size_t> RuleIndex;
};

} // namespace

std::unique_ptr<DiagnosticSink> createSink(OutputFormat Format, std::string &Out,
                                           const TextStyle &Style) {
  switch (Format) {
  case OutputFormat::Text:
    return std::make_unique<TextSink>(Out, Style);
  case OutputFormat::Json:
    return std::make_unique<JsonSink>(Out);
  case OutputFormat::Sarif:
    return std::make_unique<SarifSink>(Out);
  case OutputFormat::Github:
    return std::make_unique<GithubSink>(Out);
  }
  return nullptr;
}

} // namespace ptxlint
