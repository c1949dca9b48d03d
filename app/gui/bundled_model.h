// The model `loupe` opens when given none: resources/kws_ref_model.tflite
// (the MLPerf Tiny keyword-spotting model), compiled into the binary as a Qt
// resource so it is there wherever Loupe is installed.
#pragma once

#include <QString>

namespace loupe::gui {

QString bundledModelPath();  // ":/loupe/kws_ref_model.tflite"

}  // namespace loupe::gui
