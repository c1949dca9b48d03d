#include "gui_test_files.h"

#include <QFile>
#include <QRandomGenerator>

#include "builtin_registries.h"
#include "test_data.h"

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
