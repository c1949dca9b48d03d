#include "frontend/tflite_importer.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <set>

#include "frontend/resource_variables.h"
#include "frontend/shape_consistency.h"
#include "frontend/vela_operator.h"
#include "ir/display_name.h"
#include "ir/tflite_builtin_names.h"
#include "ops/operator_registry.h"
#include "tflite_schema_generated.h"

namespace loupe::frontend {

namespace {

constexpr int kCustomBuiltinCode = 32;
// Tensors larger than this cannot be addressed on the targets Loupe serves.
constexpr std::int64_t kMaxTensorBytes = std::int64_t{1} << 31;

std::string shapeText(const flatbuffers::Vector<std::int32_t>* shape) {
  std::string text = "[";
  if (shape != nullptr) {
    for (flatbuffers::uoffset_t i = 0; i < shape->size(); ++i) {
      if (i) text += ",";
      text += std::to_string(shape->Get(i));
    }
  }
  return text + "]";
}

std::string printable(std::span<const std::uint8_t> bytes) {
  static const char* kHex = "0123456789abcdef";
  std::string text;
  for (auto byte : bytes) {
    if (byte >= 0x20 && byte < 0x7f) {
      text += static_cast<char>(byte);
    } else {
      text += "\\x";
      text += kHex[byte >> 4];
      text += kHex[byte & 15];
    }
  }
  return text;
}

std::optional<ir::DType> convertType(tflite::TensorType type) {
  switch (type) {
    case tflite::TensorType::FLOAT32:
      return ir::DType::Float32;
    case tflite::TensorType::FLOAT16:
      return ir::DType::Float16;
    case tflite::TensorType::INT32:
      return ir::DType::Int32;
    case tflite::TensorType::UINT8:
      return ir::DType::UInt8;
    case tflite::TensorType::INT64:
      return ir::DType::Int64;
    case tflite::TensorType::BOOL:
      return ir::DType::Bool;
    case tflite::TensorType::INT16:
      return ir::DType::Int16;
    case tflite::TensorType::INT8:
      return ir::DType::Int8;
    case tflite::TensorType::UINT32:
      return ir::DType::UInt32;
    case tflite::TensorType::UINT16:
      return ir::DType::UInt16;
    default:
      return std::nullopt;
  }
}

class ModelReader {
 public:
  ModelReader(std::span<const std::uint8_t> bytes, const ImportOptions& options)
      : bytes_(bytes), options_(options) {}

  // The model: subgraph 0, with its resource variables resolved (and any
  // init subgraph of CALL_ONCE folded into them).
  ir::Graph read() {
    verifyStructure();
    model_ = tflite::GetModel(bytes_.data());
    const auto* subgraphs = model_->subgraphs();
    if (subgraphs == nullptr || subgraphs->size() == 0) fail("the model has no subgraph");
    ir::Graph graph = readSubgraph(0);
    if (model_->description()) graph.description = ir::displayName(model_->description()->str());
    resolveResourceVariables(graph, *model_, handleTensors_, [this](int index) {
      ModelReader init(*this);
      init.subgraphIndex_ = index;
      ir::Graph subgraph = init.readSubgraph(index);
      checkShapeConsistency(subgraph);
      checkDataflow(subgraph);
      return subgraph;
    });
    checkShapeConsistency(graph);
    checkDataflow(graph);
    std::vector<int> running = {0};
    std::map<int, std::shared_ptr<const ir::Graph>> imported;
    attachSubgraphs(graph, running, imported);
    return graph;
  }

