// The tar container of Model Library Format: what is written reads back
// unchanged, the same entries always give the same bytes, a failed write never
// leaves a partial archive or harms an existing one, and reading refuses every
// archive that could escape its folder or exhaust memory.
#include <QtTest>

#include <archive.h>
#include <archive_entry.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include "mlf/tar_archive.h"
#include "test_data.h"

namespace fs = std::filesystem;
using loupe::mlf::ArchiveEntry;
using loupe::mlf::ArchiveError;
using loupe::mlf::readTarArchive;
using loupe::mlf::writeTarArchive;
using loupe::test::readBytes;

namespace {

std::vector<std::uint8_t> bytesOf(std::string_view text) {
  return std::vector<std::uint8_t>(text.begin(), text.end());
}

std::vector<ArchiveEntry> sampleEntries() {
  std::vector<std::uint8_t> everyByte(256 * 3);
  for (std::size_t i = 0; i < everyByte.size(); ++i) everyByte[i] = static_cast<std::uint8_t>(i);
  return {
      {"metadata.json", bytesOf("{\"version\": 7}\n"), false},
      {"codegen/host/src/lib0.c", bytesOf("int f(void) { return 0; }\n"), false},
      {"codegen/host/include/tvmgen_default.h", bytesOf("#pragma once\n"), false},
      {"parameters/default.params", everyByte, false},
      {"parameters/empty.bin", {}, false},
      {"tools/build.sh", bytesOf("#!/bin/sh\ncc *.c\n"), true},
      // A file name longer than ustar's 100-character name field: needs a pax
      // extended header (whose own name must not vary either).
      {"runtime/include/crt_config_with_a_name_that_is_longer_than_one_hundred_characters_"
       "so_that_ustar_cannot_hold_it.h",
       bytesOf("#define X 1\n"), false},
  };
}

QString describe(const std::vector<ArchiveEntry>& entries) {
  QStringList lines;
  for (const ArchiveEntry& entry : entries) {
    lines << QStringLiteral("%1 (%2 bytes%3)")
                 .arg(QString::fromStdString(entry.path))
                 .arg(entry.bytes.size())
                 .arg(entry.executable ? ", executable" : "");
  }
  return lines.join(QStringLiteral("; "));
}

std::vector<ArchiveEntry> sortedByPath(std::vector<ArchiveEntry> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const ArchiveEntry& a, const ArchiveEntry& b) { return a.path < b.path; });
  return entries;
}

// The file names in `folder`, to show that nothing was left behind.
QStringList filesIn(const fs::path& folder) {
  QStringList names;
  for (const auto& item : fs::directory_iterator(folder)) {
    names << QString::fromStdString(item.path().filename().string());
  }
  names.sort();
  return names;
}

// A member of a hand-made archive, as an attacker could write it.
struct RawMember {
  std::string path;
  unsigned type = AE_IFREG;
  std::string contents;
  std::string symlinkTarget;
  std::string hardlinkTarget;
};

RawMember fileMember(std::string path, std::string contents) {
  return {std::move(path), AE_IFREG, std::move(contents), "", ""};
}
RawMember folderMember(std::string path) {
  return {std::move(path), AE_IFDIR, "", "", ""};
}
// A device, FIFO or socket.
RawMember specialMember(std::string path, unsigned type) {
  return {std::move(path), type, "", "", ""};
}
RawMember symlinkMember(std::string path, std::string target) {
  return {std::move(path), AE_IFLNK, "", std::move(target), ""};
}
RawMember hardlinkMember(std::string path, std::string target) {
  return {std::move(path), AE_IFREG, "", "", std::move(target)};
}

struct WriteFree {
  void operator()(archive* handle) const { archive_write_free(handle); }
};
struct ReadFree {
  void operator()(archive* handle) const { archive_read_free(handle); }
};

