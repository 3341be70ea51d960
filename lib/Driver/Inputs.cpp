//===- Inputs.cpp - Which files to lint, and reading them safely ----------===//

#include "Driver/Inputs.h"
#include "Support/HugePages.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <atomic>
#include <csignal>
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <set>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace ptxlint {
namespace {

std::string errnoText(int E) { return std::strerror(E); }

/// "cannot open 'x.ptx': No such file or directory": every I/O failure of
/// the walk and the reads, as printed and as put in the JSON/SARIF reports.
std::string ioError(const char *Verb, const std::string &Path, int E) {
  return std::string("cannot ") + Verb + " '" + Path + "': " + errnoText(E);
}

std::string joinPath(const std::string &Dir, const std::string &Name) {
  if (Dir == ".")
    return Name;
  if (!Dir.empty() && Dir.back() == '/')
    return Dir + Name;
  return Dir + "/" + Name;
}

const char *fileKind(mode_t M) {
  if (S_ISFIFO(M))
    return "a FIFO";
  if (S_ISSOCK(M))
    return "a socket";
  if (S_ISCHR(M) || S_ISBLK(M))
    return "a device";
  return "not a regular file";
}

class Walker {
public:
  Walker(const InputFilter &Filter, bool FollowLinks,
         std::vector<ToolNotice> &Notices)
      : Filter(Filter), FollowLinks(FollowLinks), Notices(Notices) {}

  /// Walks Dir (already stat'ed as St) into Found.
  void walk(const std::string &Dir, const struct stat &St,
            std::vector<std::string> &Found) {
    std::pair<dev_t, ino_t> Id{St.st_dev, St.st_ino};
    Walked.insert(Id);
    OnPath.push_back(Id);
    walkEntries(Dir, Found);
    OnPath.pop_back();
  }

private:
  void error(std::string Msg) {
    Notices.push_back({Severity::Error, std::move(Msg)});
  }
  void warning(std::string Msg) {
    Notices.push_back({Severity::Warning, std::move(Msg)});
  }

  void walkEntries(const std::string &Dir, std::vector<std::string> &Found) {
    DIR *D = opendir(Dir.c_str());
    if (!D) {
      error(ioError("read directory", Dir, errno));
      return;
    }
    std::vector<std::string> Names;
    for (;;) {
      errno = 0;
      struct dirent *E = readdir(D);
      if (!E) {
        if (errno)
          error(ioError("read directory", Dir, errno));
        break;
      }
      std::string Name = E->d_name;
      if (Name != "." && Name != "..")
        Names.push_back(std::move(Name));
    }
    closedir(D);
    std::sort(Names.begin(), Names.end());
    for (const std::string &Name : Names)
      entry(joinPath(Dir, Name), Name, Found);
  }

  void entry(const std::string &Path, const std::string &Name,
             std::vector<std::string> &Found) {
    bool Lintable = Filter.lintable(Name);
    struct stat St;
    if (lstat(Path.c_str(), &St) != 0) {
      // Gone since the listing; only a file we would have linted matters.
      if (Lintable)
        error(ioError("open", Path, errno));
      return;
    }
    bool Link = S_ISLNK(St.st_mode);
    if (Link && stat(Path.c_str(), &St) != 0) {
      // A dangling link or a link loop: reported only where it would
      // have been linted.
      if (Lintable)
        error(ioError("open", Path, errno));
      return;
    }
    if (S_ISDIR(St.st_mode)) {
      if (Name[0] == '.' || (Link && !FollowLinks))
        return; // hidden folders (.git); links to folders unless asked
      std::pair<dev_t, ino_t> Id{St.st_dev, St.st_ino};
      if (std::find(OnPath.begin(), OnPath.end(), Id) != OnPath.end()) {
        warning("skipping '" + Path +
                "': a link to a directory that contains it (a loop)");
        return;
      }
      if (!Walked.insert(Id).second)
        return; // reached before through another link: lint it once
      OnPath.push_back(Id);
      walkEntries(Path, Found);
      OnPath.pop_back();
      return;
    }
    if (!Lintable)
      return;
    if (!S_ISREG(St.st_mode)) {
      warning("skipping '" + Path + "': " + fileKind(St.st_mode) +
              ", not a regular file");
      return;
    }
    Found.push_back(Path);
  }

  const InputFilter &Filter;
  bool FollowLinks;
  std::vector<ToolNotice> &Notices;
  std::set<std::pair<dev_t, ino_t>> Walked; ///< every folder entered
  std::vector<std::pair<dev_t, ino_t>> OnPath; ///< folders being walked
};

int64_t mtimeNs(const struct stat &St) {
  return int64_t(St.st_mtim.tv_sec) * 1000000000 + St.st_mtim.tv_nsec;
}

/// read() that retries on EINTR; -1 on error.
ssize_t readSome(int FD, char *P, size_t N) {
  for (;;) {
    ssize_t R = ::read(FD, P, N);
    if (R >= 0 || errno != EINTR)
      return R;
  }
}

std::string tooLarge(const std::string &Path) {
  return "cannot read '" + Path +
         "': larger than 4 GiB; ptxlint reads at most 4 GiB per file";
}

/// Reads at most N bytes to Buf + Got and adds their count to Got (nothing
/// at end of file); false, with Error set, if read() fails.
bool readChunk(int FD, char *Buf, size_t N, size_t &Got, const std::string &Path,
               std::string &Error) {
  ssize_t R = readSome(FD, Buf + Got, N);
  if (R < 0) {
    Error = ioError("read", Path, errno);
    return false;
  }
  Got += size_t(R);
  return true;
}

/// A regular file: its size is known, so one allocation; a size that does
/// not match what read() delivers means the file changed under us.
bool readRegular(int FD, const std::string &Path, const struct stat &St,
                 InputText &Out, std::string &Error) {
  uint64_t Size = uint64_t(St.st_size);
  if (Size > MaxInputBytes) {
    Error = tooLarge(Path);
    return false;
  }
  std::shared_ptr<char[]> Data(new char[Size + 1]);
  adviseHugePages(Data.get(), Size);
  size_t Got = 0;
  for (size_t Before = ~size_t(0); Got < Size && Got != Before;) {
    Before = Got;
    if (!readChunk(FD, Data.get(), Size - Got, Got, Path, Error))
      return false;
  }
  char Extra;
  struct stat After;
  if (Got != Size || readSome(FD, &Extra, 1) != 0 || fstat(FD, &After) != 0 ||
      stampOf(After) != stampOf(St)) {
    Error = changedWhileRead(Path);
    return false;
  }
  Data[Size] = 0;
  Out.Data = std::move(Data);
  Out.Size = Size;
  Out.Stamp = stampOf(St);
  return true;
}

/// The mappings a SIGBUS may hit: a fixed table, so that the handler reads
/// it without locks (a slot is claimed by its Used flag, then published by
/// its Begin).
struct MapSlot {
  std::atomic<bool> Used{false};
  std::atomic<uintptr_t> Begin{0}, End{0};
  std::atomic<bool> Truncated{false};
};
MapSlot MapSlots[64];
uintptr_t PageBytes = 4096;
struct sigaction PreviousBus;

/// A read of a mapped input past the end of its file (truncated since it
/// was mapped): a page of zeros in place of the missing one, the input
/// marked, and the read goes on. Any other SIGBUS takes the action it had.
void onBus(int Sig, siginfo_t *Info, void *Context) {
  uintptr_t At = reinterpret_cast<uintptr_t>(Info->si_addr);
  if (Info->si_code > 0) // raised by a fault, not sent
    for (MapSlot &S : MapSlots) {
      uintptr_t B = S.Begin.load(std::memory_order_acquire);
      if (B && At >= B && At < S.End.load(std::memory_order_acquire)) {
        void *Page = reinterpret_cast<void *>(At & ~(PageBytes - 1));
        if (mmap(Page, PageBytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
                 -1, 0) == MAP_FAILED)
          break;
        S.Truncated.store(true, std::memory_order_release);
        return;
      }
    }
  if (PreviousBus.sa_flags & SA_SIGINFO) {
    if (PreviousBus.sa_sigaction) {
      PreviousBus.sa_sigaction(Sig, Info, Context);
      return;
    }
  } else if (PreviousBus.sa_handler != SIG_DFL && PreviousBus.sa_handler != SIG_IGN) {
    PreviousBus.sa_handler(Sig);
    return;
  }
  // The default action: restore it; the fault happens again and ends the
  // process as it would have (a sent signal is sent again).
  signal(SIGBUS, SIG_DFL);
  if (Info->si_code <= 0)
    raise(SIGBUS);
}

bool installBusHandler() {
  static bool Installed = [] {
    PageBytes = uintptr_t(sysconf(_SC_PAGESIZE));
    struct sigaction A = {};
    A.sa_sigaction = onBus;
    A.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&A.sa_mask);
    return sigaction(SIGBUS, &A, &PreviousBus) == 0;
  }();
  return Installed;
}

} // namespace