 private:
  // Reads the subgraphs the control-flow operators of `graph` run into
  // their ir::Operator::subgraphs, depth first (an operator of a subgraph may
  // run others). `running`: the subgraphs being read around this one, which
  // none may run again (TFLite Micro does not support recursion); `imported`:
  // each subgraph read once, shared by the operators that run it.
  void attachSubgraphs(ir::Graph& graph, std::vector<int>& running,
                       std::map<int, std::shared_ptr<const ir::Graph>>& imported) const {
    const int count = static_cast<int>(model_->subgraphs()->size());
    for (ir::Operator& op : graph.operators) {
      if (op.type != ir::OpType::If && op.type != ir::OpType::While) continue;
      const std::string where = subgraphPrefix(running.back()) + "operator " +
                                std::to_string(op.index) + " (" + op.typeName() + ")";
      const auto& options = std::get<ir::OptionAttrs>(op.attributes);
      for (const auto& [field, value] : options.values) {
        if (value < 0 || value >= count) {
          fail(where + ": " + field + " is " + std::to_string(value) + ", but the model has " +
               std::to_string(count) + " subgraphs");
        }
        const int index = static_cast<int>(value);
        if (std::find(running.begin(), running.end(), index) != running.end()) {
          fail(where + " runs subgraph " + std::to_string(index) +
               ", which is already running around it; recursive subgraphs are not supported");
        }
        if (!imported.contains(index)) {
          ModelReader reader(*this);
          reader.subgraphIndex_ = index;
          ir::Graph subgraph = reader.readSubgraph(index);
          if (!reader.handleTensors_.empty()) {
            fail("subgraph " + std::to_string(index) + " (run by " + where +
                 ") uses resource variables, which Loupe supports in the main subgraph only");
          }
          for (const ir::Tensor& tensor : subgraph.tensors) {
            if (tensor.isVariable) {
              fail("subgraph " + std::to_string(index) + " (run by " + where + ") has " +
                   "variable tensor " + std::to_string(tensor.index) + " '" + tensor.name +
                   "'; state inside a control-flow subgraph is not supported");
            }
          }
          checkShapeConsistency(subgraph);
          checkDataflow(subgraph);
          running.push_back(index);
          attachSubgraphs(subgraph, running, imported);
          running.pop_back();
          imported.emplace(index, std::make_shared<const ir::Graph>(std::move(subgraph)));
        }
        op.subgraphs.push_back(imported.at(index));
      }
    }
  }

  // "subgraph 2 " for operators and tensors outside the main subgraph.
  static std::string subgraphPrefix(int index) {
    return index == 0 ? "" : "subgraph " + std::to_string(index) + " ";
  }

  // Subgraph `index` as the file has it.
  ir::Graph readSubgraph(int index) {
    subgraph_ = model_->subgraphs()->Get(static_cast<flatbuffers::uoffset_t>(index));
    if (subgraph_ == nullptr) fail("subgraph " + std::to_string(index) + " is missing");
    handleTensors_.clear();
    ir::Graph graph;
    if (subgraph_->name()) graph.name = ir::displayName(subgraph_->name()->str());
    readTensors(graph);
    graph.inputs = readIndexList(subgraph_->inputs(), "model input", graph);
    graph.outputs = readIndexList(subgraph_->outputs(), "model output", graph);
    readOperators(graph);
    return graph;
  }

  [[noreturn]] static void fail(const std::string& what) { throw ImportError(what); }

  void verifyStructure() const {
    if (bytes_.empty()) fail("the file is empty (0 bytes); a TFLite model cannot be empty");
    if (bytes_.size() < 8) {
      fail("the file is truncated: " + std::to_string(bytes_.size()) +
           " bytes, too short for a FlatBuffer header (8 bytes)");
    }
    const auto identifier = bytes_.subspan(4, 4);
    if (std::memcmp(identifier.data(), tflite::ModelIdentifier(), 4) != 0) {
      fail("not a TFLite model: the file identifier is '" + printable(identifier) +
           "' (expected 'TFL3' at byte 4)");
    }
    if (bytes_.size() >= FLATBUFFERS_MAX_BUFFER_SIZE) {
      fail("the file is larger than a FlatBuffer can be (2 GiB)");
    }
    flatbuffers::Verifier verifier(bytes_.data(), bytes_.size());
    if (!tflite::VerifyModelBuffer(verifier)) {
      fail("the model is corrupt or truncated: its FlatBuffer structure does not verify (" +
           std::to_string(bytes_.size()) + " bytes; an offset or length points outside the file)");
    }
  }

  std::string tensorLabel(int index) const {
    const auto* tensors = subgraph_->tensors();
    std::string name;
    if (tensors && index >= 0 && static_cast<flatbuffers::uoffset_t>(index) < tensors->size()) {
      if (const auto* n = tensors->Get(index)->name()) name = ir::displayName(n->str());
    }
    return subgraphPrefix(subgraphIndex_) + "tensor " + std::to_string(index) + " '" + name + "'";
  }

