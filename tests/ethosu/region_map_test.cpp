// The region map of a Vela operator says what lies where: every weight and
// scale stream the decoder reports sits in the flash (read in place or
// copied there by a DMA first), the flash's ranges tile it with the unused
// bytes named, feature maps take the bytes the functional model addresses
// (tiles, NHCWB16 bricks), no two live buffers share bytes except where an
// operation writes its output over the input it has just read, and the
// operator's own inputs and outputs are found by name. Run on the
// functional model, the NPU reads its weights and scales from exactly the
// flash bytes the map traces them to, and every scratch byte an operation
// changes lies in a range the map says it writes. The weights of each NPU
// convolution decode through the C decoder to full OHWI.
#include <QtTest>

#include <algorithm>
#include <cstring>
#include <set>

#include "analysis/ethosu_command_listing.h"
#include "analysis/ethosu_operation_weights.h"
#include "analysis/ethosu_region_map.h"
#include "ethosu_test_model.h"
#include "frontend/tflite_importer.h"

using namespace loupe::analysis;
using namespace loupe::test::ethosu;

namespace {

loupe::ir::Graph importVela(const std::filesystem::path& path) {
  loupe::frontend::ImportOptions options;
  options.keepUnsupportedOperators = true;
  return loupe::frontend::importTfliteFile(path.string(), options);
}

const loupe::ir::Operator& ethosuOperatorOf(const loupe::ir::Graph& graph) {
  for (const auto& op : graph.operators) {
    if (op.type == loupe::ir::OpType::EthosU) return op;
  }
  throw std::runtime_error("no ethos-u operator");
}

loupe_ethosu_feature_map featureMap(std::uint32_t h, std::uint32_t w, std::uint32_t c) {
  loupe_ethosu_feature_map fm{};
  fm.region = 1;
  fm.precision_bits = 8;
  fm.height = fm.height0 = fm.height1 = h;
  fm.width = fm.width0 = w;
  fm.depth = c;
  fm.stride_c = 1;
  fm.stride_x = c;
  fm.stride_y = std::uint64_t{w} * c;
  return fm;
}

// Runs a Vela operator on the functional model and checks the map against
// what happens: before each operation the weight and scale bytes the NPU
// reads are the flash bytes the map traces them to, and every scratch byte
// an operation changes lies in a range the map says it writes.
struct RegionMapRun {
  const EthosURegionMap* map = nullptr;
  const EthosuOperator* vela = nullptr;
  ethosu_driver* driver = nullptr;
  std::vector<std::uint8_t>* arena = nullptr;
  std::vector<std::uint8_t> before;
  int running = -1;  // the operation whose writes are checked next
  int checkedStreams = 0;
  std::int64_t changedBytes = 0;
  std::vector<std::string> failures;

  void checkWritesOf(int ordinal) {
    if (ordinal < 0) return;
    const auto accesses = map->accessesOf(ordinal);
    for (std::size_t byte = 0; byte < arena->size(); ++byte) {
      if ((*arena)[byte] == before[byte]) continue;
      ++changedBytes;
      const bool mapped = std::any_of(accesses.begin(), accesses.end(), [&](int a) {
        const EthosURegionAccess& access = map->accesses[static_cast<std::size_t>(a)];
        return access.writes && access.region == kEthosUScratchRegion && access.begin <= byte &&
               byte < access.end;
      });
      if (!mapped && failures.size() < 5) {
        failures.push_back(map->operationLabels[static_cast<std::size_t>(ordinal)] +
                           " changed scratch byte " + std::to_string(byte) +
                           " outside what it writes");
      }
    }
    before = *arena;
  }

  void checkStreamsOf(int ordinal) {
    for (int a : map->accessesOf(ordinal)) {
      const EthosURegionAccess& access = map->accesses[static_cast<std::size_t>(a)];
      if (access.kind != EthosUAccessKind::Weights && access.kind != EthosUAccessKind::Scales) {
        continue;
      }
      const std::uint8_t* read = driver->machine.regions[access.region].data + access.begin;
      const std::uint8_t* flash =
          vela->flash + (access.region == kEthosUFlashRegion ? access.begin : access.flashBegin);
      if (std::memcmp(read, flash, access.size()) != 0 && failures.size() < 5) {
        failures.push_back(map->operationLabels[static_cast<std::size_t>(ordinal)] + "'s " +
                           ethosuAccessKindName(access.kind) + " are not the flash bytes mapped");
      }
      ++checkedStreams;
    }
  }

