//===- CApi.cpp - extern "C" wrappers; no exception crosses them ----------===//

#include "ptxlint/ptxlint.h"

#include "Driver/Inputs.h"
#include "ptxlint/Config.h"
#include "ptxlint/InlineAsm.h"
#include "ptxlint/Linter.h"
#include "ptxlint/Lower.h"
#include "ptxlint/Render.h"
#include "ptxlint/RuleRegistry.h"

#include <memory>
#include <new>

struct ptxlint_options {
  ptxlint::LintOptions Lint;
  ptxlint::LowerOptions Lower;
  int Language = PTXLINT_LANG_AUTO;
};

struct ptxlint_result {
  std::unique_ptr<ptxlint::SourceBuffer> Buffer;
  std::vector<ptxlint::Diagnostic> Diags;
  unsigned Errors = 0, Warnings = 0;
  std::string Text;     // lowering output
  std::string Rendered; // filled on demand
  bool HaveRendered = false;
};

namespace {

thread_local std::string LastError;

void setError(std::string S) { LastError = std::move(S); }

template <typename F, typename R> R guarded(R Fallback, F &&Fn) {
  try {
    LastError.clear();
    return Fn();
  } catch (const std::bad_alloc &) {
    setError("out of memory");
  } catch (const std::exception &E) {
    setError(E.what());
  } catch (...) {
    setError("unknown error");
  }
  return Fallback;
}

const ptxlint::Diagnostic *diag(const ptxlint_result *R, size_t I) {
  if (!R || I >= R->Diags.size())
    return nullptr;
  return &R->Diags[I];
}

const ptxlint::FixIt *fixit(const ptxlint_result *R, size_t I, size_t N) {
  const ptxlint::Diagnostic *D = diag(R, I);
  if (!D || N >= D->Fixes.size())
    return nullptr;
  return &D->Fixes[N];
}

void count(ptxlint_result &R) {
  for (const ptxlint::Diagnostic &D : R.Diags) {
    R.Errors += D.Level >= ptxlint::Severity::Error;
    R.Warnings += D.Level == ptxlint::Severity::Warning;
  }
}

} // namespace

