// 1,000 mutants of the Vela files of tests/data/models/vela through
// `loupec info` and `loupec run --platform reference`: each command either
// succeeds or fails with a one-line message on stderr, and never crashes
// (no signal, no exit code of 128 or more, no sanitizer report) nor hangs.
// Most mutations land in the ethos-u operator's payload, and there in the
// command stream, where the importer's C decoder and the functional model
// read every word; the rest flip bytes anywhere, cut the file short, or
// change length fields. The mutants are the same on every run (a fixed seed
// per mutant), so a failure names one that can be rebuilt and kept.
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

#include "ethosu_test_model.h"
#include "loupe/ethosu/ethosu_registers.h"

namespace {

using loupe::test::ethosu::EthosuOperator;

constexpr int kMutants = 1000;
constexpr int kProcessTimeoutMs = 30000;

// splitmix64: the same numbers from the same seed on every platform, which
// std::uniform_int_distribution does not promise.
class MutantRandom {
 public:
  explicit MutantRandom(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // In [0, n), n > 0.
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  std::uint32_t word() { return static_cast<std::uint32_t>(next()); }

 private:
  std::uint64_t state_;
};

// A Vela file and where, in its bytes, the parts a mutation aims at lie.
struct MutantSource {
  std::string name;  // "ethos-u55-128/kws_ref_model"
  std::vector<std::uint8_t> bytes;
  std::size_t payload = 0, payloadSize = 0;  // the driver payload (operator input 0)
  std::size_t stream = 0, streamWords = 0;   // its command stream
  std::size_t flash = 0, flashSize = 0;      // encoded weights (input 1)
  std::vector<std::size_t> commands;         // offsets of the stream's commands
  QString input;                             // a golden input of the original model
};

std::uint32_t loadWord(const std::vector<std::uint8_t>& bytes, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, bytes.data() + at, 4);
  return v;
}

void storeWord(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint32_t v) {
  if (at + 4 <= bytes.size()) std::memcpy(bytes.data() + at, &v, 4);
}

MutantSource mutantSource(const loupe::test::ethosu::VelaFile& vela) {
  const EthosuOperator e = loupe::test::ethosu::loadEthosuOperator(vela.path);
  MutantSource s;
  s.name = vela.name;
  s.bytes = e.file;
  s.payload = static_cast<std::size_t>(e.payload - e.file.data());
  s.payloadSize = e.payloadSize;
  if (e.flash != nullptr) {
    s.flash = static_cast<std::size_t>(e.flash - e.file.data());
    s.flashSize = e.flashSize;
  }
  const std::uint8_t* stream = nullptr;
  std::uint32_t words = 0;
  if (loupe_ethosu_payload_parse(e.payload, e.payloadSize, nullptr, &stream, &words, nullptr) ==
      0) {
    s.stream = static_cast<std::size_t>(stream - e.file.data());
    s.streamWords = words;
  }
  // Command boundaries, by the register table: where a changed parameter or
  // payload word still makes a well-formed command.
  for (std::size_t w = 0; w < s.streamWords;) {
    s.commands.push_back(s.stream + 4 * w);
    const auto* info = loupe_ethosu_find_command(loadWord(s.bytes, s.stream + 4 * w));
    w += info != nullptr ? info->words : 1;
  }
  const auto sets = loupe::test::ethosu::goldenSets(vela.model);
  if (!sets.empty()) s.input = QString::fromStdString((sets.front() / "input0.bin").string());
  return s;
}

// Values at the edges of what a 16-bit parameter or a 32-bit payload means.
std::uint32_t edgeValue(MutantRandom& random, std::uint32_t old, std::uint32_t mask) {
  switch (random.below(8)) {
    case 0:
      return 0;
    case 1:
      return mask;
    case 2:
      return (mask >> 1) + 1;  // the sign bit
    case 3:
      return mask >> 1;
    case 4:
      return (old + 1) & mask;
    case 5:
      return (old - 1) & mask;
    case 6:
      return (old ^ (1u << random.below(mask == 0xFFFFu ? 16 : 32))) & mask;
    default:
      return random.word() & mask;
  }
}

// Mutant `index` of `s`, and what was done to it.
std::vector<std::uint8_t> mutate(const MutantSource& s, int index, std::string* what) {
  MutantRandom random(0x10C0FFEEull * 1000003ull + static_cast<std::uint64_t>(index));
  std::vector<std::uint8_t> bytes = s.bytes;
  const std::size_t kind = random.below(100);
  const auto say = [&](const std::string& text) { *what += (what->empty() ? "" : "; ") + text; };
  if (kind < 30 && !s.commands.empty()) {
    // Words of the command stream replaced by anything.
    const std::size_t count = 1 + random.below(4);
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t at = s.stream + 4 * random.below(s.streamWords);
      const std::uint32_t value = random.word();
      storeWord(bytes, at, value);
      say("stream word at byte " + std::to_string(at) + " = " + std::to_string(value));
    }
  } else if (kind < 55 && !s.commands.empty()) {
    // A command's parameter or payload word at an edge: the command stays
    // well-formed, its value does not (extents, strides, addresses, modes).
    const std::size_t count = 1 + random.below(3);
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t at = s.commands[random.below(s.commands.size())];
      const std::uint32_t word0 = loadWord(bytes, at);
      const auto* info = loupe_ethosu_find_command(word0);
      if (info != nullptr && info->words == 2 && random.below(2) == 0) {
        const std::uint32_t value = edgeValue(random, loadWord(bytes, at + 4), 0xFFFFFFFFu);
        storeWord(bytes, at + 4, value);
        say(std::string(info->name) + " at byte " + std::to_string(at) + " payload " +
            std::to_string(value));
      } else {
        const std::uint32_t param = edgeValue(random, word0 >> 16, 0xFFFFu);
        storeWord(bytes, at, (word0 & 0xFFFFu) | (param << 16));
        say(std::string(info != nullptr ? info->name : "?") + " at byte " + std::to_string(at) +
            " parameter " + std::to_string(param));
      }
    }
  } else if (kind < 65) {
    // Bits of the payload flipped (its header and driver actions too).
    const std::size_t count = 1 + random.below(8);
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t at = s.payload + random.below(s.payloadSize);
      bytes[at] ^= static_cast<std::uint8_t>(1u << random.below(8));
      say("payload bit flipped at byte " + std::to_string(at));
    }
  } else if (kind < 75) {
    // Length fields: the COMMAND_STREAM action's, the flatbuffer vector
    // lengths of the payload and the flash.
    const std::size_t which = random.below(3);
    const std::size_t at = which == 0   ? s.stream - 4
                           : which == 1 ? s.payload - 4
                                        : (s.flashSize > 0 ? s.flash - 4 : s.payload - 4);
    std::uint32_t value = loadWord(bytes, at);
    if (which == 0) {
      // Length in bits 16-31 (and 8-15 above them): the tag's kind stays.
      const std::uint32_t length = edgeValue(random, value >> 16, 0xFFFFu);
      value = (value & 0xFFFFu) | (length << 16);
      if (random.below(4) == 0) value ^= (1u + static_cast<std::uint32_t>(random.below(255))) << 8;
    } else {
      value = edgeValue(random, value, 0xFFFFFFFFu);
    }
    storeWord(bytes, at, value);
    say("length at byte " + std::to_string(at) + " = " + std::to_string(value));
  } else if (kind < 80) {
    // Cut short: anywhere, or inside the payload.
    const std::size_t end =
        random.below(2) == 0 ? random.below(bytes.size()) : s.payload + random.below(s.payloadSize);
    bytes.resize(end);
    say("truncated to " + std::to_string(end) + " bytes");
  } else if (kind < 88 && s.flashSize >= 4) {
    // Encoded weights and scale records overwritten.
    const std::size_t count = 1 + random.below(4);
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t at = s.flash + random.below(s.flashSize - 3);
      storeWord(bytes, at, random.word());
      say("flash word at byte " + std::to_string(at));
    }
  } else {
    // Bytes anywhere in the file: the flatbuffer, its metadata, the tensors.
    const std::size_t count = 1 + random.below(8);
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t at = random.below(bytes.size());
      bytes[at] = static_cast<std::uint8_t>(random.word());
      say("file byte " + std::to_string(at));
    }
  }
  return bytes;
}

