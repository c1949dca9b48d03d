// The Graph IR tab: the imported graph as ir::printGraph writes it, read-only
// and monospace, with the document's current operator marked. Putting the
// cursor on an operator's line makes it the current operator everywhere.
#pragma once

#include <Qsci/qsciscintilla.h>

#include <QList>

namespace loupe::models {
class ModelDocument;
}

namespace loupe::views {

class GraphIrView : public QsciScintilla {
  Q_OBJECT

 public:
  explicit GraphIrView(models::ModelDocument* document, QWidget* parent = nullptr);

  // The line (0-based) that prints operator `operatorIndex`, or -1.
  int lineOfOperator(int operatorIndex) const;

 private:
  void showModel();
  void markOperator(int operatorIndex);
  void followCursor(int line);

  models::ModelDocument* document_;
  QList<int> operatorLines_;  // operator index -> line
};

}  // namespace loupe::views
