#include <QtTest>
class PlaceholderBuild : public QObject { Q_OBJECT };
QTEST_GUILESS_MAIN(PlaceholderBuild)
#include "performance_model_test.moc"
