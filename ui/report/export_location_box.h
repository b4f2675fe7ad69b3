// The Report page's "Written to" box: the last export's folder and zip with "Open folder", or what is being written,
// or that the last try failed.
#pragma once

#include <QGroupBox>

class QLabel;
class QPushButton;

namespace stackscope::ui {

struct ReportResult;

class ExportLocationBox : public QGroupBox {
    Q_OBJECT
public:
    explicit ExportLocationBox(QWidget* parent = nullptr);

    QString text() const;
    // A new report is being written into `parentDir` ("" : a folder not named yet): the last one's folder must not
    // stand here as if it were this one's.
    void showWriting(const QString& parentDir);
    void showWritten(const ReportResult& result);
    // The export failed: `last` is the last report written (its folder empty when there is none).
    void showFailed(const ReportResult& last);

private:
    void setFolder(const QString& folder);

    QLabel* m_where = nullptr;
    QPushButton* m_openFolder = nullptr;
    QString m_folder; // what Open folder opens
};

} // namespace stackscope::ui
