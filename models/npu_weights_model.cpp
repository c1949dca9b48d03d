#include "models/npu_weights_model.h"

#include <algorithm>
#include <exception>
#include <span>
#include <stdexcept>

#include "analysis/ethosu_command_listing.h"
#include "analysis/ethosu_operation_weights.h"
#include "ir/graph.h"
#include "models/display_text.h"
#include "models/model_document.h"
#include "models/npu_operation_selection.h"
#include "models/npu_stream_listing.h"

namespace loupe::models {

QString NpuWeights::shapeText() const {
  return QStringLiteral("OHWI %1x%2x%3x%4 = %5 weights")
      .arg(ofmDepth)
      .arg(kernelHeight)
      .arg(kernelWidth)
      .arg(ifmDepth)
      .arg(groupedNumber(ohwi.size()));
}

QString NpuWeights::compressionText() const {
  if (ohwi.isEmpty()) return {};
  const double bits = 8.0 * static_cast<double>(encodedBytes) / static_cast<double>(ohwi.size());
  return QStringLiteral("encoded %1 B for %2 weights: %3 bits a weight, %4 % of int8")
      .arg(groupedNumber(encodedBytes))
      .arg(groupedNumber(ohwi.size()))
      .arg(bits, 0, 'f', 2)
      .arg(qRound(100.0 * static_cast<double>(encodedBytes) / static_cast<double>(ohwi.size())));
}

QString NpuWeights::positionText(int v) const {
  const int i = v % ifmDepth;
  const int x = (v / ifmDepth) % kernelWidth;
  const int y = v / (ifmDepth * kernelWidth);
  return QStringLiteral("y %1 x %2 i %3").arg(y).arg(x).arg(i);
}

NpuWeightsModel::NpuWeightsModel(ModelDocument* document, NpuOperationSelection* selection,
                                 QObject* parent)
    : QAbstractTableModel(parent), document_(document), selection_(selection) {
  connect(selection_, &NpuOperationSelection::changed, this, &NpuWeightsModel::showSelection);
  connect(document_, &ModelDocument::modelLoaded, this, &NpuWeightsModel::showSelection);
  showSelection();
}

void NpuWeightsModel::showSelection() {
  beginResetModel();
  weights_ = {};
  placeholder_.clear();
  const int op = selection_->operatorIndex();
  const int ordinal = selection_->operation();
  if (!document_->isLoaded() || !isEthosUOperator(document_->graph(), op) || ordinal < 0) {
    placeholder_ =
        tr("Select a CONV or DEPTHWISE NPU operation of an ethos-u operator (in the Graph or "
           "the Command Stream) to see its decoded weights.");
    endResetModel();
    return;
  }
  const ir::Graph& graph = document_->graph();
  const ir::Operator& ethosu = graph.operators[static_cast<std::size_t>(op)];
  weights_.operatorIndex = op;
  weights_.operation = ordinal;
  try {
    const frontend::EthosUPayload payload = analysis::ethosuPayloadOf(graph, ethosu);
    int stream = -1, index = -1, seen = 0;
    for (std::size_t s = 0; s < payload.streams.size() && stream < 0; ++s) {
      const int count = static_cast<int>(payload.streams[s].operations.size());
      if (ordinal < seen + count) {
        stream = static_cast<int>(s);
        index = ordinal - seen;
      }
      seen += count;
    }
    if (stream < 0) throw std::out_of_range("no such NPU operation");
    const loupe_ethosu_operation& typed = payload.streams[static_cast<std::size_t>(stream)]
                                              .operations[static_cast<std::size_t>(index)];
    weights_.title = QStringLiteral("npu %1 %2")
                         .arg(typed.index)
                         .arg(QString::fromUtf8(loupe_ethosu_operation_name(&typed)));
    if (!analysis::ethosuHasWeights(typed)) {
      placeholder_ =
          tr("%1 has no weights: select a CONV or DEPTHWISE NPU operation.").arg(weights_.title);
      endResetModel();
      return;
    }
    const ir::Tensor* flash = graph.input(ethosu, 1);
    std::span<const std::uint8_t> flashBytes;
    if (flash != nullptr) flashBytes = {flash->data.data(), flash->data.size()};
    const analysis::EthosUOperationWeights decoded =
        analysis::ethosuOperationWeights(payload, stream, index, flashBytes);
    if (!decoded.error.empty()) {
      weights_.error = QString::fromStdString(decoded.error);
      placeholder_ =
          tr("The weights of %1 cannot be decoded: %2").arg(weights_.title, weights_.error);
      endResetModel();
      return;
    }
    weights_.ofmDepth = decoded.ofmDepth;
    weights_.kernelHeight = decoded.kernelHeight;
    weights_.kernelWidth = decoded.kernelWidth;
    weights_.ifmDepth = decoded.ifmDepth;
    weights_.depthwise = decoded.depthwise;
    weights_.cores = decoded.cores;
    weights_.encodedBytes = static_cast<qint64>(decoded.encodedBytes);
    weights_.scaleBytes = static_cast<qint64>(decoded.scaleBytes);
    if (decoded.copiedBy >= 0)
      weights_.copiedBy = QStringLiteral("npu %1 DMA").arg(decoded.copiedBy);
    weights_.ohwi = QVector<qint16>(decoded.ohwi.begin(), decoded.ohwi.end());
    const int per = decoded.valuesPerChannel();
    for (int o = 0; o < decoded.ofmDepth; ++o) {
      const auto& record = decoded.channels[static_cast<std::size_t>(o)];
      NpuWeightChannel channel;
      channel.bias = record.bias;
      channel.scale = record.scale;
      channel.shift = record.shift;
      channel.multiplier = record.multiplier();
      const auto first = decoded.ohwi.begin() + static_cast<std::ptrdiff_t>(o) * per;
      const auto [lo, hi] = std::minmax_element(first, first + per);
      channel.minimum = per > 0 ? *lo : 0;
      channel.maximum = per > 0 ? *hi : 0;
      channel.zeros = static_cast<int>(std::count(first, first + per, 0));
      weights_.channels.append(channel);
    }
    if (!decoded.ohwi.empty()) {
      const auto [lo, hi] = std::minmax_element(decoded.ohwi.begin(), decoded.ohwi.end());
      weights_.minimum = *lo;
      weights_.maximum = *hi;
    }
  } catch (const std::exception& error) {
    weights_.ohwi.clear();
    weights_.channels.clear();
    weights_.error = QString::fromUtf8(error.what());
    placeholder_ = tr("The weights cannot be decoded: %1").arg(weights_.error);
  }
  endResetModel();
}

int NpuWeightsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(weights_.channels.size());
}

int NpuWeightsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant NpuWeightsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= weights_.channels.size()) return {};
  const NpuWeightChannel& c = weights_.channels[index.row()];
  if (role == Qt::TextAlignmentRole) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole) {
    return tr("output channel %1 (core %2)\nbias %3, scale %4, shift %5: the accumulator "
              "times %6\nweights %7 to %8, %9 of %10 zero")
        .arg(index.row())
        .arg(index.row() % std::max(weights_.cores, 1))
        .arg(c.bias)
        .arg(c.scale)
        .arg(c.shift)
        .arg(c.multiplier, 0, 'g', 6)
        .arg(c.minimum)
        .arg(c.maximum)
        .arg(c.zeros)
        .arg(weights_.valuesPerChannel());
  }
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case ChannelColumn:
      return index.row();
    case BiasColumn:
      return groupedNumber(c.bias);
    case ScaleColumn:
      return QVariant::fromValue(c.scale);
    case ShiftColumn:
      return c.shift;
    case MultiplierColumn:
      return QString::number(c.multiplier, 'g', 5);
    case MinimumColumn:
      return c.minimum;
    case MaximumColumn:
      return c.maximum;
    case ZerosColumn:
      return c.zeros;
    default:
      return {};
  }
}

QVariant NpuWeightsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case ChannelColumn:
      return tr("OFM ch.");
    case BiasColumn:
      return tr("Bias");
    case ScaleColumn:
      return tr("Scale");
    case ShiftColumn:
      return tr("Shift");
    case MultiplierColumn:
      return tr("Multiplier");
    case MinimumColumn:
      return tr("Min");
    case MaximumColumn:
      return tr("Max");
    case ZerosColumn:
      return tr("Zeros");
    default:
      return {};
  }
}

}  // namespace loupe::models
