//===- OutputUtil.cpp - Fingerprints, URIs, escaping -----------------------===//

#include "ptxlint/Output.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

#include <cctype>

namespace ptxlint {

std::optional<OutputFormat> parseOutputFormat(std::string_view Name) {
  if (Name == "text")
    return OutputFormat::Text;
  if (Name == "json")
    return OutputFormat::Json;
  if (Name == "sarif")
    return OutputFormat::Sarif;
  if (Name == "github")
    return OutputFormat::Github;
  return std::nullopt;
}

std::string renderNotice(const ToolNotice &N) {
  return std::string("ptxlint: ") + severityName(N.Level) + ": " + N.Message +
         "\n";
}

std::string diagnosticFingerprint(const SourceBuffer &Buffer,
                                  const Diagnostic &D, unsigned Occurrence) {
  std::string_view Line = Buffer.lineText(Buffer.lineCol(D.Range.Begin).Line);
  while (!Line.empty() && std::isspace(static_cast<unsigned char>(Line.front())))
    Line.remove_prefix(1);
  while (!Line.empty() && std::isspace(static_cast<unsigned char>(Line.back())))
    Line.remove_suffix(1);
  std::string Key = D.Code;
  Key += '\0';
  Key += Line;
  Key += '\0';
  Key += std::to_string(Occurrence);
  return llvm::utohexstr(llvm::xxHash64(Key), /*LowerCase=*/true);
}

std::string escapeGithubData(std::string_view S) {
  std::string Out;
  for (char C : S) {
    if (C == '%')
      Out += "%25";
    else if (C == '\r')
      Out += "%0D";
    else if (C == '\n')
      Out += "%0A";
    else
      Out += C;
  }
  return Out;
}

std::string escapeGithubProperty(std::string_view S) {
  std::string Out;
  for (char C : escapeGithubData(S)) {
    if (C == ':')
      Out += "%3A";
    else if (C == ',')
      Out += "%2C";
    else
      Out += C;
  }
  return Out;
}

std::string pathToUri(std::string_view Path) {
  std::string Out;
  bool Absolute = !Path.empty() && Path.front() == '/';
  if (Absolute)
    Out = "file://";
  for (char C : Path) {
    unsigned char U = static_cast<unsigned char>(C);
    if (std::isalnum(U) || C == '-' || C == '.' || C == '_' || C == '~' ||
        C == '/')
      Out += C;
    else {
      static const char *Hex = "0123456789ABCDEF";
      Out += '%';
      Out += Hex[U >> 4];
      Out += Hex[U & 15];
    }
  }
  // A relative path whose first segment contains ':' would read as a scheme;
  // the encoding above already turned ':' into %3A.
  return Out;
}

unsigned utf16Column(std::string_view Line, unsigned ByteCol) {
  unsigned Units = 0;
  size_t K = 0, End = std::min<size_t>(ByteCol - 1, Line.size());
  while (K < End) {
    unsigned char C = static_cast<unsigned char>(Line[K]);
    size_t Len = C < 0x80 ? 1 : (C >> 5) == 6 ? 2 : (C >> 4) == 14 ? 3
                                 : (C >> 3) == 30 ? 4 : 1;
    Units += Len == 4 ? 2 : 1;
    K += Len;
  }
  // Past the end of the line (a range ending at the newline): count bytes.
  if (ByteCol - 1 > Line.size())
    Units += unsigned(ByteCol - 1 - Line.size());
  return Units + 1;
}

} // namespace ptxlint