  static int hook(void* user, const loupe_ethosu_operation* op) {
    auto* run = static_cast<RegionMapRun*>(user);
    run->checkWritesOf(run->running);
    run->running = static_cast<int>(op->index);  // one command stream: the ordinal
    run->checkStreamsOf(run->running);
    return 0;
  }
};

}  // namespace

class EthosuRegionMapTest : public QObject {
  Q_OBJECT

 private slots:
  void anNhwcFeatureMapTakesItsElements() {
    loupe_ethosu_feature_map fm = featureMap(4, 5, 3);
    fm.base[0] = 100;
    const EthosUTileExtent e = ethosuTileExtent(fm, 0);
    QCOMPARE(e.begin, std::uint64_t{100});
    QCOMPARE(e.end, std::uint64_t{100 + 4 * 5 * 3});
    for (int tile = 1; tile < 4; ++tile) {
      QCOMPARE(ethosuTileExtent(fm, tile).end, ethosuTileExtent(fm, tile).begin);
    }
  }

  void anNhcwb16FeatureMapTakesWholeBricks() {
    // 20 channels: two bricks of 16, the second padded; 2 x 3 elements.
    loupe_ethosu_feature_map fm = featureMap(2, 3, 20);
    fm.layout = LOUPE_ETHOSU_activation_format_NHCWB16;
    fm.stride_x = 16;
    fm.stride_c = 16 * 3;
    fm.stride_y = 16 * 3 * 2;
    const EthosUTileExtent e = ethosuTileExtent(fm, 0);
    QCOMPARE(e.end - e.begin, std::uint64_t{2 * 3 * 32});
  }

  void tilesSplitAFeatureMapAsTheFunctionalModelDoes() {
    // 6 x 8: tile 0 is rows 0-3 of columns 0-4, tile 2 rows 4-5 of them,
    // tile 1 rows 0-1 of columns 5-7, tile 3 rows 2-5 of them.
    loupe_ethosu_feature_map fm = featureMap(6, 8, 1);
    fm.height0 = 4;
    fm.height1 = 2;
    fm.width0 = 5;
    fm.stride_y = 100;  // each tile its own rows
    for (int t = 0; t < 4; ++t) fm.base[t] = 1000u * static_cast<unsigned>(t);
    const auto size = [&](int tile) {
      const EthosUTileExtent e = ethosuTileExtent(fm, tile);
      return e.end - e.begin;
    };
    QCOMPARE(size(0), std::uint64_t{3 * 100 + 4 * 1 + 1});
    QCOMPARE(size(1), std::uint64_t{1 * 100 + 2 * 1 + 1});
    QCOMPARE(size(2), std::uint64_t{1 * 100 + 4 * 1 + 1});
    QCOMPARE(size(3), std::uint64_t{3 * 100 + 2 * 1 + 1});
  }

  void everyVelaFileMapsItsRegions_data() {
    QTest::addColumn<int>("file");
    const auto files = velaFiles();
    for (std::size_t i = 0; i < files.size(); ++i) {
      QTest::newRow(files[i].name.c_str()) << static_cast<int>(i);
    }
  }

