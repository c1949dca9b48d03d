#include "codegen/aot_executor_printer.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

#include "codegen/c_function_printer.h"
#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "tir/scalar_type.h"

namespace loupe::codegen {

namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string prefix(const CompiledModel& m) {
  return "tvmgen_" + m.modelName;
}

// The run function's pointer to a planned place: its pool plus the offset.
// `what` names the storage for the error a missing place would be.
std::string poolExpression(const CompiledModel& m, const memory::MemoryPlan::Placement& place,
                           const std::string& what) {
  if (place.pool < 0) throw lowering::LoweringError(what + " has no storage");
  return "pool_" + m.memoryPlan.pools[static_cast<std::size_t>(place.pool)].name + " + " +
         std::to_string(place.offset);
}

// How the run function reaches a tensor's storage (a view's at its offset).
std::string storageExpression(const CompiledModel& m, int tensor,
                              const std::vector<std::string>& inputNames,
                              const std::vector<std::string>& outputNames) {
  if (const StateBuffer* state = findState(m.state, tensor)) return state->symbol;
  const int root = m.memoryPlan.analysis.storageOf.at(tensor);
  const std::int64_t offset = memory::storageOffset(m.memoryPlan.analysis, tensor);
  auto at = [offset](const std::string& base) {
    return offset == 0 ? base : "(uint8_t*)" + base + " + " + std::to_string(offset);
  };
  for (std::size_t i = 0; i < m.graph.inputs.size(); ++i) {
    if (m.graph.inputs[i] == root) return at("inputs->" + inputNames[i]);
  }
  for (std::size_t i = 0; i < m.graph.outputs.size(); ++i) {
    if (m.graph.outputs[i] == root) return at("outputs->" + outputNames[i]);
  }
  return poolExpression(m, m.memoryPlan.placementOf(tensor), "tensor " + std::to_string(tensor));
}

// A debug build's lines after a call (or, with none, before the first):
// every tensor the call wrote, then every view (no call of its own) whose
// inputs are now all written, sent to the host; `written` says which
// tensors hold their values so far. The time they take is no operator's.
void printTensorsToHost(std::ostringstream& out, const CompiledModel& m, const OperatorCall* call,
                        const std::vector<bool>& calledOperators, std::vector<bool>& written,
                        const std::vector<std::string>& inputNames,
                        const std::vector<std::string>& outputNames) {
  const auto send = [&](int op, int tensor) {
    const auto t = static_cast<std::size_t>(tensor);
    out << "  TVMDebugTensor(" << op << "u, " << tensor << "u, (const void*)("
        << storageExpression(m, tensor, inputNames, outputNames) << "), "
        << m.graph.tensor(tensor).byteSize() << "u);\n";
    written[t] = true;
  };
  std::vector<int> sent;
  const std::size_t params = call != nullptr ? m.functions[call->function].params.size() : 0;
  for (std::size_t i = 0; i < params; ++i) {
    const int tensor = call->paramTensors.at(i);
    if (!m.functions[call->function].params[i]->written ||
        std::find(sent.begin(), sent.end(), tensor) != sent.end()) {
      continue;
    }
    sent.push_back(tensor);
    send(call->operatorIndex, tensor);
  }
  for (bool more = true; more;) {
    more = false;
    for (const ir::Operator& view : m.graph.operators) {
      const auto v = static_cast<std::size_t>(view.index);
      if (calledOperators[v] || view.outputs.empty() ||
          written[static_cast<std::size_t>(view.outputs.front())]) {
        continue;
      }
      const bool ready = std::all_of(view.inputs.begin(), view.inputs.end(), [&](int input) {
        return input == ir::kNoTensor || written[static_cast<std::size_t>(input)];
      });
      if (!ready) continue;
      for (int output : view.outputs) send(view.index, output);
      sent.push_back(view.outputs.front());
      more = true;
    }
  }
  if (call != nullptr || !sent.empty()) out << "  TVM_PROFILE_SKIP();\n";
}

const std::vector<memory::MemoryPool>& poolsOf(const CompiledModel& m) {
  return m.memoryPlan.pools;
}

std::int64_t poolBytes(const CompiledModel& m, std::size_t pool) {
  return m.memoryPlan.result.poolBytes.at(pool);
}

// One pool is passed as a plain pointer; several in a struct, one member each.
bool hasPoolStruct(const CompiledModel& m) {
  return poolsOf(m).size() > 1;
}

// Pools the user named get their own size defines; the default one is the
// workspace.
bool userPools(const CompiledModel& m) {
  return poolsOf(m).size() > 1 || poolsOf(m)[0].name != memory::defaultPools()[0].name;
}

// The public run function's prototype: inputs, outputs, then the workspace
// pools (external workspace only) and the devices (models that use devices only).
std::string runPrototype(const CompiledModel& m) {
  const std::string p = prefix(m);
  std::string out =
      "int32_t " + p + "_run(struct " + p + "_inputs* inputs, struct " + p + "_outputs* outputs";
  if (m.externalWorkspace) {
    out += hasPoolStruct(m) ? ", struct " + p + "_workspace_pools* workspace_pools"
                            : std::string(", void* workspace");
  }
  if (!m.devices.empty()) out += ", struct " + p + "_devices* devices";
  return out + ")";
}

std::string resetStatePrototype(const CompiledModel& m) {
  return "void " + prefix(m) + "_reset_state(void)";
}

std::string stateElementType(const CompiledModel& m, const StateBuffer& state) {
  return std::string(tir::cTypeName(tir::fromDType(m.graph.tensor(state.tensor).dtype)));
}

// The static arrays of the operator state, each starting at its initial value.
void printStateStorage(std::ostringstream& out, const CompiledModel& m) {
  out << "/* Operator state (variable tensors): updated in place by its operators and kept from\n"
         " * one run to the next, outside the workspace; "
      << prefix(m) << "_reset_state() restores it. */\n";
  for (const StateBuffer& state : m.state) {
    const std::int64_t length = std::max<std::int64_t>(state.elements, 1);
    if (!state.initialContents.empty()) {
      // The start-up values twice: the array's initializer, and the copy
      // reset restores them from.
      const std::string values = cInitializerValues(
          state.initialContents, tir::fromDType(m.graph.tensor(state.tensor).dtype));
      out << "static const " << stateElementType(m, state) << " " << state.symbol << "_initial["
          << length << "] = {" << values << "\n};\n";
      out << "static " << stateElementType(m, state) << " " << state.symbol << "[" << length
          << "] = {" << values << "\n};\n";
      continue;
    }
    out << "static " << stateElementType(m, state) << " " << state.symbol << "[" << length << "]";
    if (state.initialValue != 0) {
      out << " = {";
      for (std::int64_t i = 0; i < state.elements; ++i) {
        out << (i % 16 == 0 ? "\n    " : " ") << state.initialValue
            << (i + 1 < state.elements ? "," : "");
      }
      out << "}";
    }
    out << ";\n";
  }
  out << "\n";
}

void printResetState(std::ostringstream& out, const CompiledModel& m) {
  out << resetStatePrototype(m) << " {\n  int32_t i;\n";
  for (const StateBuffer& state : m.state) {
    out << "  for (i = 0; i < " << state.elements << "; ++i) " << state.symbol << "[i] = ";
    if (state.initialContents.empty()) {
      out << state.initialValue << ";\n";
    } else {
      out << state.symbol << "_initial[i];\n";
    }
  }
  out << "}\n\n";
}

}  // namespace