/// A mapped input: the mapping, its slot in MapSlots, and the open file
/// whose stamp tells later whether it was written.
class MappedFile {
public:
  MappedFile(int FD, char *Data, size_t Bytes, MapSlot &Slot, FileStamp Stamp)
      : FD(FD), Data(Data), Bytes(Bytes), Slot(Slot), Stamp(Stamp) {}
  ~MappedFile() {
    Slot.Begin.store(0, std::memory_order_release);
    munmap(Data, Bytes);
    Slot.Truncated.store(false);
    Slot.Used.store(false, std::memory_order_release);
    ::close(FD);
  }
  MappedFile(const MappedFile &) = delete;
  bool changed() const {
    struct stat St;
    return Slot.Truncated.load(std::memory_order_acquire) || fstat(FD, &St) != 0 ||
           stampOf(St) != Stamp;
  }

private:
  int FD;
  char *Data;
  size_t Bytes;
  MapSlot &Slot;
  FileStamp Stamp;
};

bool InputText::changedSinceRead() const { return Mapping && Mapping->changed(); }

std::string changedWhileRead(const std::string &Path) {
  return "'" + Path + "' changed while it was read; not linted";
}

namespace {

/// Maps a regular file of St's size, read-only, private. False (nothing
/// done, FD still open) where it cannot: then the caller reads it. A file
/// whose size is a multiple of the page size is read, as no byte of the
/// mapping would then follow the text to be its NUL.
bool mapRegular(int FD, const struct stat &St, InputText &Out) {
  if (!installBusHandler())
    return false;
  size_t Size = size_t(St.st_size);
  if (Size % PageBytes == 0)
    return false;
  MapSlot *Slot = nullptr;
  for (MapSlot &S : MapSlots) {
    bool Free = false;
    if (S.Used.compare_exchange_strong(Free, true)) {
      Slot = &S;
      break;
    }
  }
  if (!Slot)
    return false;
  void *P = mmap(nullptr, Size, PROT_READ, MAP_PRIVATE, FD, 0);
  if (P == MAP_FAILED) {
    Slot->Used.store(false);
    return false;
  }
  char *Data = static_cast<char *>(P);
  Slot->End.store(reinterpret_cast<uintptr_t>(Data) + Size, std::memory_order_release);
  Slot->Begin.store(reinterpret_cast<uintptr_t>(Data), std::memory_order_release);
  Out.Mapping = std::make_shared<MappedFile>(FD, Data, Size, *Slot, stampOf(St));
  // The rest of the last page reads as zeros: Data[Size] == 0.
  Out.Data = std::shared_ptr<char[]>(Out.Mapping, Data);
  Out.Size = Size;
  Out.Stamp = stampOf(St);
  return true;
}

/// Standard input, a pipe or a device: read until end of file, at most
/// MaxInputBytes. A NUL byte ends the read with an error: sources are text,
/// and a stream of binary data (/dev/zero never ends) would otherwise be
/// read to the cap, gigabytes of memory, only to be rejected. realloc grows
/// the buffer without copying (mremap) or zero-filling it.
bool readStream(int FD, const std::string &Path, InputText &Out,
                std::string &Error) {
  struct Freer {
    void operator()(char *P) const { std::free(P); }
  };
  std::unique_ptr<char, Freer> Buf;
  // One byte over the limit tells a stream at the limit from a longer one.
  const size_t Cap = size_t(MaxInputBytes) + 1;
  size_t Got = 0, Size = 0;
  for (;;) {
    if (Size - Got < 65536 && Size < Cap) {
      size_t NewSize = std::min(Cap, std::max<size_t>(Size * 2, 1 << 20));
      char *P = static_cast<char *>(std::realloc(Buf.get(), NewSize + 1));
      if (!P)
        throw std::bad_alloc();
      (void)Buf.release();
      Buf.reset(P);
      Size = NewSize;
    }
    size_t Before = Got;
    if (!readChunk(FD, Buf.get(), Size - Got, Got, Path, Error))
      return false;
    if (Got == Before)
      break; // end of file
    if (const void *Nul = std::memchr(Buf.get() + Before, 0, Got - Before)) {
      size_t At = size_t(static_cast<const char *>(Nul) - Buf.get());
      Error = "cannot read '" + Path + "': a NUL byte at offset " +
              std::to_string(At) +
              " (binary data); sources are text, not linted";
      return false;
    }
    if (Got > MaxInputBytes) {
      Error = tooLarge(Path);
      return false;
    }
  }
  Buf.get()[Got] = 0;
  Out.Size = Got;
  Out.Data = std::shared_ptr<char[]>(Buf.release(), Freer());
  Out.Stamp = FileStamp();
  return true;
}

} // namespace

