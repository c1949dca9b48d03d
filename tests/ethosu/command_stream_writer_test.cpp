// The emitter's command stream writer and driver payload
// (compiler_core/ethosu): what the writer puts in each field, the
// functional model's decoder reads back; a register already holding a
// value is not written again, while operations always are; values that do
// not fit their field are refused; and the payload passes the driver's
// parser for the NPU it was made for and is refused by another.
#include <QtTest>

#include <cstring>
#include <stdexcept>

#include "ethosu/command_stream_writer.h"
#include "ethosu/driver_payload.h"
#include "loupe/ethosu/ethosu_command_stream.h"
#include "loupe/ethosu/ethosu_payload.h"

using namespace loupe::ethosu;

namespace {

// The operations of `words`, decoded.
std::vector<loupe_ethosu_operation> decode(const std::vector<std::uint32_t>& words,
                                           QString* error) {
  loupe_ethosu_command_decoder decoder;
  loupe_ethosu_command_decoder_init(&decoder, words.data(),
                                    static_cast<std::uint32_t>(words.size()));
  std::vector<loupe_ethosu_operation> operations;
  loupe_ethosu_error err{};
  loupe_ethosu_operation op;
  for (;;) {
    const int status = loupe_ethosu_command_decoder_next(&decoder, &op, &err);
    if (status < 0) *error = QString::fromUtf8(err.message);
    if (status <= 0) return operations;
    operations.push_back(op);
  }
}

void setFeatureMapOfTwoConvolutions(CommandStreamWriter& w, std::uint32_t ofmBase) {
  w.setValue(LOUPE_ETHOSU_NPU_SET_IFM_REGION, 1);
  w.setValue(LOUPE_ETHOSU_NPU_SET_IFM_BASE0, 0x100);
  w.setValue(LOUPE_ETHOSU_NPU_SET_IFM_DEPTH_M1, 15);
  w.set(LOUPE_ETHOSU_NPU_SET_IFM_PRECISION,
        {{LOUPE_ETHOSU_FIELD(NPU_SET_IFM_PRECISION, activation_type), 1},
         {LOUPE_ETHOSU_FIELD(NPU_SET_IFM_PRECISION, activation_format), 1}});
  w.set(LOUPE_ETHOSU_NPU_SET_IFM_ZERO_POINT,
        {{LOUPE_ETHOSU_FIELD(NPU_SET_IFM_ZERO_POINT, zero_point), static_cast<std::uint32_t>(-7)}});
  w.setValue(LOUPE_ETHOSU_NPU_SET_OFM_BASE0, ofmBase);
  w.setValue(LOUPE_ETHOSU_NPU_SET_OFM_DEPTH_M1, 31);
}

}  // namespace

class EthosuCommandStreamWriterTest : public QObject {
  Q_OBJECT

