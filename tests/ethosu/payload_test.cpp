// The driver payload and the command stream refuse what is malformed with a
// code and a message naming what was expected and found: a wrong fourcc, an
// unknown driver action, an action or a command stream cut short, an unknown
// command, an access outside its region, a region without base address, and
// a payload compiled for another NPU. Nothing is read or written outside
// the buffers given (the fuzz target relies on it, under ASan/UBSan).
#include <QtTest>

#include <cstring>

#include "ethosu_test_model.h"

using namespace loupe::test::ethosu;

namespace {

std::vector<std::uint8_t> bytesOf(const std::vector<std::uint32_t>& words) {
  std::vector<std::uint8_t> bytes(words.size() * 4);
  std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

// COP1, the U55-128's configuration, the command stream.
std::vector<std::uint32_t> payloadWith(const std::vector<std::uint32_t>& stream,
                                       int accelerator = LOUPE_ETHOSU_U55_128) {
  loupe_ethosu_npu_config config;
  loupe_ethosu_npu_config_init(&config, accelerator);
  std::vector<std::uint32_t> words = {LOUPE_ETHOSU_FOURCC, 0x00100001u,
                                      loupe_ethosu_npu_config_word(&config),
                                      loupe_ethosu_npu_id_word(&config)};
  words.push_back(LOUPE_ETHOSU_DA_COMMAND_STREAM |
                  (static_cast<std::uint32_t>(stream.size()) << 16));
  words.insert(words.end(), stream.begin(), stream.end());
  return words;
}

const std::uint32_t kStop = LOUPE_ETHOSU_NPU_OP_STOP | 0xFFFF0000u;

struct Run {
  int status;
  std::string message;
};

Run runPayload(const std::vector<std::uint8_t>& payload, int accelerator = LOUPE_ETHOSU_U55_128,
               int regions = 3) {
  static std::int16_t workspace[4096];
  static ethosu_driver driver;
  static std::uint8_t memory[3][256];
  loupe_ethosu_driver_init(&driver, accelerator, workspace, 4096);
  std::uint64_t base[3];
  std::size_t sizes[3] = {256, 256, 256};
  for (int i = 0; i < 3; ++i) base[i] = reinterpret_cast<std::uintptr_t>(memory[i]);
  const int status = ethosu_invoke_v3(&driver, payload.data(), static_cast<int>(payload.size()),
                                      base, sizes, regions, nullptr);
  return {status, ethosu_last_error_message(&driver)};
}

}  // namespace

class EthosuPayloadTest : public QObject {
  Q_OBJECT

 private slots:
  void aPayloadWithOnlyStopRuns() {
    const Run r = runPayload(bytesOf(payloadWith({kStop})));
    QCOMPARE(r.status, 0);
    QCOMPARE(r.message, std::string());
  }

  void aWrongFourccIsRefused() {
    auto words = payloadWith({kStop});
    words[0] = 0x32504F43u;  // "COP2"
    const Run r = runPayload(bytesOf(words));
    QCOMPARE(r.status, int(LOUPE_ETHOSU_ERR_FOURCC));
    QVERIFY2(r.message.find("expected COP1") != std::string::npos, r.message.c_str());
  }

  void aPayloadOfBrokenWordsIsRefused() {
    auto bytes = bytesOf(payloadWith({kStop}));
    bytes.push_back(0);
    const Run r = runPayload(bytes);
    QCOMPARE(r.status, int(LOUPE_ETHOSU_ERR_PAYLOAD_SIZE));
    QVERIFY2(r.message.find("not a multiple of 4") != std::string::npos, r.message.c_str());
  }

  void anUnknownDriverActionIsRefused() {
    auto words = payloadWith({kStop});
    words.insert(words.begin() + 4, 0x00000007u);  // 7: no such action
    const Run r = runPayload(bytesOf(words));
    QCOMPARE(r.status, int(LOUPE_ETHOSU_ERR_UNKNOWN_ACTION));
    QVERIFY2(r.message.find("unknown driver action 7 at word 4") != std::string::npos,
             r.message.c_str());
  }