struct Outcome {
  int exitCode = 0;
  bool crashed = false, timedOut = false;
  QString err;
};

Outcome runLoupec(const QStringList& arguments) {
  QProcess process;
  process.start(QStringLiteral(LOUPEC_PATH), arguments);
  Outcome outcome;
  if (!process.waitForFinished(kProcessTimeoutMs)) {
    process.kill();
    process.waitForFinished();
    outcome.timedOut = true;
  }
  outcome.crashed = process.exitStatus() != QProcess::NormalExit;
  outcome.exitCode = process.exitCode();
  process.readAllStandardOutput();
  outcome.err = QString::fromUtf8(process.readAllStandardError());
  return outcome;
}

// "" when the outcome is one the command may have: success, or a failure
// that says why in one line (and, for a usage error, the hint after it).
QString verdict(const Outcome& o) {
  if (o.timedOut) return QStringLiteral("did not finish in %1 s").arg(kProcessTimeoutMs / 1000);
  if (o.crashed) return QStringLiteral("crashed (a signal)");
  if (o.exitCode >= 128) return QStringLiteral("exit code %1").arg(o.exitCode);
  for (const char* report :
       {"AddressSanitizer", "LeakSanitizer", "runtime error:", "terminate called", "Assertion"}) {
    if (o.err.contains(QLatin1String(report))) return QStringLiteral("stderr: %1").arg(o.err);
  }
  if (o.exitCode == 0) return {};
  QStringList lines = o.err.split(QLatin1Char('\n'));
  if (!lines.isEmpty() && lines.last().isEmpty()) lines.removeLast();
  if (lines.size() == 2 && lines[1] == QLatin1String("(try loupec --help)")) lines.removeLast();
  if (lines.size() != 1 || lines[0].trimmed().isEmpty()) {
    return QStringLiteral("exit code %1 with stderr of %2 line(s): %3")
        .arg(o.exitCode)
        .arg(lines.size())
        .arg(o.err.left(2000));
  }
  return {};
}

}  // namespace