std::vector<std::string> ioMemberNames(const ir::Graph& graph, const std::vector<int>& tensors) {
  std::vector<std::string> names;
  std::map<std::string, int> seen;
  for (int t : tensors) ++seen[lowering::sanitizeName(graph.tensor(t).name)];
  for (int t : tensors) {
    std::string name = lowering::sanitizeName(graph.tensor(t).name);
    if (seen[name] > 1) name += "_" + std::to_string(t);
    names.push_back(name);
  }
  return names;
}

std::string poolSection(const CompiledModel& model, std::size_t pool) {
  const memory::MemoryPool& p = model.memoryPlan.pools.at(pool);
  if (p.memory.empty()) return {};
  for (const MemoryUse& use : model.memories) {
    if (use.region.name == p.memory && use.region.defaultData) return {};
  }
  return memory::workspaceSection(p.memory);
}

GeneratedFile printModelHeader(const CompiledModel& m) {
  const std::string p = prefix(m);
  const std::string guard = upper(p) + "_H_";
  const auto inputNames = ioMemberNames(m.graph, m.graph.inputs);
  const auto outputNames = ioMemberNames(m.graph, m.graph.outputs);
  std::ostringstream out;
  out << "/* Generated by Loupe: the interface of model \"" << m.modelName << "\". */\n";
  out << "#ifndef " << guard << "\n#define " << guard << "\n\n";
  out << "#include <stdint.h>\n#include <tvm/runtime/crt/tvm_micro_backend.h>\n";
  if (!m.devices.empty()) out << "#include <tvm/runtime/crt/device.h>\n";
  out << "\n";
  out << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  for (std::size_t i = 0; i < inputNames.size(); ++i) {
    const ir::Tensor& t = m.graph.tensor(m.graph.inputs[i]);
    out << "/* input " << i << ": " << ir::dtypeName(t.dtype) << " " << ir::shapeToString(t.shape)
        << " */\n";
    out << "#define " << upper(p + "_" + inputNames[i]) << "_SIZE " << t.byteSize() << "\n";
  }
  for (std::size_t i = 0; i < outputNames.size(); ++i) {
    const ir::Tensor& t = m.graph.tensor(m.graph.outputs[i]);
    out << "/* output " << i << ": " << ir::dtypeName(t.dtype) << " " << ir::shapeToString(t.shape)
        << " */\n";
    out << "#define " << upper(p + "_" + outputNames[i]) << "_SIZE " << t.byteSize() << "\n";
  }
  out << "/* Bytes of workspace the model uses for intermediate tensors"
      << (userPools(m) ? ", all pools together" : "") << ". */\n";
  out << "#define " << upper(p) << "_WORKSPACE_SIZE " << m.workspaceBytes() << "\n";
  if (userPools(m)) {
    for (std::size_t i = 0; i < poolsOf(m).size(); ++i) {
      const memory::MemoryPool& pool = poolsOf(m)[i];
      out << "/* pool " << i << ": " << pool.name << ", offsets aligned to " << pool.alignment
          << (pool.memory.empty() ? "" : ", in the board's " + pool.memory + " memory") << " */\n";
      out << "#define " << upper(p + "_" + pool.name) << "_POOL_SIZE " << poolBytes(m, i) << "\n";
    }
  }
  if (!m.state.empty()) {
    out << "/* Bytes of operator state (variable tensors) the model keeps from one run to the\n"
           " * next in its own static storage, outside the workspace. */\n";
    out << "#define " << upper(p) << "_STATE_SIZE " << m.stateBytes << "\n";
  }
  out << "\n";
  out << "struct " << p << "_inputs {\n";
  for (const auto& n : inputNames) out << "  void* " << n << ";\n";
  out << "};\n\nstruct " << p << "_outputs {\n";
  for (const auto& n : outputNames) out << "  void* " << n << ";\n";
  out << "};\n\n";
  if (!m.devices.empty()) {
    out << "/* The devices operators run on (rfcs/000), initialised and bound by the application. "
           "*/\n";
    out << "struct " << p << "_devices {\n";
    for (const auto& d : m.devices) out << "  tvm_device_t* " << d << ";\n";
    out << "};\n\n";
  }
  if (m.externalWorkspace && hasPoolStruct(m)) {
    out << "/* The application's memory for each pool, fastest first. */\n";
    out << "struct " << p << "_workspace_pools {\n";
    for (const memory::MemoryPool& pool : poolsOf(m)) {
      out << "  void* " << pool.name << "; /* " << upper(p + "_" + pool.name)
          << "_POOL_SIZE bytes, aligned to " << pool.alignment << " */\n";
    }
    out << "};\n\n";
  }
  out << "/* Runs the model";
  if (m.externalWorkspace && !hasPoolStruct(m)) {
    out << "; workspace holds " << upper(p) << "_WORKSPACE_SIZE bytes, aligned to "
        << poolsOf(m)[0].alignment;
  }
  out << ". Returns 0 or the error code of the failing operator (or device). */\n";
  out << runPrototype(m) << ";\n\n";
  if (!m.state.empty()) {
    out << "/* Returns the operator state to its initial values (zero, the zero point of int8\n"
           " * state, or what a resource variable's init subgraph assigns), as at start-up: the\n"
           " * next run starts a new sequence. */\n";
    out << resetStatePrototype(m) << ";\n\n";
  }
  out << "/* The model descriptor for TVMExecute (tvm/runtime/crt/tvm_micro_runtime.h). */\n";
  out << "extern const TVMModel " << p << "_model;\n\n";
  out << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* " << guard << " */\n";
  return {p + ".h", out.str()};
}

