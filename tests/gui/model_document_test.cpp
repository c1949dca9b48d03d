// ModelDocument and the item models over it: what the views will show for a
// real model, and that a file the importer rejects changes nothing but the
// list of problems.
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "gui_test_files.h"
#include "models/model_document.h"
#include "models/operator_attribute_fields.h"
#include "models/operator_properties_model.h"
#include "models/operator_table_model.h"
#include "models/problem_list_model.h"
#include "models/stage_tree_model.h"

using loupe::models::ModelDocument;
using loupe::models::OperatorPropertiesModel;
using loupe::models::OperatorTableModel;
using loupe::models::ProblemListModel;

namespace {

QStringList typeColumn(const OperatorTableModel& table) {
  QStringList types;
  for (int row = 0; row < table.rowCount(); ++row) {
    types << table.index(row, OperatorTableModel::TypeColumn).data().toString();
  }
  return types;
}

}  // namespace

class ModelDocumentTest : public QObject {
  Q_OBJECT

 private slots:
  void anEmptyDocumentShowsNothing() {
    ModelDocument document;
    OperatorTableModel table(&document);
    OperatorPropertiesModel properties(&document);
    ProblemListModel problems(&document);
    QVERIFY(!document.isLoaded());
    QCOMPARE(table.rowCount(), 0);
    QCOMPARE(properties.rowCount(), 0);
    QCOMPARE(problems.rowCount(), 0);
    QCOMPARE(document.currentOperator(), -1);
  }

  void kwsGivesThirteenOperatorsInExecutionOrder() {
    ModelDocument document;
    OperatorTableModel table(&document);
    QSignalSpy loaded(&document, &ModelDocument::modelLoaded);
    QVERIFY(document.open(loupe::test::kwsModelPath()));
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(table.rowCount(), 13);
    QCOMPARE(typeColumn(table), loupe::test::kwsOperatorTypes());
    QCOMPARE(document.modelName(), QStringLiteral("model"));
    // The first operator is selected so Properties is never blank after a load.
    QCOMPARE(document.currentOperator(), 0);
  }

  void rowsShowShapesAndCostAsLoupecDoes() {
    ModelDocument document;
    OperatorTableModel table(&document);
    QVERIFY(document.open(loupe::test::kwsModelPath()));
    auto cell = [&](int row, int column, int role = Qt::DisplayRole) {
      return table.index(row, column).data(role);
    };
    QCOMPARE(cell(0, OperatorTableModel::InputsColumn).toString(), "int8[1,49,10,1]");
    QCOMPARE(cell(0, OperatorTableModel::OutputsColumn).toString(), "int8[1,25,5,64]");
    QCOMPARE(cell(0, OperatorTableModel::MacsColumn).toString(), "320,000");
    QCOMPARE(cell(0, OperatorTableModel::ParameterBytesColumn).toString(), "2,816");
    QCOMPARE(cell(0, OperatorTableModel::OutputBytesColumn).toString(), "8,000");
    QCOMPARE(cell(0, OperatorTableModel::MacsColumn, OperatorTableModel::SortRole).toLongLong(),
             320000);
    // Weights and bias are not activations: listed in the tool tip, not the cell.
    QVERIFY(cell(0, OperatorTableModel::InputsColumn, Qt::ToolTipRole)
                .toString()
                .contains("int8[64,10,4,1], int32[64]"));
    QCOMPARE(cell(11, OperatorTableModel::OutputsColumn).toString(), "int8[1,12]");
    QCOMPARE(document.graphCost().macs, 2664780);
    QCOMPARE(document.graphCost().parameterBytes, 24376);
  }

