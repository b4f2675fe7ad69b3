// Below the VPOC form: the status line with its warning sign and Details button, the progress bar, then Run and Cancel.
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace stackscope::ui {

class WrappedLabel;

class VpocStatus : public QWidget {
    Q_OBJECT
public:
    explicit VpocStatus(QWidget* parent = nullptr);

    void setRunning(bool running);
    // 0..1000
    void setProgress(int permille);
    // A plain line; `details` (may be empty) is the whole text behind "Details…".
    void setStatus(const QString& text, const QString& details = {});
    // An error in red beside a warning sign: whole where it is a few lines (its second half says what to do),
    // else its first line with the rest behind Details.
    void showError(const QString& message);

    // The whole line (the label may show a long path cut in the middle).
    QString text() const;
    QString details() const { return m_details; }
    bool isError() const { return m_isError; }

Q_SIGNALS:
    void runClicked();
    void cancelClicked();

private:
    void addButtons();
    void addStatusLine();

    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    WrappedLabel* m_status = nullptr; // long paths cut in the middle, never widening the column
    QLabel* m_icon = nullptr; // a warning sign beside an error
    QPushButton* m_detailsButton = nullptr;
    QString m_details;
    bool m_isError = false;
    static constexpr int kMaxShownError = 480; // characters an error may have and still be shown whole
};

} // namespace stackscope::ui