extern "C" {

const char *ptxlint_version(void) { return PTXLINT_VERSION; }
const char *ptxlint_last_error(void) { return LastError.c_str(); }

ptxlint_options *ptxlint_options_create(void) {
  return guarded<>(static_cast<ptxlint_options *>(nullptr),
                   [] { return new ptxlint_options(); });
}
void ptxlint_options_destroy(ptxlint_options *O) { delete O; }

int ptxlint_options_set_target(ptxlint_options *O, const char *T, int Override) {
  if (!O || !T) {
    setError("null argument");
    return -1;
  }
  if (!ptxlint::isValidTargetName(T)) {
    setError(std::string("unknown target '") + T + "' (such as sm_90a or sm_100f)");
    return -1;
  }
  return guarded(-1, [&] {
    O->Lint.Target = std::string(T);
    O->Lint.OverrideTarget = Override != 0;
    O->Lower.Target = std::string(T);
    return 0;
  });
}

int ptxlint_options_set_ptx_version(ptxlint_options *O, unsigned Maj,
                                    unsigned Min, int Override) {
  if (!O) {
    setError("null argument");
    return -1;
  }
  O->Lint.PtxVersion = std::make_pair(Maj, Min);
  O->Lint.OverridePtxVersion = Override != 0;
  O->Lower.PtxVersion = std::make_pair(Maj, Min);
  return 0;
}

int ptxlint_options_set_severity(ptxlint_options *O, const char *Rule, int Sev) {
  if (!O || !Rule) {
    setError("null argument");
    return -1;
  }
  if (Sev < PTXLINT_IGNORED || Sev > PTXLINT_FATAL) {
    setError("severity out of range");
    return -1;
  }
  return guarded(-1, [&] {
    const ptxlint::RuleInfo *Info = ptxlint::findRule(Rule);
    if (!Info) {
      setError(std::string("unknown rule '") + Rule + "'");
      return -1;
    }
    O->Lint.SeverityOverrides.emplace_back(std::string(Info->Code),
                                           ptxlint::Severity(Sev));
    return 0;
  });
}

int ptxlint_options_set_language(ptxlint_options *O, int Language) {
  if (!O) {
    setError("null argument");
    return -1;
  }
  if (Language != PTXLINT_LANG_AUTO && Language != PTXLINT_LANG_PTX &&
      Language != PTXLINT_LANG_CUDA) {
    setError("unknown language " + std::to_string(Language) +
             " (PTXLINT_LANG_AUTO, PTXLINT_LANG_PTX or PTXLINT_LANG_CUDA)");
    return -1;
  }
  O->Language = Language;
  return 0;
}

/// The front end for Name under O (the command's choice by extension).
static ptxlint::SourceLanguage languageFor(const char *Name, const ptxlint_options *O) {
  int L = O ? O->Language : PTXLINT_LANG_AUTO;
  if (L == PTXLINT_LANG_AUTO)
    return ptxlint::languageOfPath(Name ? Name : "").value_or(ptxlint::SourceLanguage::Ptx);
  return L == PTXLINT_LANG_CUDA ? ptxlint::SourceLanguage::Cuda : ptxlint::SourceLanguage::Ptx;
}

/// A result that owns a copy of the caller's text (diagnostics refer to it).
static std::unique_ptr<ptxlint_result> newResult(const char *Name, const char *Text,
                                                 size_t Len) {
  auto R = std::make_unique<ptxlint_result>();
  R->Buffer = std::make_unique<ptxlint::SourceBuffer>(
      Name ? Name : "<string>", std::string(Text ? Text : "", Len));
  return R;
}

ptxlint_result *ptxlint_lint_string(const char *Name, const char *Text,
                                    size_t Len, const ptxlint_options *O) {
  if (!Text && Len) {
    setError("null text");
    return nullptr;
  }
  return guarded(static_cast<ptxlint_result *>(nullptr), [&] {
    auto R = newResult(Name, Text, Len);
    ptxlint::LintResult L = ptxlint::lintAs(languageFor(Name, O), *R->Buffer,
                                            O ? O->Lint : ptxlint::LintOptions());
    R->Diags = std::move(L.Diagnostics);
    R->Errors = L.Errors;
    R->Warnings = L.Warnings;
    return R.release();
  });
}

ptxlint_result *ptxlint_lint_file(const char *Path, const ptxlint_options *O) {
  if (!Path) {
    setError("null path");
    return nullptr;
  }
  return guarded(static_cast<ptxlint_result *>(nullptr), [&]() -> ptxlint_result * {
    // The command's reader: a folder, a file over 4 GiB or one that changes
    // while it is read fails with a message.
    ptxlint::InputText In;
    std::string Err;
    if (!ptxlint::readInput(Path, In, Err)) {
      setError(Err);
      return nullptr;
    }
    std::string_view Text = In.view();
    return ptxlint_lint_string(Path, Text.data(), Text.size(), O);
  });
}

ptxlint_result *ptxlint_lower_string(const char *Name, const char *Text,
                                     size_t Len, const ptxlint_options *O) {
  if (!Text && Len) {
    setError("null text");
    return nullptr;
  }
  return guarded(static_cast<ptxlint_result *>(nullptr), [&] {
    auto R = newResult(Name, Text, Len);
    ptxlint::LowerResult L =
        ptxlint::lowerModule(*R->Buffer, O ? O->Lower : ptxlint::LowerOptions());
    R->Diags = std::move(L.Diagnostics);
    R->Text = std::move(L.Text);
    count(*R);
    return R.release();
  });
}

void ptxlint_result_destroy(ptxlint_result *R) { delete R; }
size_t ptxlint_result_count(const ptxlint_result *R) { return R ? R->Diags.size() : 0; }
unsigned ptxlint_result_errors(const ptxlint_result *R) { return R ? R->Errors : 0; }
unsigned ptxlint_result_warnings(const ptxlint_result *R) { return R ? R->Warnings : 0; }
const char *ptxlint_result_text(const ptxlint_result *R) { return R ? R->Text.c_str() : ""; }

const char *ptxlint_result_render(ptxlint_result *R) {
  if (!R)
    return "";
  return guarded<>(static_cast<const char *>(""), [&] {
    if (!R->HaveRendered) {
      ptxlint::TextStyle Style;
      Style.Color = false;
      R->Rendered = ptxlint::renderText(*R->Buffer, R->Diags, Style);
      R->HaveRendered = true;
    }
    return R->Rendered.c_str();
  });
}

int ptxlint_diag_severity(const ptxlint_result *R, size_t I) {
  const ptxlint::Diagnostic *D = diag(R, I);
  return D ? int(D->Level) : -1;
}
const char *ptxlint_diag_code(const ptxlint_result *R, size_t I) {
  const ptxlint::Diagnostic *D = diag(R, I);
  return D ? D->Code.c_str() : "";
}
const char *ptxlint_diag_message(const ptxlint_result *R, size_t I) {
  const ptxlint::Diagnostic *D = diag(R, I);
  return D ? D->Message.c_str() : "";
}
unsigned ptxlint_diag_line(const ptxlint_result *R, size_t I) {
  const ptxlint::Diagnostic *D = diag(R, I);
  return D ? R->Buffer->lineCol(D->Range.Begin).Line : 0;
}
unsigned ptxlint_diag_column(const ptxlint_result *R, size_t I) {
  const ptxlint::Diagnostic *D = diag(R, I);
  return D ? R->Buffer->charLineCol(D->Range.Begin).Column : 0;
}
uint32_t ptxlint_diag_begin(const ptxlint_result *R, size_t I) {
  const ptxlint::Diagnostic *D = diag(R, I);
  return D ? D->Range.Begin : 0;
}
uint32_t ptxlint_diag_end(const ptxlint_result *R, size_t I) {
  const ptxlint::Diagnostic *D = diag(R, I);
  return D ? D->Range.End : 0;
}
size_t ptxlint_diag_note_count(const ptxlint_result *R, size_t I) {
  const ptxlint::Diagnostic *D = diag(R, I);
  return D ? D->Notes.size() : 0;
}
const char *ptxlint_diag_note(const ptxlint_result *R, size_t I, size_t N) {
  const ptxlint::Diagnostic *D = diag(R, I);
  return D && N < D->Notes.size() ? D->Notes[N].Message.c_str() : "";
}
size_t ptxlint_diag_fix_count(const ptxlint_result *R, size_t I) {
  const ptxlint::Diagnostic *D = diag(R, I);
  return D ? D->Fixes.size() : 0;
}
const char *ptxlint_diag_fix_text(const ptxlint_result *R, size_t I, size_t N) {
  const ptxlint::FixIt *F = fixit(R, I, N);
  return F ? F->Replacement.c_str() : "";
}
uint32_t ptxlint_diag_fix_begin(const ptxlint_result *R, size_t I, size_t N) {
  const ptxlint::FixIt *F = fixit(R, I, N);
  return F ? F->Range.Begin : 0;
}
uint32_t ptxlint_diag_fix_end(const ptxlint_result *R, size_t I, size_t N) {
  const ptxlint::FixIt *F = fixit(R, I, N);
  return F ? F->Range.End : 0;
}

} // extern "C"
