//===- DiffGen.cpp - Instruction variants for the ptxas differential ------===//
//
// Enumerates instruction variants from the spec tables and prints one per
// line as "TARGET<TAB>VERSION<TAB>TAG<TAB>INSTRUCTION". run_diff.py assembles
// them with ptxas and lints them with ptxlint and compares the verdicts; this
// program does not predict any verdict itself.
//
// What it enumerates, per instruction and form:
//   valid    the cross product of the form's groups (each required group's
//            values, each optional group absent or present), operands built
//            from the slots (registers and immediates)
//   mutate   each qualifier dropped, duplicated, moved first/last; the state
//            spaces swapped; a foreign and an unknown qualifier added; an
//            operand dropped or added; every operand replaced by each entry
//            of a pool of registers, immediates, addresses and vectors; the
//            coordinate and im2colInfo vectors one too long and too short;
//            each address's base in the address-expression forms ptxas
//            takes and those it does not parse
//   redop    (cp.reduce.async.bulk) every redOp x type x .noftz, per form
//   target   the valid variants that carry a feature, on every target from
//            sm_75 to sm_121f, at the target's first PTX version and at each
//            feature's version boundary
// All but the target sweep are emitted for sm_100a/PTX 8.8 (where every
// feature exists) and, in the full run, for sm_90a/PTX 8.0 too.
//
// usage: ptxlint-diffgen [--quick]
//
//===----------------------------------------------------------------------===//

#include "ptxlint/SpecTables.h"
#include "ptxlint/Target.h"

#include <algorithm>
#include <cstring>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ptxlint;
using namespace ptxlint::spec;

namespace {

/// The registers run_diff.py declares, one per type.
const std::map<std::string_view, const char *> RegOfType = {
    {".b16", "%h1"},   {".u16", "%uh1"},   {".s16", "%sh1"},
    {".b32", "%r1"},   {".u32", "%ur1"},   {".s32", "%sr1"},
    {".b64", "%rd1"},  {".u64", "%urd1"},  {".s64", "%srd1"},
    {".f32", "%f1"},   {".f64", "%fd1"},   {".pred", "%p1"},
};

/// Replacement operands for the "wrong operand" mutations. A predicate is
/// never put into a tensor instruction's operands: ptxas 13.0 allocates
/// without bound on those when it generates code (see README.md).
const std::vector<std::string> Pool = {
    "%rd2",  "%urd2", "%r2",       "%ur2",       "%sr2",     "%h2",
    "%uh2",  "%f2",   "%fd2",      "%p2",        "!%p2",     "0",
    "1",     "16",    "17",        "-1",         "65536",    "4294967296",
    "[%rd2]", "[%r2]", "[%rd2+8]", "[%rd2+16]",  "[smem]",   "[smem+4]",
    "[%h2]",  "[%f2]", "[%fd2]",   "[%p2]",      "[%urd2+32]", "[pm]",
    "[%rd2+-16]", "[smem+-8]", "1.5", "0f41800000", "%r9",
    "[gmem]", "[gmem+16]", "[cmap]", "[16]",     "smem",     "gmem",
    "{%r2}",  "{%h2, %h3}", "[%rd2, {%r2}]",     "_",
};

const std::vector<std::string> ImmPool = {
    "0",   "1",    "2",     "4",       "8",       "15",        "16",
    "17",  "32",   "-1",    "-16",     "31",      "511",       "512",
    "65535", "65536", "1048560", "1048576", "2147483648", "4294967296",
    "4294967312", "0x10", "16U", "020", "0b10000", "-0x10", "0xFFFFFFFF",
    // Constant expressions and literals of 2^64 and more: ptxas reads them
    // modulo 2^64 until its "Constant overflow" (issue 12).
    "8+8*2", "1+2<<3", "+16", "~0", "!0", "-(-16)", "18446744073709551632",
    "73786976294838206480", "1180591620717411303440",
    "0x100000000000000000000000000000010", "0x80000000000000010"};

/// Address expressions around an operand's base B: the forms ptxas takes
/// ([B+constant], the constant an integer expression) and those it does not
/// parse (issue 12).
const std::vector<std::pair<const char *, const char *>> AddressForms = {
    {"", "-16"},  {"", "+%rd3"}, {"-16+", ""},   {"", "*2"},
    {"(", ")"},   {"", "+1.0"},  {"", "++16"},   {"", "+8*2"},
    {"", "+~15"}, {"", "+ -(-16)"}, {"", "+18446744073709551632"},
    {"", "+1180591620717411303440"}, {"16+", ""}, {"", "+(16)"}};

struct Variant {
  std::string Target, Version, Tag, Text;
};

class Generator {
public:
  explicit Generator(bool Quick) : Quick(Quick) {}
  void run();
  const std::vector<Variant> &variants() const { return Out; }

private:
  // One instruction being built: qualifiers (after the name) and operands.
  struct Draft {
    std::vector<std::string> Quals;
    std::vector<std::string> Ops;
    std::string text(const InstructionSpec &I) const {
      std::string S(I.Name);
      for (const std::string &Q : Quals)
        S += Q;
      for (size_t K = 0; K < Ops.size(); ++K)
        S += (K ? ", " : " ") + Ops[K];
      return S + ";";
    }
  };

