// What Loupe's float functions (loupe/loupe_libm.h) cost on a board beside
// newlib's (issue 46, item 3): for each of expf, logf, sinf, cosf, expm1f and
// tanhf, on qemu-mps2-an385 (Cortex-M3, soft float) and qemu-mps3-an547
// (Cortex-M55, FPU with doubles), a small firmware calls the function over a
// fixed spread of 256 inputs, 4 times, built as Loupe's model firmware is
// (arm-none-eabi-gcc -std=c99 -O2, newlib-nano's libm, --gc-sections).
//  - flash: text + data of the ELF (arm-none-eabi-size) minus that of the same
//    firmware calling an empty function instead, so the function and every
//    libgcc and libc routine it pulls in (soft double, errno) count, once;
//  - instructions per call: SysTick ticks under QEMU's -icount (one step per
//    instruction, deterministic, as the profiler counts them), converted with
//    the platform's profile clock, minus the loop with the empty function,
//    over the 1,024 calls: the instructions of the function itself.
// Each firmware also compares its 256 results with this machine's (Loupe's
// on x86-64, which are glibc's) and reports how many differ: Loupe's must
// be 0 on both boards. Run by hand:
//   cmake --build build/release --target loupe_float_math_board_bench
//   build/release/bench/loupe_float_math_board_bench [FUNCTION|BOARD ...]
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "builtin_registries.h"
#include "deploy/process_runner.h"
#include "elf_flash_bytes.h"
#include "loupe/loupe_libm.h"
#include "platforms/qemu_platform.h"

using namespace loupe;
namespace fs = std::filesystem;

namespace {

constexpr int kInputs = 256;
constexpr int kPasses = 4;

struct Function {
  const char* name;
  float (*loupe)(float);
  float low, high;  // the inputs: kInputs values evenly spaced over [low, high]
};

const Function kFunctions[] = {
    {"expf", loupe_libm_expf, -20.0f, 20.0f},     {"logf", loupe_libm_logf, 0.01f, 1000.0f},
    {"sinf", loupe_libm_sinf, -10.0f, 10.0f},     {"cosf", loupe_libm_cosf, -10.0f, 10.0f},
    {"expm1f", loupe_libm_expm1f, -10.0f, 10.0f}, {"tanhf", loupe_libm_tanhf, -10.0f, 10.0f},
};

// The firmware: BENCH_CALL is the function under test (or the empty one),
// the tables are written by firmwareSource. Results go out through Arm
// semihosting (SYS_WRITE0), which QEMU prints.
const char* const kFirmwareMain = R"(
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "loupe/loupe_libm.h"

/* SysTick as a clock: a 24-bit down counter plus the wraps its handler counts. */
#define SYST_CSR (*(volatile uint32_t*)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t*)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t*)0xE000E018u)
#define SCB_ICSR (*(volatile uint32_t*)0xE000ED04u)
static volatile uint32_t wraps;
void cortex_m_systick_handler(void) { ++wraps; }
static uint64_t ticks(void) {
  uint32_t w, v;
  __asm__ volatile("cpsid i" ::: "memory");
  w = wraps;
  v = SYST_CVR;
  if (SCB_ICSR & (1u << 26)) { ++w; v = SYST_CVR; }
  __asm__ volatile("cpsie i" ::: "memory");
  return ((uint64_t)w << 24) + (v == 0u ? 0u : (uint64_t)(0x01000000u - v));
}

static void write0(const char* text) {
  register uint32_t op __asm__("r0") = 0x04u; /* SYS_WRITE0 */
  register const char* arg __asm__("r1") = text;
  __asm__ volatile("bkpt 0xab" : "+r"(op) : "r"(arg) : "memory");
}
static char* decimal(char* out, uint64_t value) {
  char digits[24];
  int n = 0;
  do { digits[n++] = (char)('0' + value % 10u); value /= 10u; } while (value != 0u);
  while (n > 0) *out++ = digits[--n];
  return out;
}

static float empty_function(float x) { return x; }

/* noipa: the call stays a call, its result is not assumed. */
__attribute__((noipa)) float bench_call(float x) { return BENCH_CALL(x); }

static int64_t ordered(uint32_t bits) {
  return (bits & 0x80000000u) ? -(int64_t)(bits & 0x7fffffffu) : (int64_t)bits;
}

int main(void) {
  uint32_t acc = 0u, differ = 0u, max_ulp = 0u;
  uint64_t start, end;
  int pass, i;
  char line[128], *p;
  SYST_CSR = 0u;
  SYST_RVR = 0x00FFFFFFu;
  SYST_CVR = 0u;
  SYST_CSR = 7u;
  start = ticks();
  for (pass = 0; pass < BENCH_PASSES; ++pass) {
    for (i = 0; i < BENCH_INPUTS; ++i) {
      const float y = bench_call(bench_inputs[i]);
      uint32_t bits;
      memcpy(&bits, &y, 4);
      acc ^= bits;
    }
  }
  end = ticks();
  for (i = 0; i < BENCH_INPUTS; ++i) {
    const float y = bench_call(bench_inputs[i]);
    uint32_t bits;
    int64_t d;
    memcpy(&bits, &y, 4);
    if (bits == bench_expected[i]) continue;
    ++differ;
    d = ordered(bits) - ordered(bench_expected[i]);
    if (d < 0) d = -d;
    if ((uint64_t)d > max_ulp) max_ulp = d > 0xffffffff ? 0xffffffffu : (uint32_t)d;
  }
  p = line;
  memcpy(p, "bench ticks=", 12); p = decimal(p + 12, end - start);
  memcpy(p, " differ=", 8); p = decimal(p + 8, differ);
  memcpy(p, " max_ulp=", 9); p = decimal(p + 9, max_ulp);
  memcpy(p, " acc=", 5); p = decimal(p + 5, acc);
  *p++ = '\n';
  *p = 0;
  write0(line);
  return 0;
}
)";