  void aCommandStreamLongerThanThePayloadIsRefused() {
    auto words = payloadWith({kStop});
    words[4] = LOUPE_ETHOSU_DA_COMMAND_STREAM | (9u << 16);  // says 9 words, 1 follows
    const Run r = runPayload(bytesOf(words));
    QCOMPARE(r.status, int(LOUPE_ETHOSU_ERR_ACTION_TRUNCATED));
    QVERIFY2(r.message.find("COMMAND_STREAM at word 4 needs 10 words") != std::string::npos,
             r.message.c_str());
  }

  void aCutOptimizerConfigIsRefused() {
    const std::vector<std::uint32_t> words = {LOUPE_ETHOSU_FOURCC, 0x00100001u, 0x1807u};
    const Run r = runPayload(bytesOf(words));
    QCOMPARE(r.status, int(LOUPE_ETHOSU_ERR_ACTION_TRUNCATED));
    QVERIFY2(r.message.find("OPTIMIZER_CONFIG") != std::string::npos, r.message.c_str());
  }

  void aStreamWithoutStopIsRefused() {
    const Run r = runPayload(bytesOf(payloadWith({LOUPE_ETHOSU_NPU_SET_IFM_REGION | (1u << 16)})));
    QCOMPARE(r.status, int(LOUPE_ETHOSU_ERR_STREAM_TRUNCATED));
    QVERIFY2(r.message.find("without NPU_OP_STOP") != std::string::npos, r.message.c_str());
  }

  void aCmd1WithoutPayloadIsRefused() {
    const Run r = runPayload(bytesOf(payloadWith({LOUPE_ETHOSU_NPU_SET_IFM_BASE0})));
    QCOMPARE(r.status, int(LOUPE_ETHOSU_ERR_STREAM_TRUNCATED));
    QVERIFY2(r.message.find("cmd1 without its payload word at word 0") != std::string::npos,
             r.message.c_str());
  }

  void anUnknownCommandIsRefused() {
    const Run r = runPayload(bytesOf(payloadWith({0x0000017Eu, kStop})));
    QCOMPARE(r.status, int(LOUPE_ETHOSU_ERR_UNKNOWN_COMMAND));
    QVERIFY2(r.message.find("unknown command 0x17e at word 0") != std::string::npos,
             r.message.c_str());
  }

  void aDmaOutsideItsRegionIsRefused() {
    const std::vector<std::uint32_t> stream = {LOUPE_ETHOSU_NPU_SET_DMA0_SRC_REGION | (0u << 16),
                                               LOUPE_ETHOSU_NPU_SET_DMA0_SRC,
                                               200u,
                                               LOUPE_ETHOSU_NPU_SET_DMA0_DST_REGION | (1u << 16),
                                               LOUPE_ETHOSU_NPU_SET_DMA0_DST,
                                               0u,
                                               LOUPE_ETHOSU_NPU_SET_DMA0_LEN,
                                               64u,
                                               LOUPE_ETHOSU_NPU_OP_DMA_START,
                                               kStop};
    const Run r = runPayload(bytesOf(payloadWith(stream)));
    QCOMPARE(r.status, int(LOUPE_ETHOSU_ERR_ADDRESS));
    QVERIFY2(r.message.find("DMA source: bytes [0xc8, +64) outside region 0 of 256 bytes") !=
                 std::string::npos,
             r.message.c_str());
  }

  void aRegionWithoutBaseAddressIsRefused() {
    const std::vector<std::uint32_t> stream = {LOUPE_ETHOSU_NPU_SET_DMA0_SRC_REGION | (2u << 16),
                                               LOUPE_ETHOSU_NPU_SET_DMA0_LEN, 16u,
                                               LOUPE_ETHOSU_NPU_OP_DMA_START, kStop};
    const Run r = runPayload(bytesOf(payloadWith(stream)), LOUPE_ETHOSU_U55_128, 2);
    QCOMPARE(r.status, int(LOUPE_ETHOSU_ERR_REGION));
    QVERIFY2(r.message.find("region 2 has no base address") != std::string::npos,
             r.message.c_str());
  }

