#include "platform_test_support.h"

#include <QStandardPaths>
#include <QtTest>
#include <sstream>

#include "deploy/board_description.h"
#include "platforms/platform_files.h"

namespace loupe::test {

bool requireTool(const char* tool, const char* debianPackage) {
  if (!QStandardPaths::findExecutable(QLatin1String(tool)).isEmpty()) return true;
  QTest::qFail(qPrintable(QString("%1 not found on PATH: install the Debian package %2 "
                                  "(scripts/setup.sh does)")
                              .arg(tool, debianPackage)),
               __FILE__, __LINE__);
  return false;
}

namespace {

void addRows(bool emulatedOnly) {
  QTest::addColumn<QString>("board");
  // Every built-in board folder (one with a board.json), so a board added
  // to plugins/platforms is tested without touching the tests.
  int boards = 0;
  for (const EmbeddedFile& file : platforms::platformFiles()) {
    const std::string_view path = file.path;
    const auto slash = path.find('/');
    if (slash == std::string_view::npos || path.substr(slash) != "/board.json") continue;
    if (emulatedOnly && !deploy::parseBoardDescription(file.bytes, std::string(path)).emulated()) {
      continue;
    }
    const QString board = QString::fromUtf8(path.data(), static_cast<qsizetype>(slash));
    QTest::newRow(qPrintable(board)) << board;
    ++boards;
  }
  QVERIFY2(boards >= 7, "the built-in boards are embedded");
}

}  // namespace

void addBoardRows() {
  addRows(false);
}

void addEmulatedBoardRows() {
  addRows(true);
}

std::map<std::string, std::uint64_t> sectionSizes(const std::string& sizeOutput) {
  std::map<std::string, std::uint64_t> sizes;
  std::istringstream lines(sizeOutput);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string name;
    std::uint64_t size = 0;
    std::uint64_t address = 0;
    if (fields >> name >> size >> address && name.starts_with('.')) sizes[name] = size;
  }
  return sizes;
}

}  // namespace loupe::test
