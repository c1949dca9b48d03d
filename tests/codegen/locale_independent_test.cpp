// Generated C and printed IR do not depend on the process's locale. Qt sets
// LC_NUMERIC from the user's locale, and under de_DE printf writes 0,5: the
// GUI generated "-0,121809363.0f" for a float model's weights, C that does
// not compile (found running the suite with LANG=de_DE.UTF-8). Each float is
// printed here under every installed locale with a decimal comma.
#include <QtTest>

#include <clocale>
#include <string>

#include "codegen/model_compiler.h"
#include "graph_builder.h"
#include "ir/graph_printer.h"
#include "test_group.h"

namespace locale_independent_test {

using namespace loupe;

namespace {

// The installed locales of these that write a decimal comma.
QStringList commaLocales() {
  QStringList found;
  for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "es_ES.UTF-8",
                           "it_IT.UTF-8", "nl_NL.UTF-8", "ru_RU.UTF-8"}) {
    if (std::setlocale(LC_NUMERIC, name) != nullptr && *std::localeconv()->decimal_point == ',') {
      found << name;
    }
  }
  std::setlocale(LC_NUMERIC, "C");
  return found;
}

// A float32 FULLY_CONNECTED whose weights are not whole numbers.
ir::Graph floatModel() {
  test::GraphBuilder b;
  const int in = b.tensor("in", ir::DType::Float32, {1, 2});
  const int w = b.constant("w", ir::DType::Float32, {1, 2}, std::vector<float>{0.125f, -1.5f});
  const int out = b.tensor("out", ir::DType::Float32, {1, 1});
  b.op(ir::OpType::FullyConnected, {in, w, ir::kNoTensor}, {out}, ir::FullyConnectedAttrs{});
  return b.inputs({in}).outputs({out}).build();
}

}  // namespace

class LocaleIndependent : public QObject {
  Q_OBJECT

 private slots:
  void floatsAreWrittenWithAPointUnderACommaLocale() {
    const QStringList locales = commaLocales();
    if (locales.isEmpty()) {
      QSKIP("no locale with a decimal comma is installed (e.g. locale-gen de_DE.UTF-8)");
    }
    for (const QString& name : locales) {
      std::setlocale(LC_NUMERIC, name.toUtf8().constData());
      const std::string printed = ir::floatToString(0.125f);
      std::string source;
      for (const auto& file : codegen::compileToC(floatModel(), {}).sources) source += file.text;
      std::setlocale(LC_NUMERIC, "C");
      QCOMPARE(QString::fromStdString(printed), QString("0.125"));
      QVERIFY2(
          source.find("0.125f") != std::string::npos && source.find("-1.5f") != std::string::npos,
          qPrintable(name + ": " + QString::fromStdString(source).left(2000)));
      QVERIFY2(source.find("0,125") == std::string::npos, qPrintable(name));
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(LocaleIndependent)

}  // namespace locale_independent_test

#include "locale_independent_test.moc"