class LoupecMutants : public QObject {
  Q_OBJECT

 private slots:
  void everyMutantIsRefusedOrRunsWithoutCrashing() {
    // Mostly the small models (kws, ad01: a few hundred words of stream,
    // milliseconds to run); every fifth mutant one of the others.
    std::vector<MutantSource> small, large;
    for (const auto& vela : loupe::test::ethosu::velaFiles()) {
      const bool isSmall = vela.model == "kws_ref_model" || vela.model == "ad01_int8";
      (isSmall ? small : large).push_back(mutantSource(vela));
    }
    QVERIFY(!small.empty() && !large.empty());
    for (const auto* sources : {&small, &large}) {
      for (const MutantSource& s : *sources) {
        QVERIFY2(s.streamWords > 0 && !s.commands.empty() && !s.input.isEmpty(), s.name.c_str());
      }
    }

    std::atomic<int> nextMutant{0};
    std::atomic<int> infoAccepted{0}, infoRefused{0}, runRefused{0}, ran{0};
    std::mutex failuresLock;
    QStringList failures;
    const auto worker = [&] {
      QTemporaryDir dir;
      const QString file = dir.filePath(QStringLiteral("mutant.tflite"));
      const QString out = dir.filePath(QStringLiteral("out"));
      for (int i = nextMutant++; i < kMutants; i = nextMutant++) {
        const auto& sources = i % 5 == 4 ? large : small;
        const MutantSource& s = sources[static_cast<std::size_t>(i / 5) % sources.size()];
        std::string what;
        const std::vector<std::uint8_t> bytes = mutate(s, i, &what);
        {
          QFile f(file);
          if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
              f.write(reinterpret_cast<const char*>(bytes.data()),
                      static_cast<qint64>(bytes.size())) != static_cast<qint64>(bytes.size())) {
            std::lock_guard<std::mutex> lock(failuresLock);
            failures << QStringLiteral("cannot write %1").arg(file);
            continue;
          }
        }
        const Outcome info = runLoupec({QStringLiteral("info"), file});
        const Outcome run = runLoupec({QStringLiteral("run"), file, QStringLiteral("--platform"),
                                       QStringLiteral("reference"), QStringLiteral("--inputs"),
                                       s.input, QStringLiteral("--output-dir"), out});
        ++(info.exitCode == 0 ? infoAccepted : infoRefused);
        ++(run.exitCode == 0 ? ran : runRefused);
        for (const auto& [command, outcome] : {std::pair{"info", &info}, std::pair{"run", &run}}) {
          const QString problem = verdict(*outcome);
          if (problem.isEmpty()) continue;
          std::lock_guard<std::mutex> lock(failuresLock);
          failures << QStringLiteral("mutant %1 of %2 (%3): loupec %4 %5")
                          .arg(i)
                          .arg(QString::fromStdString(s.name), QString::fromStdString(what),
                               QString::fromLatin1(command), problem);
        }
      }
    };
    const auto start = std::chrono::steady_clock::now();
    const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (auto& thread : pool) thread.join();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    qInfo(
        "%d mutants, %u processes at a time, %.1f s: info accepted %d, refused %d; run ran %d, "
        "refused %d",
        kMutants, threads, seconds, infoAccepted.load(), infoRefused.load(), ran.load(),
        runRefused.load());
    for (const QString& failure : failures) qWarning("%s", qPrintable(failure));
    QCOMPARE(failures.size(), 0);
    QCOMPARE(infoAccepted.load() + infoRefused.load(), kMutants);
    QCOMPARE(runRefused.load() + ran.load(), kMutants);
  }
};

QTEST_GUILESS_MAIN(LoupecMutants)
#include "loupec_mutants_test.moc"