  void aPayloadForAnotherNpuIsRefused() {
    const Run r =
        runPayload(bytesOf(payloadWith({kStop}, LOUPE_ETHOSU_U55_256)), LOUPE_ETHOSU_U55_128);
    QCOMPARE(r.status, int(LOUPE_ETHOSU_ERR_CONFIG_MISMATCH));
    QVERIFY2(r.message.find("compiled for Ethos-U55 with 256 MACs") != std::string::npos,
             r.message.c_str());
    QVERIFY2(r.message.find("modelled NPU is Ethos-U55 with 128 MACs") != std::string::npos,
             r.message.c_str());
  }

  void everyVelaFileParsesForItsNpuAndNotForTheOther() {
    for (const auto& f : velaFiles()) {
      const EthosuOperator e = loadEthosuOperator(f.path);
      loupe_ethosu_npu_config npu, other;
      loupe_ethosu_npu_config_init(&npu, f.accelerator);
      loupe_ethosu_npu_config_init(&other, f.accelerator == LOUPE_ETHOSU_U55_128
                                               ? LOUPE_ETHOSU_U55_256
                                               : LOUPE_ETHOSU_U55_128);
      const std::uint8_t* stream = nullptr;
      std::uint32_t words = 0;
      loupe_ethosu_error err;
      QCOMPARE(loupe_ethosu_payload_parse(e.payload, e.payloadSize, &npu, &stream, &words, &err),
               0);
      QVERIFY(stream != nullptr && words > 0);
      QCOMPARE(loupe_ethosu_payload_parse(e.payload, e.payloadSize, &other, &stream, &words, &err),
               int(LOUPE_ETHOSU_ERR_CONFIG_MISMATCH));
    }
  }

  void anArenaTooSmallForTheModelIsRefusedNotOverrun() {
    const auto f = velaFiles()[2];  // ethos-u55-128/kws_ref_model
    const EthosuOperator e = loadEthosuOperator(f.path);
    std::vector<std::uint8_t> arena(e.scratchSize / 2), fast(e.fastScratchSize);
    static std::int16_t workspace[1 << 17];
    static ethosu_driver driver;
    loupe_ethosu_driver_init(&driver, f.accelerator, workspace, 1 << 17);
    QCOMPARE(invoke(driver, e, arena, fast), int(LOUPE_ETHOSU_ERR_ADDRESS));
    QVERIFY(std::string(ethosu_last_error_message(&driver)).find("outside region 1") !=
            std::string::npos);
  }

  void aWorkspaceTooSmallSaysHowMuchIsNeeded() {
    const auto f = velaFiles()[2];
    const EthosuOperator e = loadEthosuOperator(f.path);
    std::vector<std::uint8_t> arena(e.scratchSize), fast(e.fastScratchSize);
    static std::int16_t workspace[16];
    static ethosu_driver driver;
    loupe_ethosu_driver_init(&driver, f.accelerator, workspace, 16);
    QCOMPARE(invoke(driver, e, arena, fast), int(LOUPE_ETHOSU_ERR_WORKSPACE));
    QVERIFY(std::string(ethosu_last_error_message(&driver)).find("workspace values") !=
            std::string::npos);
  }

