// Inside the board: every tensor a debug build sent back (Deployment's
// deviceTensors) against the tensors it should hold, the reference
// interpreter's or a golden set's per-tensor dump (TFLite Micro's
// `tensors/`), operator by operator in the order the board ran them, and
// the first operator whose output differs. What `loupec debug` prints and
// the GUI's Debug on board shows.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "codegen/compiled_model.h"
#include "debug_tensor_stream.h"
#include "deploy/run_profile.h"
#include "ir/graph.h"

namespace loupe::deploy {

// Tensor index of the imported model -> its bytes.
using TensorBytes = std::map<int, std::vector<std::uint8_t>>;

enum class TensorVerdict {
  Exact,       // the same bytes
  Within,      // float32 within the tolerance, not bit-exact
  Differs,     // different values (or sizes)
  NotOnBoard,  // the compiled model never holds it whole (inside a region, a patch, fused)
  NoExpected,  // nothing to compare with (not in the golden dump)
};
std::string_view verdictName(TensorVerdict verdict);  // "exact", "differs", ...

struct TensorAgreement {
  int tensor = -1;  // index in the imported model
  TensorVerdict verdict = TensorVerdict::NoExpected;
  std::int64_t elements = 0;
  std::int64_t differingElements = 0;
  // The largest difference in real units (scale * (q - zero_point) for a
  // quantized tensor, raw values otherwise); empty when none is finite.
  std::optional<double> maxAbsoluteError;
  // Differs: "3 of 640 elements, max abs difference 0.0078"; NotOnBoard:
  // where it is ("inside CUSTOM(ethos-u) #0-11").
  std::string detail;
};

struct DebugOperatorRow {
  int operatorIndex = -1;           // in the compiled graph
  std::vector<int> modelOperators;  // the imported model's operators it stands for
  std::string name;                 // "#3+4", "#0-11": the model operators
  std::string type;                 // "CONV_2D"
  std::optional<double> time;       // in DebugComparison::unit; none for a view (no call)
  ir::Shape shape;                  // its first output's
  std::vector<TensorAgreement> outputs;

  bool differs() const;
};

struct DebugComparison {
  std::string expectedName;  // "the reference interpreter", "TFLite Micro's dump in DIR"
  std::string unit;          // of the times: "instructions" or "ns"
  double total = 0;          // the operators' times together
  std::vector<DebugOperatorRow> rows;
  // Model tensors the board never held whole, in tensor order.
  std::vector<TensorAgreement> notOnBoard;
  // Rows' index of the first operator with a differing output, and how its
  // inputs compare (where the board sent them).
  std::optional<std::size_t> firstDiffering;
  std::vector<TensorAgreement> firstDifferingInputs;

  bool anyDiffers() const { return firstDiffering.has_value(); }
  // The board's tensors that agree with the expected ones (exact or within
  // the tolerance): the count "every tensor agrees: N compared" gives.
  std::size_t agreeingTensors() const;
};

// Every non-constant tensor of `model` after the reference interpreter ran
// it once on `inputs`.
TensorBytes referenceTensors(const ir::Graph& model,
                             const std::vector<std::vector<std::uint8_t>>& inputs);

// A golden set's per-tensor dump: `dir`/index.json and its t<i>.bin files.
// Throws std::runtime_error for a missing or unreadable index, a file of
// the wrong size or a tensor the model does not have.
TensorBytes goldenTensors(const ir::Graph& model, const std::filesystem::path& dir);

// The board's tensors under the imported model's indices: what `compiled`
// (whose tensors keep the model's indices) sent, plus the inputs it was
// given. Tensors the rewrite made (patch strips) are left out.
TensorBytes boardTensors(const ir::Graph& model, const codegen::CompiledModel& compiled,
                         const std::map<std::uint32_t, host::StreamedTensor>& device,
                         const std::vector<std::vector<std::uint8_t>>& inputs);

// "#3", "#3+4", "#0-11": model operators, runs of three or more as ranges.
std::string modelOperatorsLabel(const std::vector<int>& operators);

// Where a model tensor the board never held whole is: "inside
// CUSTOM(ethos-u) #0-11".
// Empty when the board holds it.
std::string whereNotOnBoard(const ir::Graph& model, const codegen::CompiledModel& compiled,
                            const std::map<std::uint32_t, host::StreamedTensor>& device,
                            int tensor);

// The comparison: integers byte for byte, float32 within `floatUlps`.
DebugComparison compareBoardTensors(const ir::Graph& model, const codegen::CompiledModel& compiled,
                                    const std::map<std::uint32_t, host::StreamedTensor>& device,
                                    const std::vector<std::vector<std::uint8_t>>& inputs,
                                    const TensorBytes& expected, const RunProfile& profile,
                                    std::uint32_t floatUlps);

}  // namespace loupe::deploy
