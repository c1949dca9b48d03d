// The --pools specification: names, sizes with K/M suffixes, alignments, and
// a specific message for every malformed part.
#include <QtTest>

#include "memory/memory_pools.h"

using namespace loupe::memory;

class MemoryPoolsTest : public QObject {
  Q_OBJECT

 private slots:
  void parsesPoolsInOrder() {
    const auto pools = parsePoolSpec("sram:size=65536;dtcm:size=16K,alignment=32");
    QCOMPARE(pools.size(), std::size_t{2});
    QCOMPARE(pools[0].name, std::string("sram"));
    QCOMPARE(pools[0].size, std::int64_t{65536});
    QCOMPARE(pools[0].alignment, kDefaultAlignment);
    QCOMPARE(pools[1].name, std::string("dtcm"));
    QCOMPARE(pools[1].size, std::int64_t{16384});
    QCOMPARE(pools[1].alignment, std::int64_t{32});
    QCOMPARE(largestAlignment(pools), std::int64_t{32});
  }

  void acceptsSpacesMegabytesAndATrailingSeparator() {
    const auto pools = parsePoolSpec(" psram : size = 2M ; ");
    QCOMPARE(pools.size(), std::size_t{1});
    QCOMPARE(pools[0].name, std::string("psram"));
    QCOMPARE(pools[0].size, std::int64_t{2 * 1024 * 1024});
  }

  void namesTheBoardMemoryAPoolLivesIn() {
    const auto pools = parsePoolSpec("dtcm:size=16K;sram:size=2M,memory=SRAM");
    QVERIFY(pools[0].memory.empty());
    QCOMPARE(pools[1].memory, std::string("SRAM"));
  }

  void defaultIsOneUnboundedPool() {
    const auto pools = defaultPools();
    QCOMPARE(pools.size(), std::size_t{1});
    QVERIFY(!pools[0].bounded());
  }

  void rejectsMalformedSpecifications_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << ""
                           << "names no pool";
    QTest::newRow("no size") << "sram"
                             << "pool \"sram\" needs a size";
    QTest::newRow("only alignment") << "sram:alignment=8"
                                    << "pool \"sram\" needs a size";
    QTest::newRow("duplicate") << "a:size=1;a:size=2"
                               << "pool \"a\" is given twice";
    QTest::newRow("bad name") << "9ram:size=1"
                              << "must be a C identifier";
    QTest::newRow("zero size") << "sram:size=0"
                               << "positive number of bytes";
    QTest::newRow("text size") << "sram:size=big"
                               << "not \"big\"";
    QTest::newRow("alignment 24") << "sram:size=64,alignment=24"
                                  << "not a power of two";
    QTest::newRow("unknown field") << "sram:size=64,speed=1"
                                   << "unknown field \"speed\"";
    QTest::newRow("bad memory") << "sram:size=64,memory=S-RAM"
                                << "must be the board memory's name";
    QTest::newRow("no equals") << "sram:size"
                               << "is not key=value";
  }

  void rejectsMalformedSpecifications() {
    QFETCH(QString, spec);
    QFETCH(QString, message);
    try {
      parsePoolSpec(spec.toStdString());
      QFAIL("accepted a malformed pool specification");
    } catch (const std::invalid_argument& error) {
      QVERIFY2(QString(error.what()).contains(message), error.what());
    }
  }
};

QTEST_APPLESS_MAIN(MemoryPoolsTest)
#include "memory_pools_test.moc"
