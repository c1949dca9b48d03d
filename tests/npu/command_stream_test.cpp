#include <QtTest>
class PlaceholderBuild : public QObject { Q_OBJECT };
QTEST_GUILESS_MAIN(PlaceholderBuild)
#include "command_stream_test.moc"