// Writes `members` with libarchive directly, bypassing every check of
// writeTarArchive.
void writeRawTar(const fs::path& file, const std::vector<RawMember>& members) {
  std::unique_ptr<archive, WriteFree> handle(archive_write_new());
  QVERIFY(archive_write_set_format_pax_restricted(handle.get()) == ARCHIVE_OK);
  QVERIFY(archive_write_open_filename(handle.get(), file.c_str()) == ARCHIVE_OK);
  for (const RawMember& member : members) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, member.path.c_str());
    archive_entry_set_filetype(entry, member.type);
    archive_entry_set_perm(entry, 0644);
    archive_entry_set_size(entry, static_cast<la_int64_t>(member.contents.size()));
    if (!member.symlinkTarget.empty())
      archive_entry_set_symlink(entry, member.symlinkTarget.c_str());
    if (!member.hardlinkTarget.empty()) {
      archive_entry_set_hardlink(entry, member.hardlinkTarget.c_str());
      archive_entry_set_size(entry, 0);
    }
    if (member.type == AE_IFCHR) archive_entry_set_rdev(entry, 0x0103);
    QVERIFY2(archive_write_header(handle.get(), entry) == ARCHIVE_OK,
             archive_error_string(handle.get()));
    if (!member.contents.empty()) {
      archive_write_data(handle.get(), member.contents.data(), member.contents.size());
    }
    archive_entry_free(entry);
  }
  QVERIFY(archive_write_close(handle.get()) == ARCHIVE_OK);
}

// Every header of a tar as stored, folders included.
struct RawHeader {
  std::string path;
  unsigned type;
  unsigned perm;
  std::int64_t mtime, uid, gid, size;
  std::string uname, gname;
};

std::vector<RawHeader> rawHeaders(const fs::path& file) {
  std::vector<RawHeader> headers;
  std::unique_ptr<archive, ReadFree> handle(archive_read_new());
  archive_read_support_format_tar(handle.get());
  if (archive_read_open_filename(handle.get(), file.c_str(), 10240) != ARCHIVE_OK) return headers;
  archive_entry* entry = nullptr;
  while (archive_read_next_header(handle.get(), &entry) == ARCHIVE_OK) {
    headers.push_back(
        {archive_entry_pathname(entry), archive_entry_filetype(entry), archive_entry_perm(entry),
         archive_entry_mtime(entry), archive_entry_uid(entry), archive_entry_gid(entry),
         archive_entry_size(entry), archive_entry_uname(entry) ? archive_entry_uname(entry) : "",
         archive_entry_gname(entry) ? archive_entry_gname(entry) : ""});
  }
  return headers;
}

// readTarArchive's ArchiveError message, or "<no error>".
QString readErrorOf(const fs::path& file, std::uint64_t limit = loupe::mlf::kDefaultTarReadLimit) {
  try {
    readTarArchive(file, limit);
  } catch (const ArchiveError& error) {
    return QString::fromStdString(error.what());
  }
  return QStringLiteral("<no error>");
}

QString writeErrorOf(const fs::path& file, const std::vector<ArchiveEntry>& entries) {
  try {
    writeTarArchive(file, entries);
  } catch (const ArchiveError& error) {
    return QString::fromStdString(error.what());
  }
  return QStringLiteral("<no error>");
}

#define EXPECT_MESSAGE(message, fragment)                \
  QVERIFY2((message).contains(QStringLiteral(fragment)), \
           qPrintable(QStringLiteral("expected \"%1\" in: %2").arg(fragment, message)))

}  // namespace