 private slots:
  void theDecoderReadsWhatWasWrittenAndHeldRegistersAreNotRepeated() {
    CommandStreamWriter w;
    setFeatureMapOfTwoConvolutions(w, 0x2000);
    w.operation(LOUPE_ETHOSU_NPU_OP_CONV);
    const std::size_t firstOperation = w.words().size();
    setFeatureMapOfTwoConvolutions(w, 0x4000);  // only the OFM base changes
    w.operation(LOUPE_ETHOSU_NPU_OP_CONV);
    w.operation(LOUPE_ETHOSU_NPU_OP_STOP, {{LOUPE_ETHOSU_FIELD(NPU_OP_STOP, mask), 0xffff}});
    // Second time round: the OFM base (2 words) and the operation (1).
    QCOMPARE(w.words().size() - firstOperation, std::size_t{2 + 1 + 1});
    QCOMPARE(w.writesLeftOut(), 6);

    QString error;
    const auto operations = decode(w.words(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(operations.size(), std::size_t{3});
    for (int i = 0; i < 2; ++i) {
      const loupe_ethosu_operation& op = operations[static_cast<std::size_t>(i)];
      QCOMPARE(int(op.kind), int(LOUPE_ETHOSU_OPERATION_CONV));
      QCOMPARE(int(op.ifm.region), 1);
      QCOMPARE(op.ifm.base[0], std::uint64_t{0x100});
      QCOMPARE(op.ifm.depth, 16u);
      QCOMPARE(int(op.ifm.is_signed), 1);
      QCOMPARE(int(op.ifm.layout), 1);  // NHCWB16
      QCOMPARE(op.ifm.zero_point, -7);
      QCOMPARE(op.ofm.depth, 32u);
      QCOMPARE(op.ofm.base[0], std::uint64_t{i == 0 ? 0x2000u : 0x4000u});
    }
    QCOMPARE(int(operations[2].kind), int(LOUPE_ETHOSU_OPERATION_STOP));
  }

  void addressesBeyond32BitsKeepTheirHighBits() {
    CommandStreamWriter w;
    w.setValue(LOUPE_ETHOSU_NPU_SET_OFM_BASE0, 0x12'3456'7890ull);
    w.operation(LOUPE_ETHOSU_NPU_OP_CONV);
    QString error;
    const auto operations = decode(w.words(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(operations.front().ofm.base[0], std::uint64_t{0x12'3456'7890ull});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             w.setValue(LOUPE_ETHOSU_NPU_SET_OFM_BASE0, 1ull << 40));
  }

  void valuesThatDoNotFitAreRefused() {
    CommandStreamWriter w;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             w.setValue(LOUPE_ETHOSU_NPU_SET_IFM_DEPTH_M1, 0x10000));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        w.set(LOUPE_ETHOSU_NPU_SET_IFM_REGION,
              {{LOUPE_ETHOSU_FIELD(NPU_SET_IFM_REGION, region), 8}}));      // 3 bits
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, w.setValue(0x3ff, 1));  // no such command
    QVERIFY(w.words().empty());
  }

  void thePayloadPassesTheDriversParserForItsNpuOnly() {
    CommandStreamWriter w;
    setFeatureMapOfTwoConvolutions(w, 0x2000);
    w.operation(LOUPE_ETHOSU_NPU_OP_CONV);
    w.operation(LOUPE_ETHOSU_NPU_OP_STOP, {{LOUPE_ETHOSU_FIELD(NPU_OP_STOP, mask), 0xffff}});
    loupe_ethosu_npu_config u55_128, u55_256, u65_256;
    QCOMPARE(loupe_ethosu_npu_config_init(&u55_128, LOUPE_ETHOSU_U55_128), 0);
    QCOMPARE(loupe_ethosu_npu_config_init(&u55_256, LOUPE_ETHOSU_U55_256), 0);
    QCOMPARE(loupe_ethosu_npu_config_init(&u65_256, LOUPE_ETHOSU_U65_256), 0);
    const std::vector<std::uint8_t> payload = driverPayload(u55_128, w.words());
    QCOMPARE(payload.size() % 4, std::size_t{0});
    const std::uint8_t* stream = nullptr;
    std::uint32_t streamWords = 0;
    loupe_ethosu_error err{};
    QVERIFY2(loupe_ethosu_payload_parse(payload.data(), payload.size(), &u55_128, &stream,
                                        &streamWords, &err) == LOUPE_ETHOSU_OK,
             err.message);
    QCOMPARE(streamWords, static_cast<std::uint32_t>(w.words().size()));
    QCOMPARE((stream - payload.data()) % 16, std::ptrdiff_t{0});
    QVERIFY(std::memcmp(stream, w.words().data(), w.words().size() * 4) == 0);
    for (const loupe_ethosu_npu_config* other : {&u55_256, &u65_256}) {
      err = {};
      QVERIFY(loupe_ethosu_payload_parse(payload.data(), payload.size(), other, &stream,
                                         &streamWords, &err) != LOUPE_ETHOSU_OK);
      QVERIFY2(QString(err.message).contains("U55"), err.message);
    }
  }
};

QTEST_GUILESS_MAIN(EthosuCommandStreamWriterTest)
#include "command_stream_writer_test.moc"
