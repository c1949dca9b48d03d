// The board's C framing and the host's C++ framing against each other: the
// same frames byte for byte, and random streams (seeded) of random payloads
// with random garbage and random single-byte corruption, encoded by one side
// and decoded by the other. Every intact frame must be delivered exactly once,
// every corrupted one reported and never delivered, and decoding must resync
// on the frame after.
#include <tvm/runtime/crt/framing.h>

#include <QtTest>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "frame_codec.h"

using loupe::host::FrameDecoder;
using loupe::host::FrameDecoderErrors;
using Bytes = std::vector<std::uint8_t>;

namespace {

tvm_crt_error_t appendByte(void* context, std::uint8_t byte) {
  static_cast<Bytes*>(context)->push_back(byte);
  return kTvmErrorNoError;
}

Bytes encodeWithC(const Bytes& payload) {
  Bytes frame;
  if (TVMFrameEncode(payload.data(), payload.size(), appendByte, &frame) != kTvmErrorNoError) {
    throw std::runtime_error("TVMFrameEncode failed");
  }
  return frame;
}

Bytes encodeWithCpp(const Bytes& payload) {
  return loupe::host::encodeFrame(payload);
}

// Both decoders behind one face: feed a byte, maybe get a payload; errors
// tallied the host's way (the C decoder's events are counted into it).
class AnyDecoder {
 public:
  virtual ~AnyDecoder() = default;
  virtual std::optional<Bytes> feed(std::uint8_t byte) = 0;
  virtual FrameDecoderErrors errors() const = 0;
};

class CDecoder : public AnyDecoder {
 public:
  explicit CDecoder(std::size_t capacity) : buffer_(capacity) {
    TVMFrameDecoder_Init(&decoder_, buffer_.data(), buffer_.size());
  }
  std::optional<Bytes> feed(std::uint8_t byte) override {
    switch (TVMFrameDecoder_Feed(&decoder_, byte)) {
      case kTvmFrameComplete:
        return Bytes(buffer_.begin(), buffer_.begin() + decoder_.length);
      case kTvmFrameCrcMismatch:
        ++errors_.crcMismatches;
        break;
      case kTvmFrameTooLong:
        ++errors_.tooLong;
        break;
      case kTvmFrameBadEscape:
        ++errors_.badEscapes;
        break;
      case kTvmFrameTruncated:
        ++errors_.truncated;
        break;
      case kTvmFrameGarbageSkipped:
        ++errors_.garbageRuns;
        errors_.garbageBytes += decoder_.skipped;
        break;
      case kTvmFrameNone:
        break;
    }
    return std::nullopt;
  }
  FrameDecoderErrors errors() const override { return errors_; }

 private:
  Bytes buffer_;
  TVMFrameDecoder decoder_;
  FrameDecoderErrors errors_;
};

class CppDecoder : public AnyDecoder {
 public:
  explicit CppDecoder(std::size_t capacity) : decoder_(capacity) {}
  std::optional<Bytes> feed(std::uint8_t byte) override {
    decoder_.feed(byte);
    if (!decoder_.hasPayload()) return std::nullopt;
    return decoder_.takePayload();
  }
  FrameDecoderErrors errors() const override { return decoder_.errors(); }

