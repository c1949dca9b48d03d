// The NPU Weights view's data: the weights of the NPU convolution selected
// in a Vela operator's command stream (NpuOperationSelection), decoded by
// the C decoder through compiler_core (analysis/ethosu_operation_weights.h)
// to OHWI, and a table of its output channels, one row each: the bias,
// scale and shift of its record, the multiplier they make, and its weights'
// range. Empty, with a reason in placeholderText(), for any other operation.
#pragma once

#include <QAbstractTableModel>
#include <QList>
#include <QVector>

namespace loupe::models {

class ModelDocument;
class NpuOperationSelection;

struct NpuWeightChannel {
  qint64 bias = 0;
  quint32 scale = 0;
  int shift = 0;
  double multiplier = 0;  // scale / 2^shift
  int minimum = 0, maximum = 0, zeros = 0;
};

struct NpuWeights {
  int operatorIndex = -1;
  int operation = -1;  // ordinal
  QString title;       // "npu 12 CONV"
  int ofmDepth = 0, kernelHeight = 0, kernelWidth = 0, ifmDepth = 0;
  bool depthwise = false;
  int cores = 1;
  QVector<qint16> ohwi;
  QList<NpuWeightChannel> channels;
  qint64 encodedBytes = 0, scaleBytes = 0;
  QString copiedBy;  // "npu 10 DMA" when a DMA copied them out of flash first
  int minimum = 0, maximum = 0;
  QString error;

  bool isEmpty() const { return ohwi.isEmpty(); }
  int valuesPerChannel() const { return kernelHeight * kernelWidth * ifmDepth; }
  int value(int o, int v) const { return ohwi[o * valuesPerChannel() + v]; }
  // "OHWI 16x3x3x8 = 1,152 weights".
  QString shapeText() const;
  // "encoded 1,020 B for 1,152 weights: 7.1 bits a weight, 89 % of int8".
  QString compressionText() const;
  // "y 1 x 2 i 5" of value v of a channel.
  QString positionText(int v) const;
};

class NpuWeightsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    ChannelColumn,
    BiasColumn,
    ScaleColumn,
    ShiftColumn,
    MultiplierColumn,
    MinimumColumn,
    MaximumColumn,
    ZerosColumn,
    ColumnCount
  };

  NpuWeightsModel(ModelDocument* document, NpuOperationSelection* selection,
                  QObject* parent = nullptr);

  const NpuWeights& weights() const { return weights_; }
  QString placeholderText() const { return placeholder_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  void showSelection();

  ModelDocument* document_;
  NpuOperationSelection* selection_;
  NpuWeights weights_;
  QString placeholder_;
};

}  // namespace loupe::models
