#include <QtTest>
class PlaceholderBuild : public QObject { Q_OBJECT };
QTEST_GUILESS_MAIN(PlaceholderBuild)
#include "weight_encoding_test.moc"
