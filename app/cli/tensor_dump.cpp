#include "cli/tensor_dump.h"

#include <fstream>
#include <stdexcept>

#include "analysis/model_report.h"
#include "cli/output_folder.h"

namespace loupe::cli {

void writeTensorDump(const ir::Graph& model, const deploy::TensorBytes& tensors,
                     const std::filesystem::path& dir,
                     const std::function<std::string(int tensor)>& missing) {
  nlohmann::json index = nlohmann::json::array();
  for (const ir::Tensor& tensor : model.tensors) {
    if (tensor.isConstant || tensor.byteSize() == 0) continue;
    auto entry = analysis::tensorJson(tensor);
    entry["tensor_index"] = tensor.index;  // the golden dumps' name for it
    if (const auto bytes = tensors.find(tensor.index); bytes != tensors.end()) {
      const std::string file = "t" + std::to_string(tensor.index) + ".bin";
      writeBinaryFile(dir / file, bytes->second);
      entry["file"] = file;
    } else {
      entry["file"] = nullptr;
      entry["not_on_board"] = missing(tensor.index);
    }
    index.push_back(entry);
  }
  std::ofstream out(dir / "index.json");
  out << index.dump(2) << "\n";
  if (!out) throw std::runtime_error("cannot write " + (dir / "index.json").string());
}

std::size_t writeBoardTensorDump(const ir::Graph& model, const deploy::BoardRunResult& run,
                                 const std::vector<std::vector<std::uint8_t>>& inputs,
                                 const std::filesystem::path& dir) {
  const codegen::CompiledModel& compiled = run.compilation.model;
  const deploy::TensorBytes tensors =
      deploy::boardTensors(model, compiled, run.deviceTensors, inputs);
  writeTensorDump(model, tensors, dir, [&](int tensor) {
    return deploy::whereNotOnBoard(model, compiled, run.deviceTensors, tensor);
  });
  return tensors.size();
}

}  // namespace loupe::cli