  // The bytes of buffer `index`, from inside the FlatBuffer or, for models
  // over 2 GiB, from the file region the buffer's offset and size name.
  std::span<const std::uint8_t> bufferBytes(std::uint32_t index, const std::string& who) const {
    const auto* buffers = model_->buffers();
    const std::uint32_t count = buffers ? buffers->size() : 0;
    if (index >= count) {
      fail(who + " refers to buffer " + std::to_string(index) + " but the model has " +
           std::to_string(count) + " buffers");
    }
    const auto* buffer = buffers->Get(index);
    if (buffer == nullptr) return {};
    if (buffer->data() && buffer->data()->size() > 0) {
      return {buffer->data()->data(), buffer->data()->size()};
    }
    if (buffer->offset() > 1) {
      const std::uint64_t offset = buffer->offset(), size = buffer->size();
      if (offset > bytes_.size() || size > bytes_.size() - offset) {
        fail(who + ": buffer " + std::to_string(index) + " lies outside the file (offset " +
             std::to_string(offset) + ", size " + std::to_string(size) + ", file " +
             std::to_string(bytes_.size()) + " bytes)");
      }
      return bytes_.subspan(offset, size);
    }
    return {};
  }

  void readTensors(ir::Graph& graph) {
    const auto* tensors = subgraph_->tensors();
    if (tensors == nullptr) return;
    graph.tensors.reserve(tensors->size());
    for (flatbuffers::uoffset_t i = 0; i < tensors->size(); ++i) {
      const auto* source = tensors->Get(i);
      const std::string who = tensorLabel(static_cast<int>(i));
      ir::Tensor tensor;
      tensor.index = static_cast<int>(i);
      if (source->name()) tensor.name = ir::displayName(source->name()->str());
      auto dtype = convertType(source->type());
      if (source->type() == tflite::TensorType::RESOURCE) {
        // A resource handle: an int32 id to TFLite Micro, resolved away by
        // resolveResourceVariables.
        handleTensors_.insert(static_cast<int>(i));
        dtype = ir::DType::Int32;
      }
      if (!dtype) {
        fail(who + " has type " + std::string(tflite::EnumNameTensorType(source->type())) + " (" +
             std::to_string(static_cast<int>(source->type())) + "), which Loupe does not support");
      }
      tensor.dtype = *dtype;
      if (const auto* shape = source->shape()) {
        std::int64_t elements = 1;
        for (auto dim : *shape) {
          if (dim < 0) {
            fail(who + " has shape " + shapeText(shape) +
                 " with an unknown dimension; Loupe needs static shapes");
          }
          elements *= dim;
          if (elements * static_cast<std::int64_t>(ir::dtypeSize(tensor.dtype)) > kMaxTensorBytes) {
            fail(who + " with shape " + shapeText(shape) + " is larger than 2 GiB");
          }
          tensor.shape.push_back(dim);
        }
      }
      if (source->sparsity()) fail(who + " is sparse; Loupe supports dense tensors only");
      tensor.isVariable = source->is_variable();
      readQuantization(*source, tensor, who);

      const auto data = bufferBytes(source->buffer(), who);
      // TFLite Micro never reads the data a file gives a variable tensor: it
      // starts at zero (or the zero point), and so it does here.
      if (!data.empty() && !tensor.isVariable) {
        if (static_cast<std::int64_t>(data.size()) != tensor.byteSize()) {
          fail(who + " (" + std::string(ir::dtypeName(tensor.dtype)) + " " +
               shapeText(source->shape()) + ") needs " + std::to_string(tensor.byteSize()) +
               " bytes of data but buffer " + std::to_string(source->buffer()) + " holds " +
               std::to_string(data.size()));
        }
        tensor.isConstant = true;
        // Tensors on the same buffer share one copy of its bytes.
        auto [known, isNew] = constants_.try_emplace(source->buffer());
        if (isNew) known->second.assign(data.begin(), data.end());
        tensor.data = known->second;
      }
      graph.tensors.push_back(std::move(tensor));
    }
  }

