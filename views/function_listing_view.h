// The TIR and C tabs: every operator function of the compiled model in one
// read-only QScintilla text (line numbers, folding, Ctrl+F), scrolled to and
// marked at the function of the document's current operator. A header line
// says which function that is, or why the operator has none (folded into
// another, a no-copy view, or the model is still compiling).
#pragma once

#include <QWidget>

class QLabel;
class QsciScintilla;

namespace loupe::models {
class ModelCompilation;
class ModelDocument;
struct FunctionListing;
}  // namespace loupe::models

namespace loupe::views {

class FindBar;

class FunctionListingView : public QWidget {
  Q_OBJECT

 public:
  enum class Language { Tir, C };

  FunctionListingView(Language language, models::ModelDocument* document,
                      models::ModelCompilation* compilation, QWidget* parent = nullptr);

  Language language() const { return language_; }
  QsciScintilla* editor() const { return editor_; }
  FindBar* findBar() const { return findBar_; }
  // The function shown for the current operator, or an empty string.
  QString currentFunctionName() const { return currentFunction_; }
  // The text of the current function (its marked lines), or an empty string.
  QString currentFunctionText() const;
  QString headerText() const;

 private:
  const models::FunctionListing& listing() const;
  void showListing();
  void showOperator(int operatorIndex);
  void applyIndentationFolding();

  Language language_;
  models::ModelDocument* document_;
  models::ModelCompilation* compilation_;
  QLabel* header_;
  QsciScintilla* editor_;
  FindBar* findBar_;
  QString currentFunction_;
  int currentFirstLine_ = -1;
  int currentLastLine_ = -1;
};

}  // namespace loupe::views
