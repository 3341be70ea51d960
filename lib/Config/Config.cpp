//===- Config.cpp - .ptxlint.yaml (LLVM YAML I/O) and rule selection ------===//

#include "ptxlint/Config.h"
#include "Support/EditDistance.h"
#include "ptxlint/Target.h"

#include "llvm/ADT/Optional.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"

#include <cctype>
#include <cstring>
#include <optional>

namespace ptxlint {

// --- Selectors, severities, versions ----------------------------------------

bool selectorMatches(std::string_view Sel, const RuleInfo &R) {
  if (Sel == "all" || Sel == "ALL")
    return true;
  if (Sel == R.Code || Sel == R.Name || Sel == R.Group)
    return true;
  // A code prefix: "Q", "Q1".
  return !Sel.empty() && std::isupper(static_cast<unsigned char>(Sel[0])) &&
         R.Code.substr(0, Sel.size()) == Sel;
}

bool isValidSelector(std::string_view Sel, std::string *Error) {
  if (Sel == "all" || Sel == "ALL")
    return true;
  for (const RuleInfo &R : allRules())
    if (selectorMatches(Sel, R))
      return true;
  if (Error)
    *Error = "unknown rule, code prefix or group '" + std::string(Sel) +
             "' (see ptxlint --list-rules)";
  return false;
}

std::optional<Severity> parseSeverityName(std::string_view S) {
  if (S == "error")
    return Severity::Error;
  if (S == "warning")
    return Severity::Warning;
  if (S == "note" || S == "info")
    return Severity::Note;
  if (S == "off" || S == "ignore" || S == "none")
    return Severity::Ignored;
  return std::nullopt;
}

std::optional<std::pair<unsigned, unsigned>> parseVersionPair(std::string_view S) {
  std::optional<PtxVersion> V = parsePtxVersion(S);
  if (!V || !V->known())
    return std::nullopt;
  return std::make_pair(V->Major, V->Minor);
}

std::string_view closestSpelling(std::string_view Word,
                                 const std::vector<std::string_view> &Candidates) {
  std::string Lower = llvm::StringRef(Word.data(), Word.size()).lower();
  unsigned Limit = std::max<unsigned>(1, unsigned(Word.size()) / 3);
  std::string_view Best;
  unsigned BestDistance = Limit + 1;
  for (std::string_view C : Candidates) {
    unsigned D = unsigned(editDistance(Lower, llvm::StringRef(C.data(), C.size()).lower()));
    if (D < BestDistance) {
      Best = C;
      BestDistance = D;
    }
  }
  return Best;
}

bool isValidTargetName(std::string_view S) {
  std::optional<Target> T = parseTarget(S);
  if (!T)
    return false;
  for (const Target &K : knownTargets())
    if (K.Number == T->Number && K.Variant == T->Variant)
      return true;
  return false;
}

} // namespace ptxlint

// --- YAML mapping -------------------------------------------------------------

namespace {
using namespace ptxlint;

/// Every key of .ptxlint.yaml, named once: the mappings below use them, and
/// an unknown key is matched against them for a "did you mean".
enum ConfigKey {
  KeySelect, KeyExtendSelect, KeyIgnore, KeySeverity, KeyTarget, KeyPtxVersion,
  KeyWarningsAsErrors, KeyCudaGuards, KeyOverrides, KeyFiles, NumConfigKeys
};
constexpr const char *ConfigKeys[NumConfigKeys] = {
    "select", "extend-select", "ignore", "severity", "target", "ptx-version",
    "warnings-as-errors", "cuda-guards", "overrides", "files"};

// The last error of a scalar conversion; YAML I/O copies it at once.
thread_local std::string ScalarError;

struct SelectorValue {
  std::string Text;
};
struct SeverityValue {
  std::string Selector; ///< the mapping key
  Severity Level = Severity::Warning;
};
struct SeverityMap {
  std::vector<SeverityValue> Items;
};
struct VersionValue {
  std::pair<unsigned, unsigned> V;
};
struct TargetValue {
  std::string Name;
};
struct GlobValue {
  std::string Text;
};
/// What a project guard macro says: a target ("sm_90a") or a PTX version.
struct GuardValue {
  std::string Text;
};

struct YamlLayer {
  llvm::Optional<std::vector<SelectorValue>> Select;
  std::vector<SelectorValue> ExtendSelect, Ignore;
  SeverityMap Severities;
  llvm::Optional<TargetValue> Target;
  llvm::Optional<VersionValue> PtxVersion;
  llvm::Optional<bool> WarningsAsErrors;
  std::map<std::string, GuardValue> CudaGuards;
};
struct YamlOverride {
  std::vector<GlobValue> Files;
  YamlLayer Layer;
};
struct YamlConfig {
  YamlLayer Layer;
  std::vector<YamlOverride> Overrides;
};

} // namespace

