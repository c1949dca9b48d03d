#include "gui_test_files.h"

#include <QFile>
#include <QRandomGenerator>

#include "builtin_registries.h"
#include "test_data.h"
#include "tflite_schema_generated.h"

namespace loupe::test {

std::shared_ptr<const deploy::Registries> registries() {
  static const auto built =
      std::make_shared<const deploy::Registries>(plugins::builtinRegistries());
  return built;
}

QString kwsModelPath() {
  return QString::fromStdString((modelsDir() / "kws_ref_model" / "model.tflite").string());
}

QString ad01ModelPath() {
  return QString::fromStdString((modelsDir() / "ad01_int8" / "model.tflite").string());
}

QString vwwModelPath() {
  return QString::fromStdString((modelsDir() / "vww_96_int8" / "model.tflite").string());
}

QString velaModelPath() {
  return QString::fromStdString((modelsDir() / "vela" / "person_detect_vela.tflite").string());
}

QString kwsWithCpuTailModelPath() {
  static QTemporaryDir dir;
  static const QString path = [] {
    QFile kws(kwsModelPath());
    if (!kws.open(QIODevice::ReadOnly)) return QString();
    const QByteArray bytes = kws.readAll();
    std::unique_ptr<tflite::ModelT> model = tflite::UnPackModel(bytes.constData());
    constexpr std::int32_t kLogSoftmax = 50;
    auto code = std::make_unique<tflite::OperatorCodeT>();
    code->builtin_code = kLogSoftmax;
    code->deprecated_builtin_code = kLogSoftmax;
    code->version = 1;
    model->operator_codes.push_back(std::move(code));
    tflite::SubGraphT& graph = *model->subgraphs.front();
    tflite::OperatorT& last = *graph.operators.back();
    last.opcode_index = static_cast<std::uint32_t>(model->operator_codes.size() - 1);
    last.builtin_options.Reset();
    last.builtin_options.Set(tflite::LogSoftmaxOptionsT{});
    tflite::QuantizationParametersT& q =
        *graph.tensors.at(static_cast<std::size_t>(last.outputs.front()))->quantization;
    q.scale = {16.0f / 256};
    q.zero_point = {127};
    flatbuffers::FlatBufferBuilder builder;
    builder.Finish(tflite::Model::Pack(builder, model.get()), tflite::ModelIdentifier());
    const QString written = dir.filePath(QStringLiteral("kws_log_softmax.tflite"));
    QFile file(written);
    const auto size = static_cast<qint64>(builder.GetSize());
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(reinterpret_cast<const char*>(builder.GetBufferPointer()), size) != size) {
      return QString();
    }
    return written;
  }();
  return path;
}

QStringList kwsOperatorTypes() {
  return {"CONV_2D", "DEPTHWISE_CONV_2D", "CONV_2D", "DEPTHWISE_CONV_2D",
          "CONV_2D", "DEPTHWISE_CONV_2D", "CONV_2D", "DEPTHWISE_CONV_2D",
          "CONV_2D", "AVERAGE_POOL_2D",   "RESHAPE", "FULLY_CONNECTED",
          "SOFTMAX"};
}

QString writeUnknownCustomOperatorModel(const QTemporaryDir& dir) {
  QFile vela(velaModelPath());
  if (!vela.open(QIODevice::ReadOnly)) return {};
  // The same length, so every offset of the flatbuffer stays valid.
  QByteArray bytes = vela.readAll().replace("ethos-u", "ethos-x");
  const QString path = dir.filePath(QStringLiteral("unknown_custom.tflite"));
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size()) return {};
  return path;
}

QString writeCorruptModel(const QTemporaryDir& dir, int size) {
  QRandomGenerator random(20240611);
  QByteArray bytes(size, Qt::Uninitialized);
  for (auto& byte : bytes) byte = static_cast<char>(random.bounded(256));
  const QString path = dir.filePath(QStringLiteral("corrupt.tflite"));
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != size) return {};
  return path;
}

}  // namespace loupe::test