  void everyVelaFileMapsItsRegions() {
    QFETCH(int, file);
    const VelaFile vela = velaFiles().at(static_cast<std::size_t>(file));
    const loupe::ir::Graph graph = importVela(vela.path);
    const loupe::ir::Operator& op = ethosuOperatorOf(graph);
    const auto payload = ethosuPayloadOf(graph, op);
    const EthosURegionMap map = ethosuRegionMapOf(graph, op);
    QVERIFY2(map.problems.empty(), map.problems.empty() ? "" : map.problems.front().c_str());
    const EthosURegionInfo* flash = map.region(kEthosUFlashRegion);
    QVERIFY(flash != nullptr && flash->size > 0);
    QVERIFY(!flash->written);

    // Every weight and scale stream the decoder reports, at its length, in flash.
    std::vector<const loupe_ethosu_operation*> ops;
    for (const auto& stream : payload.streams) {
      for (const auto& o : stream.operations) ops.push_back(&o);
    }
    QCOMPARE(map.operationCount, static_cast<int>(ops.size()));
    int streamsSeen = 0;
    for (const EthosURegionAccess& a : map.accesses) {
      if (a.kind != EthosUAccessKind::Weights && a.kind != EthosUAccessKind::Scales) continue;
      const loupe_ethosu_operation& o = *ops.at(static_cast<std::size_t>(a.operation));
      const loupe_ethosu_stream_range& r =
          a.kind == EthosUAccessKind::Weights ? o.weights[a.part] : o.scales[a.part];
      QCOMPARE(a.size(), std::uint64_t{r.length});
      QCOMPARE(a.begin, r.base);
      const std::uint64_t inFlash = a.region == kEthosUFlashRegion ? a.begin : a.flashBegin;
      QVERIFY2(a.region == kEthosUFlashRegion || a.viaDma >= 0,
               qPrintable(QString::fromStdString(map.operationLabels[a.operation])));
      QVERIFY(inFlash + a.size() <= flash->size);
      ++streamsSeen;
    }
    QVERIFY(streamsSeen > 0);

    // The flash's ranges: sorted, from 0 to its size, no gap unnamed.
    QVERIFY(!map.flash.empty());
    QCOMPARE(map.flash.front().begin, std::uint64_t{0});
    std::uint64_t reach = 0;
    std::uint64_t weightBytes = 0;
    for (const EthosUFlashRange& r : map.flash) {
      QVERIFY(r.begin <= reach);  // adjoining or overlapping the one before
      reach = std::max(reach, r.end);
      if (r.content == EthosUFlashContent::Weights || r.content == EthosUFlashContent::Scales) {
        weightBytes += r.end - r.begin;
      }
      QCOMPARE(r.content == EthosUFlashContent::Unused, r.operations.empty());
    }
    QCOMPARE(reach, flash->size);
    // Weights and scales make up most of it; Vela leaves some bytes no command reads
    // (person_detect and vww: 27,392 before their lookup table).
    QVERIFY(weightBytes > flash->size / 2);
    QVERIFY(map.unusedFlashBytes() < flash->size / 2);

    // Within one operation the OFM shares no byte with an input, except an
    // elementwise operation's output written over its own input.
    for (int ordinal = 0; ordinal < map.operationCount; ++ordinal) {
      const auto accesses = map.accessesOf(ordinal);
      for (int o : accesses) {
        const EthosURegionAccess& out = map.accesses[static_cast<std::size_t>(o)];
        if (out.kind != EthosUAccessKind::Ofm) continue;
        for (int i : accesses) {
          const EthosURegionAccess& in = map.accesses[static_cast<std::size_t>(i)];
          if (in.writes || in.region != out.region || in.end <= out.begin || out.end <= in.begin) {
            continue;
          }
          const bool inPlace =
              ops[static_cast<std::size_t>(ordinal)]->kind == LOUPE_ETHOSU_OPERATION_ELEMENTWISE &&
              in.begin == out.begin && in.end == out.end;
          QVERIFY2(inPlace, qPrintable(QString::fromStdString(map.operationLabels[ordinal] + " " +
                                                              ethosuAccessKindName(in.kind) +
                                                              " overlaps its OFM")));
        }
      }
    }

    // Buffers sharing bytes never live at once, but for the one operation
    // that reads the old and writes the new.
    for (std::size_t i = 0; i < map.buffers.size(); ++i) {
      const EthosUBuffer& a = map.buffers[i];
      QVERIFY(a.end > a.begin);
      QVERIFY(a.firstOperation <= a.lastOperation);
      for (std::size_t j = i + 1; j < map.buffers.size(); ++j) {
        const EthosUBuffer& b = map.buffers[j];
        if (a.region != b.region || a.end <= b.begin || b.end <= a.begin) continue;
        const int together = std::min(a.lastOperation, b.lastOperation) -
                             std::max(a.firstOperation, b.firstOperation);
        QVERIFY2(together <= 0,
                 qPrintable(QStringLiteral("%1 [%2, %3) ops %4-%5 and %6 [%7, %8) ops %9-%10")
                                .arg(QString::fromStdString(ethosuBufferKindName(a.kind)))
                                .arg(a.begin)
                                .arg(a.end)
                                .arg(a.firstOperation)
                                .arg(a.lastOperation)
                                .arg(QString::fromStdString(ethosuBufferKindName(b.kind)))
                                .arg(b.begin)
                                .arg(b.end)
                                .arg(b.firstOperation)
                                .arg(b.lastOperation)));
      }
    }

    // The operator's inputs are read before anything writes them, its
    // outputs left written at the end: both found by name.
    std::set<std::string> inputs, outputs;
    for (const EthosUBuffer& b : map.buffers) {
      if (b.kind == EthosUBufferKind::StreamInput) inputs.insert(b.tensor);
      if (b.liveAtEnd) outputs.insert(b.tensor);
    }
    for (std::size_t slot = 2; slot < op.inputs.size(); ++slot) {
      QVERIFY2(inputs.count(graph.tensor(op.inputs[slot]).name),
               graph.tensor(op.inputs[slot]).name.c_str());
    }
    for (int output : op.outputs) {
      QVERIFY2(outputs.count(graph.tensor(output).name), graph.tensor(output).name.c_str());
    }
    QVERIFY(!inputs.count(""));  // no area read before it is written but the inputs
  }

