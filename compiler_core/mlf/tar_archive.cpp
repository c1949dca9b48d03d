#include "mlf/tar_archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <set>

namespace loupe::mlf {

namespace {

namespace fs = std::filesystem;

// Owner recorded for every entry, as TVM's own MLF export does.
constexpr const char* kOwnerName = "root";

struct ArchiveReadFree {
  void operator()(archive* handle) const { archive_read_free(handle); }
};
struct ArchiveWriteFree {
  void operator()(archive* handle) const { archive_write_free(handle); }
};
struct ArchiveEntryFree {
  void operator()(archive_entry* entry) const { archive_entry_free(entry); }
};
using ReadHandle = std::unique_ptr<archive, ArchiveReadFree>;
using WriteHandle = std::unique_ptr<archive, ArchiveWriteFree>;
using EntryHandle = std::unique_ptr<archive_entry, ArchiveEntryFree>;

[[noreturn]] void fail(const fs::path& file, const std::string& what) {
  throw ArchiveError(file.string() + ": " + what);
}

std::string libarchiveMessage(archive* handle) {
  const char* message = archive_error_string(handle);
  return message != nullptr ? message : "unknown libarchive error";
}

[[noreturn]] void failWithLibarchive(const fs::path& file, const std::string& what,
                                     archive* handle) {
  fail(file, what + ": " + libarchiveMessage(handle));
}

// Every folder that contains `path`, outermost first: "a/b/c" -> "a", "a/b".
std::vector<std::string> parentFolders(const std::string& path) {
  std::vector<std::string> folders;
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    folders.push_back(path.substr(0, slash));
  }
  return folders;
}

// One header of the archive to write: a folder when `file` is null.
struct PlannedItem {
  std::string path;
  const ArchiveEntry* file = nullptr;
};

// Validates the entries and lists them with their parent folders so that a
// folder comes right before its contents: sorting by path with a '/' after
// folder names makes every folder a prefix of, hence sorted before, its
// contents.
std::vector<PlannedItem> planArchive(const fs::path& file,
                                     const std::vector<ArchiveEntry>& entries) {
  std::map<std::string, const ArchiveEntry*> files;
  std::set<std::string> folders;
  for (const ArchiveEntry& entry : entries) {
    if (auto problem = archivePathProblem(entry.path)) {
      fail(file, "invalid entry path '" + entry.path + "': " + *problem);
    }
    if (!files.emplace(entry.path, &entry).second) {
      fail(file, "duplicate entry '" + entry.path + "'");
    }
    for (std::string& folder : parentFolders(entry.path)) folders.insert(std::move(folder));
  }
  std::map<std::string, PlannedItem> byKey;
  for (const std::string& folder : folders) {
    if (files.contains(folder)) fail(file, "'" + folder + "' is both a file and a folder");
    byKey.emplace(folder + "/", PlannedItem{folder, nullptr});
  }
  for (const auto& [path, entry] : files) byKey.emplace(path, PlannedItem{path, entry});
  std::vector<PlannedItem> items;
  items.reserve(byKey.size());
  for (auto& [key, item] : byKey) items.push_back(std::move(item));
  return items;
}

// Hands libarchive's output to the (temporary) file as it comes.
struct FileOutput {
  int descriptor = -1;
};

la_ssize_t writeToFile(archive* handle, void* clientData, const void* buffer, size_t length) {
  const int descriptor = static_cast<FileOutput*>(clientData)->descriptor;
  const auto* bytes = static_cast<const std::uint8_t*>(buffer);
  std::size_t written = 0;
  while (written < length) {
    const ssize_t n = ::write(descriptor, bytes + written, length - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : EIO;
      archive_set_error(handle, error, "%s", std::strerror(error));
      return -1;
    }
    written += static_cast<std::size_t>(n);
  }
  return static_cast<la_ssize_t>(length);
}

void writeData(const fs::path& file, archive* handle, const std::string& path, const void* bytes,
               std::size_t size) {
  const auto* data = static_cast<const std::uint8_t*>(bytes);
  std::size_t written = 0;
  while (written < size) {
    const la_ssize_t n = archive_write_data(handle, data + written, size - written);
    if (n <= 0) failWithLibarchive(file, "cannot write the contents of '" + path + "'", handle);
    written += static_cast<std::size_t>(n);
  }
}

// The size of streamed contents: what one run of its writer hands over.
std::uint64_t streamedSize(const StreamedContents& contents) {
  std::uint64_t size = 0;
  contents.write([&size](std::string_view piece) { size += piece.size(); });
  return size;
}

// The tar written into `descriptor` as libarchive produces it, so that the
// archive (a large model's is hundreds of megabytes) is never held in memory;
// a failure leaves only the temporary file, which the caller discards.
void buildTar(const fs::path& file, const std::vector<PlannedItem>& items,
              std::int64_t modificationTime, int descriptor) {
  FileOutput output{descriptor};
  WriteHandle handle(archive_write_new());
  if (!handle) fail(file, "cannot create a libarchive writer");
  if (archive_write_set_format_pax_restricted(handle.get()) != ARCHIVE_OK ||
      archive_write_add_filter_none(handle.get()) != ARCHIVE_OK) {
    failWithLibarchive(file, "cannot set up the tar writer", handle.get());
  }
  // A client writer (not archive_write_open_fd, which leaves the last block
  // short on a regular file): the archive's bytes are the same wherever they go.
  if (archive_write_open2(handle.get(), &output, nullptr, writeToFile, nullptr, nullptr) !=
      ARCHIVE_OK) {
    failWithLibarchive(file, "cannot start the archive", handle.get());
  }
  for (const PlannedItem& item : items) {
    EntryHandle entry(archive_entry_new());
    if (!entry) fail(file, "out of memory");
    archive_entry_set_pathname(entry.get(), item.path.c_str());
    std::uint64_t size = 0;
    if (item.file != nullptr) {
      size = item.file->streamed ? streamedSize(*item.file->streamed) : item.file->bytes.size();
      archive_entry_set_filetype(entry.get(), AE_IFREG);
      archive_entry_set_perm(entry.get(), item.file->executable ? 0755 : 0644);
      archive_entry_set_size(entry.get(), static_cast<la_int64_t>(size));
    } else {
      archive_entry_set_filetype(entry.get(), AE_IFDIR);
      archive_entry_set_perm(entry.get(), 0755);
      archive_entry_set_size(entry.get(), 0);
    }
    archive_entry_set_mtime(entry.get(), static_cast<time_t>(modificationTime), 0);
    archive_entry_set_uid(entry.get(), 0);
    archive_entry_set_gid(entry.get(), 0);
    archive_entry_set_uname(entry.get(), kOwnerName);
    archive_entry_set_gname(entry.get(), kOwnerName);
    if (archive_write_header(handle.get(), entry.get()) != ARCHIVE_OK) {
      failWithLibarchive(file, "cannot write the header of '" + item.path + "'", handle.get());
    }
    if (item.file != nullptr && item.file->streamed) {
      std::uint64_t written = 0;
      item.file->streamed->write([&](std::string_view piece) {
        // libarchive would pad or cut the file to its header's size: contents
        // that differ from their measurement are a bug, not an archive.
        if (piece.size() > size - written) {
          fail(file, "'" + item.path + "' grew while it was written");
        }
        writeData(file, handle.get(), item.path, piece.data(), piece.size());
        written += piece.size();
      });
      if (written != size) fail(file, "'" + item.path + "' shrank while it was written");
    } else if (item.file != nullptr) {
      writeData(file, handle.get(), item.path, item.file->bytes.data(), item.file->bytes.size());
    }
    if (archive_write_finish_entry(handle.get()) != ARCHIVE_OK) {
      failWithLibarchive(file, "cannot finish '" + item.path + "'", handle.get());
    }
  }
  if (archive_write_close(handle.get()) != ARCHIVE_OK) {
    failWithLibarchive(file, "cannot finish the archive", handle.get());
  }
}

// Writes the whole contents into a descriptor.
using WriteContents = std::function<void(int descriptor)>;

// Removes the temporary file unless it was renamed into place.
class TemporaryFile {
 public:
  TemporaryFile(fs::path path, int descriptor) : path_(std::move(path)), descriptor_(descriptor) {}
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    if (descriptor_ >= 0) ::close(descriptor_);
    if (!committed_) ::unlink(path_.c_str());
  }

