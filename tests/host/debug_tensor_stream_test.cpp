// A debug RUN's TENSOR messages put back together (debug_tensor_stream.h):
// chunks in order make the tensor; a tensor written again replaces the
// earlier value; a lost chunk or a malformed message is named, never
// turned into a tensor with wrong bytes.
#include <QtTest>

#include "debug_tensor_stream.h"
#include "session_error.h"
#include "wire_bytes.h"

using namespace loupe::host;

namespace {

std::vector<std::uint8_t> message(std::uint32_t op, std::uint32_t tensor, std::uint32_t offset,
                                  std::uint32_t total, std::vector<std::uint8_t> data) {
  WireWriter w;
  w.u32(op);
  w.u32(tensor);
  w.u32(offset);
  w.u32(total);
  w.bytes(data);
  return w.take();
}

QString failureOf(DebugTensorStream& stream) {
  try {
    stream.finish();
  } catch (const SessionError& error) {
    return error.what();
  }
  return {};
}

}  // namespace

class HostDebugTensorStream : public QObject {
  Q_OBJECT

 private slots:
  void chunksInOrderMakeEachTensorInArrivalOrder() {
    DebugTensorStream stream;
    stream.take(message(2, 7, 0, 5, {1, 2, 3}));
    stream.take(message(2, 7, 3, 5, {4, 5}));
    stream.take(message(3, 4, 0, 0, {}));
    const auto tensors = stream.finish();
    QCOMPARE(tensors.size(), std::size_t{2});
    QCOMPARE(tensors.at(7).bytes, (std::vector<std::uint8_t>{1, 2, 3, 4, 5}));
    QCOMPARE(tensors.at(7).operatorIndex, 2u);
    QCOMPARE(tensors.at(7).arrival, 0u);
    QCOMPARE(tensors.at(4).arrival, 1u);
    QVERIFY(tensors.at(4).bytes.empty());
    // finish() starts over.
    QVERIFY(stream.finish().empty());
  }

  void aTensorWrittenAgainKeepsTheLaterValue() {
    DebugTensorStream stream;
    stream.take(message(0, 3, 0, 2, {9, 9}));
    stream.take(message(4, 3, 0, 2, {1, 2}));
    const auto tensors = stream.finish();
    QCOMPARE(tensors.at(3).bytes, (std::vector<std::uint8_t>{1, 2}));
    QCOMPARE(tensors.at(3).operatorIndex, 4u);
  }

  void aLostChunkIsNamed() {
    DebugTensorStream stream;
    stream.take(message(1, 6, 0, 8, {1, 2}));
    stream.take(message(1, 6, 4, 8, {5, 6, 7, 8}));
    QVERIFY2(failureOf(stream).contains("tensor 6 of operator 1: bytes 2..4 never arrived"),
             qPrintable(failureOf(stream)));
    stream.take(message(1, 6, 0, 8, {1, 2}));
    QVERIFY2(failureOf(stream).contains("only 2 of its 8 bytes arrived"),
             qPrintable(failureOf(stream)));
    // The tail of a tensor whose start was lost.
    stream.take(message(1, 6, 4, 8, {5, 6, 7, 8}));
    QVERIFY(!failureOf(stream).isEmpty());
  }

  void malformedMessagesAreNamed() {
    DebugTensorStream stream;
    stream.take(std::vector<std::uint8_t>{1, 2, 3});
    QVERIFY(failureOf(stream).contains("shorter than its 16-byte header"));
    stream.take(message(0, 1, 2, 3, {1, 2}));
    QVERIFY2(failureOf(stream).contains("lie beyond its 3 bytes"), qPrintable(failureOf(stream)));
  }
};

QTEST_APPLESS_MAIN(HostDebugTensorStream)
#include "debug_tensor_stream_test.moc"