 private:
  FrameDecoder decoder_;
};

constexpr std::size_t kCapacity = 1500;

std::unique_ptr<AnyDecoder> makeDecoder(const QString& side) {
  if (side == "c") return std::make_unique<CDecoder>(kCapacity);
  return std::make_unique<CppDecoder>(kCapacity);
}

// Random bytes with the two special values much more likely than 2/256, so
// escapes are exercised in every frame.
std::uint8_t randomByte(std::mt19937& rng) {
  const std::uint32_t r = rng();
  switch (r % 8) {
    case 0:
      return 0x7E;
    case 1:
      return 0x7D;
    default:
      return static_cast<std::uint8_t>(r >> 8);
  }
}

// One frame in a generated stream: where it starts and ends, whether it was
// corrupted, and at which byte.
struct PlacedFrame {
  Bytes payload;
  std::size_t begin = 0;
  std::size_t end = 0;
  bool corrupted = false;
  bool markerCorrupted = false;
};

struct Stream {
  Bytes bytes;
  std::vector<PlacedFrame> frames;
};

struct StreamShape {
  bool garbageMayHoldMarkers;  // garbage may start fake frames
  bool isolateCorruption;      // never corrupt two frames in a row
};

Stream makeStream(std::uint32_t seed, std::size_t count,
                  const std::function<Bytes(const Bytes&)>& encode, StreamShape shape) {
  std::mt19937 rng(seed);
  Stream stream;
  bool previousCorrupted = false;
  for (std::size_t i = 0; i < count; ++i) {
    if (rng() % 4 == 0) {
      const std::size_t garbage = 1 + rng() % 24;
      for (std::size_t g = 0; g < garbage; ++g) {
        std::uint8_t byte = randomByte(rng);
        if (!shape.garbageMayHoldMarkers && byte == 0x7E) byte = 0x00;
        stream.bytes.push_back(byte);
      }
    }
    PlacedFrame frame;
    // Mostly short payloads, some up to the decoders' capacity, a few empty.
    const std::size_t size = rng() % 10 == 0 ? rng() % (kCapacity + 1) : rng() % 64;
    for (std::size_t b = 0; b < size; ++b) frame.payload.push_back(randomByte(rng));
    Bytes encoded = encode(frame.payload);
    const bool mayCorrupt = !(shape.isolateCorruption && previousCorrupted);
    if (mayCorrupt && rng() % 5 == 0) {
      const std::size_t at = rng() % encoded.size();
      const auto flip = static_cast<std::uint8_t>(1 + rng() % 255);
      encoded[at] = static_cast<std::uint8_t>(encoded[at] ^ flip);
      frame.corrupted = true;
      frame.markerCorrupted = at == 0;
    }
    previousCorrupted = frame.corrupted;
    frame.begin = stream.bytes.size();
    stream.bytes.insert(stream.bytes.end(), encoded.begin(), encoded.end());
    frame.end = stream.bytes.size();
    stream.frames.push_back(std::move(frame));
  }
  // A last start marker ends the last frame, so its errors are reported too.
  stream.bytes.push_back(0x7E);
  return stream;
}

struct Delivery {
  Bytes payload;
  std::size_t at;  // index of the byte that completed it
};

// Feeds the whole stream; errors[k] are the totals after byte k.
struct Decoded {
  std::vector<Delivery> deliveries;
  std::vector<FrameDecoderErrors> errors;
};

Decoded decodeAll(AnyDecoder& decoder, const Bytes& bytes) {
  Decoded decoded;
  decoded.errors.reserve(bytes.size());
  for (std::size_t k = 0; k < bytes.size(); ++k) {
    if (auto payload = decoder.feed(bytes[k])) decoded.deliveries.push_back({*payload, k});
    decoded.errors.push_back(decoder.errors());
  }
  return decoded;
}

FrameDecoderErrors difference(const FrameDecoderErrors& a, const FrameDecoderErrors& b) {
  return {a.crcMismatches - b.crcMismatches, a.tooLong - b.tooLong,
          a.badEscapes - b.badEscapes,       a.truncated - b.truncated,
          a.garbageRuns - b.garbageRuns,     a.garbageBytes - b.garbageBytes};
}

std::function<Bytes(const Bytes&)> encoderFor(const QString& side) {
  if (side == "c") return encodeWithC;
  return encodeWithCpp;
}

}  // namespace

class FrameInteropTest : public QObject {
  Q_OBJECT

 private:
  static void addSidePairs() {
    QTest::addColumn<QString>("encoder");
    QTest::addColumn<QString>("decoder");
    for (const char* encoder : {"c", "cpp"}) {
      for (const char* decoder : {"c", "cpp"}) {
        QTest::addRow("%s encodes, %s decodes", encoder, decoder) << encoder << decoder;
      }
    }
  }

 private slots:
  void bothEncodersWriteTheSameBytes() {
    std::mt19937 rng(7);
    for (int i = 0; i < 500; ++i) {
      Bytes payload(rng() % 300);
      for (auto& byte : payload) byte = randomByte(rng);
      QCOMPARE(encodeWithCpp(payload), encodeWithC(payload));
    }
    const Bytes longest(loupe::host::kFrameMaxPayload, 0x7E);
    QCOMPARE(encodeWithCpp(longest), encodeWithC(longest));
  }

  void bothCrcsAgree() {
    std::mt19937 rng(11);
    for (int i = 0; i < 200; ++i) {
      Bytes bytes(rng() % 100);
      for (auto& byte : bytes) byte = static_cast<std::uint8_t>(rng());
      QCOMPARE(loupe::host::frameCrc16(bytes),
               TVMFrameCrc16(TVM_FRAME_CRC_INITIAL, bytes.data(), bytes.size()));
    }
  }

