// The operator registry is consistent (one definition per operator type, in
// the enum's order, each with what the importer needs), and docs/operators.md
// is the table the registry generates, so the documentation cannot drift.
// LOUPE_UPDATE_OPERATOR_TABLE=1 rewrites the file instead of comparing.
#include <QtTest>

#include <fstream>
#include <sstream>

#include "ir/tflite_builtin_names.h"
#include "ops/operator_registry.h"
#include "ops/operator_table.h"

using namespace loupe;

class OperatorTableTest : public QObject {
  Q_OBJECT

 private slots:
  void everyTypeHasItsDefinition() {
    const auto definitions = ops::allDefinitions();
    QVERIFY(definitions.size() >= 29);
    for (std::size_t i = 0; i < definitions.size(); ++i) {
      const auto type = static_cast<ir::OpType>(i);
      QCOMPARE(definitions[i]->type, type);
      QCOMPARE(&ops::definitionOf(type), definitions[i]);
      const auto& import = definitions[i]->import;
      QVERIFY2(import.maxVersion >= 1, ir::opTypeName(type).data());
      QVERIFY(import.maxInputs < 0 || import.maxInputs >= import.minInputs);
      // Every registered operator can at least be run by the interpreter,
      // or never reaches it (the importer resolves it into others).
      if (!definitions[i]->resolvedByImporter.empty()) {
        QVERIFY2(definitions[i]->kernel == nullptr && definitions[i]->lower == nullptr,
                 ir::opTypeName(type).data());
        continue;
      }
      QVERIFY2(definitions[i]->kernel != nullptr, ir::opTypeName(type).data());
      QCOMPARE(definitions[i]->kernel->type, type);
      QVERIFY2(!definitions[i]->dtypes.empty(), ir::opTypeName(type).data());
    }
    QCOMPARE(ops::definitionOf(ir::OpType::Opaque).kernel, nullptr);
  }

  void namesComeFromTflite() {
    for (const ops::OperatorDefinition* definition : ops::allDefinitions()) {
      const std::string_view name = ir::opTypeName(definition->type);
      bool found = false;
      for (int code = 0; code < 256 && !found; ++code) {
        found = ir::tfliteBuiltinName(code) == name &&
                ir::opTypeFromBuiltinCode(code) == definition->type;
      }
      QVERIFY2(found, name.data());
    }
  }

  void documentationIsTheGeneratedTable() {
    const std::string generated = ops::operatorTableMarkdown();
    const std::string path = LOUPE_OPERATOR_TABLE_DOC;
    if (qEnvironmentVariableIsSet("LOUPE_UPDATE_OPERATOR_TABLE")) {
      std::ofstream(path, std::ios::binary) << generated;
    }
    std::ifstream in(path, std::ios::binary);
    QVERIFY2(in.good(), ("cannot read " + path).c_str());
    std::ostringstream text;
    text << in.rdbuf();
    QVERIFY2(text.str() == generated,
             ("docs/operators.md differs from the operator table; run ops_operator_table with "
              "LOUPE_UPDATE_OPERATOR_TABLE=1 and commit the file"));
  }
};

QTEST_GUILESS_MAIN(OperatorTableTest)
#include "operator_table_test.moc"
