//===- Inputs.h - Which files to lint, and reading them safely -*- C++ -*-===//
//
// The command's inputs are files, folders and "-". Folders are walked for
// lintable files only: regular files (a FIFO named x.ptx would block the
// read forever), links to directories followed only on request and then
// with loop detection, and every unreadable entry reported rather than
// skipped. Files are read into memory, except that the driver maps large
// regular files (readInput's Map), so that the lint can drop the pages it
// has passed (SourceBuffer::dropBefore): a 12 MB module then does not stay
// resident whole. A mapped file truncated while it is linted would kill the
// process with SIGBUS: a handler puts a page of zeros where the file ended
// and marks the input changed, and the driver, which asks changedSinceRead()
// after the lint, reports it as it does a file that changed while it was
// read, not its diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_DRIVER_INPUTS_H
#define PTXLINT_DRIVER_INPUTS_H

#include "ptxlint/Driver.h"
#include "ptxlint/InlineAsm.h"
#include "ptxlint/Output.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct stat;

namespace ptxlint {

/// Which files a folder walk lints: *.ptx and the CUDA C++ extensions
/// (CudaExtensions, or defaultCudaExtensions() when null), or only those of
/// Lang when it is set (--lang).
struct InputFilter {
  std::optional<SourceLanguage> Lang;
  const std::vector<std::string> *CudaExtensions = nullptr;

  /// Whether a file of this name is linted when its folder is walked.
  bool lintable(std::string_view FileName) const;
  /// "*.ptx, *.cu, ...": the patterns, for the "nothing to lint" warning.
  std::string patterns() const;
};

/// Expands folders into the lintable files under them (hidden folders such
/// as .git are skipped), sorted, so that output order never depends on the
/// file system. Other inputs are kept as given. Problems are appended to
/// Notices in the order met.
std::vector<std::string> expandInputs(const std::vector<std::string> &Inputs,
                                      const InputFilter &Filter,
                                      bool FollowLinks,
                                      std::vector<ToolNotice> &Notices);

/// The largest input read, as the scanner's 32-bit offsets allow; streams
/// (standard input, pipes, devices such as /dev/zero) stop there too.
constexpr uint64_t MaxInputBytes = (uint64_t(1) << 32) - 2;

class MappedFile;

/// One input's text, NUL-terminated (Data[Size] == 0).
struct InputText {
  std::shared_ptr<char[]> Data;
  size_t Size = 0;
  FileStamp Stamp;
  /// Set when Data maps the file (Data keeps it mapped).
  std::shared_ptr<MappedFile> Mapping;
  std::string_view view() const { return {Data.get(), Size}; }
  /// Whether the file changed since it was mapped: truncated under the
  /// mapping, or written (its stamp). Always false for text read whole.
  bool changedSinceRead() const;
};

/// Regular files of at least this size are mapped when readInput may map.
constexpr uint64_t MapInputBytes = uint64_t(1) << 20;

/// Reads Path ("-": standard input) whole, or maps it when Map is set and it
/// is a regular file of at least MapInputBytes (see the file comment). On
/// failure returns false with a message such as "cannot open 'x.ptx':
/// Permission denied" (no prefix): a folder, a file over MaxInputBytes, or
/// a file that changed while it was read. Throws std::bad_alloc when memory
/// runs out.
bool readInput(const std::string &Path, InputText &Out, std::string &Error,
               bool Map = false);

/// What the driver reports for an input that changed while it was read.
std::string changedWhileRead(const std::string &Path);

/// The stamp of a file from its stat().
FileStamp stampOf(const struct stat &St);

} // namespace ptxlint
#endif
