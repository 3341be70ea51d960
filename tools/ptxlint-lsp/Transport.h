//===- Transport.h - JSON-RPC 2.0 messages over stdio (LSP base protocol) -===//
//
// Every message is "Content-Length: N\r\n\r\n" followed by N bytes of JSON.
// A reader thread takes messages off the input as they come, so that the
// server can see that more edits are already waiting before it lints.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_LSP_TRANSPORT_H
#define PTXLINT_LSP_TRANSPORT_H

#include "llvm/Support/JSON.h"

#include <condition_variable>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace ptxlint::lsp {

/// One message read, or why none could be.
struct Incoming {
  std::optional<llvm::json::Value> Message; ///< none: a framing/parse error
  std::string Error;                        ///< why Message is empty
};

class Transport {
public:
  Transport(std::FILE *In, std::FILE *Out);
  ~Transport();

  /// Blocks for the next message; nullopt at the end of the input.
  std::optional<Incoming> next();
  /// True if a message is already waiting (next() will not block).
  bool pending();

  void send(const llvm::json::Value &V);

private:
  /// What the reader thread shares with the server. The thread owns a
  /// reference: after "exit" the reader may still be blocked in fread when
  /// the Transport is destroyed, and must not then touch a freed mutex.
  struct Inbox {
    std::FILE *In;
    std::mutex Lock;
    std::condition_variable Ready;
    std::deque<Incoming> Queue;
    bool Eof = false;
  };
  static void readLoop(const std::shared_ptr<Inbox> &Box);
  static bool readOne(std::FILE *In, Incoming &Out); ///< false at EOF

  std::FILE *Out;
  std::shared_ptr<Inbox> Box;
  std::thread Reader;
};

} // namespace ptxlint::lsp
#endif