  // Corrupted frames never side by side and garbage without start markers, so
  // every error can be pinned to one frame: frame i owns the bytes after its
  // start marker up to and including the next frame's start marker.
  void eachCorruptedFrameIsReportedInItsOwnSpan_data() { addSidePairs(); }
  void eachCorruptedFrameIsReportedInItsOwnSpan() {
    QFETCH(QString, encoder);
    QFETCH(QString, decoder);
    const Stream stream = makeStream(20261121, 3000, encoderFor(encoder), {false, true});
    auto dec = makeDecoder(decoder);
    const Decoded decoded = decodeAll(*dec, stream.bytes);

    std::size_t next = 0;  // next delivery to match
    std::size_t corrupted = 0;
    for (std::size_t i = 0; i < stream.frames.size(); ++i) {
      const PlacedFrame& frame = stream.frames[i];
      const std::size_t last =
          i + 1 < stream.frames.size() ? stream.frames[i + 1].begin : stream.bytes.size() - 1;
      const FrameDecoderErrors inSpan =
          difference(decoded.errors[last], decoded.errors[frame.begin]);
      std::size_t delivered = 0;
      while (next < decoded.deliveries.size() && decoded.deliveries[next].at <= last) {
        QVERIFY2(decoded.deliveries[next].at > frame.begin, "a delivery outside any frame");
        QVERIFY2(!frame.corrupted, qPrintable(QString("corrupted frame %1 delivered").arg(i)));
        QCOMPARE(decoded.deliveries[next].payload, frame.payload);
        ++delivered;
        ++next;
      }
      if (frame.corrupted) {
        ++corrupted;
        const std::size_t reports =
            inSpan.droppedFrames() + (frame.markerCorrupted ? inSpan.garbageRuns : 0);
        QVERIFY2(reports >= 1, qPrintable(QString("corrupted frame %1 not reported").arg(i)));
      } else {
        QVERIFY2(delivered == 1,
                 qPrintable(QString("frame %1 delivered %2 times").arg(i).arg(delivered)));
        QCOMPARE(inSpan.droppedFrames(), std::size_t{0});
      }
    }
    QCOMPARE(next, decoded.deliveries.size());
    // The seed must actually exercise corruption (about one frame in six).
    QVERIFY(corrupted > 300);
  }

  // Anything goes: garbage may hold start markers (fake frames), corrupted
  // frames may be neighbours. Intact frames still arrive, once each, in order,
  // and wherever frames were lost between two deliveries an error was reported.
  void intactFramesSurviveAnyNeighbours_data() { addSidePairs(); }
  void intactFramesSurviveAnyNeighbours() {
    QFETCH(QString, encoder);
    QFETCH(QString, decoder);
    const Stream stream = makeStream(4242, 3000, encoderFor(encoder), {true, false});
    auto dec = makeDecoder(decoder);
    const Decoded decoded = decodeAll(*dec, stream.bytes);

    std::vector<const PlacedFrame*> intact;
    for (const auto& frame : stream.frames) {
      if (!frame.corrupted) intact.push_back(&frame);
    }
    QCOMPARE(decoded.deliveries.size(), intact.size());
    std::size_t previousEnd = 0;  // stream index after the previous intact frame
    std::size_t frameIndex = 0;
    for (std::size_t d = 0; d < intact.size(); ++d) {
      QCOMPARE(decoded.deliveries[d].payload, intact[d]->payload);
      QCOMPARE(decoded.deliveries[d].at, intact[d]->end - 1);
      bool lostBetween = false;
      while (&stream.frames[frameIndex] != intact[d]) {
        lostBetween = true;
        ++frameIndex;
      }
      ++frameIndex;
      if (lostBetween) {
        const FrameDecoderErrors between =
            difference(decoded.errors[intact[d]->begin], decoded.errors[previousEnd]);
        QVERIFY2(between.droppedFrames() + between.garbageRuns >= 1,
                 qPrintable(QString("frames lost before delivery %1, nothing reported").arg(d)));
      }
      previousEnd = intact[d]->end - 1;
    }
  }

  // The two decoders are one specification: on the same messy stream they
  // deliver the same payloads at the same bytes and count the same errors.
  void bothDecodersAgreeOnAMessyStream() {
    const Stream stream = makeStream(99, 3000, encodeWithCpp, {true, false});
    CDecoder c(kCapacity);
    CppDecoder cpp(kCapacity);
    const Decoded fromC = decodeAll(c, stream.bytes);
    const Decoded fromCpp = decodeAll(cpp, stream.bytes);
    QCOMPARE(fromC.deliveries.size(), fromCpp.deliveries.size());
    for (std::size_t d = 0; d < fromC.deliveries.size(); ++d) {
      QCOMPARE(fromC.deliveries[d].at, fromCpp.deliveries[d].at);
      QCOMPARE(fromC.deliveries[d].payload, fromCpp.deliveries[d].payload);
    }
    QVERIFY(fromC.errors.back() == fromCpp.errors.back());
    QVERIFY(fromC.errors.back().droppedFrames() > 0);
    QVERIFY(fromC.errors.back().garbageRuns > 0);
  }
};

QTEST_APPLESS_MAIN(FrameInteropTest)
#include "frame_interop_test.moc"
