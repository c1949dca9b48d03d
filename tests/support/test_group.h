// Several Qt Test files in one executable (loupe_add_test_group in
// tests/LoupeTest.cmake), compiled together in unity batches: the tests'
// common headers are parsed and their templates instantiated once per batch
// instead of once per file, which made each file cost three to four times its
// own code. ctest still runs every file as a test of its own:
// `<executable> <file's stem> [Qt Test arguments]`.
//
// A grouped file puts everything it declares in a namespace named after
// itself (files of a batch share one translation unit) and ends that
// namespace with LOUPE_TEST_APPLESS_MAIN or LOUPE_TEST_GUILESS_MAIN in place
// of Qt's QTEST_*_MAIN.
#pragma once

#include <QCoreApplication>
#include <QTest>

namespace loupe::test {

using GroupedTestRun = int (*)(int argc, char** argv);

// Adds the test of `sourceFile` (its __FILE__) to the executable's tests;
// returns true so that a namespace-scope constant can call it.
bool registerGroupedTest(const char* sourceFile, GroupedTestRun run);

}  // namespace loupe::test

// Qt's QTEST_APPLESS_MAIN, as a registered test instead of main().
#define LOUPE_TEST_APPLESS_MAIN(TestObject)                                    \
  [[maybe_unused]] const bool kGroupedTestRegistered =                         \
      ::loupe::test::registerGroupedTest(__FILE__, [](int argc, char** argv) { \
        TestObject test;                                                       \
        QTEST_SET_MAIN_SOURCE_PATH                                             \
        return QTest::qExec(&test, argc, argv);                                \
      });

// Qt's QTEST_GUILESS_MAIN: the test runs inside a QCoreApplication.
#define LOUPE_TEST_GUILESS_MAIN(TestObject)                                    \
  [[maybe_unused]] const bool kGroupedTestRegistered =                         \
      ::loupe::test::registerGroupedTest(__FILE__, [](int argc, char** argv) { \
        QCoreApplication app(argc, argv);                                      \
        app.setAttribute(Qt::AA_Use96Dpi, true);                               \
        TestObject test;                                                       \
        QTEST_SET_MAIN_SOURCE_PATH                                             \
        return QTest::qExec(&test, argc, argv);                                \
      });
