#include "platform_test_support.h"

#include <QStandardPaths>
#include <QtTest>

namespace loupe::test {

bool requireTool(const char* tool, const char* debianPackage) {
  if (!QStandardPaths::findExecutable(QLatin1String(tool)).isEmpty()) return true;
  QTest::qFail(qPrintable(QString("%1 not found on PATH: install the Debian package %2 "
                                  "(scripts/setup.sh does)")
                              .arg(tool, debianPackage)),
               __FILE__, __LINE__);
  return false;
}

void addBoardRows() {
  QTest::addColumn<QString>("board");
  QTest::newRow("qemu_mps2_an385") << "qemu_mps2_an385";
  QTest::newRow("qemu_mps3_an547") << "qemu_mps3_an547";
}

}  // namespace loupe::test