bool InputFilter::lintable(std::string_view FileName) const {
  std::optional<SourceLanguage> Kind = languageOfPath(FileName, CudaExtensions);
  return Kind && (!Lang || *Kind == *Lang);
}

std::string InputFilter::patterns() const {
  std::vector<std::string> Exts;
  if (!Lang || *Lang == SourceLanguage::Ptx)
    Exts.push_back(".ptx");
  if (!Lang || *Lang == SourceLanguage::Cuda) {
    const std::vector<std::string> &C =
        CudaExtensions ? *CudaExtensions : defaultCudaExtensions();
    Exts.insert(Exts.end(), C.begin(), C.end());
  }
  std::string S;
  for (const std::string &X : Exts)
    S += (S.empty() ? "*" : ", *") + X;
  return S;
}

std::vector<std::string> expandInputs(const std::vector<std::string> &Inputs,
                                      const InputFilter &Filter,
                                      bool FollowLinks,
                                      std::vector<ToolNotice> &Notices) {
  std::vector<std::string> Files;
  Walker W(Filter, FollowLinks, Notices);
  for (const std::string &In : Inputs) {
    struct stat St;
    // A named input is taken as given (a link to a file or folder is
    // followed); one that cannot be stat'ed fails when it is opened.
    if (In == "-" || stat(In.c_str(), &St) != 0 || !S_ISDIR(St.st_mode)) {
      Files.push_back(In);
      continue;
    }
    std::vector<std::string> Found;
    W.walk(In, St, Found);
    if (Found.empty())
      Notices.push_back({Severity::Warning, "no files to lint (" +
                                                Filter.patterns() + ") in '" + In +
                                                "'"});
    std::sort(Found.begin(), Found.end());
    Files.insert(Files.end(), Found.begin(), Found.end());
  }
  return Files;
}