  int descriptor() const { return descriptor_; }
  const fs::path& path() const { return path_; }
  // Closes the descriptor; returns errno of a failed close, or 0.
  int close() {
    const int result = ::close(descriptor_);
    descriptor_ = -1;
    return result == 0 ? 0 : errno;
  }
  void commit() { committed_ = true; }

 private:
  fs::path path_;
  int descriptor_;
  bool committed_ = false;
};

const char* fileTypeName(mode_t type);

// A new file in `folder`, hidden and named after `file` and this process;
// opened with O_EXCL so it is never someone else's file, and mode 0666 so the
// umask decides the final permissions as for any other file.
TemporaryFile createTemporaryBeside(const fs::path& file, const fs::path& folder) {
  static std::atomic<unsigned> counter{0};
  const std::string stem = "." + file.filename().string() + ".tmp-" + std::to_string(::getpid());
  for (int attempt = 0; attempt < 100; ++attempt) {
    fs::path candidate = folder / (stem + "-" + std::to_string(counter++));
    const int descriptor = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (descriptor >= 0) return TemporaryFile(std::move(candidate), descriptor);
    if (errno != EEXIST) {
      fail(file,
           "cannot create a temporary file in '" + folder.string() + "': " + std::strerror(errno));
    }
  }
  fail(file, "cannot create a temporary file in '" + folder.string() + "': all names taken");
}

