//===- Verify.cpp - Match diagnostics against expected-* comments ---------===//

#include "ptxlint/Verify.h"

#include <cstdlib>

namespace ptxlint {
namespace {

struct Expectation {
  Severity Level;
  unsigned Line;
  std::string Code;
  std::string Text;
  bool Seen = false;
};

bool parseSeverity(std::string_view W, Severity &S) {
  if (W == "error")
    S = Severity::Error;
  else if (W == "warning")
    S = Severity::Warning;
  else if (W == "note")
    S = Severity::Note;
  else if (W == "remark")
    S = Severity::Remark;
  else
    return false;
  return true;
}

/// Reads every "expected-<sev>[@[+-]N] [CODE] {{text}}" in the buffer.
bool collect(const SourceBuffer &B, std::vector<Expectation> &Out,
             bool &NoDiagnostics, std::string &Err) {
  std::string_view T = B.text();
  size_t P = 0;
  const std::string_view Tag = "expected-";
  while ((P = T.find(Tag, P)) != std::string_view::npos) {
    size_t Start = P;
    P += Tag.size();
    size_t W = P;
    while (P < T.size() && T[P] >= 'a' && T[P] <= 'z')
      ++P;
    std::string_view Word = T.substr(W, P - W);
    if (Word == "no") {
      if (T.substr(W, 14) == "no-diagnostics") {
        NoDiagnostics = true;
        P = W + 14;
      }
      continue;
    }
    Severity S;
    if (!parseSeverity(Word, S))
      continue;
    unsigned Line = B.lineCol(uint32_t(Start)).Line;
    if (P < T.size() && T[P] == '@') {
      ++P;
      int Sign = 0;
      if (P < T.size() && (T[P] == '+' || T[P] == '-'))
        Sign = T[P++] == '+' ? 1 : -1;
      char *End = nullptr;
      long N = std::strtol(T.data() + P, &End, 10);
      P = size_t(End - T.data());
      Line = Sign == 0 ? unsigned(N) : unsigned(long(Line) + Sign * N);
    }
    while (P < T.size() && T[P] == ' ')
      ++P;
    Expectation E{S, Line, "", ""};
    if (P < T.size() && T[P] == '[') {
      size_t Close = T.find(']', P);
      if (Close == std::string_view::npos)
        break;
      E.Code = std::string(T.substr(P + 1, Close - P - 1));
      P = Close + 1;
      while (P < T.size() && T[P] == ' ')
        ++P;
    }
    if (T.substr(P, 2) != "{{") {
      Err += B.name() + ":" + std::to_string(B.lineCol(uint32_t(Start)).Line) +
             ": cannot find start ('{{') of expected " + std::string(Word) + "\n";
      return false;
    }
    size_t Close = T.find("}}", P + 2);
    if (Close == std::string_view::npos) {
      Err += B.name() + ": cannot find end ('}}') of expected string\n";
      return false;
    }
    E.Text = std::string(T.substr(P + 2, Close - P - 2));
    P = Close + 2;
    Out.push_back(std::move(E));
  }
  return true;
}

} // namespace

VerifyResult verifyDiagnostics(const SourceBuffer &Buffer,
                               const std::vector<Diagnostic> &Diags) {
  VerifyResult R;
  std::vector<Expectation> Expected;
  bool NoDiagnostics = false;
  if (!collect(Buffer, Expected, NoDiagnostics, R.Report)) {
    R.Ok = false;
    return R;
  }
  R.Expectations = unsigned(Expected.size());
  if (Expected.empty() && !NoDiagnostics) {
    R.Ok = false;
    R.Report += "error: no expected directives found: use "
                "'expected-no-diagnostics' when none are expected\n";
    return R;
  }
  std::vector<const Diagnostic *> Unexpected;
  auto Match = [&](Severity S, unsigned Line, const std::string &Code,
                   const std::string &Msg) {
    for (Expectation &E : Expected)
      if (!E.Seen && E.Level == S && E.Line == Line &&
          (E.Code.empty() || E.Code == Code) &&
          Msg.find(E.Text) != std::string::npos) {
        E.Seen = true;
        return true;
      }
    return false;
  };
  for (const Diagnostic &D : Diags) {
    unsigned Line = Buffer.lineCol(D.Range.Begin).Line;
    if (!Match(D.Level, Line, D.Code, D.Message))
      Unexpected.push_back(&D);
    for (const DiagNote &N : D.Notes)
      if (N.Range)
        Match(Severity::Note, Buffer.lineCol(N.Range->Begin).Line, "", N.Message);
  }
  for (const Diagnostic *D : Unexpected) {
    R.Ok = false;
    R.Report += "error: '" + std::string(severityName(D->Level)) +
                "' diagnostic seen but not expected:\n  Line " +
                std::to_string(Buffer.lineCol(D->Range.Begin).Line) + ": " +
                D->Message + " [" + D->Code + "]\n";
  }
  for (const Expectation &E : Expected)
    if (!E.Seen) {
      R.Ok = false;
      R.Report += "error: '" + std::string(severityName(E.Level)) +
                  "' diagnostic expected but not seen:\n  Line " +
                  std::to_string(E.Line) + ": " + E.Text +
                  (E.Code.empty() ? "" : " [" + E.Code + "]") + "\n";
    }
  return R;
}

} // namespace ptxlint
