#include "ethosu/vela_layout_tflite.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <set>

#include "ethosu/region_compiler.h"
#include "frontend/vela_operator.h"
#include "ir/op_type.h"
// The object API, only to copy an operator's builtin options whatever their
// table. Included by its folder, as the compiler's include path holds the
// reader of the same name; this file is built outside the unity batches,
// whose other files include the reader (both headers have one include guard).
#include "schema_object_api/tflite_schema_generated.h"

namespace loupe::ethosu {

namespace {

constexpr std::int32_t kCustomBuiltinCode = 32;  // BuiltinOperator CUSTOM
// Vela's custom options: a FlexBuffer holding the uint8 1, which TFLite
// Micro's ethos-u kernel requires (CO_TYPE_ETHOSU).
const std::vector<std::uint8_t> kEthosUCustomOptions = {0x01, 0x04, 0x01};
// TFLite Micro's arena and the NPU's base addresses are 16-byte aligned.
constexpr std::int64_t kArenaAlignment = 16;
constexpr std::string_view kOfflineMemoryAllocation = "OfflineMemoryAllocation";

std::int64_t alignUp(std::int64_t n) {
  return (n + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment;
}

[[noreturn]] void refuse(const std::string& what) {
  throw VelaLayoutError(what);
}

std::string tensorLabel(const tflite::SubGraph& graph, int index) {
  const auto* tensor = graph.tensors()->Get(static_cast<flatbuffers::uoffset_t>(index));
  return "tensor " + std::to_string(index) + " '" +
         (tensor->name() != nullptr ? tensor->name()->str() : std::string()) + "'";
}

std::vector<std::int32_t> vectorOf(const flatbuffers::Vector<std::int32_t>* v) {
  return v != nullptr ? std::vector<std::int32_t>(v->begin(), v->end())
                      : std::vector<std::int32_t>{};
}

// An NPU region of the compiled graph and the tensors the file gives it.
struct Region {
  const ir::Operator* op = nullptr;
  const ir::EthosUAttrs* attrs = nullptr;
  std::int64_t arenaOffset = 0;                                  // of its scratch
  int payload = -1, flash = -1, scratch = -1, fastScratch = -1;  // output tensor indices
};

// An operator of the file: a source operator copied, or a region's custom
// operator.
struct FileOperator {
  int source = -1;
  int region = -1;
  // Loupe removed it (folded into a constant, or dead): kept only while an
  // operator of the file still reads what it writes.
  bool removable = false;
};

class VelaLayoutWriter {
 public:
  VelaLayoutWriter(std::span<const std::uint8_t> source, const ir::Graph& compiled)
      : source_(source), compiled_(compiled) {}

  VelaLayoutTflite run() {
    readSource();
    findRegions();
    orderOperators();
    dropUnreadRemovedOperators();
    requireProducedBeforeRead();
    numberTensors();
    placeScratches();
    return build();
  }

 private:
  void readSource() {
    flatbuffers::Verifier verifier(source_.data(), source_.size());
    if (!tflite::VerifyModelBuffer(verifier)) refuse("the source model is not a valid TFLite file");
    model_ = tflite::GetModel(source_.data());
    const auto* subgraphs = model_->subgraphs();
    if (subgraphs == nullptr || subgraphs->size() != 1) {
      refuse("the model has " + std::to_string(subgraphs ? subgraphs->size() : 0) +
             " subgraphs; Loupe writes Vela's layout for a model of one subgraph");
    }
    graph_ = subgraphs->Get(0);
    if (model_->operator_codes() == nullptr || graph_->tensors() == nullptr) {
      refuse("the model has no operators");
    }
    for (const auto* code : *model_->operator_codes()) {
      const std::int32_t builtin =
          std::max<std::int32_t>(code->builtin_code(), code->deprecated_builtin_code());
      if (builtin == kCustomBuiltinCode && code->custom_code() != nullptr &&
          code->custom_code()->str() == frontend::kVelaCustomCode) {
        refuse(
            "the model already holds ethos-u operators (it was compiled by Vela); compile the "
            "model Vela was given instead");
      }
      // The importer turns resource variables into graph state and renumbers
      // the operators, so they no longer name the file's.
      for (const ir::OpType type : {ir::OpType::VarHandle, ir::OpType::ReadVariable,
                                    ir::OpType::AssignVariable, ir::OpType::CallOnce}) {
        if (ir::opTypeFromBuiltinCode(builtin) == type) {
          refuse("the model uses resource variables (" + std::string(ir::opTypeName(type)) +
                 "), which Loupe cannot write in Vela's layout");
        }
      }
    }
  }

  int sourceOperatorCount() const {
    return graph_->operators() != nullptr ? static_cast<int>(graph_->operators()->size()) : 0;
  }
  int sourceTensorCount() const { return static_cast<int>(graph_->tensors()->size()); }

  void findRegions() {
    for (const ir::Operator& op : compiled_.operators) {
      if (op.type != ir::OpType::EthosU) continue;
      if (npuRegionSource(op) == nullptr) {
        refuse("operator " + std::to_string(op.index) +
               " is an Ethos-U operator Loupe did not compile; only Loupe's regions can be "
               "written");
      }
      regions_.push_back({&op, &std::get<ir::EthosUAttrs>(op.attributes)});
    }
    if (regions_.empty()) {
      refuse(
          "no operator of the model was compiled for the Ethos-U (every operator runs on the "
          "CPU), so there is no ethos-u operator to write; see loupec info MODEL --target");
    }
    // Each region's feature maps are the file's tensors of the same index
    // (the importer keeps TFLite's indices and the passes append only).
    for (const Region& region : regions_) {
      for (std::size_t slot = 2; slot < region.op->inputs.size(); ++slot) {
        requireSourceTensor(region.op->inputs[slot]);
      }
      for (const int t : region.op->outputs) requireSourceTensor(t);
    }
  }

  void requireSourceTensor(int index) const {
    if (index < 0 || index >= sourceTensorCount()) {
      throw std::logic_error("Ethos-U feature map " + std::to_string(index) +
                             " is not a tensor of the source model");
    }
    const auto* source = graph_->tensors()->Get(static_cast<flatbuffers::uoffset_t>(index));
    const std::vector<std::int32_t> shape = vectorOf(source->shape());
    const ir::Tensor& tensor = compiled_.tensor(index);
    if (!std::equal(shape.begin(), shape.end(), tensor.shape.begin(), tensor.shape.end())) {
      throw std::logic_error("Ethos-U feature map " + std::to_string(index) +
                             " has another shape than the source model's tensor");
    }
  }

  // The file's operators in an order that runs: the operators Loupe removed
  // first (folding leaves only those that read constants), then the compiled
  // graph's in its order, each region as its custom operator and every other
  // operator as the source operators it stands for.
  void orderOperators() {
    constexpr int kNone = -2, kCpu = -1;
    std::vector<int> owner(static_cast<std::size_t>(sourceOperatorCount()), kNone);
    for (const ir::Operator& op : compiled_.operators) {
      int region = kCpu;
      for (std::size_t r = 0; r < regions_.size(); ++r) {
        if (regions_[r].op == &op) region = static_cast<int>(r);
      }
      for (const int m : op.modelOperators()) {
        if (m < 0 || m >= sourceOperatorCount()) {
          throw std::logic_error("compiled operator " + std::to_string(op.index) +
                                 " names model operator " + std::to_string(m));
        }
        int& o = owner[static_cast<std::size_t>(m)];
        if (o != kNone && o != region) {
          refuse("model operator " + std::to_string(m) +
                 " was split between the Ethos-U and the CPU, which one file cannot say");
        }
        o = region;
      }
    }
    for (int m = 0; m < sourceOperatorCount(); ++m) {
      if (owner[static_cast<std::size_t>(m)] == kNone) operators_.push_back({m, -1, true});
    }
    std::set<int> copied;
    for (const ir::Operator& op : compiled_.operators) {
      const int region = owner[static_cast<std::size_t>(op.modelOperators().front())];
      if (region >= 0) {
        operators_.push_back({-1, region, false});
        continue;
      }
      std::vector<int> models = op.modelOperators();
      std::sort(models.begin(), models.end());
      for (const int m : models) {
        if (copied.insert(m).second) operators_.push_back({m, -1, false});
      }
    }
  }

  const tflite::Operator& sourceOperator(int index) const {
    return *graph_->operators()->Get(static_cast<flatbuffers::uoffset_t>(index));
  }

  std::vector<int> inputsOf(const FileOperator& op) const {
    if (op.region >= 0) {
      const ir::Operator& npu = *regions_[static_cast<std::size_t>(op.region)].op;
      return {npu.inputs.begin() + 2, npu.inputs.end()};
    }
    return vectorOf(sourceOperator(op.source).inputs());
  }
  std::vector<int> outputsOf(const FileOperator& op) const {
    if (op.region >= 0) return regions_[static_cast<std::size_t>(op.region)].op->outputs;
    return vectorOf(sourceOperator(op.source).outputs());
  }

  // A folded operator whose constant only the NPU read (it is in the flash
  // now) would run for nothing: removed operators go when nothing reads them
  // (those without outputs, which only dead code elimination removes, too).
  void dropUnreadRemovedOperators() {
    for (bool dropped = true; dropped;) {
      dropped = false;
      const std::vector<int> modelOutputs = vectorOf(graph_->outputs());
      std::set<int> read(modelOutputs.begin(), modelOutputs.end());
      for (const FileOperator& op : operators_) {
        for (const int t : inputsOf(op)) read.insert(t);
      }
      std::erase_if(operators_, [&](const FileOperator& op) {
        const std::vector<int> outputs = outputsOf(op);
        const bool unread = op.removable && std::none_of(outputs.begin(), outputs.end(),
                                                         [&](int t) { return read.count(t); });
        dropped = dropped || unread;
        return unread;
      });
    }
  }

  bool isConstant(int tensor) const {
    const auto* t = graph_->tensors()->Get(static_cast<flatbuffers::uoffset_t>(tensor));
    const auto* buffers = model_->buffers();
    if (buffers == nullptr || t->buffer() >= buffers->size()) return false;
    const auto* buffer = buffers->Get(t->buffer());
    return (buffer->data() != nullptr && buffer->data()->size() > 0) || buffer->size() > 0;
  }

  // Every tensor an operator reads is a constant, a model input, state, or
  // written by an operator before it: else the file would not run.
  void requireProducedBeforeRead() const {
    const std::vector<int> inputs = vectorOf(graph_->inputs());
    std::set<int> written(inputs.begin(), inputs.end());
    for (const FileOperator& op : operators_) {
      for (const int t : inputsOf(op)) {
        if (t < 0 || written.count(t) || isConstant(t)) continue;
        if (graph_->tensors()->Get(static_cast<flatbuffers::uoffset_t>(t))->is_variable()) {
          continue;
        }
        throw std::logic_error(
            "the file's " +
            (op.region >= 0 ? "ethos-u operator" : "operator " + std::to_string(op.source)) +
            " reads " + tensorLabel(*graph_, t) + " before anything writes it");
      }
      for (const int t : outputsOf(op)) written.insert(t);
    }
  }

  // The source's tensors that the file's operators, inputs and outputs use,
  // in the source's order, then each region's payload, flash, scratch and
  // fast scratch.
  void numberTensors() {
    std::set<int> used;
    for (const auto* list : {graph_->inputs(), graph_->outputs()}) {
      for (const int t : vectorOf(list)) used.insert(t);
    }
    for (const FileOperator& op : operators_) {
      for (const int t : inputsOf(op)) used.insert(t);
      for (const int t : outputsOf(op)) used.insert(t);
      if (op.source >= 0) {
        for (const int t : vectorOf(sourceOperator(op.source).intermediates())) used.insert(t);
      }
    }
    used.erase(-1);
    for (const int t : used) {
      tensorIndex_[t] = static_cast<int>(keptTensors_.size());
      keptTensors_.push_back(t);
    }
    int next = static_cast<int>(keptTensors_.size());
    for (Region& region : regions_) {
      region.payload = next++;
      region.flash = next++;
      region.scratch = next++;
      region.fastScratch = next++;
    }
    tensorCount_ = next;
  }

  int fileTensor(int sourceTensor) const {
    return sourceTensor < 0 ? -1 : tensorIndex_.at(sourceTensor);
  }

  // Each region's scratch gets bytes of the arena of its own, one after the
  // other; a feature map lies in its region's scratch at the offset the
  // command stream addresses. The fast scratch is the scratch's bytes, as
  // Vela places it for the U55's one SRAM (Loupe's streams address no other).
  void placeScratches() {
    offsets_.assign(static_cast<std::size_t>(tensorCount_), -1);
    std::int64_t arenaEnd = 0;
    for (Region& region : regions_) {
      region.arenaOffset = arenaEnd;
      arenaEnd = alignUp(arenaEnd + region.attrs->scratchBytes);
      place(region.scratch, region.arenaOffset, "the scratch");
      place(region.fastScratch, region.arenaOffset, "the fast scratch");
      const std::vector<int>& inputs = region.op->inputs;
      for (std::size_t i = 0; i + 2 < inputs.size(); ++i) {
        place(fileTensor(inputs[i + 2]), region.arenaOffset + region.attrs->inputOffsets.at(i),
              tensorLabel(*graph_, inputs[i + 2]));
      }
      for (std::size_t i = 0; i < region.op->outputs.size(); ++i) {
        place(fileTensor(region.op->outputs[i]),
              region.arenaOffset + region.attrs->outputOffsets.at(i),
              tensorLabel(*graph_, region.op->outputs[i]));
      }
    }
    scratchArenaBytes_ = arenaEnd;
  }

  void place(int fileTensorIndex, std::int64_t offset, const std::string& what) {
    std::int32_t& slot = offsets_.at(static_cast<std::size_t>(fileTensorIndex));
    if (offset > INT32_MAX) refuse(what + " lies beyond 2 GiB of arena");
    if (slot >= 0 && slot != offset) {
      refuse(what +
             " passes from one Ethos-U region straight to another, whose scratch areas "
             "would need it at two places (arena offsets " +
             std::to_string(slot) + " and " + std::to_string(offset) + ")");
    }
    slot = static_cast<std::int32_t>(offset);
  }

  // --- Writing -----------------------------------------------------------

  // A buffer's bytes, inline or (a model over 2 GiB) at offset/size in the file.
  std::span<const std::uint8_t> bufferBytes(std::uint32_t index) const {
    const auto* buffers = model_->buffers();
    if (buffers == nullptr || index >= buffers->size()) return {};
    const auto* buffer = buffers->Get(index);
    if (buffer->data() != nullptr && buffer->data()->size() > 0) {
      return {buffer->data()->data(), buffer->data()->size()};
    }
    if (buffer->size() > 0 && buffer->offset() > 1 && buffer->offset() <= source_.size() &&
        buffer->size() <= source_.size() - buffer->offset()) {
      return source_.subspan(buffer->offset(), buffer->size());
    }
    return {};
  }

  std::uint32_t addBuffer(std::span<const std::uint8_t> bytes) {
    buffers_.push_back(bytes);
    return static_cast<std::uint32_t>(buffers_.size() - 1);
  }

  flatbuffers::Offset<tflite::Tensor> copyTensor(int index) {
    const auto* t = graph_->tensors()->Get(static_cast<flatbuffers::uoffset_t>(index));
    // Tensors that share a buffer in the source share it in the file; an
    // empty buffer stays an empty one of the tensor's own, as converters
    // (and Vela, outside the scratch) give them.
    std::uint32_t buffer = 0;
    if (t->buffer() != 0) {
      const auto [known, isNew] = bufferIndex_.try_emplace(t->buffer(), 0);
      if (isNew) known->second = addBuffer(bufferBytes(t->buffer()));
      buffer = known->second;
    }
    flatbuffers::Offset<tflite::QuantizationParameters> quantization = 0;
    if (t->quantization() != nullptr) {
      const std::unique_ptr<tflite::QuantizationParametersT> q(t->quantization()->UnPack());
      quantization = tflite::CreateQuantizationParameters(fbb_, q.get());
    }
    if (t->sparsity() != nullptr) refuse(tensorLabel(*graph_, index) + " is sparse");
    const std::vector<std::int32_t> shape = vectorOf(t->shape());
    const auto signature =
        t->shape_signature() ? fbb_.CreateVector(vectorOf(t->shape_signature())) : 0;
    return tflite::CreateTensor(fbb_, fbb_.CreateVector(shape), t->type(), buffer,
                                t->name() ? fbb_.CreateString(t->name()->str()) : 0, quantization,
                                t->is_variable(), 0, signature, t->has_rank());
  }

  flatbuffers::Offset<tflite::Tensor> byteTensor(const std::string& name, std::int64_t bytes,
                                                 std::uint32_t buffer) {
    return tflite::CreateTensor(
        fbb_, fbb_.CreateVector(std::vector<std::int32_t>{static_cast<std::int32_t>(bytes)}),
        tflite::TensorType::UINT8, buffer, fbb_.CreateString(name));
  }

  std::vector<std::int32_t> fileTensors(const std::vector<std::int32_t>& sourceTensors) const {
    std::vector<std::int32_t> file;
    for (const int t : sourceTensors) file.push_back(fileTensor(t));
    return file;
  }

  flatbuffers::Offset<tflite::Operator> copyOperator(int index,
                                                     const std::map<std::uint32_t, int>& codes) {
    const tflite::Operator& op = sourceOperator(index);
    if (op.large_custom_options_size() > 0) {
      refuse("operator " + std::to_string(index) +
             " keeps its custom options outside the "
             "flatbuffer, which Loupe does not copy");
    }
    tflite::BuiltinOptionsUnion options;
    if (op.builtin_options_type() != tflite::BuiltinOptions::NONE) {
      options.type = op.builtin_options_type();
      options.value = tflite::BuiltinOptionsUnion::UnPack(op.builtin_options(),
                                                          op.builtin_options_type(), nullptr);
      if (options.value == nullptr) {
        refuse("operator " + std::to_string(index) + " has builtin options of type " +
               std::to_string(static_cast<int>(op.builtin_options_type())) +
               ", which Loupe's schema does not hold");
      }
    }
    const auto custom = op.custom_options() ? fbb_.CreateVector(op.custom_options()->data(),
                                                                op.custom_options()->size())
                                            : 0;
    const auto mutating =
        fbb_.CreateVector(op.mutating_variable_inputs()
                              ? std::vector<std::uint8_t>(op.mutating_variable_inputs()->begin(),
                                                          op.mutating_variable_inputs()->end())
                              : std::vector<std::uint8_t>{});
    return tflite::CreateOperator(fbb_, static_cast<std::uint32_t>(codes.at(op.opcode_index())),
                                  fbb_.CreateVector(fileTensors(vectorOf(op.inputs()))),
                                  fbb_.CreateVector(fileTensors(vectorOf(op.outputs()))),
                                  options.type, options.Pack(fbb_), custom,
                                  op.custom_options_format(), mutating,
                                  fbb_.CreateVector(fileTensors(vectorOf(op.intermediates()))));
  }

  flatbuffers::Offset<tflite::Operator> regionOperator(const Region& region,
                                                       std::uint32_t ethosUCode) {
    std::vector<std::int32_t> inputs = {region.payload, region.flash, region.scratch,
                                        region.fastScratch};
    for (std::size_t slot = 2; slot < region.op->inputs.size(); ++slot) {
      inputs.push_back(fileTensor(region.op->inputs[slot]));
    }
    std::vector<std::int32_t> outputs;
    for (const int t : region.op->outputs) outputs.push_back(fileTensor(t));
    return tflite::CreateOperator(
        fbb_, ethosUCode, fbb_.CreateVector(inputs), fbb_.CreateVector(outputs),
        tflite::BuiltinOptions::NONE, 0, fbb_.CreateVector(kEthosUCustomOptions),
        tflite::CustomOptionsFormat::FLEXBUFFERS, fbb_.CreateVector(std::vector<std::uint8_t>{}),
        fbb_.CreateVector(std::vector<std::int32_t>{}));
  }

  // [version 0, subgraphs 1, tensors, one arena offset per tensor (-1: TFLite
  // Micro places it)], int32 little-endian, as TFLite Micro reads it.
  std::vector<std::uint8_t> offlineMemoryAllocation() const {
    std::vector<std::int32_t> words = {0, 1, tensorCount_};
    words.insert(words.end(), offsets_.begin(), offsets_.end());
    std::vector<std::uint8_t> bytes;
    for (const std::int32_t word : words) {
      const auto u = static_cast<std::uint32_t>(word);
      for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<std::uint8_t>(u >> (8 * i)));
    }
    return bytes;
  }

  VelaLayoutTflite build() {
    VelaLayoutTflite result;
    buffers_.push_back({});  // buffer 0: empty, for the tensors in the scratch areas
    // Operator codes: the source's that the kept operators use, in the
    // source's order, then "ethos-u".
    std::map<std::uint32_t, int> codes;
    for (const FileOperator& op : operators_) {
      if (op.source >= 0) codes[sourceOperator(op.source).opcode_index()] = 0;
    }
    std::vector<flatbuffers::Offset<tflite::OperatorCode>> codeTables;
    for (auto& [sourceCode, fileCode] : codes) {
      const auto* code = model_->operator_codes()->Get(sourceCode);
      fileCode = static_cast<int>(codeTables.size());
      codeTables.push_back(tflite::CreateOperatorCode(
          fbb_, code->deprecated_builtin_code(),
          code->custom_code() ? fbb_.CreateString(code->custom_code()->str()) : 0, code->version(),
          code->builtin_code()));
    }
    const auto ethosUCode = static_cast<std::uint32_t>(codeTables.size());
    codeTables.push_back(tflite::CreateOperatorCode(
        fbb_, static_cast<std::int8_t>(kCustomBuiltinCode),
        fbb_.CreateString(std::string(frontend::kVelaCustomCode)), 1, kCustomBuiltinCode));

    std::vector<flatbuffers::Offset<tflite::Tensor>> tensors;
    for (const int t : keptTensors_) tensors.push_back(copyTensor(t));
    const std::string prefix = graph_->name() ? graph_->name()->str() + "_" : std::string();
    for (std::size_t r = 0; r < regions_.size(); ++r) {
      const Region& region = regions_[r];
      const std::string name = prefix + "ethos-u_" + std::to_string(r + 1);
      const ir::Tensor& payload = compiled_.tensor(region.op->inputs[0]);
      const ir::Tensor* flash = compiled_.input(*region.op, 1);
      const std::span<const std::uint8_t> flashBytes =
          flash ? std::span<const std::uint8_t>(flash->data.data(), flash->data.bytes().size())
                : std::span<const std::uint8_t>();
      tensors.push_back(byteTensor(name + "_command_stream", payload.byteSize(),
                                   addBuffer({payload.data.data(), payload.data.bytes().size()})));
      tensors.push_back(byteTensor(name + "_flash", static_cast<std::int64_t>(flashBytes.size()),
                                   addBuffer(flashBytes)));
      tensors.push_back(byteTensor(name + "_scratch", region.attrs->scratchBytes, 0));
      tensors.push_back(byteTensor(name + "_scratch_fast", region.attrs->scratchBytes, 0));
      result.payloadBytes += payload.byteSize();
      result.flashBytes += static_cast<std::int64_t>(flashBytes.size());
    }

    std::vector<flatbuffers::Offset<tflite::Operator>> operators;
    for (const FileOperator& op : operators_) {
      if (op.region >= 0) {
        operators.push_back(
            regionOperator(regions_[static_cast<std::size_t>(op.region)], ethosUCode));
        ++result.npuOperators;
      } else {
        operators.push_back(copyOperator(op.source, codes));
        ++result.cpuOperators;
      }
    }
    const auto subgraph = tflite::CreateSubGraph(
        fbb_, fbb_.CreateVector(tensors),
        fbb_.CreateVector(fileTensors(vectorOf(graph_->inputs()))),
        fbb_.CreateVector(fileTensors(vectorOf(graph_->outputs()))), fbb_.CreateVector(operators),
        graph_->name() ? fbb_.CreateString(graph_->name()->str()) : 0);

    // The source's metadata (but its own arena offsets), then Loupe's.
    std::vector<flatbuffers::Offset<tflite::Metadata>> metadata;
    if (model_->metadata() != nullptr) {
      for (const auto* entry : *model_->metadata()) {
        if (entry->name() == nullptr || entry->name()->str() == kOfflineMemoryAllocation) continue;
        metadata.push_back(tflite::CreateMetadata(fbb_, fbb_.CreateString(entry->name()->str()),
                                                  addBuffer(bufferBytes(entry->buffer()))));
      }
    }
    const std::vector<std::uint8_t> offsets = offlineMemoryAllocation();
    metadata.push_back(tflite::CreateMetadata(
        fbb_, fbb_.CreateString(std::string(kOfflineMemoryAllocation)), addBuffer(offsets)));

    std::vector<flatbuffers::Offset<tflite::Buffer>> buffers;
    for (const std::span<const std::uint8_t> bytes : buffers_) {
      if (bytes.empty()) {
        buffers.push_back(tflite::CreateBuffer(fbb_));
        continue;
      }
      // Payload and weights on 16 bytes, where the driver and the kernels
      // read them in place.
      fbb_.ForceVectorAlignment(bytes.size(), sizeof(std::uint8_t), 16);
      buffers.push_back(tflite::CreateBuffer(fbb_, fbb_.CreateVector(bytes.data(), bytes.size())));
    }

    const std::string accelerators = acceleratorNames();
    const auto model = tflite::CreateModel(
        fbb_, 3, fbb_.CreateVector(codeTables), fbb_.CreateVector(std::vector{subgraph}),
        fbb_.CreateString("Loupe: ethos-u operators for " + accelerators),
        fbb_.CreateVector(buffers), fbb_.CreateVector(metadata));
    tflite::FinishModelBuffer(fbb_, model);
    result.bytes.assign(fbb_.GetBufferPointer(), fbb_.GetBufferPointer() + fbb_.GetSize());
    result.scratchBytes = scratchArenaBytes_;
    return result;
  }

  std::string acceleratorNames() const {
    std::set<std::string> names;
    for (const Region& region : regions_) {
      names.insert(std::string(ir::ethosuAcceleratorName(region.attrs->accelerator)));
    }
    std::string text;
    for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
    return text;
  }

  std::span<const std::uint8_t> source_;
  const ir::Graph& compiled_;
  const tflite::Model* model_ = nullptr;
  const tflite::SubGraph* graph_ = nullptr;
  std::vector<Region> regions_;
  std::vector<FileOperator> operators_;
  std::vector<int> keptTensors_;    // source tensor of each file tensor kept
  std::map<int, int> tensorIndex_;  // source tensor -> file tensor
  int tensorCount_ = 0;
  std::vector<std::int32_t> offsets_;  // arena offset of each file tensor, -1 for none
  std::int64_t scratchArenaBytes_ = 0;
  std::vector<std::span<const std::uint8_t>> buffers_;  // the file's, in order
  std::map<std::uint32_t, std::uint32_t> bufferIndex_;  // source buffer -> file buffer
  flatbuffers::FlatBufferBuilder fbb_;
};

}  // namespace

VelaLayoutTflite velaLayoutTflite(std::span<const std::uint8_t> source, const ir::Graph& compiled) {
  return VelaLayoutWriter(source, compiled).run();
}

}  // namespace loupe::ethosu