// Where the archive really goes: a symbolic link is followed to the file it
// names (the link stays a link), and what is not a regular file (a device,
// a FIFO, a folder) is refused, where the final rename would replace it.
fs::path resolveTarget(const fs::path& file) {
  fs::path target = file;
  for (int links = 0;; ++links) {
    struct stat info {};
    if (::lstat(target.c_str(), &info) != 0) {
      if (errno == ENOENT) return target;  // a new file, or a dangling link's target
      fail(file, std::string("cannot inspect the output: ") + std::strerror(errno));
    }
    if (S_ISREG(info.st_mode)) return target;
    if (!S_ISLNK(info.st_mode)) {
      const std::string what =
          S_ISDIR(info.st_mode) ? "a folder" : fileTypeName(info.st_mode & S_IFMT);
      fail(file, "is " + what + ", not a regular file; refusing to replace it with the archive");
    }
    if (links == 40) fail(file, "too many levels of symbolic links");
    const fs::path link = fs::read_symlink(target);
    target = link.is_absolute() ? link : target.parent_path() / link;
  }
}

// The contents, then on disk before they replace the old file, so a crash
// leaves one or the other.
void writeAll(const fs::path& file, int descriptor, const WriteContents& write) {
  write(descriptor);
  if (::fsync(descriptor) != 0) fail(file, std::string("cannot write: ") + std::strerror(errno));
}

void renameIntoPlace(const fs::path& file, TemporaryFile& temporary, const fs::path& target) {
  if (const int error = temporary.close(); error != 0) {
    fail(file, std::string("cannot write: ") + std::strerror(error));
  }
  if (::rename(temporary.path().c_str(), target.c_str()) != 0) {
    fail(file, std::string("cannot replace the file: ") + std::strerror(errno));
  }
  temporary.commit();
}

// The bytes go into an unnamed file (O_TMPFILE) in the target's folder, which
// gets its temporary name only for the instant before the rename: no
// interruption, SIGKILL or a power cut included, leaves a full-size
// temporary file. False when the file system has no O_TMPFILE or /proc is
// missing; the target is untouched then (without /proc, what was written
// vanishes with the unnamed file).
bool writeThroughUnnamedFile(const fs::path& file, const fs::path& target, const fs::path& folder,
                             const WriteContents& write) {
  const int descriptor = ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  if (descriptor < 0) {
    if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL) return false;
    fail(file,
         "cannot create a temporary file in '" + folder.string() + "': " + std::strerror(errno));
  }
  struct Closer {
    int descriptor;
    ~Closer() {
      if (descriptor >= 0) ::close(descriptor);
    }
  } closer{descriptor};
  writeAll(file, descriptor, write);
  static std::atomic<unsigned> counter{0};
  const std::string self = "/proc/self/fd/" + std::to_string(descriptor);
  const std::string stem = "." + file.filename().string() + ".tmp-" + std::to_string(::getpid());
  for (int attempt = 0; attempt < 100; ++attempt) {
    fs::path candidate = folder / (stem + "-" + std::to_string(counter++));
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, candidate.c_str(), AT_SYMLINK_FOLLOW) == 0) {
      TemporaryFile temporary(std::move(candidate), closer.descriptor);
      closer.descriptor = -1;
      renameIntoPlace(file, temporary, target);
      return true;
    }
    if (errno == ENOENT) return false;  // no /proc
    if (errno != EEXIST) {
      fail(file,
           "cannot name the temporary file in '" + folder.string() + "': " + std::strerror(errno));
    }
  }
  fail(file, "cannot create a temporary file in '" + folder.string() + "': all names taken");
}