bool readInput(const std::string &Path, InputText &Out, std::string &Error,
               bool Map) {
  bool Stdin = Path == "-";
  int FD = Stdin ? 0 : ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (FD < 0) {
    Error = ioError("open", Path, errno);
    return false;
  }
  struct stat St;
  bool Ok = false;
  if (fstat(FD, &St) != 0)
    Error = ioError("open", Path, errno);
  else if (S_ISDIR(St.st_mode))
    Error = ioError("open", Path, EISDIR);
  else if (S_ISREG(St.st_mode) && !Stdin && Map &&
           uint64_t(St.st_size) >= MapInputBytes &&
           uint64_t(St.st_size) <= MaxInputBytes && mapRegular(FD, St, Out))
    return true; // the mapping keeps FD
  else if (S_ISREG(St.st_mode) && !Stdin)
    Ok = readRegular(FD, Path, St, Out, Error);
  else
    Ok = readStream(FD, Stdin ? "<stdin>" : Path, Out, Error);
  if (!Stdin)
    ::close(FD);
  return Ok;
}

FileStamp stampOf(const struct stat &St) {
  FileStamp S;
  S.Device = uint64_t(St.st_dev);
  S.Inode = uint64_t(St.st_ino);
  S.Size = uint64_t(St.st_size);
  S.MtimeNs = mtimeNs(St);
  S.Regular = S_ISREG(St.st_mode);
  return S;
}

} // namespace ptxlint