GeneratedFile printRunSource(const CompiledModel& m) {
  const std::string p = prefix(m);
  const auto inputNames = ioMemberNames(m.graph, m.graph.inputs);
  const auto outputNames = ioMemberNames(m.graph, m.graph.outputs);
  const bool usesDevices = !m.devices.empty();
  std::ostringstream out;
  out << "/* Generated by Loupe: the AOT executor of model \"" << m.modelName
      << "\": operator calls in order, intermediate tensors at planned workspace offsets.\n"
         " * Built with TVM_CRT_PROFILING defined, a profiler mark after each call charges it\n"
         " * the time since the previous mark (tvm/runtime/crt/profiler.h; whoever runs the model\n"
         " * calls TVMProfilerRunStart first); otherwise that compiles away."
      << (m.debugTensors
              ? "\n * A debug build: after each call, every tensor it wrote goes to the host\n"
                " * (TVMDebugTensor, tvm/runtime/crt/debug_tensors.h)."
              : "")
      << " */\n";
  out << "#include <stddef.h>\n#include <stdint.h>\n\n"
      << (m.debugTensors ? "#include <tvm/runtime/crt/debug_tensors.h>\n" : "")
      << "#include <tvm/runtime/crt/error_codes.h>\n#include <tvm/runtime/crt/profiler.h>\n\n"
         "#include \""
      << p << ".h\"\n\n";
  for (const tir::PrimFunc& f : m.functions) out << cPrototype(f) << ";\n";
  out << "\n";
  if (!m.externalWorkspace) {
    // One array per pool; with -fdata-sections each gets its own section
    // (.bss.<name>) that a linker script can place in the pool's memory.
    out << "#if defined(__GNUC__)\n#define " << upper(p)
        << "_ALIGNED(n) __attribute__((aligned(n)))\n#define " << upper(p)
        << "_IN_SECTION(name) __attribute__((section(name)))\n"
        << "#else\n#define " << upper(p) << "_ALIGNED(n)\n#define " << upper(p)
        << "_IN_SECTION(name)\n#endif\n";
    for (std::size_t i = 0; i < poolsOf(m).size(); ++i) {
      if (poolBytes(m, i) == 0) continue;
      // uint64_t elements give 8-byte alignment even without the attribute.
      out << "static uint64_t " << p << "_" << poolsOf(m)[i].name << "_storage["
          << (poolBytes(m, i) + 7) / 8 << "] " << upper(p) << "_ALIGNED(" << poolsOf(m)[i].alignment
          << ")";
      // A pool in another memory than the data's: its section, which the
      // board's linker script places there (not in the image: NOLOAD).
      if (const std::string section = poolSection(m, i); !section.empty()) {
        out << " " << upper(p) << "_IN_SECTION(\"" << section << "\")";
      }
      out << ";\n";
    }
    out << "\n";
  }
  if (!m.state.empty()) printStateStorage(out, m);
  out << "static int32_t " << p << "_run_in(struct " << p << "_inputs* inputs, struct " << p
      << "_outputs* outputs";
  for (const memory::MemoryPool& pool : poolsOf(m)) out << ", uint8_t* pool_" << pool.name;
  out << (usesDevices ? ", struct " + p + "_devices* devices" : std::string()) << ") {\n";
  out << "  int32_t status;\n";
  if (usesDevices) out << "  int32_t close_status;\n";
  out << "  (void)inputs;\n  (void)outputs;\n";
  for (const memory::MemoryPool& pool : poolsOf(m)) out << "  (void)pool_" << pool.name << ";\n";
  // For a debug build: the operators with a call, and the tensors that hold
  // their values before the first call (inputs, constants, state).
  std::vector<bool> calledOperators(m.graph.operators.size(), false);
  std::vector<bool> written(m.graph.tensors.size(), false);
  if (m.debugTensors) {
    for (const OperatorCall& call : m.calls) {
      for (int index : call.operators) calledOperators[static_cast<std::size_t>(index)] = true;
    }
    for (const ir::Tensor& tensor : m.graph.tensors) {
      written[static_cast<std::size_t>(tensor.index)] =
          tensor.isConstant || findState(m.state, tensor.index) != nullptr;
    }
    for (int input : m.graph.inputs) written[static_cast<std::size_t>(input)] = true;
    // Views of the inputs are whole before any call.
    printTensorsToHost(out, m, nullptr, calledOperators, written, inputNames, outputNames);
  }
  for (const OperatorCall& call : m.calls) {
    const tir::PrimFunc& f = m.functions[call.function];
    const ir::Operator& op = m.graph.operators[static_cast<std::size_t>(call.operatorIndex)];
    const std::string device =
        call.device >= 0 ? "devices->" + m.devices[static_cast<std::size_t>(call.device)] : "";
    // A region's call runs several operators: the comment lists them all.
    std::string operators;
    for (int index : call.operators) {
      operators += (operators.empty() ? "#" : ", #") + std::to_string(index) + " " +
                   m.graph.operators[static_cast<std::size_t>(index)].typeName();
    }
    if (operators.empty()) operators = "#" + std::to_string(op.index) + " " + op.typeName();
    out << "  /* " << operators << (device.empty() ? "" : " on " + device.substr(9)) << " */\n";
    if (!device.empty()) {
      out << "  status = TVMDeviceOpen(" << device << ");\n  if (status != 0) return status;\n";
    }
    out << "  status = " << f.name << "(";
    for (std::size_t i = 0; i < f.params.size(); ++i) {
      out << "(" << (f.params[i]->written ? "" : "const ") << tir::cTypeName(f.params[i]->type)
          << "*)(" << storageExpression(m, call.paramTensors.at(i), inputNames, outputNames)
          << "), ";
    }
    if (f.scratchBytes > 0)
      out << "("
          << poolExpression(m, m.memoryPlan.scratchPlacementOf(call.operatorIndex),
                            "the scratch of operator " + std::to_string(call.operatorIndex))
          << "), ";
    out << (device.empty() ? "NULL" : device) << ");\n";
    // After the close: opening and closing its device is part of an operator's time.
    if (!device.empty()) {
      out << "  close_status = TVMDeviceClose(" << device << ");\n";
      out << "  TVM_PROFILE_OPERATOR_DONE(" << op.index << ");\n";
      out << "  if (status != 0) return status;\n  if (close_status != 0) return close_status;\n";
    } else {
      out << "  TVM_PROFILE_OPERATOR_DONE(" << op.index << ");\n";
      out << "  if (status != 0) return status;\n";
    }
    if (m.debugTensors) {
      printTensorsToHost(out, m, &call, calledOperators, written, inputNames, outputNames);
    }
  }
  out << "  return 0;\n}\n\n";
  if (!m.state.empty()) printResetState(out, m);
  const std::string devicesArg = usesDevices ? ", devices" : "";
  out << runPrototype(m) << " {\n";
  out << "  return " << p << "_run_in(inputs, outputs";
  for (std::size_t i = 0; i < poolsOf(m).size(); ++i) {
    const std::string& name = poolsOf(m)[i].name;
    if (m.externalWorkspace) {
      out << ", (uint8_t*)" << (hasPoolStruct(m) ? "workspace_pools->" + name : "workspace");
    } else {
      out << ", " << (poolBytes(m, i) > 0 ? "(uint8_t*)" + p + "_" + name + "_storage" : "NULL");
    }
  }
  out << devicesArg << ");\n}\n\n";
  // The TVMModel entry point of rfcs/002: arrays in, structs out; the
  // workspace and devices come from the application's TVMContext.
  out << "static int32_t " << p
      << "_entrypoint(void** inputs, void** outputs, struct TVMContext* context) {\n";
  out << "  struct " << p << "_inputs in;\n  struct " << p << "_outputs out;\n";
  for (std::size_t i = 0; i < inputNames.size(); ++i) {
    out << "  in." << inputNames[i] << " = inputs[" << i << "];\n";
  }
  for (std::size_t i = 0; i < outputNames.size(); ++i) {
    out << "  out." << outputNames[i] << " = outputs[" << i << "];\n";
  }
  if (inputNames.empty()) out << "  (void)inputs;\n";
  if (outputNames.empty()) out << "  (void)outputs;\n";
  if (usesDevices) {
    out << "  if (context == NULL || context->devices == NULL) return kTvmErrorInvalidArgument;\n";
  } else if (!m.externalWorkspace) {
    out << "  (void)context;\n";
  }
  if (m.externalWorkspace && hasPoolStruct(m)) {
    out << "  struct " << p << "_workspace_pools pools;\n";
    for (std::size_t i = 0; i < poolsOf(m).size(); ++i) {
      out << "  pools." << poolsOf(m)[i].name << " = context->workspace[" << i << "];\n";
    }
  }
  out << "  return " << p << "_run(&in, &out";
  if (m.externalWorkspace) out << (hasPoolStruct(m) ? ", &pools" : ", context->workspace[0]");
  if (usesDevices) out << ", (struct " << p << "_devices*)context->devices";
  out << ");\n}\n\n";
  // One size per pool, in pool order (TVMGetWorkspaceSize(model, i)); zero
  // when the generated code holds the pool itself.
  out << "static const size_t " << p << "_workspace_sizes[" << poolsOf(m).size() << "] = {";
  for (std::size_t i = 0; i < poolsOf(m).size(); ++i) {
    out << (i == 0 ? "" : ", ") << (m.externalWorkspace ? poolBytes(m, i) : 0);
  }
  out << "};\n\n";
  out << "const TVMModel " << p << "_model = {" << m.graph.inputs.size() << ", "
      << m.graph.outputs.size() << ", " << (m.externalWorkspace ? poolsOf(m).size() : 0) << ", "
      << p << "_workspace_sizes, " << p << "_entrypoint};\n";
  return {p + "_lib0.c", out.str()};
}