  void supportColumnAgreesWithTheReferenceInterpreter() {
    ModelDocument document;
    OperatorTableModel table(&document);
    ProblemListModel problems(&document);
    QVERIFY(document.open(loupe::test::kwsModelPath()));
    // Kernels are being added, so which operators run changes; the table, the
    // problem list and the interpreter's verdict must agree whatever it is.
    int unsupported = 0;
    for (int row = 0; row < table.rowCount(); ++row) {
      const bool runs = document.unsupportedReason(row).isEmpty();
      QCOMPARE(table.index(row, OperatorTableModel::SupportedColumn).data().toString(),
               runs ? QStringLiteral("yes") : QStringLiteral("no"));
      if (!runs) ++unsupported;
    }
    QCOMPARE(problems.rowCount(), unsupported);
    QCOMPARE(problems.count(ProblemListModel::Severity::Warning), unsupported);
    for (int row = 0; row < problems.rowCount(); ++row) {
      const auto& problem = problems.problems()[row];
      QVERIFY(problem.operatorIndex >= 0);
      QVERIFY(problem.description.contains(document.unsupportedReason(problem.operatorIndex)));
    }
  }

  void customOperatorIsShownAndReportedUnsupported() {
    ModelDocument document;
    OperatorTableModel table(&document);
    ProblemListModel problems(&document);
    QTemporaryDir dir;
    QVERIFY(document.open(loupe::test::writeUnknownCustomOperatorModel(dir)));
    QCOMPARE(table.rowCount(), 1);
    QVERIFY(table.index(0, OperatorTableModel::TypeColumn).data().toString().contains("ethos-x"));
    QCOMPARE(table.index(0, OperatorTableModel::SupportedColumn).data().toString(), "no");
    QCOMPARE(problems.rowCount(), 1);
    QCOMPARE(problems.index(0, 0).data(ProblemListModel::OperatorIndexRole).toInt(), 0);
  }

  void selectingAnOperatorFillsItsProperties() {
    ModelDocument document;
    OperatorPropertiesModel properties(&document);
    QVERIFY(document.open(loupe::test::kwsModelPath()));
    document.setCurrentOperator(11);
    QCOMPARE(properties.operatorIndex(), 11);
    QCOMPARE(properties.value("Operator", "Type"), "FULLY_CONNECTED");
    QCOMPARE(properties.value("Inputs", "input 0"), "%32  int8[1,64]");
    QCOMPARE(properties.value("Inputs", "input 1"), "%c16  int8[12,64]");
    QCOMPARE(properties.value("Inputs", "input 2"), "%c1  int32[12]");
    QCOMPARE(properties.value("Outputs", "output 0"), "%33  int8[1,12]");
    QCOMPARE(properties.value("Cost", "MACs"), "768");
    QCOMPARE(properties.value("Cost", "Parameter bytes"), "816");

    // Each operand's details sit under it.
    document.setCurrentOperator(0);
    const QModelIndex inputs =
        properties.match(properties.index(0, 0), Qt::DisplayRole, "Inputs").value(0);
    QVERIFY(inputs.isValid());
    QCOMPARE(properties.rowCount(inputs), 3);
    const QModelIndex weights = properties.index(1, 0, inputs);
    QStringList details;
    for (int row = 0; row < properties.rowCount(weights); ++row) {
      details << properties.index(row, 0, weights).data().toString() + "=" +
                     properties.index(row, 1, weights).data().toString();
    }
    QVERIFY2(details.contains("Shape=[64,10,4,1]"), qPrintable(details.join(' ')));
    QVERIFY(details.contains("Dtype=int8"));
    QVERIFY(details.contains("Kind=constant"));
    QVERIFY(details.contains("Quantisation=per-channel: 64 scales along axis 0"));
    QVERIFY(details.contains("Bytes=2,560"));
    QCOMPARE(properties.value("Attributes", "stride"), "2x2");
    QCOMPARE(properties.value("Attributes", "activation"), "RELU");
  }

  void attributeFieldsComeFromThePrinter() {
    loupe::ir::Conv2DAttrs conv;
    conv.strideH = 2;
    conv.activation = loupe::ir::Activation::Relu6;
    const auto fields = loupe::models::operatorAttributeFields(conv);
    QCOMPARE(fields.size(), 4);
    QCOMPARE(fields[0].name, "padding");
    QCOMPARE(fields[1].value, "2x1");
    QCOMPARE(fields[3].value, "RELU6");

    loupe::ir::OpaqueAttrs custom;
    custom.customCode = "my op";
    const auto opaque = loupe::models::operatorAttributeFields(custom);
    QCOMPARE(opaque.size(), 2);
    QCOMPARE(opaque[0].value, "\"my op\"");
  }

