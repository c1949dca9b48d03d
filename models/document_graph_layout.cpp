#include "models/document_graph_layout.h"

#include <QDeadlineTimer>
#include <QEventLoop>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include "models/model_document.h"

namespace loupe::models {

DocumentGraphLayout::DocumentGraphLayout(ModelDocument* document, QObject* parent)
    : QObject(parent), document_(document) {
  connect(document_, &ModelDocument::modelLoaded, this, [this] {
    expanded_.clear();  // operator indices of the previous model
    emit expansionChanged();
    start();
  });
  connect(&watcher_, &QFutureWatcherBase::finished, this, &DocumentGraphLayout::onDone);
  // Made for a model already open (a second view of it): lay it out once
  // the view that made it has set the text metrics.
  if (document_->isLoaded()) {
    QMetaObject::invokeMethod(this, &DocumentGraphLayout::start, Qt::QueuedConnection);
  }
}

DocumentGraphLayout::~DocumentGraphLayout() {
  watcher_.waitForFinished();
}

void DocumentGraphLayout::setFullDetail(bool full) {
  if (full == metrics_.fullDetail) return;
  metrics_.fullDetail = full;
  if (document_->isLoaded()) start();
}

QList<int> DocumentGraphLayout::ethosuOperators() const {
  QList<int> found;
  if (!document_->isLoaded()) return found;
  for (const ir::Operator& op : document_->graph().operators) {
    if (op.type == ir::OpType::EthosU) found.append(op.index);
  }
  return found;
}

void DocumentGraphLayout::setExpanded(int operatorIndex, bool expanded) {
  if (expanded == expanded_.contains(operatorIndex) ||
      (expanded && !ethosuOperators().contains(operatorIndex))) {
    return;
  }
  if (expanded) {
    expanded_.append(operatorIndex);
  } else {
    expanded_.removeAll(operatorIndex);
  }
  emit expansionChanged();
  start();
}

void DocumentGraphLayout::setAllExpanded(bool expanded) {
  const QList<int> next = expanded ? ethosuOperators() : QList<int>();
  if (next == expanded_) return;
  expanded_ = next;
  emit expansionChanged();
  if (document_->isLoaded()) start();
}

void DocumentGraphLayout::start() {
  if (running_) {
    pending_ = true;
    return;
  }
  pending_ = false;
  if (!document_->isLoaded()) return;
  QList<int> unsupported;
  for (const auto& problem : document_->supportProblems())
    unsupported.append(problem.operatorIndex);
  running_ = true;
  emit layoutStarted();
  watcher_.setFuture(QtConcurrent::run(
      [graph = document_->graph(), metrics = metrics_, unsupported, expanded = expanded_] {
        return layoutGraph(graph, metrics, unsupported, expanded);
      }));
}

void DocumentGraphLayout::onDone() {
  running_ = false;
  if (pending_) {
    start();  // the result belongs to a model that is no longer open
    return;
  }
  layout_ = watcher_.result();
  emit layoutReady();
}

QList<int> DocumentGraphLayout::findNodes(const QString& text) const {
  QList<int> found;
  const QString needle = text.trimmed();
  if (needle.isEmpty() || !document_->isLoaded()) return found;
  const ir::Graph& graph = document_->graph();
  QString number = needle;
  if (number.startsWith(QStringLiteral("op "), Qt::CaseInsensitive)) number = number.mid(3);
  bool isNumber = false;
  const int index = number.toInt(&isNumber);
  auto tensorMatches = [&](int tensor) {
    return tensor >= 0 &&
           QString::fromStdString(graph.tensor(tensor).name).contains(needle, Qt::CaseInsensitive);
  };
  for (int i = 0; i < layout_.nodes.size(); ++i) {
    const LaidOutNode& node = layout_.nodes[i];
    bool match = false;
    if (node.npuOperation >= 0) {
      match = node.title.contains(needle, Qt::CaseInsensitive);  // "npu 12", "CONV"
    } else if (node.operatorIndex >= 0) {
      const ir::Operator& op = graph.operators.at(static_cast<std::size_t>(node.operatorIndex));
      match = (isNumber && index == node.operatorIndex) ||
              node.title.contains(needle, Qt::CaseInsensitive);
      for (int t : op.inputs) match = match || tensorMatches(t);
      for (int t : op.outputs) match = match || tensorMatches(t);
    } else {
      match = tensorMatches(node.tensorIndex);
    }
    if (match) found.append(i);
  }
  return found;
}

bool DocumentGraphLayout::waitUntilIdle(int timeoutMs) {
  QDeadlineTimer deadline(timeoutMs);
  while (isBusy() && !deadline.hasExpired()) {
    QEventLoop loop;
    QTimer::singleShot(50, &loop, &QEventLoop::quit);
    connect(this, &DocumentGraphLayout::layoutReady, &loop, &QEventLoop::quit);
    loop.exec();
  }
  return !isBusy();
}

}  // namespace loupe::models
