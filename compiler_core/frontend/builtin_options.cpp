#include "frontend/builtin_options.h"

#include <cmath>

#include "frontend/tflite_importer.h"

namespace loupe::frontend {

namespace {

using ir::OpType;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw ImportError(where + ": " + what);
}

ir::Padding padding(tflite::Padding value, const std::string& where) {
  switch (value) {
    case tflite::Padding::SAME:
      return ir::Padding::Same;
    case tflite::Padding::VALID:
      return ir::Padding::Valid;
  }
  fail(where, "unknown padding value " + std::to_string(static_cast<int>(value)) +
                  " (expected 0 SAME or 1 VALID)");
}

ir::Activation activation(tflite::ActivationFunctionType value, const std::string& where) {
  switch (value) {
    case tflite::ActivationFunctionType::NONE:
      return ir::Activation::None;
    case tflite::ActivationFunctionType::RELU:
      return ir::Activation::Relu;
    case tflite::ActivationFunctionType::RELU_N1_TO_1:
      return ir::Activation::ReluN1To1;
    case tflite::ActivationFunctionType::RELU6:
      return ir::Activation::Relu6;
    case tflite::ActivationFunctionType::TANH:
      return ir::Activation::Tanh;
    case tflite::ActivationFunctionType::SIGN_BIT:
      return ir::Activation::SignBit;
  }
  fail(where, "unknown fused activation value " + std::to_string(static_cast<int>(value)));
}

int positive(int value, const char* field, const std::string& where) {
  if (value < 1) {
    fail(where, std::string(field) + " is " + std::to_string(value) + "; it must be at least 1");
  }
  return value;
}

template <typename Options>
const Options* optionsAs(const tflite::Operator& op) {
  return static_cast<const Options*>(op.builtin_options());
}

}  // namespace

