// The --target string: targets in priority order with -key=value options,
// parsed against the built-in targets; every mistake is an error that says
// what was wrong and what is allowed.
#include <QtTest>

#include "target/target_lowering.h"
#include "target/target_string.h"
#include "targets/builtin_targets.h"
#include "targets/npu/npu_target.h"

using namespace loupe;

namespace {

target::TargetList parse(const std::string& text) {
  return target::parseTargetString(text, targets::builtinTargetRegistry());
}

std::string errorOf(const std::string& text) {
  try {
    parse(text);
  } catch (const target::TargetStringError& error) {
    return error.what();
  }
  return "(accepted)";
}

}  // namespace

class TargetString : public QObject {
  Q_OBJECT

 private slots:
  void registryHoldsCNpuAndEthosU() {
    QCOMPARE(targets::builtinTargetRegistry().names(),
             (std::vector<std::string>{"c", "npu", "ethos-u"}));
  }

  void cpuAlone() {
    const auto targets = parse("c");
    QCOMPARE(targets.size(), std::size_t{1});
    QCOMPARE(targets[0]->name(), std::string("c"));
    // -mcpu unset: the board decides, and the target string stays "c".
    QCOMPARE(targets[0]->options().at("mcpu"), std::string());
    QCOMPARE(target::targetListString(targets), std::string("c"));
  }

  void cpuNamesTheInstructionSet() {
    const auto m55 = parse("c -mcpu=cortex-m55");
    QCOMPARE(target::targetListString(m55), std::string("c -mcpu=cortex-m55"));
    QCOMPARE(target::cpuIsaFor(m55, ""), target::CpuIsa::Mve);
    // The c target's -mcpu wins over the board's CPU; unset, the board's counts.
    QCOMPARE(target::cpuIsaFor(m55, "cortex-m3"), target::CpuIsa::Mve);
    QCOMPARE(target::cpuIsaFor(parse("c"), "cortex-m4"), target::CpuIsa::Dsp);
    QCOMPARE(target::cpuIsaFor(parse("c"), "cortex-m33"), target::CpuIsa::Dsp);
    QCOMPARE(target::cpuIsaFor(parse("c"), "cortex-m3"), target::CpuIsa::Thumb);
    QCOMPARE(target::cpuIsaFor(parse("c"), "cortex-m0plus"), target::CpuIsa::Thumb);
    QCOMPARE(target::cpuIsaFor(parse("c"), ""), target::CpuIsa::Scalar);
    QCOMPARE(target::cpuIsaFor(parse("c -mcpu=generic"), "cortex-m55"), target::CpuIsa::Scalar);
    QCOMPARE(target::cpuIsaFor(parse("npu, c -mcpu=cortex-m7"), ""), target::CpuIsa::Dsp);
  }

  void npuThenCpuInPriorityOrder() {
    const auto targets = parse("npu -config=npu-256, c");
    QCOMPARE(targets.size(), std::size_t{2});
    QCOMPARE(targets[0]->name(), std::string("npu"));
    QCOMPARE(targets[0]->options().at("config"), std::string("npu-256"));
    QCOMPARE(targets[0]->displayName(), std::string("NPU (Ethos-U55-like) npu-256"));
    QCOMPARE(targets[1]->name(), std::string("c"));
  }

  void npuConfigDefaultsTo128() {
    const auto targets = parse("  npu ,c ");
    QCOMPARE(dynamic_cast<const targets::npu::NpuTarget&>(*targets[0]).config(),
             std::string("npu-128"));
    QCOMPARE(target::targetListString(targets), std::string("npu -config=npu-128, c"));
  }

  void everyMacConfiguration() {
    for (const char* config : {"npu-32", "npu-64", "npu-128", "npu-256"}) {
      const auto targets = parse(std::string("npu -config=") + config + ", c");
      QCOMPARE(targets[0]->options().at("config"), std::string(config));
    }
  }

  void mistakesAreNamed() {
    QCOMPARE(errorOf(""), std::string("the target string is empty: name at least one target, e.g. "
                                      "\"c\" or \"npu -config=npu-128, c\""));
    QCOMPARE(errorOf("   "), errorOf(""));
    QCOMPARE(errorOf("gpu, c"),
             std::string("unknown target 'gpu' (known targets: c, npu, ethos-u)"));
    QCOMPARE(errorOf("npu -config=npu-100, c"),
             std::string("target 'npu': -config=npu-100 is not one of npu-32, npu-64, npu-128, "
                         "npu-256"));
    QCOMPARE(errorOf("npu -macs=128"),
             std::string("target 'npu' has no option -macs (options: -config)"));
    QCOMPARE(errorOf("c -config=npu-128"),
             std::string("target 'c' has no option -config (options: -mcpu)"));
    QCOMPARE(errorOf("c -mcpu=cortex-a53"),
             std::string("target 'c': -mcpu=cortex-a53 is not one of generic, cortex-m0, "
                         "cortex-m0plus, cortex-m3, cortex-m4, cortex-m7, cortex-m33, cortex-m55"));
    QCOMPARE(errorOf("npu config=npu-128"),
             std::string("target 'npu': expected an option -key=value, found 'config=npu-128'"));
    QCOMPARE(errorOf("npu -config"),
             std::string("target 'npu': expected an option -key=value, found '-config'"));
    QCOMPARE(errorOf("npu -config=npu-64 -config=npu-32"),
             std::string("target 'npu': option -config is given twice"));
    QCOMPARE(errorOf("npu, , c"),
             std::string("the target string \"npu, , c\" has an empty entry between commas"));
    QCOMPARE(errorOf("c,"),
             std::string("the target string \"c,\" has an empty entry between commas"));
    QCOMPARE(errorOf("c, npu, c"), std::string("target 'c' is given twice"));
  }
};

QTEST_APPLESS_MAIN(TargetString)
#include "target_string_test.moc"
