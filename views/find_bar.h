// The Ctrl+F bar under a read-only code view: type to find as you type,
// Enter / Shift+Enter for the next / previous match, Escape to close. Says
// when there is no match instead of failing silently.
#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QsciScintilla;

namespace loupe::views {

class FindBar : public QWidget {
  Q_OBJECT

 public:
  explicit FindBar(QsciScintilla* editor, QWidget* parent = nullptr);

  // Shows the bar with the editor's selection (if any) as the text to find.
  void activate();
  // Finds the next (or previous) match after the cursor, wrapping around.
  // Returns whether there was one.
  bool findNext(bool backwards = false);
  QLineEdit* lineEdit() const { return text_; }

 protected:
  void keyPressEvent(QKeyEvent* event) override;

 private:
  QsciScintilla* editor_;
  QLineEdit* text_;
  QCheckBox* matchCase_;
  QLabel* status_;
};

}  // namespace loupe::views
