// Keeps the Graphviz layout of the open model's graph for the Graph view,
// recomputed on a worker thread whenever a model opens (dot takes about a
// second for 2,000 operators; the window must not wait for it).
#pragma once

#include <QFutureWatcher>
#include <QObject>

#include "models/graph_layout.h"

namespace loupe::models {

class ModelDocument;

class DocumentGraphLayout : public QObject {
  Q_OBJECT

 public:
  explicit DocumentGraphLayout(ModelDocument* document, QObject* parent = nullptr);
  ~DocumentGraphLayout() override;

  // Set by the view (on the GUI thread) before the first layout.
  void setTextMetrics(const GraphTextMetrics& metrics) { metrics_ = metrics; }
  // Compact or full-detail nodes (GraphTextMetrics::fullDetail); lays the
  // open model out again when it changes.
  void setFullDetail(bool full);
  bool fullDetail() const { return metrics_.fullDetail; }
  // The open model's Vela operators (ethos-u), which can be expanded.
  QList<int> ethosuOperators() const;
  // Draws ethos-u operator `operatorIndex` as its NPU operations (or one
  // node again); lays the model out again when that changes. Every model
  // opens with all of them collapsed.
  void setExpanded(int operatorIndex, bool expanded);
  // All ethos-u operators at once (the Graph view's toolbar toggle).
  void setAllExpanded(bool expanded);
  bool isExpanded(int operatorIndex) const { return expanded_.contains(operatorIndex); }
  const QList<int>& expandedOperators() const { return expanded_; }

  const GraphLayout& layout() const { return layout_; }
  // Nodes matching `text` (case-insensitive), in node order: an operator by
  // its index ("12", "op 12") or type, or by the name of a tensor it reads
  // or writes; an input/output node by its tensor's name.
  QList<int> findNodes(const QString& text) const;

  bool isBusy() const { return running_ || pending_; }
  // Blocks, running the event loop, until the layout is done or `timeoutMs`
  // passed; for screenshots and tests. Returns !isBusy().
  bool waitUntilIdle(int timeoutMs = 60000);

 signals:
  void layoutStarted();
  void expansionChanged();
  void layoutReady();

 private:
  void start();
  void onDone();

  ModelDocument* document_;
  GraphTextMetrics metrics_;
  QList<int> expanded_;  // ethos-u operators drawn as their NPU operations
  GraphLayout layout_;
  bool pending_ = false;  // a newer model arrived while a layout ran
  // From start to the result taken (the watcher's isRunning() turns false
  // before its finished() is delivered).
  bool running_ = false;
  QFutureWatcher<GraphLayout> watcher_;
};

}  // namespace loupe::models
