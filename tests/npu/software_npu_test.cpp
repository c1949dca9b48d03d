#include <QtTest>
class PlaceholderBuild : public QObject { Q_OBJECT };
QTEST_GUILESS_MAIN(PlaceholderBuild)
#include "software_npu_test.moc"
