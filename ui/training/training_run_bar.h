// The Training page's heading: the title with Start, Stop and Resume beside it, outside every scroll area (always in
// view, at any window size). Says which button was pressed; the page decides what follows.
#pragma once

#include <QWidget>

class QPushButton;

namespace stackscope::ui {

class TrainingRunBar : public QWidget {
    Q_OBJECT
public:
    explicit TrainingRunBar(QWidget* parent = nullptr);

    // Start while no run goes on, Stop during one, Resume when none goes on and the last can be continued. True when
    // Resume's state changed.
    bool setRunning(bool running, bool resumable);
    // Stop was asked for: it cannot be asked twice.
    void stopRequested();
    bool canStart() const;
    bool canStop() const;
    bool canResume() const;

Q_SIGNALS:
    void startClicked();
    void stopClicked();
    void resumeClicked();

private:
    QPushButton* m_start;
    QPushButton* m_stop;
    QPushButton* m_resume;
};

} // namespace stackscope::ui