  void aCorruptFileIsReportedAndThePreviousModelKept() {
    ModelDocument document;
    OperatorTableModel table(&document);
    ProblemListModel problems(&document);
    QVERIFY(document.open(loupe::test::kwsModelPath()));
    document.setCurrentOperator(4);
    const int warnings = problems.rowCount();

    QTemporaryDir dir;
    const QString corrupt = loupe::test::writeCorruptModel(dir);
    QSignalSpy failed(&document, &ModelDocument::loadFailed);
    QSignalSpy loaded(&document, &ModelDocument::modelLoaded);
    QVERIFY(!document.open(corrupt));
    QCOMPARE(failed.count(), 1);
    QCOMPARE(loaded.count(), 0);
    QCOMPARE(failed[0][0].toString(), corrupt);
    const QString message = failed[0][1].toString();
    QVERIFY2(message.startsWith("corrupt.tflite: "), qPrintable(message));

    // The old model is intact and still selected.
    QCOMPARE(table.rowCount(), 13);
    QCOMPARE(typeColumn(table), loupe::test::kwsOperatorTypes());
    QCOMPARE(document.filePath(), loupe::test::kwsModelPath());
    QCOMPARE(document.currentOperator(), 4);

    // The error comes first in Problems, above the model's own warnings.
    QCOMPARE(problems.rowCount(), warnings + 1);
    QCOMPARE(problems.problems()[0].severity, ProblemListModel::Severity::Error);
    QCOMPARE(problems.problems()[0].description, message);
    QCOMPARE(problems.index(0, ProblemListModel::LocationColumn).data().toString(),
             "corrupt.tflite");
    QCOMPARE(problems.problems()[0].operatorIndex, -1);

    // A later successful open clears the stale error.
    QVERIFY(document.open(loupe::test::kwsModelPath()));
    QCOMPARE(problems.count(ProblemListModel::Severity::Error), 0);
  }

  void aTruncatedModelIsRejectedWithTheImportersMessage() {
    QFile original(loupe::test::kwsModelPath());
    QVERIFY(original.open(QIODevice::ReadOnly));
    const QByteArray bytes = original.readAll();
    QTemporaryDir dir;
    QFile cut(dir.filePath("cut.tflite"));
    QVERIFY(cut.open(QIODevice::WriteOnly));
    cut.write(bytes.left(bytes.size() / 2));
    cut.close();

    ModelDocument document;
    QSignalSpy failed(&document, &ModelDocument::loadFailed);
    QVERIFY(!document.open(cut.fileName()));
    QVERIFY(!document.isLoaded());
    QCOMPARE(document.loadFailures().size(), std::size_t{1});
    QVERIFY(failed[0][1].toString().startsWith("cut.tflite: "));
  }

  void aMissingFileSaysItCannotBeOpened() {
    ModelDocument document;
    QVERIFY(!document.open("/nonexistent/model.tflite"));
    QVERIFY(
        document.loadFailures().back().message.contains("cannot open /nonexistent/model.tflite"));
  }

  void aDirectoryIsNotAModel() {
    QTemporaryDir dir;
    ModelDocument document;
    QVERIFY(!document.open(dir.path()));
    QVERIFY(!document.isLoaded());
    QCOMPARE(document.loadFailures().size(), std::size_t{1});
  }

  void theNavigatorListsTheImportedStage() {
    ModelDocument document;
    loupe::models::StageTreeModel stages(&document);
    QCOMPARE(stages.rowCount(), 0);
    QVERIFY(document.open(loupe::test::kwsModelPath()));
    QCOMPARE(stages.rowCount(), 1);
    const QModelIndex root = stages.index(0, 0);
    QCOMPARE(root.data().toString(), "model");
    QCOMPARE(stages.rowCount(root), 1);
    QCOMPARE(stages.index(0, 0, root).data().toString(), "Imported");
    QCOMPARE(stages.index(0, 0, root).data(loupe::models::StageTreeModel::StageRole).toInt(),
             static_cast<int>(loupe::models::CompilationStage::Imported));
  }
};

QTEST_MAIN(ModelDocumentTest)
#include "model_document_test.moc"