std::vector<float> inputsOf(const Function& function) {
  std::vector<float> values;
  for (int i = 0; i < kInputs; ++i) {
    values.push_back(function.low + (function.high - function.low) * static_cast<float>(i) /
                                        static_cast<float>(kInputs - 1));
  }
  return values;
}

std::string hexFloat(float value) {
  char text[48];
  std::snprintf(text, sizeof text, "%a", static_cast<double>(value));
  return text;
}

// `call`: "empty_function", "loupe_libm_expf" or "expf".
std::string firmwareSource(const Function& function, const std::string& call) {
  std::ostringstream out;
  out << "/* " << function.name << " bench: " << call << " */\n"
      << "#define BENCH_CALL " << call << "\n#define BENCH_INPUTS " << kInputs
      << "\n#define BENCH_PASSES " << kPasses << "\n#include <stdint.h>\n";
  // volatile: read from memory at every call, never folded.
  out << "static volatile const float bench_inputs[" << kInputs << "] = {";
  const std::vector<float> inputs = inputsOf(function);
  for (float x : inputs) out << hexFloat(x) << "f,";
  out << "};\nstatic const uint32_t bench_expected[" << kInputs << "] = {";
  for (float x : inputs) {
    const float y = function.loupe(x);
    std::uint32_t bits;
    std::memcpy(&bits, &y, 4);
    out << bits << "u,";
  }
  out << "};\n" << kFirmwareMain;
  return out.str();
}

deploy::ProcessResult run(const std::vector<std::string>& argv, const fs::path& directory) {
  deploy::ProcessResult result = deploy::runProcess(argv, directory, std::chrono::minutes(2));
  if (result.exitCode != 0) {
    throw std::runtime_error(deploy::commandLineForDisplay(argv) + " failed:\n" + result.output);
  }
  return result;
}

struct Measurement {
  std::size_t flash = 0;
  double instructions = 0;  // for kPasses x kInputs calls and the loop
  std::uint32_t differ = 0, maxUlp = 0;
};