fs::path folderOf(const fs::path& target) {
  return target.has_parent_path() ? target.parent_path() : fs::path(".");
}

// `write` may run twice: when the unnamed file cannot be named (no /proc),
// the contents are written again into a named temporary file.
void writeFileAtomically(const fs::path& file, const WriteContents& write) {
  if (!file.has_filename()) fail(file, "not a file name");
  const fs::path target = resolveTarget(file);
  const fs::path folder = folderOf(target);
  if (writeThroughUnnamedFile(file, target, folder, write)) return;
  TemporaryFile temporary = createTemporaryBeside(file, folder);
  writeAll(file, temporary.descriptor(), write);
  renameIntoPlace(file, temporary, target);
}

const char* fileTypeName(mode_t type) {
  switch (type) {
    case AE_IFLNK:
      return "a symbolic link";
    case AE_IFCHR:
      return "a character device";
    case AE_IFBLK:
      return "a block device";
    case AE_IFIFO:
      return "a FIFO";
    case AE_IFSOCK:
      return "a socket";
    default:
      return "not a regular file or folder";
  }
}

// "./a//b/" -> "a/b"; nullopt for an absolute path or a ".." component, which
// the caller reports with the path as stored.
std::optional<std::string> normalisedMemberPath(std::string_view stored, std::string& problem) {
  if (stored.starts_with('/')) {
    problem = "absolute path";
    return std::nullopt;
  }
  std::string normalised;
  std::size_t begin = 0;
  while (begin <= stored.size()) {
    std::size_t end = stored.find('/', begin);
    if (end == std::string_view::npos) end = stored.size();
    const std::string_view component = stored.substr(begin, end - begin);
    if (component == "..") {
      problem = "'..' component (leaves the archive)";
      return std::nullopt;
    }
    if (!component.empty() && component != ".") {
      if (!normalised.empty()) normalised += '/';
      normalised += component;
    }
    begin = end + 1;
  }
  return normalised;
}

}  // namespace

std::optional<std::string> archivePathProblem(std::string_view path) {
  if (path.empty()) return "empty path";
  if (path.front() == '/') return "absolute path";
  if (path.back() == '/') return "ends with '/'";
  for (const char c : path) {
    if (c == '\\') return "contains a backslash";
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return "contains a control character";
  }
  std::size_t begin = 0;
  while (begin <= path.size()) {
    std::size_t end = path.find('/', begin);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view component = path.substr(begin, end - begin);
    if (component.empty()) return "empty component ('//')";
    if (component == ".") return "'.' component";
    if (component == "..") return "'..' component (leaves the archive)";
    begin = end + 1;
  }
  return std::nullopt;
}

void writeTarArchive(const fs::path& file, const std::vector<ArchiveEntry>& entries,
                     std::int64_t modificationTime) {
  if (modificationTime < 0) {
    fail(file, "modification time " + std::to_string(modificationTime) + " is before 1970");
  }
  const std::vector<PlannedItem> items = planArchive(file, entries);
  writeFileAtomically(file,
                      [&](int descriptor) { buildTar(file, items, modificationTime, descriptor); });
}

