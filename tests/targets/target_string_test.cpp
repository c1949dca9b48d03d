// The --target string: targets in priority order with -key=value options,
// parsed against the built-in targets; every mistake is an error that says
// what was wrong and what is allowed.
#include <QtTest>

#include "target/target_lowering.h"
#include "target/target_string.h"
#include "targets/builtin_targets.h"
#include "targets/ethos_u/ethosu_target.h"

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
  void registryHoldsCAndEthosU() {
    QCOMPARE(targets::builtinTargetRegistry().names(), (std::vector<std::string>{"c", "ethos-u"}));
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
    // Without SMLAL the Cortex-M0+ keeps the loop nests.
    QCOMPARE(target::cpuIsaFor(parse("c"), "cortex-m0plus"), target::CpuIsa::Scalar);
    QCOMPARE(target::cpuIsaFor(parse("c"), ""), target::CpuIsa::Scalar);
    QCOMPARE(target::cpuIsaFor(parse("c -mcpu=generic"), "cortex-m55"), target::CpuIsa::Scalar);
    QCOMPARE(target::cpuIsaFor(parse("ethos-u, c -mcpu=cortex-m7"), ""), target::CpuIsa::Dsp);
  }

  void ethosUThenCpuInPriorityOrder() {
    const auto targets = parse("ethos-u -accelerator_config=ethos-u55-256, c");
    QCOMPARE(targets.size(), std::size_t{2});
    QCOMPARE(targets[0]->name(), std::string("ethos-u"));
    QCOMPARE(targets[0]->options().at("accelerator_config"), std::string("ethos-u55-256"));
    QCOMPARE(targets[0]->displayName(), std::string("Ethos-U ethos-u55-256"));
    QCOMPARE(targets[1]->name(), std::string("c"));
  }

  void ethosUConfigDefaultsToU55With128Macs() {
    const auto targets = parse("  ethos-u ,c ");
    QCOMPARE(dynamic_cast<const targets::ethos_u::EthosUTarget&>(*targets[0]).acceleratorConfig(),
             std::string("ethos-u55-128"));
    QCOMPARE(target::targetListString(targets),
             std::string("ethos-u -accelerator_config=ethos-u55-128, c"));
  }

  void everyAcceleratorConfiguration() {
    for (const char* config : {"ethos-u55-32", "ethos-u55-64", "ethos-u55-128", "ethos-u55-256",
                               "ethos-u65-256", "ethos-u65-512"}) {
      const auto targets = parse(std::string("ethos-u -accelerator_config=") + config + ", c");
      QCOMPARE(targets[0]->options().at("accelerator_config"), std::string(config));
    }
  }

  void mistakesAreNamed() {
    QCOMPARE(errorOf(""), std::string("the target string is empty: name at least one target, e.g. "
                                      "\"c\" or \"ethos-u -accelerator_config=ethos-u55-128, c\""));
    QCOMPARE(errorOf("   "), errorOf(""));
    QCOMPARE(errorOf("gpu, c"), std::string("unknown target 'gpu' (known targets: c, ethos-u)"));
    QCOMPARE(errorOf("ethos-u -accelerator_config=ethos-u55-100, c"),
             std::string("target 'ethos-u': -accelerator_config=ethos-u55-100 is not one of "
                         "ethos-u55-32, ethos-u55-64, ethos-u55-128, ethos-u55-256, ethos-u65-256, "
                         "ethos-u65-512"));
    QCOMPARE(
        errorOf("ethos-u -macs=128"),
        std::string(
            "target 'ethos-u' has no option -macs (options: -accelerator_config, -system_config)"));
    QCOMPARE(errorOf("c -accelerator_config=ethos-u55-128"),
             std::string("target 'c' has no option -accelerator_config (options: -mcpu)"));
    QCOMPARE(errorOf("c -mcpu=cortex-a53"),
             std::string("target 'c': -mcpu=cortex-a53 is not one of generic, cortex-m0, "
                         "cortex-m0plus, cortex-m3, cortex-m4, cortex-m7, cortex-m33, cortex-m55"));
    QCOMPARE(errorOf("ethos-u accelerator_config=ethos-u55-128"),
             std::string("target 'ethos-u': expected an option -key=value, found "
                         "'accelerator_config=ethos-u55-128'"));
    QCOMPARE(errorOf("ethos-u -accelerator_config"),
             std::string("target 'ethos-u': expected an option -key=value, found "
                         "'-accelerator_config'"));
    QCOMPARE(errorOf("ethos-u -accelerator_config=ethos-u55-64 -accelerator_config=ethos-u55-32"),
             std::string("target 'ethos-u': option -accelerator_config is given twice"));
    QCOMPARE(errorOf("ethos-u, , c"),
             std::string("the target string \"ethos-u, , c\" has an empty entry between commas"));
    QCOMPARE(errorOf("c,"),
             std::string("the target string \"c,\" has an empty entry between commas"));
    QCOMPARE(errorOf("c, ethos-u, c"), std::string("target 'c' is given twice"));
  }
};

QTEST_APPLESS_MAIN(TargetString)
#include "target_string_test.moc"
