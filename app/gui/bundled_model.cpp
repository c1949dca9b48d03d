#include "gui/bundled_model.h"

namespace loupe::gui {

QString bundledModelPath() {
  return QStringLiteral(":/loupe/kws_ref_model.tflite");
}

}  // namespace loupe::gui