Measurement measure(const platforms::QemuPlatform& platform, const Function& function,
                    const std::string& call, const fs::path& work) {
  const deploy::BoardDescription& board = platform.board();
  const fs::path platforms = LOUPE_BENCH_PLATFORMS_DIR;
  const fs::path common = platforms / "common";
  const fs::path boardDir = platforms / board.name;
  const fs::path source = work / (board.name + "_" + function.name + "_" + call + ".c");
  const fs::path elf = fs::path(source).replace_extension(".elf");
  std::ofstream(source) << firmwareSource(function, call);
  std::vector<std::string> compile = {
      "arm-none-eabi-gcc", "-std=c99", "-O2", "-g", "-mcpu=" + board.cpu, "-mthumb",
      "-mfloat-abi=" + board.floatAbi,
      // Loupe's model firmware flags (board_firmware.cpp).
      "-ffreestanding", "-fno-tree-loop-distribute-patterns", "-ffunction-sections",
      "-fdata-sections", "-I" + common.string(), "-I" + boardDir.string(),
      "-I" LOUPE_BENCH_CRT_INCLUDE_DIR};
  if (!board.fpu.empty()) compile.push_back("-mfpu=" + board.fpu);
  compile.insert(compile.end(),
                 {"-nostartfiles", "--specs=nano.specs", "-L" + common.string(), "-T",
                  (boardDir / "linker.ld").string(), "-Wl,--gc-sections",
                  (common / "cortex_m_vectors.c").string(),
                  (common / "cortex_m_startup.c").string(), (common / "semihosting.c").string(),
                  source.string(), "-lm", "-lc", "-lgcc", "-o", elf.string()});
  run(compile, work);

  std::vector<std::string> qemu = {board.qemuExecutable};
  for (const std::string& argument : platform.qemuArguments(elf)) qemu.push_back(argument);
  qemu.insert(qemu.end(), {"-serial", "null"});
  const deploy::ProcessResult result = run(qemu, work);
  static const std::regex line("bench ticks=([0-9]+) differ=([0-9]+) max_ulp=([0-9]+)");
  std::smatch match;
  if (!std::regex_search(result.output, match, line)) {
    throw std::runtime_error("no result from " + elf.string() + ":\n" + result.output);
  }
  Measurement m;
  m.flash = bench::elfFlashBytes(elf);
  m.instructions = std::stod(match[1]) *
                   platform.profileClock(static_cast<std::uint32_t>(board.clockHz)).unitsPerTick;
  m.differ = static_cast<std::uint32_t>(std::stoul(match[2]));
  m.maxUlp = static_cast<std::uint32_t>(std::stoul(match[3]));
  return m;
}

std::string grouped(long long value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(i, ",");
  return (value < 0 ? "-" : "") + digits;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> boards = {"qemu-mps2-an385", "qemu-mps3-an547"};
  std::vector<std::string> functions;
  for (const Function& f : kFunctions) functions.push_back(f.name);
  std::vector<std::string> onlyBoards, onlyFunctions;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    (arg.starts_with("qemu-") ? onlyBoards : onlyFunctions).push_back(arg);
  }
  if (!onlyBoards.empty()) boards = onlyBoards;
  if (!onlyFunctions.empty()) functions = onlyFunctions;

  char pattern[] = "/tmp/loupe_float_math_board_bench.XXXXXX";
  if (mkdtemp(pattern) == nullptr) {
    std::perror("mkdtemp");
    return 2;
  }
  const fs::path work = pattern;
  const deploy::Registries registries = plugins::builtinRegistries();
  std::printf(
      "flash: bytes the function adds to a firmware (text + data, with what it pulls in); "
      "instructions: per call, mean over %d inputs (expf over [-20, 20], logf [0.01, 1000], "
      "the others [-10, 10]); differ: results of the %d that are not glibc's bits\n\n",
      kInputs, kInputs);
  std::printf(
      "| function | board | flash Loupe | flash newlib | instructions Loupe | instructions "
      "newlib | differ Loupe | differ newlib (max ulp) |\n");
  std::printf("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  int failures = 0;
  for (const std::string& name : functions) {
    const Function* function = nullptr;
    for (const Function& f : kFunctions) {
      if (name == f.name) function = &f;
    }
    if (function == nullptr) {
      std::fprintf(stderr, "no function %s\n", name.c_str());
      return 2;
    }
    for (const std::string& boardName : boards) {
      const auto platform = std::dynamic_pointer_cast<const platforms::QemuPlatform>(
          registries.platforms.find(boardName));
      if (!platform) {
        std::fprintf(stderr, "no QEMU platform %s\n", boardName.c_str());
        return 2;
      }
      try {
        const Measurement empty = measure(*platform, *function, "empty_function", work);
        const Measurement loupe =
            measure(*platform, *function, std::string("loupe_libm_") + function->name, work);
        const Measurement newlib = measure(*platform, *function, function->name, work);
        const double calls = kInputs * kPasses;
        failures += loupe.differ == 0 ? 0 : 1;
        std::printf(
            "| `%s` | %s | %s | %s | %.0f | %.0f | %u | %u (%u) |\n", function->name,
            boardName.c_str(),
            grouped(static_cast<long long>(loupe.flash) - static_cast<long long>(empty.flash))
                .c_str(),
            grouped(static_cast<long long>(newlib.flash) - static_cast<long long>(empty.flash))
                .c_str(),
            (loupe.instructions - empty.instructions) / calls,
            (newlib.instructions - empty.instructions) / calls, loupe.differ, newlib.differ,
            newlib.maxUlp);
        std::fflush(stdout);
      } catch (const std::exception& e) {
        std::printf("| `%s` | %s | failed: %s |\n", function->name, boardName.c_str(), e.what());
        ++failures;
      }
    }
  }
  fs::remove_all(work);
  return failures == 0 ? 0 : 1;
}
