// A compilation holds a model's constants once: the graph of every pass
// stage, the compiled model's graph, the lowered functions' constants and the
// Model Library Format's parameter files all share the imported tensors'
// bytes (the same bytes, not equal copies), so a large model is not copied
// per stage and per function.
#include <QtTest>

#include "driver/compile_driver.h"
#include "frontend/tflite_importer.h"
#include "mlf/compiled_model_export.h"
#include "targets/builtin_targets.h"
#include "test_data.h"

using namespace loupe;

namespace {

driver::Compilation compile(const std::string& model) {
  return driver::compileModel(
      {frontend::importTfliteFile(test::modelsDir() / model / "model.tflite"),
       target::parseTargetString("c", targets::builtinTargetRegistry()),
       {},
       {}});
}

}  // namespace

class SharedConstants : public QObject {
  Q_OBJECT

  driver::Compilation compilation_ = compile("hello_world_int8");

 private slots:
  void importerGivesTensorsOnOneBufferTheSameBytes() {
    const ir::Graph graph =
        frontend::importTfliteFile(test::modelsDir() / "hello_world_int8" / "model.tflite");
    int constants = 0;
    for (const ir::Tensor& tensor : graph.tensors) constants += tensor.isConstant ? 1 : 0;
    QVERIFY(constants > 0);
    // A copy of the graph copies no constant.
    const ir::Graph copy = graph;
    for (std::size_t i = 0; i < graph.tensors.size(); ++i) {
      if (!graph.tensors[i].isConstant) continue;
      QVERIFY(copy.tensors[i].data.sharesBytesWith(graph.tensors[i].data));
    }
  }

  void everyStageSharesTheConstantsItKeeps() {
    const ir::Graph& final = compilation_.graph;
    int shared = 0;
    for (const passes::Stage& stage : compilation_.timeline.stages()) {
      if (!stage.graph) continue;
      for (const ir::Tensor& tensor : stage.graph->tensors) {
        if (!tensor.isConstant || static_cast<std::size_t>(tensor.index) >= final.tensors.size())
          continue;
        const ir::Tensor& kept = final.tensor(tensor.index);
        // A constant no pass changed is the same bytes in every stage.
        if (kept.isConstant && kept.data == tensor.data) {
          QVERIFY2(kept.data.sharesBytesWith(tensor.data),
                   qPrintable(QString::fromStdString(stage.name + ": " + tensor.name)));
          ++shared;
        }
      }
    }
    QVERIFY(shared > 0);
  }

  void compiledModelAndFunctionsShareTheGraphsConstants() {
    const ir::Graph& graph = compilation_.graph;
    const codegen::CompiledModel& model = compilation_.model;
    for (const ir::Tensor& tensor : graph.tensors) {
      if (tensor.isConstant) {
        QVERIFY(model.graph.tensor(tensor.index).data.sharesBytesWith(tensor.data));
      }
    }
    // The fully connected layers' weights go into their functions as they are.
    int sharedWithGraph = 0;
    for (const tir::PrimFunc& f : model.functions) {
      for (const tir::Buffer& constant : f.constants) {
        for (const ir::Tensor& tensor : graph.tensors) {
          if (tensor.isConstant && constant->data.sharesBytesWith(tensor.data)) ++sharedWithGraph;
        }
      }
    }
    QVERIFY(sharedWithGraph >= 3);  // hello_world: three FULLY_CONNECTED weights
  }

  void parameterFilesShareTheFunctionsConstants() {
    const codegen::CompiledModel& model = compilation_.model;
    const mlf::MlfContents contents = mlf::mlfContentsOf(model, {});
    std::size_t checked = 0;
    for (const tir::PrimFunc& f : model.functions) {
      for (const tir::Buffer& constant : f.constants) {
        const std::string path = f.name + "/" + constant->name + ".bin";
        const auto it =
            std::find_if(contents.parameters.begin(), contents.parameters.end(),
                         [&](const mlf::ArchiveEntry& entry) { return entry.path == path; });
        QVERIFY2(it != contents.parameters.end(), path.c_str());
        if (!constant->data.empty()) {
          QVERIFY(it->bytes.sharesBytesWith(constant->data));
          ++checked;
        }
      }
    }
    QVERIFY(checked > 0);
  }
};

QTEST_APPLESS_MAIN(SharedConstants)
#include "shared_constants_test.moc"