  static void readQuantization(const tflite::Tensor& source, ir::Tensor& tensor,
                               const std::string& who) {
    const auto* q = source.quantization();
    if (q == nullptr) return;
    if (q->details_type() != tflite::QuantizationDetails::NONE) {
      fail(who + " uses custom quantization, which Loupe does not support");
    }
    const auto* scales = q->scale();
    const auto* zeroPoints = q->zero_point();
    if (scales == nullptr || scales->size() == 0) return;  // min/max only: not quantized
    if (zeroPoints == nullptr || zeroPoints->size() != scales->size()) {
      fail(who + " has " + std::to_string(scales->size()) + " quantization scales but " +
           std::to_string(zeroPoints ? zeroPoints->size() : 0) + " zero points");
    }
    for (auto scale : *scales) {
      if (!std::isfinite(scale) || scale < 0) {
        fail(who + " has an invalid quantization scale " + std::to_string(scale));
      }
    }
    tensor.quantization.scales.assign(scales->begin(), scales->end());
    // The Verifier aligns a vector's length, not its 8-byte elements, so a
    // crafted file can misalign them: copy the bytes instead of loading int64s.
    tensor.quantization.zeroPoints.resize(zeroPoints->size());
    std::memcpy(tensor.quantization.zeroPoints.data(), zeroPoints->Data(),
                zeroPoints->size() * sizeof(std::int64_t));
    tensor.quantization.quantizedDimension = q->quantized_dimension();
    if (scales->size() > 1) {
      const int dim = q->quantized_dimension();
      // TOCO wrote the depthwise filter's dimension 3 into per-channel biases
      // (rank 1), e.g. in TFLite Micro's person_detect example; TFLite Micro
      // never reads a bias's dimension and runs them. One scale per element
      // of a rank-1 tensor can only be along dimension 0, so read it so.
      if (tensor.shape.size() == 1 &&
          tensor.shape[0] == static_cast<std::int32_t>(scales->size())) {
        tensor.quantization.quantizedDimension = 0;
        return;
      }
      if (dim < 0 || static_cast<std::size_t>(dim) >= tensor.shape.size()) {
        fail(who + " is quantized per channel along dimension " + std::to_string(dim) +
             ", outside its rank " + std::to_string(tensor.shape.size()));
      }
      if (tensor.shape[static_cast<std::size_t>(dim)] !=
          static_cast<std::int32_t>(scales->size())) {
        fail(who + " has " + std::to_string(scales->size()) + " per-channel scales but dimension " +
             std::to_string(dim) + " has " +
             std::to_string(tensor.shape[static_cast<std::size_t>(dim)]) + " channels");
      }
    }
  }

  std::vector<int> readIndexList(const flatbuffers::Vector<std::int32_t>* list,
                                 const std::string& role, const ir::Graph& graph) const {
    std::vector<int> indices;
    if (list == nullptr) return indices;
    for (auto index : *list) {
      if (index < 0 || static_cast<std::size_t>(index) >= graph.tensors.size()) {
        fail(role + " refers to tensor " + std::to_string(index) + " but the subgraph has " +
             std::to_string(graph.tensors.size()) + " tensors");
      }
      indices.push_back(index);
    }
    return indices;
  }

  struct Opcode {
    int builtinCode;
    int version;
    std::string customCode;
  };

  Opcode opcode(std::uint32_t index, int opIndex) const {
    const auto* codes = model_->operator_codes();
    const std::uint32_t count = codes ? codes->size() : 0;
    if (index >= count) {
      fail("operator " + std::to_string(opIndex) + " uses opcode " + std::to_string(index) +
           " but the model defines " + std::to_string(count) + " opcodes");
    }
    const auto* code = codes->Get(index);
    // TFLite keeps small codes in the deprecated byte field and larger ones
    // in builtin_code; the effective code is the larger of the two.
    Opcode result{std::max<int>(code->builtin_code(), code->deprecated_builtin_code()),
                  code->version(),
                  code->custom_code() ? ir::displayName(code->custom_code()->str()) : ""};
    return result;
  }

  // An operator Loupe cannot compile, refused when importing for compilation.
  [[noreturn]] static void refuseOpaque(const Opcode& code, const std::string& where,
                                        const std::string& what) {
    fail(where + " is " + what + ", which Loupe " +
         (code.builtinCode == kCustomBuiltinCode
              ? "cannot compile or run (custom operators are opaque to it)"
              : "does not support"));
  }

