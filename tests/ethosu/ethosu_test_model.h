// What the Ethos-U tests read from a Vela-compiled model: the ethos-u custom
// operator's payload, flash and scratch sizes, the arena offsets of its
// inputs and outputs (metadata OfflineMemoryAllocation), and a way to run it
// through ethosu_invoke_v3. The Loupe schema subset has no Model.metadata,
// so that one field (Model field 6: [Metadata{name, buffer}]) is read with
// flatbuffers' generic table access.
#pragma once

#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "loupe/ethosu/ethosu_driver.h"
#include "test_data.h"
#include "tflite_schema_generated.h"

namespace loupe::test::ethosu {

struct VelaFile {
  std::string name;   // "ethos-u55-128/kws_ref_model"
  std::string model;  // "kws_ref_model": the original's folder
  int accelerator;    // enum loupe_ethosu_accelerator
  std::filesystem::path path;
};

// The 11 Vela files of tests/data/models/vela.
inline std::vector<VelaFile> velaFiles() {
  std::vector<VelaFile> files;
  const std::filesystem::path vela = modelsDir() / "vela";
  for (const char* model :
       {"ad01_int8", "kws_ref_model", "vww_96_int8", "ic_resnet8_int8", "person_detect"}) {
    files.push_back({std::string("ethos-u55-128/") + model, model, LOUPE_ETHOSU_U55_128,
                     vela / "ethos-u55-128" / (std::string(model) + "_vela.tflite")});
    files.push_back({std::string("ethos-u55-256/") + model, model, LOUPE_ETHOSU_U55_256,
                     vela / "ethos-u55-256" / (std::string(model) + "_vela.tflite")});
  }
  files.push_back({"person_detect_vela (Vela 3.11)", "person_detect", LOUPE_ETHOSU_U55_256,
                   vela / "person_detect_vela.tflite"});
  return files;
}

inline std::vector<std::filesystem::path> goldenSets(const std::string& model) {
  std::vector<std::filesystem::path> sets;
  for (const auto& entry : std::filesystem::directory_iterator(modelsDir() / model / "golden")) {
    if (entry.is_directory()) sets.push_back(entry.path());
  }
  std::sort(sets.begin(), sets.end());
  return sets;
}

// The data rows of a test over every Vela file and every golden set of its
// original model: columns "file" (the .tflite) and "set" (the set's folder).
inline void addVelaGoldenRows() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<QString>("set");
  for (const auto& f : velaFiles()) {
    for (const auto& set : goldenSets(f.model)) {
      const std::string tag = f.name + " " + set.filename().string();
      QTest::newRow(tag.c_str()) << QString::fromStdString(f.path.string())
                                 << QString::fromStdString(set.string());
    }
  }
}

struct EthosuOperator {
  std::vector<std::uint8_t> file;
  const tflite::Model* model = nullptr;
  const tflite::SubGraph* graph = nullptr;
  const tflite::Operator* op = nullptr;
  const std::uint8_t* payload = nullptr;
  std::size_t payloadSize = 0;
  const std::uint8_t* flash = nullptr;
  std::size_t flashSize = 0;
  std::size_t scratchSize = 0;
  std::size_t fastScratchSize = 0;
  std::vector<std::int32_t> arenaOffsets;  // per tensor, -1 for constants

  const flatbuffers::Vector<std::uint8_t>* bufferOf(int tensor) const {
    const auto* buffer = model->buffers()->Get(graph->tensors()->Get(tensor)->buffer());
    return buffer->data();
  }
  std::size_t elementsOf(int tensor) const {
    std::size_t n = 1;
    for (int d : *graph->tensors()->Get(tensor)->shape()) n *= static_cast<std::size_t>(d);
    return n;
  }
  int inputTensor() const { return op->inputs()->Get(4); }
  int outputTensor() const { return op->outputs()->Get(0); }
};

inline EthosuOperator loadEthosuOperator(const std::filesystem::path& path) {
  EthosuOperator e;
  e.file = readBytes(path);
  e.model = tflite::GetModel(e.file.data());
  e.graph = e.model->subgraphs()->Get(0);
  for (const auto* op : *e.graph->operators()) {
    const auto* code = e.model->operator_codes()->Get(op->opcode_index());
    if (code->custom_code() != nullptr && code->custom_code()->str() == "ethos-u") e.op = op;
  }
  if (e.op == nullptr) throw std::runtime_error("no ethos-u operator in " + path.string());
  const auto* payload = e.bufferOf(e.op->inputs()->Get(0));
  e.payload = payload->data();
  e.payloadSize = payload->size();
  if (const auto* flash = e.bufferOf(e.op->inputs()->Get(1))) {
    e.flash = flash->data();
    e.flashSize = flash->size();
  }
  e.scratchSize = e.elementsOf(e.op->inputs()->Get(2));
  e.fastScratchSize = e.elementsOf(e.op->inputs()->Get(3));
  using Tables = flatbuffers::Vector<flatbuffers::Offset<flatbuffers::Table>>;
  const auto* root = reinterpret_cast<const flatbuffers::Table*>(e.model);
  if (const auto* metadata = root->GetPointer<const Tables*>(16)) {
    for (const auto* entry : *metadata) {
      const auto* name = entry->GetPointer<const flatbuffers::String*>(4);
      if (name == nullptr || name->str() != "OfflineMemoryAllocation") continue;
      const auto* data = e.model->buffers()->Get(entry->GetField<std::uint32_t>(6, 0))->data();
      std::vector<std::int32_t> words(data->size() / 4);
      std::memcpy(words.data(), data->data(), words.size() * 4);
      // [version, subgraph, count, offsets...]
      e.arenaOffsets.assign(words.begin() + 3, words.begin() + 3 + words[2]);
    }
  }
  return e;
}

// Runs the operator on `arena` (the scratch region); returns the status.
inline int invoke(ethosu_driver& driver, const EthosuOperator& e, std::vector<std::uint8_t>& arena,
                  std::vector<std::uint8_t>& fast) {
  std::uint64_t base[3] = {reinterpret_cast<std::uintptr_t>(e.flash),
                           reinterpret_cast<std::uintptr_t>(arena.data()),
                           reinterpret_cast<std::uintptr_t>(fast.data())};
  std::size_t sizes[3] = {e.flashSize, arena.size(), fast.size()};
  return ethosu_invoke_v3(&driver, e.payload, static_cast<int>(e.payloadSize), base, sizes, 3,
                          nullptr);
}

}  // namespace loupe::test::ethosu
