// The coloured bar above the pages while a report is open: whose machine, when, and the way back.
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace stackscope::ui {

class ReplayBanner : public QFrame {
    Q_OBJECT
public:
    explicit ReplayBanner(QWidget* parent = nullptr);

    // "Viewing a report from <host>, captured <time>. ..." and shows the bar.
    void showReport(const QString& host, const QString& capturedAt, const QString& source, bool hasProbes);
    // "Loading <name>…" while a report is read in the background: Close stops it, Run here waits for the report.
    void showLoading(const QString& name);
    QString text() const;
    // A second line saying what the other pages got from the report ("VPOC (20 sessions) · Training (3 epochs)").
    void setPagesNote(const QString& note);
    QPushButton* runHereButton() const { return m_runHere; }

Q_SIGNALS:
    void runHereRequested();
    void closeRequested();

private:
    QLabel* m_text;
    QString m_main; // the first lines, set by showReport
    QPushButton* m_runHere;
    QPushButton* m_close;
};

} // namespace stackscope::ui