  void emit(const std::string &Tag, const InstructionSpec &I, const Draft &D,
            const std::string &Target = "", const std::string &Version = "");
  std::vector<Draft> validDrafts(const InstructionSpec &I, const FormSpec &F);
  bool buildOperands(const InstructionSpec &I, const FormSpec &F, Draft &D,
                     bool PreferImm, bool FillOptional);
  std::string valueOperand(const OperandSpec &S, const Draft &D, bool PreferImm);
  int count(const OperandSpec &S, const Draft &D);
  void mutate(const InstructionSpec &I, const FormSpec &F, const Draft &Base);
  void targetSweep(const InstructionSpec &I, const Draft &D,
                   const std::string &Tag);

  bool Quick;
  std::vector<Variant> Out;
  std::set<std::string> Seen;
  // The home module of the non-sweep variants: every feature is on there.
  const char *HomeTarget = "sm_100a";
  const char *HomeVersion = "8.8";
};

bool has(const std::vector<std::string> &Q, std::string_view W) {
  return std::find(Q.begin(), Q.end(), W) != Q.end();
}

void Generator::emit(const std::string &Tag, const InstructionSpec &I,
                     const Draft &D, const std::string &Target,
                     const std::string &Version) {
  std::string Text = D.text(I);
  auto Add = [&](const std::string &T, const std::string &V) {
    if (Seen.insert(T + "|" + V + "|" + Text).second)
      Out.push_back({T, V, Tag, Text});
  };
  if (!Target.empty()) {
    Add(Target, Version);
    return;
  }
  Add(HomeTarget, HomeVersion);
  if (!Quick) // the Hopper home: every sm_100-only feature is an error here
    Add("sm_90a", "8.0");
}

int Generator::count(const OperandSpec &S, const Draft &D) {
  CountSpec C = S.Count;
  for (const CountIfSpec &CI : S.CountIf)
    if (has(D.Quals, CI.If))
      C = CI.Count;
  if (!C.FromDim)
    return C.Offset;
  int Dim = 0;
  for (const std::string &Q : D.Quals)
    if (Q.size() == 3 && Q[2] == 'd' && isdigit(Q[1]))
      Dim = Q[1] - '0';
  return std::max(1, Dim + C.Offset);
}

std::string Generator::valueOperand(const OperandSpec &S, const Draft &D,
                                    bool PreferImm) {
  if (S.Imm && (PreferImm || S.Regs.empty())) {
    const std::vector<int64_t> *Values = S.Values.empty() ? nullptr : &S.Values;
    for (const ValuesIfSpec &V : S.ValuesIf)
      if (has(D.Quals, V.If))
        Values = &V.Values;
    if (Values)
      return std::to_string(Values->back());
    if (S.MultipleOf)
      return std::to_string(S.MultipleOf * 2);
    return "0";
  }
  if (!S.Regs.empty()) {
    auto It = RegOfType.find(S.Regs.front());
    return It != RegOfType.end() ? It->second : "%rd1";
  }
  return "%p1";
}

bool Generator::buildOperands(const InstructionSpec &I, const FormSpec &F,
                              Draft &D, bool PreferImm, bool FillOptional) {
  D.Ops.clear();
  unsigned Reg = 1;
  for (const OperandSpec &S : F.Operands) {
    bool Present =
        S.When == Presence::Always ||
        (S.When == Presence::Optional && FillOptional) ||
        (S.When == Presence::If &&
         std::any_of(S.If.begin(), S.If.end(),
                     [&](std::string_view Q) { return has(D.Quals, Q); }));
    if (!Present)
      continue;
    std::string R = "%rd" + std::to_string(Reg++);
    switch (S.Kind) {
    case Shape::Value:
      D.Ops.push_back(valueOperand(S, D, PreferImm));
      break;
    case Shape::Address:
      D.Ops.push_back("[" + R + "]");
      break;
    case Shape::Tensor: {
      std::string V = "[" + R + ", {";
      for (int K = 0; K < count(S, D); ++K)
        V += (K ? ", %r" : "%r") + std::to_string(K + 1);
      D.Ops.push_back(V + "}]");
      break;
    }
    case Shape::Vector: {
      std::string V = "{";
      for (int K = 0; K < count(S, D); ++K)
        V += (K ? ", " : "") + std::string(PreferImm ? std::to_string(K) : "%h" + std::to_string(K + 1));
      D.Ops.push_back(V + "}");
      break;
    }
    }
  }
  (void)I;
  return true;
}

std::vector<Generator::Draft> Generator::validDrafts(const InstructionSpec &I,
                                                     const FormSpec &F) {
  // Choices per group: required groups take each accepted value, optional
  // ones also "absent".
  std::vector<std::vector<std::string>> Choices;
  std::vector<std::string> Spaces;
  for (const Words &Pos : F.Spaces)
    for (std::string_view S : Pos)
      if (S != "none") {
        Spaces.push_back(std::string(S));
        break;
      }
  auto Accepted = [&](const GroupSpec &G) {
    for (const Words &Only : F.Only)
      if (!Only.empty() && Only[0] == G.Name)
        return Words(Only.begin() + 1, Only.end());
    return G.Values;
  };
  for (std::string_view Name : F.Required) {
    std::vector<std::string> C;
    for (std::string_view V : Accepted(*findGroup(I, Name)))
      C.push_back(std::string(V));
    Choices.push_back(C);
  }
  for (std::string_view Name : F.Optional) {
    std::vector<std::string> C = {""};
    for (std::string_view V : Accepted(*findGroup(I, Name)))
      C.push_back(std::string(V));
    Choices.push_back(C);
  }
  size_t Total = 1;
  for (auto &C : Choices)
    Total *= C.size();
  size_t Limit = Quick ? 60 : 3000;
  size_t Step = Total > Limit ? Total / Limit + 1 : 1;
  std::vector<Draft> R;
  for (size_t N = 0; N < Total; N += Step) {
    Draft D;
    // Spaces go first after the name; the rest follow in table order.
    size_t Rest = N;
    std::vector<std::string> Picked;
    for (auto &C : Choices) {
      Picked.push_back(C[Rest % C.size()]);
      Rest /= C.size();
    }
    // A first load mode / dim before the spaces, like most producers.
    for (const std::string &S : Spaces)
      D.Quals.push_back(S);
    for (const std::string &P : Picked)
      if (!P.empty())
        D.Quals.push_back(P);
    R.push_back(D);
  }
  // The alternative spellings of a state space (cp.async: .shared::cta).
  // A position that only takes "none" has no alternative.
  for (size_t P = 0; P < F.Spaces.size() && P < Spaces.size(); ++P)
    for (std::string_view S : F.Spaces[P]) {
      if (!R.empty() && S != Spaces[P]) {
        Draft D = R.front();
        if (S == "none")
          D.Quals.erase(D.Quals.begin() + long(P));
        else
          D.Quals[P] = std::string(S);
        R.push_back(D);
      }
    }
  return R;
}

void Generator::mutate(const InstructionSpec &I, const FormSpec &F,
                       const Draft &Base) {
  // Qualifiers dropped, duplicated, moved.
  for (size_t K = 0; K < Base.Quals.size(); ++K) {
    Draft D = Base;
    D.Quals.erase(D.Quals.begin() + long(K));
    buildOperands(I, F, D, false, false);
    emit("drop-qualifier", I, D);
    D = Base;
    D.Quals.insert(D.Quals.begin() + long(K), Base.Quals[K]);
    emit("duplicate-qualifier", I, D);
    D = Base;
    std::string Q = D.Quals[K];
    D.Quals.erase(D.Quals.begin() + long(K));
    D.Quals.push_back(Q);
    emit("move-qualifier-last", I, D);
    D = Base;
    D.Quals.erase(D.Quals.begin() + long(K));
    D.Quals.insert(D.Quals.begin(), Q);
    emit("move-qualifier-first", I, D);
  }
  // State spaces swapped (the first is the destination).
  if (F.Spaces.size() == 2 && Base.Quals.size() >= 2) {
    Draft D = Base;
    std::swap(D.Quals[0], D.Quals[1]);
    emit("swap-spaces", I, D);
  }
  // Foreign qualifiers: one of every other instruction, and an unknown one.
  std::set<std::string> Foreign;
  for (const InstructionSpec &J : instructions())
    if (!J.ClassifyOnly)
      for (const GroupSpec &G : J.Groups)
        for (std::string_view V : G.Values)
          if (!groupOf(I, V))
            Foreign.insert(std::string(V));
  size_t Every = Quick ? 8 : 1, N = 0;
  for (const std::string &V : Foreign) {
    if (N++ % Every)
      continue;
    Draft D = Base;
    D.Quals.push_back(V);
    emit("foreign-qualifier", I, D);
  }
  for (const char *U : {".foo", ".L2::evict_last", ".release", ".6d", ".cta_group::3"}) {
    Draft D = Base;
    D.Quals.push_back(U);
    emit("unknown-qualifier", I, D);
  }
  // Every other value of each group of the instruction, in place.
  for (size_t K = 0; K < Base.Quals.size(); ++K) {
    const GroupSpec *G = groupOf(I, Base.Quals[K]);
    if (!G)
      continue;
    for (std::string_view V : G->Values) {
      Draft D = Base;
      D.Quals[K] = std::string(V);
      buildOperands(I, F, D, false, false);
      emit("other-value", I, D);
    }
  }
  // Operand count.
  if (!Base.Ops.empty()) {
    Draft D = Base;
    D.Ops.pop_back();
    emit("drop-operand", I, D);
  }
  for (const char *Extra : {"%r3", "%rd3", "%h3", "[%rd3]"}) {
    Draft D = Base;
    D.Ops.push_back(Extra);
    emit("extra-operand", I, D);
  }
  // Wrong operands, one slot at a time.
  std::vector<const OperandSpec *> Slots;
  for (const OperandSpec &S : F.Operands)
    if (S.When == Presence::Always ||
        (S.When == Presence::If &&
         std::any_of(S.If.begin(), S.If.end(),
                     [&](std::string_view Q) { return has(Base.Quals, Q); })))
      Slots.push_back(&S);
  bool Tensor = I.Name.find("tensor") != std::string_view::npos;
  for (size_t K = 0; K < Base.Ops.size(); ++K) {
    for (const std::string &P : Pool) {
      if (Tensor && (P == "%p2" || P == "!%p2" || P == "[%p2]"))
        continue; // ptxas's back end runs out of memory on these (README.md)
      Draft D = Base;
      D.Ops[K] = P;
      emit("operand-pool", I, D);
    }
    if (K < Slots.size() && Slots[K]->Kind == Shape::Value && Slots[K]->Imm)
      for (const std::string &V : ImmPool) {
        Draft D = Base;
        D.Ops[K] = V;
        emit("immediate", I, D);
      }
    // The address grammar, on the base of an address or a tensor map.
    const std::string &Op = Base.Ops[K];
    if (Op.size() > 2 && Op[0] == '[') {
      size_t End = std::min(Op.find(','), Op.size() - 1);
      std::string B = Op.substr(1, End - 1);
      for (const auto &[Before, After] : AddressForms) {
        Draft D = Base;
        D.Ops[K] = "[" + std::string(Before) + B + After + Op.substr(End);
        emit("address-form", I, D);
      }
    }
    // Vector lengths and element kinds.
    size_t Open = Op.find('{');
    if (Open != std::string::npos) {
      size_t Close = Op.find('}');
      std::string Inner = Op.substr(Open + 1, Close - Open - 1);
      std::string Elem = Inner.substr(0, Inner.find(','));
      for (const std::string &Repl :
           {Inner + ", " + Elem, Inner.find(',') != std::string::npos
                                     ? Inner.substr(0, Inner.rfind(','))
                                     : std::string("")}) {
        if (Repl.empty())
          continue;
        Draft D = Base;
        D.Ops[K] = Op.substr(0, Open + 1) + Repl + Op.substr(Close);
        emit("vector-length", I, D);
      }
      for (const char *E : {"%rd5", "%h5", "%ur5", "%sr5", "%uh5", "%f1", "7",
                            "-5", "70000", "2147483648", "600", "40"}) {
        Draft D = Base;
        std::string NewInner = Inner;
        size_t Comma = NewInner.find(',');
        NewInner = std::string(E) +
                   (Comma == std::string::npos ? "" : NewInner.substr(Comma));
        D.Ops[K] = Op.substr(0, Open + 1) + NewInner + Op.substr(Close);
        emit("vector-element", I, D);
      }
    }
  }
}

/// The PTX versions ptxas 13.0 knows.
const std::vector<const char *> &versions() {
  static const std::vector<const char *> V = {
      "7.0", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8",
      "8.0", "8.1", "8.2", "8.3", "8.4", "8.5", "8.6", "8.7", "8.8", "9.0"};
  return V;
}

void Generator::targetSweep(const InstructionSpec &I, const Draft &D,
                            const std::string &Tag) {
  // Version boundaries: each feature's min_ptx and the one before it.
  std::set<std::string> Boundaries;
  for (const FeatureSpec &F : I.Features)
    if (F.MinPtx.known()) {
      std::string V = F.MinPtx.str();
      auto It = std::find_if(versions().begin(), versions().end(),
                             [&](const char *X) { return V == X; });
      if (It != versions().end()) {
        Boundaries.insert(*It);
        if (It != versions().begin())
          Boundaries.insert(*(It - 1));
      }
    }
  for (const Target &T : knownTargets()) {
    if (T.Number < 75)
      continue;
    std::string Name = T.name();
    PtxVersion Min = T.minPtx();
    std::set<std::string> Vs = {Min.str()};
    for (const std::string &B : Boundaries)
      if (auto V = parsePtxVersion(B); V && *V >= Min)
        Vs.insert(B);
    if (Tag == "target-base") // the plain form: every version of the target
      for (const char *X : versions())
        if (auto V = parsePtxVersion(X); V && *V >= Min)
          Vs.insert(X);
    for (const std::string &V : Vs) {
      if (std::find_if(versions().begin(), versions().end(), [&](const char *X) {
            return V == X;
          }) == versions().end())
        continue;
      emit(Tag, I, D, Name, V);
    }
  }
}

void Generator::run() {
  for (const InstructionSpec &I : instructions()) {
    if (I.ClassifyOnly)
      continue;
    for (const FormSpec &F : I.Forms) {
      std::vector<Draft> Valid = validDrafts(I, F);
      size_t K = 0;
      for (Draft &D : Valid) {
        buildOperands(I, F, D, false, false);
        emit("valid", I, D);
        Draft Imm = D;
        buildOperands(I, F, Imm, true, false);
        emit("valid-imm", I, Imm);
        Draft Full = D;
        buildOperands(I, F, Full, false, true);
        emit("valid-optional", I, Full);
        // Mutate a spread of the valid drafts; sweep the targets with the
        // ones that carry a qualifier with a feature.
        bool MutateThis = K % (Quick ? 40 : 6) == 0;
        if (MutateThis)
          mutate(I, F, D);
        bool Featured = false;
        for (const FeatureSpec &Fe : I.Features)
          for (std::string_view Q : Fe.On)
            Featured |= has(D.Quals, Q);
        if (K == 0 || (Featured && K % (Quick ? 50 : 7) == 0))
          targetSweep(I, D, K == 0 ? "target-base" : "target-feature");
        ++K;
      }
    }
  }
}

} // namespace

int main(int Argc, char **Argv) {
  bool Quick = Argc > 1 && std::strcmp(Argv[1], "--quick") == 0;
  Generator G(Quick);
  G.run();
  for (const Variant &V : G.variants())
    std::cout << V.Target << '\t' << V.Version << '\t' << V.Tag << '\t'
              << V.Text << '\n';
  return 0;
}
