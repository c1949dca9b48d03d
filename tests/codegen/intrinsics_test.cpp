// The intrinsic table against the runtime headers generated code includes:
// every intrinsic names a C function that its header defines with as many
// parameters as the table says, so TIR never calls a placeholder.
#include <QtTest>

#include <algorithm>
#include <string>

#include "codegen/runtime_files.h"
#include "test_group.h"
#include "tir/intrinsics.h"

namespace intrinsics_test {

using namespace loupe;

namespace {

// The text of the embedded runtime file include/<header>, or "".
std::string headerText(std::string_view header) {
  for (const EmbeddedFile& f : codegen::runtimeFiles()) {
    if (f.path == "include/" + std::string(header)) return std::string(f.bytes);
  }
  return {};
}

// Number of parameters of the definition of `function` in `text`, or -1.
int parameterCount(const std::string& text, std::string_view function) {
  const std::string opening = " " + std::string(function) + "(";
  const std::size_t at = text.find(opening);
  if (at == std::string::npos) return -1;
  const std::size_t close = text.find(')', at);
  const std::string parameters = text.substr(at + opening.size(), close - at - opening.size());
  if (parameters == "void" || parameters.empty()) return 0;
  return static_cast<int>(std::count(parameters.begin(), parameters.end(), ',')) + 1;
}

}  // namespace

class IntrinsicTable : public QObject {
  Q_OBJECT

 private slots:
  void everyIntrinsicIsDefinedInItsHeader_data() {
    QTest::addColumn<QString>("name");
    for (const tir::Intrinsic& intrinsic : tir::allIntrinsics()) {
      const std::string name(intrinsic.name);
      QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }
  }

  void everyIntrinsicIsDefinedInItsHeader() {
    QFETCH(QString, name);
    const auto intrinsic = tir::findIntrinsic(name.toStdString());
    QVERIFY(intrinsic.has_value());
    const std::string text = headerText(intrinsic->header);
    QVERIFY2(!text.empty(), std::string(intrinsic->header).c_str());
    QCOMPARE(parameterCount(text, intrinsic->cFunction), intrinsic->arity);
  }
};

LOUPE_TEST_APPLESS_MAIN(IntrinsicTable)

}  // namespace intrinsics_test

#include "intrinsics_test.moc"
