#include "models/npu_stream_listing.h"

#include <exception>

#include "analysis/ethosu_command_listing.h"
#include "ir/graph.h"
#include "models/display_text.h"
#include "targets/ethos_u/ethosu_performance.h"

namespace loupe::models {

namespace {

QString npuShapeText(const nlohmann::json& shape) {
  if (!shape.is_array() || shape.size() != 3) return {};
  return QStringLiteral("%1x%2x%3")
      .arg(shape[0].get<std::int64_t>())
      .arg(shape[1].get<std::int64_t>())
      .arg(shape[2].get<std::int64_t>());
}

QString npuPairText(const nlohmann::json& pair) {
  if (!pair.is_array() || pair.size() != 2) return {};
  return QStringLiteral("%1x%2").arg(pair[0].get<std::int64_t>()).arg(pair[1].get<std::int64_t>());
}

// An end of a DMA: an internal one is the NPU's SHRAM (a lookup table), as
// `loupec npu-stream` says.
QString dmaEndText(bool internal, int region, std::uint64_t address) {
  return (internal ? QStringLiteral("SHRAM") : QStringLiteral("region %1").arg(region)) +
         QStringLiteral(" +%1").arg(address);
}

// "region=1 activation_type=SIGNED addr=0x2400": the register table's names
// and enumerations; addresses in hex, as the CLI listing writes them.
QString npuFieldsText(const nlohmann::json& fields) {
  QStringList parts;
  for (const auto& field : fields) {
    const QString name = QString::fromStdString(field.at("name").get<std::string>());
    QString value;
    if (field.contains("enum")) {
      value = QString::fromStdString(field.at("enum").get<std::string>());
    } else if (name == QLatin1String("addr") || name == QLatin1String("addr_hi")) {
      value = QStringLiteral("0x") +
              QString::number(static_cast<qulonglong>(field.at("value").get<std::int64_t>()), 16);
    } else {
      value = QString::number(field.at("value").get<std::int64_t>());
    }
    parts << name + QLatin1Char('=') + value;
  }
  return parts.join(QLatin1Char(' '));
}

}  // namespace

QString NpuOperationEntry::title() const {
  return QStringLiteral("npu %1 %2").arg(index).arg(kind);
}

QString NpuOperationEntry::summary() const {
  QStringList parts{QStringLiteral("npu %1").arg(index), kind};
  if (!shapes.isEmpty()) parts << shapes;
  if (!kernel.isEmpty()) parts << kernel;
  if (weightBytes > 0) parts << QStringLiteral("weights %1 B").arg(groupedNumber(weightBytes));
  if (!block.isEmpty()) parts << QStringLiteral("block %1").arg(block);
  if (cycles >= 0) parts << QStringLiteral("\u2248 %1 cycles").arg(groupedNumber(cycles));
  return parts.join(QStringLiteral("  "));
}

QStringList NpuOperationEntry::facts() const {
  QStringList lines;
  if (!kernel.isEmpty()) lines << kernel;
  QStringList sizes;
  if (weightBytes > 0) sizes << QStringLiteral("weights %1 B").arg(groupedNumber(weightBytes));
  if (!block.isEmpty()) sizes << QStringLiteral("block %1").arg(block);
  if (!sizes.isEmpty()) lines << sizes.join(QStringLiteral(" \u00b7 "));
  if (cycles >= 0) lines << QStringLiteral("\u2248 %1 cycles").arg(groupedNumber(cycles));
  return lines;
}

int NpuStreamListing::npuOperationCount() const {
  int count = 0;
  for (const NpuOperationEntry& op : operations) count += op.isStop ? 0 : 1;
  return count;
}

bool isEthosUOperator(const ir::Graph& graph, int operatorIndex) {
  return operatorIndex >= 0 && static_cast<std::size_t>(operatorIndex) < graph.operators.size() &&
         graph.operators[static_cast<std::size_t>(operatorIndex)].type == ir::OpType::EthosU;
}

NpuStreamListing npuStreamListing(const ir::Graph& graph, int operatorIndex, bool withCommands) {
  NpuStreamListing listing;
  listing.operatorIndex = operatorIndex;
  if (!isEthosUOperator(graph, operatorIndex)) {
    listing.error = QStringLiteral("operator %1 is not an ethos-u operator").arg(operatorIndex);
    return listing;
  }
  const ir::Operator& op = graph.operators[static_cast<std::size_t>(operatorIndex)];
  listing.operatorType = QString::fromStdString(op.typeName());
  try {
    const frontend::EthosUPayload payload = analysis::ethosuPayloadOf(graph, op);
    const nlohmann::json json = analysis::commandListingJson(payload);
    listing.accelerator = QString::fromStdString(json.at("accelerator").get<std::string>());
    listing.macs = payload.macs();
    // The estimate walks the same streams in the same order, STOP included,
    // so its operations line up with the listing's one for one.
    std::vector<ethosu::OperationEstimate> estimates;
    try {
      const ir::Tensor* bytes = graph.input(op, 0);
      const auto npu = ethosu::payloadNpuConfig(bytes->data.data(), bytes->data.size());
      const ethosu::StreamEstimate estimate = ethosu::estimatePayload(
          bytes->data.data(), bytes->data.size(), npu, ethosu::velaDefaultSystem(npu));
      estimates = estimate.operations;
      listing.npuCycles = static_cast<std::int64_t>(estimate.npuCycles);
    } catch (const std::exception&) {
      // The listing stands without cycles.
    }
    for (std::size_t s = 0; s < payload.streams.size(); ++s) {
      const frontend::EthosUCommandStream& stream = payload.streams[s];
      const nlohmann::json& operations = json.at("streams").at(s).at("operations");
      listing.streamWords += static_cast<int>(stream.wordCount);
      for (std::size_t i = 0; i < stream.operations.size() && i < operations.size(); ++i) {
        const loupe_ethosu_operation& typed = stream.operations[i];
        const nlohmann::json& entry = operations[i];
        NpuOperationEntry npu;
        npu.ordinal = static_cast<int>(listing.operations.size());
        npu.stream = static_cast<int>(s);
        npu.index = static_cast<int>(typed.index);
        npu.kind = QString::fromStdString(entry.at("kind").get<std::string>());
        npu.isStop = typed.kind == LOUPE_ETHOSU_OPERATION_STOP;
        npu.firstWord = static_cast<int>(typed.first_word);
        npu.endWord = static_cast<int>(typed.end_word);
        npu.macs = entry.value("macs", std::int64_t{0});
        if (entry.contains("ofm")) {
          QString ifm = npuShapeText(entry.at("ifm"));
          if (entry.contains("ifm2") && !entry.at("ifm2").is_null()) {
            ifm += QStringLiteral(", ") + npuShapeText(entry.at("ifm2"));
          }
          npu.shapes = ifm + QStringLiteral(" \u2192 ") + npuShapeText(entry.at("ofm"));
          npu.block = npuShapeText(entry.at("block"));
          npu.weightBytes = entry.value("weight_bytes", std::int64_t{0});
        }
        if (typed.kind == LOUPE_ETHOSU_OPERATION_DMA) {
          npu.shapes = dmaEndText(typed.dma_src_internal, typed.dma_src_region, typed.dma_src) +
                       QStringLiteral(" \u2192 ") +
                       dmaEndText(typed.dma_dst_internal, typed.dma_dst_region, typed.dma_dst) +
                       QStringLiteral(", %1 B").arg(
                           groupedNumber(static_cast<std::int64_t>(typed.dma_length)));
        }
        if (entry.contains("kernel")) {
          npu.kernel = QStringLiteral("kernel %1 stride %2")
                           .arg(npuPairText(entry.at("kernel")), npuPairText(entry.at("stride")));
        }
        const std::size_t flat = static_cast<std::size_t>(npu.ordinal);
        // Kernel operations take their cycles, a DMA its transfer; waits,
        // IRQ and STOP cost nothing of their own.
        if (flat < estimates.size() && estimates[flat].index == typed.index &&
            estimates[flat].kind == typed.kind) {
          if (typed.kind == LOUPE_ETHOSU_OPERATION_DMA) {
            npu.cycles = static_cast<std::int64_t>(estimates[flat].dmaCycles);
          } else if (entry.contains("ofm")) {
            npu.cycles = static_cast<std::int64_t>(estimates[flat].cycles);
          }
        }
        if (withCommands) {
          for (const auto& command : entry.at("commands")) {
            NpuCommandLine line;
            line.offset = command.at("offset").get<int>();
            for (const auto& word : command.at("words")) {
              line.words << QString::fromStdString(word.get<std::string>());
            }
            line.command = QString::fromStdString(command.at("command").get<std::string>());
            line.fields = npuFieldsText(command.at("fields"));
            npu.commands.append(line);
          }
        }
        listing.operations.append(npu);
      }
    }
  } catch (const std::exception& error) {
    listing.operations.clear();
    listing.error = QString::fromUtf8(error.what());
  }
  return listing;
}

QStringList ethosuOperatorFacts(const ir::Graph& graph, int operatorIndex) {
  if (!isEthosUOperator(graph, operatorIndex)) return {};
  const ir::Operator& op = graph.operators[static_cast<std::size_t>(operatorIndex)];
  const auto* attrs = std::get_if<ir::EthosUAttrs>(&op.attributes);
  if (attrs == nullptr) return {};
  return {
      QStringLiteral("%1 \u00b7 %2 NPU operations")
          .arg(QString::fromStdString(std::string(ir::ethosuAcceleratorName(attrs->accelerator))))
          .arg(groupedNumber(attrs->npuOperations)),
      QStringLiteral("%1 MACs").arg(groupedNumber(attrs->macs))};
}

}  // namespace loupe::models