ir::Attributes convertBuiltinOptions(const tflite::Operator& op, OpType type,
                                     const std::string& where) {
  switch (type) {
    case OpType::Conv2D: {
      const auto* o = optionsAs<tflite::Conv2DOptions>(op);
      ir::Conv2DAttrs a;
      a.padding = padding(o->padding(), where);
      a.strideW = positive(o->stride_w(), "stride_w", where);
      a.strideH = positive(o->stride_h(), "stride_h", where);
      a.dilationW = positive(o->dilation_w_factor(), "dilation_w_factor", where);
      a.dilationH = positive(o->dilation_h_factor(), "dilation_h_factor", where);
      a.activation = activation(o->fused_activation_function(), where);
      return a;
    }
    case OpType::DepthwiseConv2D: {
      const auto* o = optionsAs<tflite::DepthwiseConv2DOptions>(op);
      ir::DepthwiseConv2DAttrs a;
      a.padding = padding(o->padding(), where);
      a.strideW = positive(o->stride_w(), "stride_w", where);
      a.strideH = positive(o->stride_h(), "stride_h", where);
      a.dilationW = positive(o->dilation_w_factor(), "dilation_w_factor", where);
      a.dilationH = positive(o->dilation_h_factor(), "dilation_h_factor", where);
      if (o->depth_multiplier() < 0) {
        fail(where, "depth_multiplier is " + std::to_string(o->depth_multiplier()));
      }
      a.depthMultiplier = o->depth_multiplier();
      a.activation = activation(o->fused_activation_function(), where);
      return a;
    }
    case OpType::AveragePool2D:
    case OpType::MaxPool2D: {
      const auto* o = optionsAs<tflite::Pool2DOptions>(op);
      ir::Pool2DAttrs a;
      a.padding = padding(o->padding(), where);
      a.strideW = positive(o->stride_w(), "stride_w", where);
      a.strideH = positive(o->stride_h(), "stride_h", where);
      a.filterW = positive(o->filter_width(), "filter_width", where);
      a.filterH = positive(o->filter_height(), "filter_height", where);
      a.activation = activation(o->fused_activation_function(), where);
      return a;
    }
    case OpType::FullyConnected: {
      ir::FullyConnectedAttrs a;
      if (const auto* o = optionsAs<tflite::FullyConnectedOptions>(op)) {
        if (o->weights_format() != tflite::FullyConnectedOptionsWeightsFormat::DEFAULT) {
          fail(where, "the shuffled weights format (SHUFFLED4x16INT8) is not supported");
        }
        a.activation = activation(o->fused_activation_function(), where);
        a.keepNumDims = o->keep_num_dims();
        a.asymmetricQuantizeInputs = o->asymmetric_quantize_inputs();
      }
      return a;
    }
    case OpType::Softmax: {
      const auto* o = optionsAs<tflite::SoftmaxOptions>(op);
      if (!std::isfinite(o->beta())) fail(where, "beta is not a finite number");
      return ir::SoftmaxAttrs{o->beta()};
    }
    case OpType::Concatenation: {
      const auto* o = optionsAs<tflite::ConcatenationOptions>(op);
      return ir::ConcatenationAttrs{o->axis(), activation(o->fused_activation_function(), where)};
    }
    case OpType::Add: {
      ir::ElementwiseAttrs a;
      if (const auto* o = optionsAs<tflite::AddOptions>(op)) {
        a.activation = activation(o->fused_activation_function(), where);
        a.potScaleInt16 = o->pot_scale_int16();
      }
      return a;
    }
    case OpType::Sub: {
      ir::ElementwiseAttrs a;
      if (const auto* o = optionsAs<tflite::SubOptions>(op)) {
        a.activation = activation(o->fused_activation_function(), where);
        a.potScaleInt16 = o->pot_scale_int16();
      }
      return a;
    }
    case OpType::Mul: {
      ir::ElementwiseAttrs a;
      if (const auto* o = optionsAs<tflite::MulOptions>(op)) {
        a.activation = activation(o->fused_activation_function(), where);
      }
      return a;
    }
    case OpType::Reshape: {
      ir::ReshapeAttrs a;
      if (const auto* o = optionsAs<tflite::ReshapeOptions>(op); o && o->new_shape()) {
        a.newShape.assign(o->new_shape()->begin(), o->new_shape()->end());
      }
      return a;
    }
    case OpType::Squeeze: {
      ir::SqueezeAttrs a;
      if (const auto* o = optionsAs<tflite::SqueezeOptions>(op); o && o->squeeze_dims()) {
        a.squeezeDims.assign(o->squeeze_dims()->begin(), o->squeeze_dims()->end());
      }
      return a;
    }
    case OpType::LeakyRelu: {
      ir::LeakyReluAttrs a;
      if (const auto* o = optionsAs<tflite::LeakyReluOptions>(op)) a.alpha = o->alpha();
      if (!std::isfinite(a.alpha)) fail(where, "alpha is not a finite number");
      return a;
    }
    case OpType::Mean: {
      ir::ReducerAttrs a;
      if (const auto* o = optionsAs<tflite::ReducerOptions>(op)) a.keepDims = o->keep_dims();
      return a;
    }
    case OpType::StridedSlice: {
      ir::StridedSliceAttrs a;
      if (const auto* o = optionsAs<tflite::StridedSliceOptions>(op)) {
        a.beginMask = o->begin_mask();
        a.endMask = o->end_mask();
        a.ellipsisMask = o->ellipsis_mask();
        a.newAxisMask = o->new_axis_mask();
        a.shrinkAxisMask = o->shrink_axis_mask();
        a.offset = o->offset();
      }
      return a;
    }
    case OpType::TransposeConv: {
      const auto* o = optionsAs<tflite::TransposeConvOptions>(op);
      ir::TransposeConvAttrs a;
      a.padding = padding(o->padding(), where);
      a.strideW = positive(o->stride_w(), "stride_w", where);
      a.strideH = positive(o->stride_h(), "stride_h", where);
      a.activation = activation(o->fused_activation_function(), where);
      return a;
    }
    case OpType::Svdf: {
      const auto* o = optionsAs<tflite::SVDFOptions>(op);
      ir::SvdfAttrs a;
      a.rank = positive(o->rank(), "rank", where);
      a.activation = activation(o->fused_activation_function(), where);
      a.asymmetricQuantizeInputs = o->asymmetric_quantize_inputs();
      return a;
    }
    case OpType::UnidirectionalSequenceLstm: {
      const auto* o = optionsAs<tflite::UnidirectionalSequenceLSTMOptions>(op);
      ir::SequenceLstmAttrs a;
      a.activation = activation(o->fused_activation_function(), where);
      a.cellClip = o->cell_clip();
      a.projClip = o->proj_clip();
      if (!std::isfinite(a.cellClip) || a.cellClip < 0 || !std::isfinite(a.projClip) ||
          a.projClip < 0) {
        fail(where, "cell_clip and proj_clip must be finite and not negative");
      }
      a.timeMajor = o->time_major();
      a.asymmetricQuantizeInputs = o->asymmetric_quantize_inputs();
      a.diagonalRecurrentTensors = o->diagonal_recurrent_tensors();
      return a;
    }
    default:
      return std::monostate{};
  }
}

}  // namespace loupe::frontend