  // The arena offsets of the subgraph's tensors from the model's metadata
  // "OfflineMemoryAllocation" (empty when it has none), read once.
  const std::vector<std::int32_t>& offlineArenaOffsets(const ir::Graph& graph) {
    if (offlineOffsetsRead_) return offlineOffsets_;
    offlineOffsetsRead_ = true;
    if (const auto* metadata = model_->metadata()) {
      for (const auto* entry : *metadata) {
        if (entry == nullptr || entry->name() == nullptr ||
            entry->name()->str() != "OfflineMemoryAllocation") {
          continue;
        }
        const auto bytes = bufferBytes(entry->buffer(), "metadata OfflineMemoryAllocation");
        offlineOffsets_ = parseOfflineMemoryAllocation(bytes, graph.tensors.size());
      }
    }
    return offlineOffsets_;
  }

  void readOperators(ir::Graph& graph) {
    const auto* operators = subgraph_->operators();
    if (operators == nullptr) return;
    for (flatbuffers::uoffset_t i = 0; i < operators->size(); ++i) {
      const auto* source = operators->Get(i);
      const int opIndex = static_cast<int>(i);
      const Opcode code = opcode(source->opcode_index(), opIndex);
      ir::Operator op;
      op.index = opIndex;
      op.version = code.version;
      std::string where = subgraphPrefix(subgraphIndex_) + "operator " + std::to_string(opIndex);

      const auto type = ir::opTypeFromBuiltinCode(code.builtinCode);
      if (code.builtinCode == kCustomBuiltinCode && code.customCode == kVelaCustomCode) {
        where += " (" + std::string(ir::opTypeName(ir::OpType::EthosU)) + ")";
        if (subgraphIndex_ != 0) fail(where + ": Vela operators run in the main subgraph only");
        op.inputs = readOperands(source->inputs(), where, "input", graph, true);
        op.outputs = readOperands(source->outputs(), where, "output", graph, false);
        graph.operators.push_back(
            velaOperatorToEthosU(graph, std::move(op), offlineArenaOffsets(graph), where));
        continue;
      }
      if (code.builtinCode == kCustomBuiltinCode || !type) {
        const bool custom = code.builtinCode == kCustomBuiltinCode;
        const std::string what = custom ? "the custom operator '" + code.customCode + "'"
                                        : "the builtin operator " +
                                              ir::tfliteBuiltinName(code.builtinCode) + " (code " +
                                              std::to_string(code.builtinCode) + ")";
        if (!options_.keepUnsupportedOperators) {
          refuseOpaque(code, where, what);
        }
        op.type = ir::OpType::Opaque;
        ir::OpaqueAttrs attrs;
        attrs.customCode = custom ? code.customCode : "";
        attrs.builtinCode = code.builtinCode;
        if (source->custom_options()) {
          attrs.customOptions.assign(source->custom_options()->begin(),
                                     source->custom_options()->end());
        }
        op.attributes = std::move(attrs);
      } else {
        op.type = *type;
        where += " (" + std::string(ir::opTypeName(op.type)) + ")";
      }

      op.inputs = readOperands(source->inputs(), where, "input", graph, true);
      op.outputs = readOperands(source->outputs(), where, "output", graph, false);
      op.intermediates = readOperands(source->intermediates(), where, "intermediate", graph, false);
      if (op.type != ir::OpType::Opaque) {
        const ops::ImportRule& rule = ops::definitionOf(op.type).import;
        checkAgainstRule(*source, op, rule, where);
        if (rule.readOptions != nullptr) op.attributes = rule.readOptions(*source, where);
      }
      graph.operators.push_back(std::move(op));
    }
  }

  std::vector<int> readOperands(const flatbuffers::Vector<std::int32_t>* list,
                                const std::string& where, const std::string& role,
                                const ir::Graph& graph, bool optionalAllowed) const {
    std::vector<int> indices;
    if (list == nullptr) return indices;
    for (flatbuffers::uoffset_t slot = 0; slot < list->size(); ++slot) {
      const int index = list->Get(slot);
      if (index == -1 && optionalAllowed) {
        indices.push_back(ir::kNoTensor);
        continue;
      }
      if (index < 0 || static_cast<std::size_t>(index) >= graph.tensors.size()) {
        fail(where + ": " + role + " " + std::to_string(slot) + " refers to tensor " +
             std::to_string(index) + " but the subgraph has " +
             std::to_string(graph.tensors.size()) + " tensors");
      }
      indices.push_back(index);
    }
    return indices;
  }