GeneratedFile printRegistrySource(const CompiledModel& m) {
  const std::string p = prefix(m);
  std::ostringstream out;
  out << "/* Generated by Loupe: the system library of model \"" << m.modelName
      << "\" (rfcs/001): every operator function behind the packed-function\n"
         " * calling convention, in a const registry that can live in flash. Arguments\n"
         " * are raw data pointers (kTVMOpaqueHandle), one per tensor parameter, then the\n"
         " * function's scratch memory when it needs some. */\n";
  out << "#include <stddef.h>\n#include <stdint.h>\n\n";
  out << "#include <tvm/runtime/c_backend_api.h>\n#include <tvm/runtime/crt/error_codes.h>\n"
         "#include <tvm/runtime/crt/func_registry.h>\n#include <tvm/runtime/crt/module.h>\n\n";
  for (const tir::PrimFunc& f : m.functions) out << cPrototype(f) << ";\n";
  out << "\n";
  for (const tir::PrimFunc& f : m.functions) {
    out << "static int " << f.name << "_packed(TVMValue* args, int* type_codes, int num_args,\n"
        << "    TVMValue* ret_value, int* ret_type_code, void* resource_handle) {\n";
    out << "  int i;\n  (void)ret_value;\n  (void)ret_type_code;\n  (void)resource_handle;\n";
    // Tensor arguments, then the scratch memory the function works in.
    out << "  if (num_args != " << f.params.size() + (f.scratchBytes > 0 ? 1 : 0)
        << ") return kTvmErrorFunctionCallNumArgs;\n";
    out << "  for (i = 0; i < num_args; ++i) {\n"
           "    if (type_codes[i] != kTVMOpaqueHandle || args[i].v_handle == NULL) return "
           "kTvmErrorInvalidArgument;\n"
           "  }\n";
    out << "  return " << f.name << "(";
    for (std::size_t i = 0; i < f.params.size(); ++i) {
      out << "(" << (f.params[i]->written ? "" : "const ") << tir::cTypeName(f.params[i]->type)
          << "*)args[" << i << "].v_handle, ";
    }
    if (f.scratchBytes > 0) out << "(uint8_t*)args[" << f.params.size() << "].v_handle, ";
    out << "NULL);\n}\n\n";
  }
  // Names blob: the count in two bytes (little-endian), names each ending in
  // '\0', a final '\0' (func_registry.h). Character constants, not a string
  // literal: C99 compilers need not accept strings over 4095 characters,
  // which a model of some hundred functions reaches (-pedantic refuses it).
  out << "static const char " << p << "_function_names[] = {\n    '\\" << std::oct
      << (m.functions.size() & 0xFF) << "', '\\" << (m.functions.size() >> 8) << std::dec
      << "', /* " << m.functions.size() << " functions */\n";
  for (const tir::PrimFunc& f : m.functions) {
    out << "    ";
    for (char c : f.name) out << "'" << c << "', ";
    out << "'\\0',\n";
  }
  out << "    '\\0'};\n\n";
  out << "static const TVMBackendPackedCFunc " << p << "_functions["
      << std::max<std::size_t>(m.functions.size(), 1) << "] = {\n";
  for (const tir::PrimFunc& f : m.functions) out << "    " << f.name << "_packed,\n";
  if (m.functions.empty()) out << "    NULL\n";
  out << "};\n\n";
  out << "static const TVMFuncRegistry " << p << "_registry = {" << p << "_function_names, " << p
      << "_functions};\n";
  out << "static const TVMModule " << p << "_module = {&" << p << "_registry};\n\n";
  out << "const TVMModule* TVMSystemLibEntryPoint(void) { return &" << p << "_module; }\n";
  return {p + "_registry.c", out.str()};
}

}  // namespace loupe::codegen