  void aWaitKeepsItsOwnWordInsideTheGroupOfTheOperationAfterIt() {
    // DMA; registers, a DMA wait, registers, CONV; a kernel wait; STOP.
    const std::vector<std::uint32_t> stream = {LOUPE_ETHOSU_NPU_OP_DMA_START,                 // 0
                                               LOUPE_ETHOSU_NPU_SET_IFM_REGION | (1u << 16),  // 1
                                               LOUPE_ETHOSU_NPU_OP_DMA_WAIT,                  // 2
                                               LOUPE_ETHOSU_NPU_SET_OFM_BASE0,
                                               0x100u,                           // 3, 4
                                               LOUPE_ETHOSU_NPU_OP_CONV,         // 5
                                               LOUPE_ETHOSU_NPU_OP_KERNEL_WAIT,  // 6
                                               kStop};                           // 7
    const auto bytes = bytesOf(stream);
    static loupe_ethosu_command_decoder decoder;
    loupe_ethosu_command_decoder_init(&decoder, bytes.data(),
                                      static_cast<std::uint32_t>(stream.size()));
    loupe_ethosu_operation op;
    loupe_ethosu_error err{};
    struct Expected {
      int kind;
      std::uint32_t first, end;
    };
    const Expected expected[] = {{LOUPE_ETHOSU_OPERATION_DMA, 0, 1},
                                 {LOUPE_ETHOSU_OPERATION_DMA_WAIT, 2, 3},
                                 {LOUPE_ETHOSU_OPERATION_CONV, 1, 6},
                                 {LOUPE_ETHOSU_OPERATION_KERNEL_WAIT, 6, 7},
                                 {LOUPE_ETHOSU_OPERATION_STOP, 6, 8}};
    for (const Expected& e : expected) {
      QCOMPARE(loupe_ethosu_command_decoder_next(&decoder, &op, &err), 1);
      QCOMPARE(int(op.kind), e.kind);
      QCOMPARE(op.first_word, e.first);
      QCOMPARE(op.end_word, e.end);
    }
    QCOMPARE(loupe_ethosu_command_decoder_next(&decoder, &op, &err), 0);
  }

  void aKernelTooLargeForAnyWorkspaceSaturatesTheWorkspaceNeeded() {
    // A corrupt kernel must not wrap to a small workspace: 128 channels of
    // 65,536 x 65,536 x 16 weights is 2^43 values.
    static loupe_ethosu_machine machine;
    loupe_ethosu_npu_config config;
    loupe_ethosu_npu_config_init(&config, LOUPE_ETHOSU_U55_128);
    loupe_ethosu_machine_init(&machine, &config, nullptr, 0);
    loupe_ethosu_operation op{};
    op.kind = LOUPE_ETHOSU_OPERATION_CONV;
    op.ofm.depth = 128;
    op.block_depth = 128;
    op.ifm.depth = 16;
    op.kernel_width = op.kernel_height = 65536;
    op.dilation_x = op.dilation_y = 1;
    QCOMPARE(loupe_ethosu_workspace_needed(&machine, &op), 0xFFFFFFFFu);
    QVERIFY(loupe_ethosu_workspace_needed(&machine, &op) > LOUPE_ETHOSU_MAX_WORKSPACE_VALUES);
    op.kernel_width = op.kernel_height = 3;
    QCOMPARE(loupe_ethosu_workspace_needed(&machine, &op), 128u * 9u * 16u);
  }

  void theRegisterTableNamesEveryCommandOnce() {
    for (std::uint32_t i = 0; i < loupe_ethosu_command_count; ++i) {
      const auto& c = loupe_ethosu_commands[i];
      QCOMPARE(loupe_ethosu_find_command(c.code), &c);
      QCOMPARE(int(c.words), (c.code & LOUPE_ETHOSU_CMD1_FLAG) ? 2 : 1);
    }
    for (std::uint32_t i = 0; i < loupe_ethosu_field_count; ++i) {
      const auto& f = loupe_ethosu_fields[i];
      QVERIFY(loupe_ethosu_find_command(f.command_code) != nullptr);
      QVERIFY(f.lsb + f.width <= ((f.command_code & LOUPE_ETHOSU_CMD1_FLAG) ? 64 : 32));
      QVERIFY(f.lsb >= 16);
    }
    QCOMPARE(std::string(loupe_ethosu_enum_name("round_mode", 2)), std::string("NATURAL"));
  }
};

QTEST_APPLESS_MAIN(EthosuPayloadTest)
#include "payload_test.moc"