  static std::string optionsName(std::uint8_t unionType) {
    const char* name =
        tflite::EnumNameBuiltinOptions(static_cast<tflite::BuiltinOptions>(unionType));
    if (name != nullptr && *name != 0) return name;
    return "builtin options of union type " + std::to_string(unionType);
  }

  static void checkAgainstRule(const tflite::Operator& source, const ir::Operator& op,
                               const ops::ImportRule& spec, const std::string& where) {
    if (op.version < 1 || op.version > spec.maxVersion) {
      fail(where + " has version " + std::to_string(op.version) +
           "; Loupe supports versions 1 to " + std::to_string(spec.maxVersion));
    }
    const int inputs = static_cast<int>(op.inputs.size());
    if (inputs < spec.minInputs || (spec.maxInputs >= 0 && inputs > spec.maxInputs)) {
      std::string expected = std::to_string(spec.minInputs);
      if (spec.maxInputs != spec.minInputs) {
        expected += spec.maxInputs < 0 ? " or more" : " to " + std::to_string(spec.maxInputs);
      }
      fail(where + " has " + std::to_string(inputs) + " inputs; expected " + expected);
    }
    if (spec.outputs >= 0 ? static_cast<int>(op.outputs.size()) != spec.outputs
                          : op.outputs.empty()) {
      fail(where + " has " + std::to_string(op.outputs.size()) + " outputs; expected " +
           (spec.outputs >= 0 ? std::to_string(spec.outputs) : std::string("at least 1")));
    }
    const auto optionsType = static_cast<std::uint8_t>(source.builtin_options_type());
    if (optionsType != 0 && optionsType != spec.optionsType) {
      fail(where + " carries " + optionsName(optionsType) +
           ", which do not belong to this operator; expected " +
           (spec.optionsType ? optionsName(spec.optionsType) : std::string("no options")));
    }
    if (spec.optionsRequired && (optionsType == 0 || source.builtin_options() == nullptr)) {
      fail(where + " has no " + optionsName(spec.optionsType) + "; this operator needs them");
    }
  }

  std::span<const std::uint8_t> bytes_;
  const ImportOptions& options_;
  const tflite::Model* model_ = nullptr;
  const tflite::SubGraph* subgraph_ = nullptr;
  std::set<int> handleTensors_;  // RESOURCE tensors of the subgraph being read
  // The bytes of each buffer read so far, by buffer index (for every subgraph).
  std::map<std::uint32_t, ir::ConstantBytes> constants_;
  int subgraphIndex_ = 0;  // the subgraph being read, for messages
  bool offlineOffsetsRead_ = false;
  std::vector<std::int32_t> offlineOffsets_;
};

}  // namespace

ir::Graph importTflite(std::span<const std::uint8_t> bytes, const ImportOptions& options) {
  return ModelReader(bytes, options).read();
}

std::vector<std::uint8_t> readTfliteFile(const std::filesystem::path& path) {
  // A folder opens as a stream on Linux and fails only when read, with the
  // library's words and without the path.
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw ImportError("cannot read " + path.string() + ": it is a folder, not a TFLite model");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ImportError("cannot open " + path.string() + ": " + std::strerror(errno));
  }
  // Read in one piece at the file's size: growing a buffer as the stream is
  // read would hold up to twice a large model at once.
  // A pipe has no size and is read as a stream.
  std::vector<std::uint8_t> bytes;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size >= 0 && in.seekg(0, std::ios::beg)) {
    bytes.resize(static_cast<std::size_t>(size));
    in.read(reinterpret_cast<char*>(bytes.data()), size);
    if (in.gcount() != size) throw ImportError("cannot read " + path.string());
  } else {
    in.clear();
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  if (in.bad()) throw ImportError("cannot read " + path.string());
  return bytes;
}

ir::Graph importTfliteFile(const std::filesystem::path& path, std::span<const std::uint8_t> bytes,
                           const ImportOptions& options) {
  try {
    ir::Graph graph = importTflite(bytes, options);
    graph.name = ir::displayName(path.stem().string());
    return graph;
  } catch (const ImportError& error) {
    throw ImportError(path.filename().string() + ": " + error.what());
  }
}

ir::Graph importTfliteFile(const std::filesystem::path& path, const ImportOptions& options) {
  return importTfliteFile(path, readTfliteFile(path), options);
}

}  // namespace loupe::frontend