LLVM_YAML_IS_SEQUENCE_VECTOR(SelectorValue)
LLVM_YAML_IS_SEQUENCE_VECTOR(GlobValue)
LLVM_YAML_IS_SEQUENCE_VECTOR(YamlOverride)
LLVM_YAML_IS_STRING_MAP(GuardValue)

namespace llvm {
namespace yaml {

template <> struct ScalarTraits<SelectorValue> {
  static void output(const SelectorValue &V, void *, raw_ostream &OS) {
    OS << V.Text;
  }
  static StringRef input(StringRef S, void *, SelectorValue &V) {
    V.Text = S.str();
    if (!isValidSelector(V.Text, &ScalarError))
      return ScalarError;
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<SeverityValue> {
  static void output(const SeverityValue &V, void *, raw_ostream &OS) {
    OS << defaultSeverityName(V.Level);
  }
  static StringRef input(StringRef S, void *, SeverityValue &V) {
    if (!isValidSelector(V.Selector, &ScalarError))
      return ScalarError;
    auto Sev = parseSeverityName(std::string_view(S.data(), S.size()));
    if (!Sev) {
      ScalarError = "unknown severity '" + S.str() +
                    "' (expected error, warning, note or off)";
      return ScalarError;
    }
    V.Level = *Sev;
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
  static const char *defaultSeverityName(Severity S) {
    return S == Severity::Ignored ? "off" : severityName(S);
  }
};

template <> struct CustomMappingTraits<SeverityMap> {
  static void inputOne(IO &IO, StringRef Key, SeverityMap &M) {
    SeverityValue V;
    V.Selector = Key.str();
    IO.mapRequired(Key.str().c_str(), V);
    M.Items.push_back(V);
  }
  static void output(IO &IO, SeverityMap &M) {
    for (SeverityValue &V : M.Items)
      IO.mapRequired(V.Selector.c_str(), V);
  }
};

template <> struct ScalarTraits<VersionValue> {
  static void output(const VersionValue &V, void *, raw_ostream &OS) {
    OS << V.V.first << '.' << V.V.second;
  }
  static StringRef input(StringRef S, void *, VersionValue &V) {
    auto P = parseVersionPair(std::string_view(S.data(), S.size()));
    if (!P) {
      ScalarError = "invalid PTX version '" + S.str() +
                    "' (expected MAJOR.MINOR such as 8.6)";
      return ScalarError;
    }
    V.V = *P;
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::Double; }
};

template <> struct ScalarTraits<TargetValue> {
  static void output(const TargetValue &V, void *, raw_ostream &OS) {
    OS << V.Name;
  }
  static StringRef input(StringRef S, void *, TargetValue &V) {
    V.Name = S.str();
    if (!isValidTargetName(V.Name)) {
      ScalarError = "invalid target '" + S.str() +
                    "' (not a target ptxlint knows, such as sm_90a or sm_100f)";
      return ScalarError;
    }
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<GuardValue> {
  static void output(const GuardValue &V, void *, raw_ostream &OS) {
    OS << V.Text;
  }
  static StringRef input(StringRef S, void *, GuardValue &V) {
    V.Text = S.str();
    if (!isValidTargetName(V.Text) && !parseVersionPair(V.Text)) {
      ScalarError = "invalid guard value '" + S.str() +
                    "' (expected a target such as sm_90a or a PTX version "
                    "such as 8.6)";
      return ScalarError;
    }
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<GlobValue> {
  static void output(const GlobValue &V, void *, raw_ostream &OS) {
    OS << V.Text;
  }
  static StringRef input(StringRef S, void *, GlobValue &V) {
    V.Text = S.str();
    if (auto G = GlobPattern::create(S); !G) {
      ScalarError = "invalid glob '" + S.str() +
                    "': " + toString(G.takeError());
      return ScalarError;
    }
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::Single; }
};

static void mapLayer(IO &IO, YamlLayer &L) {
  IO.mapOptional(ConfigKeys[KeySelect], L.Select);
  IO.mapOptional(ConfigKeys[KeyExtendSelect], L.ExtendSelect);
  IO.mapOptional(ConfigKeys[KeyIgnore], L.Ignore);
  IO.mapOptional(ConfigKeys[KeySeverity], L.Severities);
  IO.mapOptional(ConfigKeys[KeyTarget], L.Target);
  IO.mapOptional(ConfigKeys[KeyPtxVersion], L.PtxVersion);
  IO.mapOptional(ConfigKeys[KeyWarningsAsErrors], L.WarningsAsErrors);
  IO.mapOptional(ConfigKeys[KeyCudaGuards], L.CudaGuards);
}

template <> struct MappingTraits<YamlOverride> {
  static void mapping(IO &IO, YamlOverride &O) {
    IO.mapRequired(ConfigKeys[KeyFiles], O.Files);
    mapLayer(IO, O.Layer);
  }
};

template <> struct MappingTraits<YamlConfig> {
  static void mapping(IO &IO, YamlConfig &C) {
    mapLayer(IO, C.Layer);
    IO.mapOptional(ConfigKeys[KeyOverrides], C.Overrides);
  }
};

} // namespace yaml
} // namespace llvm

namespace ptxlint {
namespace {

ConfigLayer convert(const YamlLayer &Y) {
  ConfigLayer L;
  auto Strings = [](const std::vector<SelectorValue> &V) {
    std::vector<std::string> Out;
    for (const SelectorValue &S : V)
      Out.push_back(S.Text);
    return Out;
  };
  if (Y.Select)
    L.Select = Strings(*Y.Select);
  L.ExtendSelect = Strings(Y.ExtendSelect);
  L.Ignore = Strings(Y.Ignore);
  for (const SeverityValue &S : Y.Severities.Items)
    L.Severities.emplace_back(S.Selector, S.Level);
  if (Y.Target)
    L.Target = Y.Target->Name;
  if (Y.PtxVersion)
    L.PtxVersion = Y.PtxVersion->V;
  if (Y.WarningsAsErrors)
    L.WarningsAsErrors = *Y.WarningsAsErrors;
  for (const auto &[Macro, Value] : Y.CudaGuards)
    L.GuardMacros.emplace_back(Macro, Value.Text);
  return L;
}

struct DiagSink {
  const SourceBuffer *Buffer;
  std::vector<Diagnostic> *Diags;
};

void onYamlDiag(const llvm::SMDiagnostic &SMD, void *Ctx) {
  auto *S = static_cast<DiagSink *>(Ctx);
  std::string_view Text = S->Buffer->text();
  const char *P = SMD.getLoc().getPointer();
  uint32_t Off = 0;
  if (P && P >= Text.data() && P <= Text.data() + Text.size())
    Off = uint32_t(P - Text.data());
  uint32_t End = Off;
  // Underline the token: up to the next blank, ',', ']', '}' or line end.
  while (End < Text.size() && !std::strchr(" \t\r\n,]}#", Text[End]))
    ++End;
  Diagnostic D;
  D.Level = ruleInfo(rules::InvalidConfig).DefaultSeverity;
  D.Code = std::string(ruleInfo(rules::InvalidConfig).Code);
  D.Range = {Off, End};
  D.Message = SMD.getMessage().str();
  // YAML I/O says "unknown key 'selct'": name the key meant.
  llvm::StringRef Msg = D.Message;
  if (Msg.consume_front("unknown key '") && Msg.consume_back("'")) {
    std::string_view Near = closestSpelling(
        std::string_view(Msg.data(), Msg.size()),
        std::vector<std::string_view>(std::begin(ConfigKeys), std::end(ConfigKeys)));
    if (!Near.empty())
      D.Message += "; did you mean '" + std::string(Near) + "'?";
  }
  S->Diags->push_back(std::move(D));
}

/// The YAML I/O keeps the last of two equal keys in a mapping and says
/// nothing: report every repeated key, with a note at the first one.
void reportDuplicateKeys(llvm::yaml::Node *N, const SourceBuffer &Buffer,
                         std::vector<Diagnostic> &Diags) {
  auto Offset = [&](llvm::yaml::Node *K) {
    return uint32_t(K->getSourceRange().Start.getPointer() - Buffer.text().data());
  };
  if (auto *M = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(N)) {
    std::map<std::string, llvm::yaml::Node *> Seen;
    for (llvm::yaml::KeyValueNode &KV : *M) {
      auto *Key = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(KV.getKey());
      if (Key) {
        llvm::SmallString<32> Storage;
        std::string Name = Key->getValue(Storage).str();
        auto [It, New] = Seen.emplace(Name, Key);
        if (!New) {
          uint32_t B = Offset(Key);
          Diagnostic D;
          D.Level = ruleInfo(rules::InvalidConfig).DefaultSeverity;
          D.Code = std::string(ruleInfo(rules::InvalidConfig).Code);
          D.Range = {B, B + uint32_t(Name.size())};
          D.Message = "duplicate key '" + Name + "' (YAML keeps only one)";
          uint32_t First = Offset(It->second);
          D.Notes.push_back({"first given here", SourceRange{First, First + uint32_t(Name.size())}});
          Diags.push_back(std::move(D));
        }
      }
      reportDuplicateKeys(KV.getValue(), Buffer, Diags);
    }
  } else if (auto *S = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(N)) {
    for (llvm::yaml::Node &E : *S)
      reportDuplicateKeys(&E, Buffer, Diags);
  }
}

/// LLVM's YAML parser recurses once per nesting level, so a file nested tens
/// of thousands deep ("[[[[...", "- - - ... x") overflows the stack (found by
/// fuzz/FuzzConfig). Configuration files are shallow: find the first place
/// where flow collections ([ {) or block sequence entries on one line ("- ")
/// nest deeper than MaxConfigNesting, before the YAML parser sees the text.
constexpr unsigned MaxConfigNesting = 64;

std::optional<uint32_t> tooDeeplyNested(std::string_view Text) {
  unsigned Flow = 0, Dashes = 0;
  bool LineStart = true, Comment = false;
  char Quote = 0;
  for (uint32_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\n') {
      LineStart = true;
      Comment = false;
      Dashes = 0;
      continue;
    }
    if (Comment)
      continue;
    if (Quote) {
      if (C == Quote)
        Quote = 0;
      else if (C == '\\' && Quote == '"')
        ++I;
      continue;
    }
    if (LineStart) { // indentation and "- - - " sequence entries
      if (C == ' ' || C == '\t')
        continue;
      if (C == '-' && (I + 1 == Text.size() || Text[I + 1] == ' ' ||
                       Text[I + 1] == '\t' || Text[I + 1] == '\n')) {
        if (++Dashes > MaxConfigNesting)
          return I;
        continue;
      }
      LineStart = false;
    }
    if (C == '#' && (I == 0 || std::strchr(" \t\r\n", Text[I - 1]))) {
      Comment = true;
    } else if (C == '"' || C == '\'') {
      Quote = C;
    } else if (C == '[' || C == '{') {
      if (++Flow > MaxConfigNesting)
        return I;
    } else if ((C == ']' || C == '}') && Flow > 0) {
      --Flow;
    }
  }
  return std::nullopt;
}

std::string absolutePosix(std::string_view Path) {
  llvm::SmallString<256> P(llvm::StringRef(Path.data(), Path.size()));
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  llvm::sys::path::native(P, llvm::sys::path::Style::posix);
  return std::string(P.str());
}

} // namespace

bool parseConfig(const SourceBuffer &Buffer, ConfigFile &Out,
                 std::vector<Diagnostic> &Diags) {
  size_t Before = Diags.size();
  DiagSink Sink{&Buffer, &Diags};
  llvm::StringRef Text(Buffer.text().data(), Buffer.text().size());
  YamlConfig Y;
  // An empty file (or one with comments only) is an empty configuration.
  if (Text.trim().empty() ||
      llvm::all_of(llvm::split(Text, '\n'), [](llvm::StringRef L) {
        L = L.trim();
        return L.empty() || L.startswith("#");
      })) {
    Out.Path = Buffer.name();
    Out.Directory = std::string(llvm::sys::path::parent_path(absolutePosix(Buffer.name())));
    return true;
  }
  if (std::optional<uint32_t> Deep = tooDeeplyNested(Buffer.text())) {
    Diagnostic D;
    D.Level = ruleInfo(rules::InvalidConfig).DefaultSeverity;
    D.Code = std::string(ruleInfo(rules::InvalidConfig).Code);
    D.Range = {*Deep, *Deep + 1};
    D.Message = "configuration nested more than " +
                std::to_string(MaxConfigNesting) + " levels deep";
    Diags.push_back(std::move(D));
    return false;
  }
  {
    // The YAML I/O below reports syntax errors; this parse finds only keys.
    llvm::SourceMgr SM;
    SM.setDiagHandler([](const llvm::SMDiagnostic &, void *) {});
    llvm::yaml::Stream Doc(Text, SM);
    for (llvm::yaml::Document &D : Doc)
      reportDuplicateKeys(D.getRoot(), Buffer, Diags);
    if (Diags.size() > Before)
      return false;
  }
  llvm::yaml::Input In(Text, nullptr, onYamlDiag, &Sink);
  In >> Y;
  if (In.error() || Diags.size() > Before) {
    if (Diags.size() == Before) { // an error YAML I/O did not describe
      Diagnostic D;
      D.Level = Severity::Error;
      D.Code = std::string(ruleInfo(rules::InvalidConfig).Code);
      D.Message = "invalid configuration file";
      Diags.push_back(std::move(D));
    }
    return false;
  }
  Out.Path = Buffer.name();
  Out.Directory =
      std::string(llvm::sys::path::parent_path(absolutePosix(Buffer.name())));
  Out.Base = convert(Y.Layer);
  for (const YamlOverride &O : Y.Overrides) {
    PathOverride P;
    for (const GlobValue &G : O.Files)
      P.Files.push_back(G.Text);
    P.Layer = convert(O.Layer);
    Out.Overrides.push_back(std::move(P));
  }
  return true;
}

bool overrideMatches(const PathOverride &O, std::string_view Dir,
                     std::string_view FilePath) {
  std::string Abs = absolutePosix(FilePath);
  std::string Rel = Abs;
  std::string Prefix = std::string(Dir);
  if (!Prefix.empty() && Prefix.back() != '/')
    Prefix += '/';
  if (llvm::StringRef(Abs).startswith(Prefix))
    Rel = Abs.substr(Prefix.size());
  llvm::StringRef Name = llvm::sys::path::filename(Rel, llvm::sys::path::Style::posix);
  for (const std::string &G : O.Files) {
    auto Pat = llvm::GlobPattern::create(G);
    if (!Pat) {
      llvm::consumeError(Pat.takeError());
      continue;
    }
    bool HasSlash = G.find('/') != std::string::npos;
    if (Pat->match(HasSlash ? llvm::StringRef(Rel) : Name))
      return true;
  }
  return false;
}

namespace {
struct RuleState {
  bool Enabled;
  Severity Level;
};

void applyLayer(const ConfigLayer &L, std::vector<RuleState> &State,
                LintOptions &Opts) {
  const std::vector<RuleInfo> &Rules = allRules();
  auto AnyMatch = [](const std::vector<std::string> &Sels, const RuleInfo &R) {
    for (const std::string &S : Sels)
      if (selectorMatches(S, R))
        return true;
    return false;
  };
  for (size_t K = 0; K < Rules.size(); ++K) {
    if (L.Select)
      State[K].Enabled = AnyMatch(*L.Select, Rules[K]);
    if (AnyMatch(L.ExtendSelect, Rules[K]))
      State[K].Enabled = true;
    if (AnyMatch(L.Ignore, Rules[K]))
      State[K].Enabled = false;
    for (const auto &[Sel, Sev] : L.Severities)
      if (selectorMatches(Sel, Rules[K])) {
        if (Sev == Severity::Ignored)
          State[K].Enabled = false;
        else
          State[K].Level = Sev;
      }
  }
  if (L.Target)
    Opts.Target = *L.Target;
  if (L.PtxVersion)
    Opts.PtxVersion = *L.PtxVersion;
  if (L.WarningsAsErrors)
    Opts.WarningsAsErrors = *L.WarningsAsErrors;
  Opts.GuardMacros.insert(Opts.GuardMacros.end(), L.GuardMacros.begin(),
                          L.GuardMacros.end());
}
} // namespace

LintOptions resolveOptions(const ConfigFile *Cfg, std::string_view FilePath,
                           const ConfigLayer &Cli, LintOptions Opts) {
  const std::vector<RuleInfo> &Rules = allRules();
  std::vector<RuleState> State;
  State.reserve(Rules.size());
  for (const RuleInfo &R : Rules)
    State.push_back({R.DefaultSeverity != Severity::Ignored,
                     R.DefaultSeverity == Severity::Ignored ? Severity::Warning
                                                            : R.DefaultSeverity});
  if (Cfg) {
    applyLayer(Cfg->Base, State, Opts);
    for (const PathOverride &O : Cfg->Overrides)
      if (overrideMatches(O, Cfg->Directory, FilePath))
        applyLayer(O.Layer, State, Opts);
  }
  applyLayer(Cli, State, Opts);
  for (size_t K = 0; K < Rules.size(); ++K) {
    Severity Eff = State[K].Enabled ? State[K].Level : Severity::Ignored;
    if (Eff != Rules[K].DefaultSeverity)
      Opts.SeverityOverrides.emplace_back(std::string(Rules[K].Code), Eff);
  }
  return Opts;
}

// --- Discovery ----------------------------------------------------------------

ConfigFinder::Result ConfigFinder::load(const std::string &Path,
                                        std::vector<BadFile> &NewBadFiles,
                                        std::string *IoError) {
  if (auto It = ByPath.find(Path); It != ByPath.end())
    return It->second;
  Result R;
  R.Path = Path;
  auto BufOrErr = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
  if (!BufOrErr || llvm::sys::fs::is_directory(Path)) {
    std::string Msg =
        "cannot read '" + Path + "': " +
        (BufOrErr ? std::string("it is a directory") : BufOrErr.getError().message());
    if (IoError) {
      *IoError = Msg;
    } else {
      Diagnostic D;
      D.Code = std::string(ruleInfo(rules::InvalidConfig).Code);
      D.Message = Msg;
      NewBadFiles.push_back({std::make_unique<SourceBuffer>(Path, ""), {D}});
    }
    R.Failed = true;
    return ByPath[Path] = R;
  }
  auto Buf = std::make_unique<SourceBuffer>(Path, (*BufOrErr)->getBuffer().str());
  auto Cfg = std::make_unique<ConfigFile>();
  std::vector<Diagnostic> Diags;
  if (parseConfig(*Buf, *Cfg, Diags)) {
    R.Config = Cfg.get();
    Owned.push_back(std::move(Cfg));
  } else {
    R.Failed = true;
    NewBadFiles.push_back({std::move(Buf), std::move(Diags)});
  }
  return ByPath[Path] = R;
}

bool ConfigFinder::setExplicit(const std::string &Path,
                               std::vector<BadFile> &NewBadFiles,
                               std::string &IoError) {
  Explicit = load(Path, NewBadFiles, &IoError);
  return IoError.empty();
}

ConfigFinder::Result ConfigFinder::find(std::string_view FilePath,
                                        std::vector<BadFile> &NewBadFiles) {
  if (Explicit)
    return *Explicit;
  std::string Dir =
      FilePath == "-" ? absolutePosix(".")
                      : std::string(llvm::sys::path::parent_path(
                            absolutePosix(FilePath), llvm::sys::path::Style::posix));
  std::vector<std::string> Visited;
  Result R;
  while (true) {
    if (auto It = ByDir.find(Dir); It != ByDir.end()) {
      R = It->second;
      break;
    }
    Visited.push_back(Dir);
    std::string Candidate = Dir == "/" ? std::string("/") + FileName
                                       : Dir + "/" + FileName;
    // Anything of that name is meant as the configuration: a directory or a
    // link that leads nowhere is reported (load() says why), never skipped.
    llvm::sys::fs::file_status St;
    if (!llvm::sys::fs::status(Candidate, St, /*Follow=*/false) &&
        St.type() != llvm::sys::fs::file_type::file_not_found) {
      // Show the file relative to the current folder when it is below it.
      std::string Cwd = absolutePosix(".");
      if (!Cwd.empty() && Cwd.back() != '/')
        Cwd += '/';
      if (llvm::StringRef(Candidate).startswith(Cwd))
        Candidate = Candidate.substr(Cwd.size());
      R = load(Candidate, NewBadFiles, nullptr);
      break;
    }
    llvm::StringRef Parent =
        llvm::sys::path::parent_path(Dir, llvm::sys::path::Style::posix);
    if (Parent.empty() || Parent == Dir)
      break;
    Dir = Parent.str();
  }
  for (const std::string &V : Visited)
    ByDir[V] = R;
  return R;
}

} // namespace ptxlint
