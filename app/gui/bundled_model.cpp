#include "gui/bundled_model.h"

namespace loupe::gui {

QString bundledModelPath() {
  return QStringLiteral(":/loupe/default_model.tflite");
}

}  // namespace loupe::gui
