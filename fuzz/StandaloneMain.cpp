//===- StandaloneMain.cpp - Run a fuzz target without libFuzzer -----------===//
//
// Used when PTXLINT_FUZZ is off (GCC builds): the same LLVMFuzzerTestOneInput
// runs over the given seed files and directories, then over random mutations
// of them (byte flips, insertions, deletions, dictionary tokens, splices) for
// -max_total_time seconds or -runs inputs. This gives every build a short,
// bounded fuzz smoke test; long campaigns use the libFuzzer build (preset
// "fuzz"). Accepts the libFuzzer flags it understands and ignores the others.
// A crashing input is written to <artifact_prefix>crash-standalone before the
// target is called, so it survives the abort.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

namespace {

std::string readFile(const std::filesystem::path &P) {
  std::ifstream In(P, std::ios::binary);
  std::ostringstream S;
  S << In.rdbuf();
  return S.str();
}

/// Reads a libFuzzer/AFL dictionary: lines of the form name="token" or "token".
std::vector<std::string> readDict(const std::string &Path) {
  std::vector<std::string> Out;
  std::ifstream In(Path);
  std::string Line;
  while (std::getline(In, Line)) {
    size_t Q = Line.find('"');
    size_t E = Line.rfind('"');
    if (Line.empty() || Line[0] == '#' || Q == std::string::npos || E <= Q)
      continue;
    std::string Tok;
    for (size_t I = Q + 1; I < E; ++I) {
      if (Line[I] == '\\' && I + 1 < E) {
        char C = Line[++I];
        if (C == 'n')
          Tok += '\n';
        else if (C == 't')
          Tok += '\t';
        else if (C == 'x' && I + 2 < E) {
          Tok += char(std::stoi(Line.substr(I + 1, 2), nullptr, 16));
          I += 2;
        } else
          Tok += C;
      } else {
        Tok += Line[I];
      }
    }
    Out.push_back(Tok);
  }
  return Out;
}

} // namespace

int main(int argc, char **argv) {
  double MaxTime = 0;
  long Runs = -1;
  size_t MaxLen = 4096;
  unsigned Seed = 1;
  std::string Dict, Artifact = "./";
  std::vector<std::string> Inputs;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    auto Val = [&](const char *Name) -> const char * {
      size_t L = std::strlen(Name);
      return A.compare(0, L, Name) == 0 ? A.c_str() + L : nullptr;
    };
    if (const char *V = Val("-max_total_time="))
      MaxTime = std::atof(V);
    else if (const char *V = Val("-runs="))
      Runs = std::atol(V);
    else if (const char *V = Val("-max_len="))
      MaxLen = size_t(std::atol(V));
    else if (const char *V = Val("-seed="))
      Seed = unsigned(std::atol(V));
    else if (const char *V = Val("-dict="))
      Dict = V;
    else if (const char *V = Val("-artifact_prefix="))
      Artifact = V;
    else if (!A.empty() && A[0] == '-')
      continue; // a libFuzzer flag we do not implement
    else
      Inputs.push_back(A);
  }

  std::vector<std::string> Seeds;
  for (const std::string &In : Inputs) {
    std::filesystem::path P(In);
    if (std::filesystem::is_directory(P)) {
      std::vector<std::filesystem::path> Files;
      for (const auto &E : std::filesystem::recursive_directory_iterator(P))
        if (E.is_regular_file())
          Files.push_back(E.path());
      std::sort(Files.begin(), Files.end());
      for (const auto &F : Files)
        Seeds.push_back(readFile(F));
    } else if (std::filesystem::exists(P)) {
      Seeds.push_back(readFile(P));
    }
  }
  std::vector<std::string> Tokens = Dict.empty() ? std::vector<std::string>{}
                                                 : readDict(Dict);
  const std::string CrashPath = Artifact + "crash-standalone";
  auto RunOne = [&](const std::string &S) {
    {
      std::ofstream Out(CrashPath, std::ios::binary | std::ios::trunc);
      Out << S;
    }
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(S.data()), S.size());
  };

  long Executed = 0;
  for (const std::string &S : Seeds) {
    RunOne(S);
    ++Executed;
  }
  if (Seeds.empty())
    Seeds.push_back("");

  std::mt19937_64 Rng(Seed);
  auto Start = std::chrono::steady_clock::now();
  auto Elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
        .count();
  };
  while ((Runs < 0 || Executed < Runs) && (MaxTime <= 0 || Elapsed() < MaxTime)) {
    if (Runs < 0 && MaxTime <= 0)
      break; // no budget given: seeds only
    std::string S = Seeds[Rng() % Seeds.size()];
    if (S.size() > MaxLen) {
      size_t Off = Rng() % (S.size() - MaxLen + 1);
      S = S.substr(Off, MaxLen);
    }
    unsigned NumMut = 1 + unsigned(Rng() % 8);
    for (unsigned M = 0; M < NumMut; ++M) {
      size_t Pos = S.empty() ? 0 : Rng() % (S.size() + 1);
      switch (Rng() % 7) {
      case 0: // flip a bit
        if (!S.empty())
          S[Pos % S.size()] ^= char(1u << (Rng() % 8));
        break;
      case 1: // random byte
        S.insert(S.begin() + long(Pos), char(Rng() & 0xff));
        break;
      case 2: // delete a span
        if (!S.empty())
          S.erase(Pos % S.size(), 1 + Rng() % 16);
        break;
      case 3: // dictionary token
        if (!Tokens.empty())
          S.insert(Pos, Tokens[Rng() % Tokens.size()]);
        break;
      case 4: { // splice from another seed
        const std::string &O = Seeds[Rng() % Seeds.size()];
        if (!O.empty()) {
          size_t B = Rng() % O.size();
          S.insert(Pos, O.substr(B, 1 + Rng() % 256));
        }
        break;
      }
      case 5: // duplicate a span
        if (!S.empty()) {
          size_t B = Rng() % S.size();
          S.insert(Pos, S.substr(B, 1 + Rng() % 64));
        }
        break;
      default: { // structural characters
        static const char Special[] = "{}();,[]<>@!:.\"/*\n\r\t\\%+-";
        S.insert(S.begin() + long(Pos), Special[Rng() % (sizeof(Special) - 1)]);
        break;
      }
      }
    }
    if (S.size() > MaxLen)
      S.resize(MaxLen);
    RunOne(S);
    ++Executed;
  }
  std::remove(CrashPath.c_str());
  std::cout << "standalone fuzz: " << Executed << " inputs (" << Seeds.size()
            << " seeds) in " << Elapsed() << " s, no crash\n";
  return 0;
}
