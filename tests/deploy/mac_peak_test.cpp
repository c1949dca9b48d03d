// How close to its core's MAC peak an operator runs (deploy/mac_peak.h,
// RunProfile::percentOfPeak): the ISA peak per core, the percentage from
// MACs and instructions, blanks where it means nothing, and the profile
// JSON's fields.
#include <QtTest>

#include <nlohmann/json.hpp>

#include "deploy/mac_peak.h"
#include "deploy/run_profile.h"

using namespace loupe;

class MacPeakTest : public QObject {
  Q_OBJECT

 private slots:
  void theIsaPeakOfEachCore() {
    QCOMPARE(deploy::peakMacsPerInstruction("cortex-m3"), std::optional<double>(1.0));
    for (const char* dsp : {"cortex-m4", "cortex-m7", "cortex-m33"}) {
      QCOMPARE(deploy::peakMacsPerInstruction(dsp), std::optional<double>(2.0));
    }
    QCOMPARE(deploy::peakMacsPerInstruction("cortex-m55"), std::optional<double>(16.0));
    QVERIFY(!deploy::peakMacsPerInstruction("cortex-m0").has_value());
    QVERIFY(!deploy::peakMacsPerInstruction("").has_value());  // the host
  }

  void percentOfPeakAndItsBlanks() {
    deploy::RunProfile profile;
    profile.unit = "instructions";
    deploy::OperatorTime conv{0, {0}, "conv", "CONV_2D", 1000.0, 500};
    QVERIFY(!profile.percentOfPeak(conv).has_value());  // no peak known
    profile.peakMacsPerUnit = 2.0;
    QCOMPARE(*profile.percentOfPeak(conv), 25.0);  // 500 / (1000 x 2)
    deploy::OperatorTime reshape{1, {1}, "reshape", "RESHAPE", 40.0, 0};
    QVERIFY(!profile.percentOfPeak(reshape).has_value());
    deploy::OperatorTime npu{2, {2, 3}, "npu", "CONV_2D+CONV_2D", 900.0, 100000};
    npu.npu = true;
    QVERIFY(!profile.percentOfPeak(npu).has_value());
    // A pool's MACs are sums: no share of the MAC peak.
    deploy::OperatorTime pool{4, {4}, "pool", "AVERAGE_POOL_2D", 200.0, 100};
    QVERIFY(!profile.percentOfPeak(pool).has_value());
    for (const char* type : {"DEPTHWISE_CONV_2D", "FULLY_CONNECTED"}) {
      deploy::OperatorTime call{5, {5}, "call", type, 100.0, 100};
      QCOMPARE(*profile.percentOfPeak(call), 50.0);
    }

    profile.operators = {conv, reshape, npu, pool};
    profile.total = 2000;
    const auto json = nlohmann::json::parse(deploy::runProfileJson(profile));
    QCOMPARE(json["peak_macs_per_instruction"].get<double>(), 2.0);
    QCOMPARE(json["operators"][0]["percent_of_peak"].get<double>(), 25.0);
    QVERIFY(!json["operators"][1].contains("percent_of_peak"));
    QVERIFY(!json["operators"][2].contains("percent_of_peak"));
    QVERIFY(!json["operators"][3].contains("percent_of_peak"));
    profile.peakMacsPerUnit = 0;  // the host's nanoseconds
    QVERIFY(!nlohmann::json::parse(deploy::runProfileJson(profile))
                 .contains("peak_macs_per_instruction"));
  }
};

QTEST_GUILESS_MAIN(MacPeakTest)
#include "mac_peak_test.moc"