class TarArchive : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  fs::path path(const char* name) const { return fs::path(dir_.path().toStdString()) / name; }

 private slots:
  void roundTripKeepsEveryByteAndTheExecutableFlag() {
    const auto entries = sampleEntries();
    writeTarArchive(path("round.tar"), entries);
    const auto read = readTarArchive(path("round.tar"));
    QVERIFY2(read == sortedByPath(entries), qPrintable(describe(read)));
  }

  void emptyArchiveRoundTrips() {
    writeTarArchive(path("empty.tar"), {});
    QVERIFY(readTarArchive(path("empty.tar")).empty());
  }

  void headersAreNormalisedAndFoldersPrecedeTheirFiles() {
    writeTarArchive(path("headers.tar"), {{"b/z.txt", bytesOf("z"), false},
                                          {"a.txt", bytesOf("a"), false},
                                          {"b/c/run.sh", bytesOf("run"), true}});
    const auto headers = rawHeaders(path("headers.tar"));
    QStringList paths;
    for (const RawHeader& header : headers) paths << QString::fromStdString(header.path);
    QCOMPARE(paths, (QStringList{"a.txt", "b/", "b/c/", "b/c/run.sh", "b/z.txt"}));
    for (const RawHeader& header : headers) {
      const bool folder = header.type == AE_IFDIR;
      const bool executable = folder || header.path == "b/c/run.sh";
      QCOMPARE(header.perm, executable ? 0755u : 0644u);
      QCOMPARE(header.mtime, std::int64_t{0});
      QCOMPARE(header.uid, std::int64_t{0});
      QCOMPARE(header.gid, std::int64_t{0});
      QCOMPARE(header.uname, std::string("root"));
      QCOMPARE(header.gname, std::string("root"));
    }
  }

  void twoWritesOfTheSameEntriesAreByteIdentical() {
    auto entries = sampleEntries();
    writeTarArchive(path("first.tar"), entries);
    std::reverse(entries.begin(), entries.end());
    writeTarArchive(path("second.tar"), entries);
    const auto first = readBytes(path("first.tar"));
    QVERIFY(!first.empty());
    QVERIFY(first == readBytes(path("second.tar")));
  }

  void aGivenModificationTimeIsUsedForEveryHeader() {
    writeTarArchive(path("dated.tar"), {{"a/b.txt", bytesOf("b"), false}}, 1700000000);
    const auto headers = rawHeaders(path("dated.tar"));
    QCOMPARE(headers.size(), std::size_t{2});
    for (const RawHeader& header : headers) QCOMPARE(header.mtime, std::int64_t{1700000000});
    writeTarArchive(path("undated.tar"), {{"a/b.txt", bytesOf("b"), false}});
    QVERIFY(readBytes(path("dated.tar")) != readBytes(path("undated.tar")));
    QVERIFY_THROWS_EXCEPTION(ArchiveError, writeTarArchive(path("negative.tar"), {}, -1));
  }

  void replacesAnExistingArchive() {
    writeTarArchive(path("replaced.tar"), {{"old.txt", bytesOf("old"), false}});
    writeTarArchive(path("replaced.tar"), {{"new.txt", bytesOf("new"), false}});
    const auto read = readTarArchive(path("replaced.tar"));
    QCOMPARE(read.size(), std::size_t{1});
    QCOMPARE(read[0].path, std::string("new.txt"));
  }

  void writeRejectsPathsThatAreNotPlainRelativePaths() {
    const struct {
      const char* path;
      const char* reason;
    } cases[] = {
        {"", "empty path"},
        {"/etc/passwd", "absolute path"},
        {"../x", "'..' component"},
        {"a/../../x", "'..' component"},
        {"a//b", "empty component"},
        {"./a", "'.' component"},
        {"a/", "ends with '/'"},
        {"a\\b", "backslash"},
        {"a\nb", "control character"},
    };
    for (const auto& c : cases) {
      const QString message = writeErrorOf(path("invalid.tar"), {{c.path, bytesOf("x"), false}});
      QVERIFY2(message.contains(QString::fromUtf8(c.reason)) && message.contains("invalid.tar"),
               qPrintable(QStringLiteral("%1: %2").arg(c.path, message)));
      QVERIFY(!fs::exists(path("invalid.tar")));
    }
  }

  void writeRejectsDuplicatesAndFileFolderClashes() {
    QString message = writeErrorOf(
        path("duplicate.tar"), {{"a.txt", bytesOf("1"), false}, {"a.txt", bytesOf("2"), false}});
    EXPECT_MESSAGE(message, "duplicate entry 'a.txt'");
    message = writeErrorOf(path("clash.tar"),
                           {{"a", bytesOf("1"), false}, {"a/b.txt", bytesOf("2"), false}});
    EXPECT_MESSAGE(message, "'a' is both a file and a folder");
    QVERIFY(!fs::exists(path("duplicate.tar")));
    QVERIFY(!fs::exists(path("clash.tar")));
  }

  void aFailedWriteKeepsTheExistingFileAndLeavesNothingBehind() {
    const fs::path folder = path("keep");
    fs::create_directory(folder);
    writeTarArchive(folder / "model.tar", sampleEntries());
    const auto before = readBytes(folder / "model.tar");
    QVERIFY_THROWS_EXCEPTION(ArchiveError,
                             writeTarArchive(folder / "model.tar", {{"../evil", {}, false}}));
    QVERIFY(readBytes(folder / "model.tar") == before);
    QCOMPARE(filesIn(folder), QStringList{"model.tar"});
  }

  void aFolderTargetIsRefusedAndNothingIsLeft() {
    const fs::path folder = path("rename");
    fs::create_directories(folder / "model.tar");
    const QString message = writeErrorOf(folder / "model.tar", sampleEntries());
    EXPECT_MESSAGE(message, "model.tar: is a folder, not a regular file");
    QVERIFY(fs::is_directory(folder / "model.tar"));
    QCOMPARE(filesIn(folder), QStringList{"model.tar"});
  }

  void writesThroughSymbolicLinksToTheFileTheyName() {
    const fs::path folder = path("links");
    fs::create_directories(folder / "real");
    writeTarArchive(folder / "real" / "model.tar", {{"old.txt", bytesOf("old"), false}});
    fs::create_symlink("real/model.tar", folder / "relative.tar");
    fs::create_symlink("relative.tar", folder / "chained.tar");
    writeTarArchive(folder / "chained.tar", sampleEntries());
    QVERIFY(fs::is_symlink(folder / "chained.tar") && fs::is_symlink(folder / "relative.tar"));
    QVERIFY(readTarArchive(folder / "real" / "model.tar") == sortedByPath(sampleEntries()));
    // A link to nothing yet: the file it names is created.
    fs::create_symlink(folder / "real" / "new.tar", folder / "dangling.tar");
    writeTarArchive(folder / "dangling.tar", sampleEntries());
    QVERIFY(fs::is_symlink(folder / "dangling.tar"));
    QVERIFY(fs::is_regular_file(fs::symlink_status(folder / "real" / "new.tar")));
    QCOMPARE(filesIn(folder / "real"), (QStringList{"model.tar", "new.tar"}));
  }

  void devicesAndFifosAreRefusedNotReplaced() {
    QString message = writeErrorOf("/dev/null", sampleEntries());
    EXPECT_MESSAGE(message, "/dev/null: is a character device, not a regular file");
    QVERIFY(fs::is_character_file("/dev/null"));
    const fs::path folder = path("fifo");
    fs::create_directories(folder);
    QCOMPARE(::mkfifo((folder / "model.tar").c_str(), 0644), 0);
    message = writeErrorOf(folder / "model.tar", sampleEntries());
    EXPECT_MESSAGE(message, "model.tar: is a FIFO, not a regular file");
    fs::create_symlink("model.tar", folder / "link.tar");
    message = writeErrorOf(folder / "link.tar", sampleEntries());
    EXPECT_MESSAGE(message, "link.tar: is a FIFO");
    QVERIFY(fs::is_fifo(folder / "model.tar"));
    QCOMPARE(filesIn(folder), (QStringList{"link.tar", "model.tar"}));
  }

  void aKilledWriteLeavesNoTemporaryFile() {
    // A child writes a large archive. Stopped while it writes, the file it
    // writes has no name (Linux shows "/folder/#inode (deleted)"), so a
    // SIGKILL then leaves the folder empty.
    const fs::path folder = path("killed");
    fs::create_directories(folder);
    const pid_t child = ::fork();
    if (child == 0) {
      writeTarArchive(
          folder / "model.tar",
          {{"weights.bin", std::vector<std::uint8_t>(std::size_t{256} << 20, 7), false}});
      ::_exit(0);
    }
    QVERIFY(child > 0);
    const std::string fds = "/proc/" + std::to_string(child) + "/fd";
    // The target of the child's descriptor into the folder, if it has one.
    const auto fileBeingWritten = [&]() -> std::string {
      std::error_code error;
      for (fs::directory_iterator it(fds, error), end; !error && it != end; it.increment(error)) {
        std::error_code linkError;
        const std::string target = fs::read_symlink(it->path(), linkError).string();
        if (!linkError && target.starts_with(folder.string() + "/")) return target;
      }
      return {};
    };
    std::string unnamed;
    QStringList named;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (unnamed.empty() && named.size() < 5 && std::chrono::steady_clock::now() < deadline) {
      if (fileBeingWritten().empty()) continue;
      ::kill(child, SIGSTOP);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      const std::string target = fileBeingWritten();
      if (target.ends_with(" (deleted)")) {
        unnamed = target;
      } else if (!target.empty()) {
        named << QString::fromStdString(target);
      }
      if (unnamed.empty()) ::kill(child, SIGCONT);
    }
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    QVERIFY2(named.size() < 5, qPrintable(named.join(", ")));
    QVERIFY2(!unnamed.empty(), "the child was never seen writing");
    QCOMPARE(filesIn(folder), QStringList{});
  }

  void aMissingFolderIsReportedWithTheFileName() {
    const QString message = writeErrorOf(path("no/such/folder/model.tar"), sampleEntries());
    EXPECT_MESSAGE(message, "no/such/folder/model.tar: cannot create a temporary file");
    EXPECT_MESSAGE(message, "No such file or directory");
  }

  void readsArchivesWhosePathsStartWithDotSlash() {
    // TVM's own exporter adds its folder as "." so every member starts with "./".
    writeRawTar(path("dotted.tar"), {folderMember("./"), folderMember("./codegen/"),
                                     fileMember("./codegen/host/src/lib0.c", "int x;"),
                                     fileMember("./metadata.json", "{}")});
    const auto read = readTarArchive(path("dotted.tar"));
    QCOMPARE(read.size(), std::size_t{2});
    QCOMPARE(read[0].path, std::string("codegen/host/src/lib0.c"));
    QCOMPARE(read[1].path, std::string("metadata.json"));
    QVERIFY(read[1].bytes == bytesOf("{}"));
  }

  void readRejectsAnAbsolutePath() {
    writeRawTar(path("absolute.tar"), {fileMember("/etc/cron.d/evil", "x")});
    const QString message = readErrorOf(path("absolute.tar"));
    EXPECT_MESSAGE(message, "absolute.tar: entry '/etc/cron.d/evil': absolute path");
  }

  void readRejectsAParentComponent() {
    writeRawTar(path("parent.tar"), {fileMember("../x", "x")});
    EXPECT_MESSAGE(readErrorOf(path("parent.tar")), "entry '../x': '..' component");
    writeRawTar(path("nested_parent.tar"), {fileMember("codegen/../../x", "x")});
    EXPECT_MESSAGE(readErrorOf(path("nested_parent.tar")), "'..' component");
  }

  void readRejectsLinks() {
    writeRawTar(path("symlink.tar"), {symlinkMember("link", "/etc/passwd")});
    EXPECT_MESSAGE(readErrorOf(path("symlink.tar")),
                   "entry 'link': a symbolic link (to '/etc/passwd')");
    writeRawTar(path("hardlink.tar"), {fileMember("a.txt", "a"), hardlinkMember("b.txt", "a.txt")});
    EXPECT_MESSAGE(readErrorOf(path("hardlink.tar")), "entry 'b.txt': a hard link (to 'a.txt')");
  }

  void readRejectsDevicesAndFifos() {
    writeRawTar(path("device.tar"), {specialMember("dev/tty", AE_IFCHR)});
    EXPECT_MESSAGE(readErrorOf(path("device.tar")), "entry 'dev/tty': a character device");
    writeRawTar(path("fifo.tar"), {specialMember("pipe", AE_IFIFO)});
    EXPECT_MESSAGE(readErrorOf(path("fifo.tar")), "entry 'pipe': a FIFO");
  }

  void readRejectsMoreThanTheSizeLimit() {
    writeRawTar(path("big_entry.tar"), {fileMember("big.bin", std::string(4096, 'x'))});
    EXPECT_MESSAGE(readErrorOf(path("big_entry.tar"), 1000),
                   "entry 'big.bin': the archive holds more than 1000 bytes of files");
    writeRawTar(path("many_entries.tar"), {fileMember("a.bin", std::string(600, 'a')),
                                           fileMember("b.bin", std::string(600, 'b'))});
    EXPECT_MESSAGE(readErrorOf(path("many_entries.tar"), 1000), "entry 'b.bin': the archive");
    // Exactly at the limit is fine.
    QCOMPARE(readTarArchive(path("many_entries.tar"), 1200).size(), std::size_t{2});
  }

  void readRejectsDuplicatesAndFileFolderClashes() {
    writeRawTar(path("read_duplicate.tar"), {fileMember("a.txt", "1"), fileMember("./a.txt", "2")});
    EXPECT_MESSAGE(readErrorOf(path("read_duplicate.tar")), "duplicate path 'a.txt'");
    writeRawTar(path("read_clash.tar"), {fileMember("a", "1"), fileMember("a/b", "2")});
    EXPECT_MESSAGE(readErrorOf(path("read_clash.tar")), "'a' is both a file and a folder");
  }

  void readRejectsWhatIsNotATar() {
    std::ofstream(path("garbage.tar"), std::ios::binary) << std::string(3000, '\x5a');
    EXPECT_MESSAGE(readErrorOf(path("garbage.tar")),
                   "garbage.tar: cannot open: Unrecognized archive format");
    // One 512-byte header, then the contents cut off in the middle.
    writeTarArchive(path("truncated.tar"), {{"data.bin", std::vector<std::uint8_t>(2000), false}});
    fs::resize_file(path("truncated.tar"), 1000);
    EXPECT_MESSAGE(readErrorOf(path("truncated.tar")), "truncated.tar: cannot read 'data.bin'");
    EXPECT_MESSAGE(readErrorOf(path("missing.tar")), "missing.tar: cannot open");
  }
};

QTEST_APPLESS_MAIN(TarArchive)
#include "tar_archive_test.moc"