void writeFileAtomically(const fs::path& file, std::span<const std::uint8_t> bytes) {
  writeFileAtomically(file, [&](int descriptor) {
    std::size_t written = 0;
    while (written < bytes.size()) {
      const ssize_t n = ::write(descriptor, bytes.data() + written, bytes.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail(file, std::string("cannot write: ") + std::strerror(n < 0 ? errno : EIO));
      written += static_cast<std::size_t>(n);
    }
  });
}

void checkArchiveTarget(const fs::path& file) {
  if (!file.has_filename()) fail(file, "not a file name");
  const fs::path folder = folderOf(resolveTarget(file));
  struct stat info {};
  if (::stat(folder.c_str(), &info) != 0) {
    fail(file, "cannot write into '" + folder.string() + "': " + std::strerror(errno));
  }
  if (!S_ISDIR(info.st_mode)) {
    fail(file, "cannot write into '" + folder.string() + "': " + std::strerror(ENOTDIR));
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    fail(file, "cannot write into '" + folder.string() + "': " + std::strerror(errno));
  }
}

std::vector<ArchiveEntry> readTarArchive(const fs::path& file, std::uint64_t maxTotalBytes) {
  ReadHandle handle(archive_read_new());
  if (!handle) fail(file, "cannot create a libarchive reader");
  if (archive_read_support_format_tar(handle.get()) != ARCHIVE_OK ||
      archive_read_support_filter_none(handle.get()) != ARCHIVE_OK) {
    failWithLibarchive(file, "cannot set up the tar reader", handle.get());
  }
  if (archive_read_open_filename(handle.get(), file.c_str(), 64 * 1024) != ARCHIVE_OK) {
    failWithLibarchive(file, "cannot open", handle.get());
  }

  std::vector<ArchiveEntry> entries;
  std::set<std::string> files;
  std::set<std::string> folders;
  std::uint64_t totalBytes = 0;
  for (;;) {
    archive_entry* entry = nullptr;
    const int status = archive_read_next_header(handle.get(), &entry);
    if (status == ARCHIVE_EOF) break;
    // Warnings too: they mean a malformed header, and the input is untrusted.
    if (status != ARCHIVE_OK) failWithLibarchive(file, "not a valid tar archive", handle.get());

    const char* storedPath = archive_entry_pathname(entry);
    if (storedPath == nullptr) fail(file, "an entry has no readable path");
    const std::string stored(storedPath);
    const auto entryFail = [&](const std::string& what) {
      fail(file, "entry '" + stored + "': " + what);
    };

    std::string problem;
    const std::optional<std::string> path = normalisedMemberPath(stored, problem);
    if (!path) entryFail(problem);
    if (const char* target = archive_entry_hardlink(entry)) {
      entryFail(std::string("a hard link (to '") + target + "')");
    }
    const mode_t type = archive_entry_filetype(entry);
    if (type == AE_IFLNK) {
      const char* target = archive_entry_symlink(entry);
      entryFail(std::string("a symbolic link (to '") + (target ? target : "") + "')");
    }
    if (type != AE_IFREG && type != AE_IFDIR) entryFail(fileTypeName(type));
    if (path->empty()) {
      if (type == AE_IFDIR) continue;  // "./", the archive's root
      entryFail("a file without a name");
    }
    if (auto pathProblem = archivePathProblem(*path)) entryFail(*pathProblem);

    for (std::string& folder : parentFolders(*path)) folders.insert(std::move(folder));
    if (type == AE_IFDIR) {
      folders.insert(*path);
      continue;
    }
    if (!files.insert(*path).second) entryFail("duplicate path '" + *path + "'");

    const la_int64_t declared = archive_entry_size(entry);
    if (declared < 0) entryFail("negative size");
    const auto size = static_cast<std::uint64_t>(declared);
    if (size > maxTotalBytes || totalBytes > maxTotalBytes - size) {
      entryFail("the archive holds more than " + std::to_string(maxTotalBytes) +
                " bytes of files, the limit");
    }
    totalBytes += size;

    std::vector<std::uint8_t> bytes(size);
    std::size_t offset = 0;
    while (offset < bytes.size()) {
      const la_ssize_t n =
          archive_read_data(handle.get(), bytes.data() + offset, bytes.size() - offset);
      if (n < 0) failWithLibarchive(file, "cannot read '" + stored + "'", handle.get());
      if (n == 0) entryFail("truncated");
      offset += static_cast<std::size_t>(n);
    }
    entries.push_back(
        ArchiveEntry{*path, std::move(bytes), (archive_entry_perm(entry) & 0100) != 0, nullptr});
  }
  for (const std::string& folder : folders) {
    if (files.contains(folder)) fail(file, "'" + folder + "' is both a file and a folder");
  }
  if (archive_read_close(handle.get()) != ARCHIVE_OK) {
    failWithLibarchive(file, "cannot close", handle.get());
  }
  return entries;
}

}  // namespace loupe::mlf
