// The Report page's "Pasted logs" box: the logs pasted or dropped in this session (or an opened report's), which the
// report will hold, how many, and "Leave out" for the one selected.
#pragma once

#include <QGroupBox>

class QLabel;
class QListView;
class QPushButton;

namespace stackscope::ui {

class SessionLogModel;

class SessionLogsBox : public QGroupBox {
    Q_OBJECT
public:
    explicit SessionLogsBox(SessionLogModel* logs, QWidget* parent = nullptr);

private:
    void showLogs();

    SessionLogModel* m_logs;
    QListView* m_list;
    QPushButton* m_remove;
    QLabel* m_note;
};

} // namespace stackscope::ui
