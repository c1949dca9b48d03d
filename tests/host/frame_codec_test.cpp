// The host's serial framing on its own (docs/serial_framing.md): the CRC
// variant's check value, the exact bytes of small frames, and the decoder's
// delivery and error counts however the stream is cut into pieces.
#include <QtTest>
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "frame_codec.h"

using namespace loupe::host;
using Bytes = std::vector<std::uint8_t>;

class FrameCodecTest : public QObject {
  Q_OBJECT

 private slots:
  void crcOfTheCheckStringIs0x29B1() {
    const Bytes check{'1', '2', '3', '4', '5', '6', '7', '8', '9'};
    QCOMPARE(frameCrc16(check), std::uint16_t{0x29B1});
    // Continued over two pieces, the same value.
    const std::span<const std::uint8_t> all(check);
    QCOMPARE(frameCrc16(all.subspan(5), frameCrc16(all.first(5))), std::uint16_t{0x29B1});
  }

  void anEmptyPayloadIsMarkerLengthAndCrc() {
    const Bytes zeroLength{0, 0};
    const std::uint16_t crc = frameCrc16(zeroLength);
    const Bytes expected{0x7E, 0, 0, static_cast<std::uint8_t>(crc & 0xFF),
                         static_cast<std::uint8_t>(crc >> 8)};
    QCOMPARE(encodeFrame({}), expected);
  }

  void markerAndEscapeAreEscapedEverywhereAfterTheMarker() {
    const Bytes payload{0x7E, 0x01, 0x7D};
    const Bytes frame = encodeFrame(payload);
    QCOMPARE(Bytes(frame.begin(), frame.begin() + 7),
             (Bytes{0x7E, 0x03, 0x00, 0x7D, 0x5E, 0x01, 0x7D}));
    QCOMPARE(frame[7], std::uint8_t{0x5D});
    QCOMPARE(std::count(frame.begin(), frame.end(), std::uint8_t{0x7E}), 1);
  }

  void theEncoderRefusesPayloadsTheLengthCannotHold() {
    const Bytes tooLong(kFrameMaxPayload + 1, 0);
    QVERIFY_THROWS_EXCEPTION(std::length_error, encodeFrame(tooLong));
  }

  void framesDecodeHoweverTheStreamIsCut() {
    const Bytes first{1, 0x7E, 2};
    const Bytes second{0x7D, 0x7D};
    Bytes stream = encodeFrame(first);
    const Bytes tail = encodeFrame(second);
    stream.insert(stream.end(), tail.begin(), tail.end());
    for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
      FrameDecoder decoder;
      decoder.feed(std::span(stream).first(cut));
      decoder.feed(std::span(stream).subspan(cut));
      QVERIFY(decoder.hasPayload());
      QCOMPARE(decoder.takePayload(), first);
      QVERIFY(decoder.hasPayload());
      QCOMPARE(decoder.takePayload(), second);
      QVERIFY(!decoder.hasPayload());
      QVERIFY(decoder.errors() == FrameDecoderErrors{});
    }
  }

  void eachKindOfDamageIsCountedOnce() {
    FrameDecoder decoder(8);
    const Bytes good{7, 7};
    const Bytes garbage{0x00, 0x7D, 0x11};
    Bytes stream(garbage);  // a garbage run: reported at the next marker
    Bytes frame = encodeFrame(good);
    frame.back() ^= 0x40;  // CRC mismatch
    stream.insert(stream.end(), frame.begin(), frame.end());
    frame = encodeFrame(Bytes(9, 1));  // longer than the 8-byte limit
    stream.insert(stream.end(), frame.begin(), frame.end());
    frame = encodeFrame(good);
    stream.insert(stream.end(), frame.begin(), frame.begin() + 3);  // truncated
    stream.insert(stream.end(), {0x7E, 0x01, 0x7D, 0x00});          // bad escape
    frame = encodeFrame(good);
    stream.insert(stream.end(), frame.begin(), frame.end());
    decoder.feed(stream);

    FrameDecoderErrors expected;
    expected.crcMismatches = 1;
    expected.tooLong = 1;
    expected.badEscapes = 1;
    expected.truncated = 1;
    expected.garbageRuns = 1;
    expected.garbageBytes = garbage.size();
    QCOMPARE(decoder.errors().crcMismatches, expected.crcMismatches);
    QCOMPARE(decoder.errors().tooLong, expected.tooLong);
    QCOMPARE(decoder.errors().badEscapes, expected.badEscapes);
    QCOMPARE(decoder.errors().truncated, expected.truncated);
    QCOMPARE(decoder.errors().garbageRuns, expected.garbageRuns);
    QCOMPARE(decoder.errors().garbageBytes, expected.garbageBytes);
    QVERIFY(decoder.hasPayload());
    QCOMPARE(decoder.takePayload(), good);
    QVERIFY(!decoder.hasPayload());
  }
};

QTEST_APPLESS_MAIN(FrameCodecTest)
#include "frame_codec_test.moc"
