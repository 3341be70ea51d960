//===- Transport.cpp - LSP base protocol framing ---------------------------===//

#include "Transport.h"

#include "llvm/Support/raw_ostream.h"

#include <cstring>

namespace ptxlint::lsp {

/// 1 GiB: far above any PTX module an editor holds, far below what would
/// make the allocation itself fail.
constexpr long MaxMessageBytes = 1L << 30;

Transport::Transport(std::FILE *In, std::FILE *Out)
    : Out(Out), Box(std::make_shared<Inbox>()) {
  Box->In = In;
  Reader = std::thread([B = Box] { readLoop(B); });
}

Transport::~Transport() {
  // After "exit" the reader may block in fread until the client closes the
  // pipe: it is left to end with the process, holding its own reference to
  // the inbox (joining could wait forever).
  if (Reader.joinable())
    Reader.detach();
}

bool Transport::readOne(std::FILE *In, Incoming &Msg) {
  // Headers: "Name: value\r\n" lines up to an empty line. Only
  // Content-Length matters (Content-Type is always utf-8 JSON in LSP).
  long Length = -1;
  char Line[1024];
  for (;;) {
    if (!std::fgets(Line, sizeof Line, In))
      return false;
    size_t N = std::strlen(Line);
    while (N && (Line[N - 1] == '\n' || Line[N - 1] == '\r'))
      Line[--N] = 0;
    if (!N)
      break;
    static const char Key[] = "Content-Length:";
    if (!strncasecmp(Line, Key, sizeof Key - 1))
      Length = std::strtol(Line + sizeof Key - 1, nullptr, 10);
  }
  if (Length < 0) {
    Msg.Error = "message without a Content-Length header";
    return true;
  }
  // The framing cannot be trusted past an absurd length: stop reading.
  if (Length > MaxMessageBytes)
    return false;
  std::string Body(size_t(Length), '\0');
  if (Length && std::fread(Body.data(), 1, Body.size(), In) != Body.size())
    return false;
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Body);
  if (!V) {
    Msg.Error = "invalid JSON: " + llvm::toString(V.takeError());
    return true;
  }
  Msg.Message = std::move(*V);
  return true;
}

void Transport::readLoop(const std::shared_ptr<Inbox> &Box) {
  for (;;) {
    Incoming Msg;
    bool More = readOne(Box->In, Msg);
    std::lock_guard<std::mutex> G(Box->Lock);
    if (!More) {
      Box->Eof = true;
      Box->Ready.notify_all();
      return;
    }
    Box->Queue.push_back(std::move(Msg));
    Box->Ready.notify_all();
  }
}

std::optional<Incoming> Transport::next() {
  std::unique_lock<std::mutex> G(Box->Lock);
  Box->Ready.wait(G, [this] { return !Box->Queue.empty() || Box->Eof; });
  if (Box->Queue.empty())
    return std::nullopt;
  Incoming M = std::move(Box->Queue.front());
  Box->Queue.pop_front();
  return M;
}

bool Transport::pending() {
  std::lock_guard<std::mutex> G(Box->Lock);
  return !Box->Queue.empty();
}

void Transport::send(const llvm::json::Value &V) {
  std::string Body;
  llvm::raw_string_ostream OS(Body);
  OS << V;
  OS.flush();
  std::fprintf(Out, "Content-Length: %zu\r\n\r\n", Body.size());
  std::fwrite(Body.data(), 1, Body.size(), Out);
  std::fflush(Out);
}

} // namespace ptxlint::lsp
