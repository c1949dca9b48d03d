// Tar archives as Loupe writes and reads them: the container of Model Library
// Format. Writing is deterministic (the same entries always give the same
// bytes: fixed time stamp, owner root, modes 0644/0755, entries and their
// parent folders in sorted order) and atomic (an unnamed file beside the
// target, named and renamed into place only when complete, so that no
// interruption leaves it behind). The target may be a symbolic link (the
// file it names is replaced) but not a device, FIFO or folder. Reading treats the archive
// as untrusted: only regular files and folders, plain relative paths, and a
// limit on the total size.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ir/constant_bytes.h"

namespace loupe::mlf {

// Any failure to write or read an archive; the message names the file and,
// when libarchive reported the problem, its message.
class ArchiveError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Receives a file's contents piece by piece.
using ArchiveSink = std::function<void(std::string_view piece)>;

// Contents produced while the archive is written rather than held before: a
// large generated file (a model's weights as C text) is then never whole in
// memory. `write` hands the same bytes to the sink every time it is called:
// it is called once to measure the file for its header, then to write it.
struct StreamedContents {
  std::function<void(const ArchiveSink& sink)> write;
};

// One regular file of an archive. Folders are implied by the paths.
struct ArchiveEntry {
  std::string path;  // plain relative path with '/' separators, e.g. "codegen/host/src/lib0.c"
  // Shared, not copied, with whoever else holds them (a model's constants).
  ir::ConstantBytes bytes;
  bool executable = false;  // mode 0755 instead of 0644
  // When set, the contents are what it writes and `bytes` is not used.
  std::shared_ptr<const StreamedContents> streamed;

  bool operator==(const ArchiveEntry&) const = default;
};

// Why `path` is not a plain relative path (empty, absolute, a "", "." or ".."
// component, a trailing '/', a backslash or a control character), or nullopt
// when it is one.
std::optional<std::string> archivePathProblem(std::string_view path);

// Writes `entries` as a POSIX tar (pax restricted: ustar headers unless a path
// needs a pax extension), straight into the temporary file that then replaces
// `file`: the archive is never held in memory. Every entry and folder gets `modificationTime`
// (seconds since the epoch, >= 0), uid/gid 0 and owner "root". Throws
// ArchiveError for an invalid or duplicate path, a path that is both a file
// and a folder, a target that is not a regular file (or a link to one or to
// nothing), or an I/O failure; the target is then left as it was.
void writeTarArchive(const std::filesystem::path& file, const std::vector<ArchiveEntry>& entries,
                     std::int64_t modificationTime = 0);

// Writes `bytes` as `file` the way writeTarArchive writes an archive: into a
// temporary file beside it that replaces it only when complete (another
// format's output, the .tflite of loupec compile --format tflite). Throws
// ArchiveError as writeTarArchive does.
void writeFileAtomically(const std::filesystem::path& file, std::span<const std::uint8_t> bytes);

// Throws the ArchiveError writeTarArchive would throw for `file` itself (not
// a regular file or a link to one, its folder missing or not writable, with
// the system's reason), so that a caller can check before long work.
void checkArchiveTarget(const std::filesystem::path& file);

inline constexpr std::uint64_t kDefaultTarReadLimit = 512ull * 1024 * 1024;

// The regular files of an uncompressed tar, in archive order, with paths
// normalised ("./a/b" -> "a/b"). Folder entries are checked and skipped.
// Throws ArchiveError for anything but a well-formed tar of regular files and
// folders: absolute paths, ".." components, links, devices, duplicate paths,
// or more than `maxTotalBytes` of file contents.
std::vector<ArchiveEntry> readTarArchive(const std::filesystem::path& file,
                                         std::uint64_t maxTotalBytes = kDefaultTarReadLimit);

}  // namespace loupe::mlf
