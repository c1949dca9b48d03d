// The lowerings of the operators whose definitions (compiler_core/ops)
// refer to them here.
#pragma once

#include <string>

#include "lowering/lowering_support.h"

namespace loupe::lowering {


tir::PrimFunc lowerFullyConnected(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerConv2D(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerDepthwiseConv2D(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerAveragePool2D(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerMaxPool2D(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerAdd(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerSub(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerMul(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerSoftmax(const ir::Graph&, const ir::Operator&, const std::string&);
// PAD and PADV2.
tir::PrimFunc lowerPad(const ir::Graph&, const ir::Operator&, const std::string&);
// RESHAPE, SQUEEZE and EXPAND_DIMS when they are not storage views.
tir::PrimFunc lowerCopy(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerConcatenation(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerTranspose(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerStridedSlice(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerMean(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerLogistic(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerTanh(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerRelu(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerRelu6(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerLeakyRelu(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerHardSwish(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerQuantize(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerDequantize(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerTransposeConv(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerSvdf(const ir::Graph&, const ir::Operator&, const std::string&);
tir::PrimFunc lowerSequenceLstm(const ir::Graph&, const ir::Operator&, const std::string&);

}  // namespace loupe::lowering