  void theMapAgreesWithARun_data() { everyVelaFileMapsItsRegions_data(); }

  void theMapAgreesWithARun() {
    QFETCH(int, file);
    const VelaFile vela = velaFiles().at(static_cast<std::size_t>(file));
    const loupe::ir::Graph graph = importVela(vela.path);
    const EthosURegionMap map = ethosuRegionMapOf(graph, ethosuOperatorOf(graph));
    const EthosuOperator e = loadEthosuOperator(vela.path);
    // A pattern no operation writes everywhere, so that writing zeros shows.
    std::vector<std::uint8_t> arena(e.scratchSize, 0xA5), fast(e.fastScratchSize);
    static std::int16_t workspace[1 << 17];
    static ethosu_driver driver;
    loupe_ethosu_driver_init(&driver, vela.accelerator, workspace, 1 << 17);
    RegionMapRun run;
    run.map = &map;
    run.vela = &e;
    run.driver = &driver;
    run.arena = &arena;
    run.before = arena;
    loupe_ethosu_driver_set_hook(&driver, &RegionMapRun::hook, &run);
    QVERIFY2(invoke(driver, e, arena, fast) == 0, ethosu_last_error_message(&driver));
    run.checkWritesOf(run.running);
    QVERIFY2(run.failures.empty(), run.failures.empty() ? "" : run.failures.front().c_str());
    QVERIFY(run.checkedStreams > 0);
    QVERIFY(run.changedBytes > 0);
  }

  void personDetectsListingNamesItsRegions() {
    const loupe::ir::Graph graph =
        importVela(loupe::test::modelsDir() / "vela" / "person_detect_vela.tflite");
    const std::string text = ethosuRegionMapText(ethosuRegionMapOf(graph, ethosuOperatorOf(graph)));
    QVERIFY2(text.find("region 0 (flash)") != std::string::npos, text.c_str());
    QVERIFY(text.find("region 1 (scratch): 74,464 bytes") != std::string::npos);
    QVERIFY(text.find("weights  npu ") != std::string::npos);
    QVERIFY(text.find("feature map  npu ") != std::string::npos);
  }

  void everyConvolutionsWeightsDecodeToOhwi() {
    const loupe::ir::Graph graph =
        importVela(loupe::test::modelsDir() / "vela" / "person_detect_vela.tflite");
    const loupe::ir::Operator& op = ethosuOperatorOf(graph);
    const auto payload = ethosuPayloadOf(graph, op);
    const loupe::ir::Tensor* flash = graph.input(op, 1);
    QVERIFY(flash != nullptr);
    int decoded = 0;
    const auto& stream = payload.streams.at(0);
    for (std::size_t i = 0; i < stream.operations.size(); ++i) {
      const loupe_ethosu_operation& o = stream.operations[i];
      if (!ethosuHasWeights(o)) continue;
      const EthosUOperationWeights w = ethosuOperationWeights(
          payload, 0, static_cast<int>(i), {flash->data.data(), flash->data.size()});
      QVERIFY2(w.error.empty(), w.error.c_str());
      QCOMPARE(w.ofmDepth, static_cast<int>(o.ofm.depth));
      QCOMPARE(w.weightCount(), std::uint64_t(w.ofmDepth) * std::uint64_t(w.valuesPerChannel()));
      QCOMPARE(w.channels.size(), static_cast<std::size_t>(w.ofmDepth));
      QVERIFY(w.encodedBytes > 0);
      bool nonZero = false;
      for (std::int16_t v : w.ohwi) {
        QVERIFY(v >= -256 && v <= 255);
        nonZero = nonZero || v != 0;
      }
      QVERIFY(nonZero);
      for (const EthosUChannelScale& c : w.channels) QVERIFY(c.scale > 0 && c.shift > 0);
      ++decoded;
    }
    QCOMPARE(decoded, 55);  // 32 CONV and 23 DEPTHWISE
    // A DMA is no convolution.
    QVERIFY(!ethosuOperationWeights(payload, 0, 0, {}).error.empty());
  }
};

QTEST_MAIN(EthosuRegionMapTest)
#include "region_map_test.moc"
