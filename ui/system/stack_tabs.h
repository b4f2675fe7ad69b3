// The System page's lower tabs: the stack table above the selected row's whole value, and the kernel coverage table
// above the selected cell's note. A view over the page's models: a new list clears the details.
#pragma once

#include <QTabWidget>

class QLabel;
class QTableView;
class QTextBrowser;

namespace stackscope::ui {

class CoverageModel;
class StackModel;

class StackTabs : public QTabWidget {
    Q_OBJECT
public:
    StackTabs(StackModel* stack, CoverageModel* coverage, QWidget* parent = nullptr);

    QTableView* stackView() const { return m_stackView; }
    QTableView* coverageView() const { return m_coverageView; }
    // The selected stack row's details (empty before a selection) and the coverage tab's note.
    QString stackDetail() const;
    QString coverageNote() const;

private:
    QWidget* createStackTab();
    QWidget* createCoverageTab();
    void showStackRow(int row);
    void showCoverageNote();

    StackModel* m_stackModel;
    CoverageModel* m_coverageModel;
    QTableView* m_stackView;
    QTextBrowser* m_stackDetail;
    QTableView* m_coverageView;
    QLabel* m_coverageNote;
};

} // namespace stackscope::ui
