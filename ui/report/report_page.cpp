// The Report page's widgets and the export/copy actions; what the report holds and its export are ReportController's.
#include "ui/report/report_page.h"
#include "ui/widgets/file_dialogs.h"

#include "ui/probes/probes_page.h"
#include "ui/report/card_preview_column.h"
#include "ui/report/export_location_box.h"
#include "ui/report/redaction_list.h"
#include "ui/report/report_controller.h"
#include "ui/report/session_logs_box.h"
#include "ui/report/summary_card.h"
#include "ui/vpoc/session_model.h"
#include "ui/vpoc/vpoc_page.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>
#include <QStandardPaths>
#include <QThread>
#include <QVBoxLayout>

namespace stackscope::ui {

ReportPage::ReportPage(SnapshotController* snapshots, ProbesPage* probes, QWidget* parent)
    : QWidget(parent)
    , m_controller(new ReportController(snapshots, probes ? probes->controller() : nullptr, this))
    , m_export(new QPushButton(tr("Export support report…"), this))
    , m_redact(new QCheckBox(tr("Redact private data (names, paths, addresses, serials)"), this))
    , m_copy(new QPushButton(tr("Copy summary"), this))
    , m_status(new QLabel(this))
    , m_where(new ExportLocationBox(this))
    , m_logs(new SessionLogsBox(m_controller->sessionLogs(), this))
    , m_redactions(new RedactionList(this))
    , m_card(new SummaryCard(this))
{
    configureWidgets();
    m_columns = new QBoxLayout(QBoxLayout::LeftToRight, this);
    // The card's column first (up to the card's width), the controls and the redaction list take the rest.
    m_columns->addLayout(buildControlsColumn(), 1);
    m_cardColumn = new CardPreviewColumn(m_card, this);
    m_columns->addLayout(m_cardColumn, 2);
    connectSignals();
    setStatus(tr("Waiting for the System page's snapshot."), false);
}

void ReportPage::configureWidgets()
{
    m_export->setObjectName(QStringLiteral("exportButton"));
    m_export->setDefault(true);
    m_export->setToolTip(tr("Writes stackscope-report-YYYYMMDD-HHMMSS and its .zip into the folder you choose"));
    m_redact->setChecked(true);
    // The whole list as a tooltip: the long label set the column's width and cut the summary card off at 1280.
    m_redact->setToolTip(tr("User and host names, home paths, IP and MAC addresses, GPU serials and UUIDs"));
    m_copy->setToolTip(tr("Puts the report's Markdown (GPUs, stack, failing probes, findings with fixes) on the clipboard"));
    m_status->setObjectName(QStringLiteral("exportStatus"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
}

QLayout* ReportPage::buildControlsColumn()
{
    auto* title = new QLabel(tr("<h2>Support report</h2>"), this);
    auto* intro = new QLabel(tr("One folder and its .zip: report.html, report.md (paste it into an issue), report.json, "
                                "screenshots of every page and the summary card, recent logs."),
                             this);
    intro->setWordWrap(true);
    auto* actions = new QHBoxLayout;
    actions->addWidget(m_export);
    actions->addWidget(m_copy);
    auto* pasteLog = new QPushButton(tr("Paste a log or error…"), this);
    pasteLog->setObjectName(QStringLiteral("pasteLogButton"));
    pasteLog->setToolTip(tr("Diagnose a Python traceback, an error message or a log before you report it"));
    connect(pasteLog, &QPushButton::clicked, this, &ReportPage::pasteLogRequested);
    actions->addWidget(pasteLog);
    actions->addStretch(1);

    auto* left = new QVBoxLayout;
    left->addWidget(title);
    left->addWidget(intro);
    left->addLayout(actions);
    left->addWidget(m_redact);
    left->addWidget(m_status);
    left->addWidget(m_where);
    left->addWidget(m_logs);
    left->addWidget(m_redactions, 1);
    return left;
}

void ReportPage::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    arrangeColumns();
}

void ReportPage::arrangeColumns()
{
    m_cardColumn->arrange(m_columns, width());
}

void ReportPage::connectSignals()
{
    connect(m_controller, &ReportController::previewDue, this, &ReportPage::refreshPreview);
    connect(m_controller, &ReportController::exported, this, &ReportPage::onExported);
    connect(m_controller, &ReportController::exportFailed, this, &ReportPage::onExportFailed);
    connect(m_redact, &QCheckBox::toggled, this, &ReportPage::refreshPreview);
    connect(m_export, &QPushButton::clicked, this, &ReportPage::exportInteractive);
    connect(m_copy, &QPushButton::clicked, this, &ReportPage::copySummary);
}

void ReportPage::addLivePage(const QString& title, QWidget* page)
{
    m_controller->addLivePage(title, page);
}

void ReportPage::setVpocPage(VpocPage* page)
{
    m_controller->setVpocSource([vpoc = QPointer<VpocPage>(page)]() -> std::shared_ptr<const vpoc::VpocResult> {
        return vpoc ? vpoc->sessionModel()->result() : nullptr;
    });
    addLivePage(tr("VPOC"), page);
}

void ReportPage::setTrainingRunSource(std::function<QString()> folder)
{
    m_controller->setTrainingRunSource(std::move(folder));
}

void ReportPage::setBandwidthSource(std::function<std::optional<perf::SuiteRun>()> run)
{
    m_controller->setBandwidthSource(std::move(run));
}

ReportExporter& ReportPage::exporter()
{
    return m_controller->exporter();
}

SessionLogModel* ReportPage::sessionLogs() const
{
    return m_controller->sessionLogs();
}

bool ReportPage::redactionEnabled() const
{
    return m_redact->isChecked();
}

void ReportPage::setRedactionEnabled(bool on)
{
    m_redact->setChecked(on);
}

QString ReportPage::statusText() const
{
    return m_status->text();
}

ReportRequest ReportPage::request() const
{
    return m_controller->request(redactionEnabled());
}

const ReportResult& ReportPage::lastResult() const
{
    return m_controller->lastResult();
}

void ReportPage::setStatus(const QString& text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
}

void ReportPage::refreshPreview()
{
    Q_ASSERT(QThread::currentThread() == thread());
    const bool redact = redactionEnabled();
    try {
        const auto preview = m_controller->preview(redact);
        if (!preview)
            return;
        m_card->setReport(preview->summary);
        m_card->adjustSize();
        arrangeColumns(); // below the controls the card's column is as tall as the card
        m_redactions->setRedactions(preview->redacted, preview->uncertain, redact);
        if (lastResult().folder.isEmpty())
            setStatus(redact ? tr("Ready. Private data will be replaced by placeholders in every file and screenshot.")
                             : tr("Redaction is OFF: the report will contain user and host names, paths and addresses."),
                      !redact);
    } catch (const std::exception& e) {
        setStatus(tr("The preview could not be built: %1").arg(QString::fromUtf8(e.what())), true);
    }
}

QString ReportPage::exportStartFolder()
{
    // Documents only where it exists (a fresh account or a container often has none): else home.
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return !documents.isEmpty() && QFileInfo(documents).isDir() ? documents : QDir::homePath();
}

void ReportPage::exportInteractive()
{
    // The folder of the last dialog, else Documents (the first export).
    const QString start = hasLastDialogFolder() ? lastDialogFolder() : exportStartFolder();
    const QString dir = folderInLastFolder(this, tr("Export support report into"), start);
    if (!dir.isEmpty())
        exportTo(dir);
}

bool ReportPage::exportTo(const QString& parentDir)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_controller->isExporting())
        return false;
    setStatus(tr("Writing the report…"), false);
    m_where->showWriting(parentDir);
    setExportRunning(true);
    return m_controller->startExport(parentDir, redactionEnabled());
}

QString ReportPage::writtenToText() const
{
    return m_where->text();
}

bool ReportPage::isExporting() const
{
    return m_controller->isExporting();
}

void ReportPage::setExportRunning(bool running)
{
    // One export at a time: the button and the window's Export action (through exportRunningChanged).
    m_export->setEnabled(!running);
    Q_EMIT exportRunningChanged(running);
}

void ReportPage::onExported()
{
    const auto& last = lastResult();
    setExportRunning(false);
    m_card->setReport(report::reportSummary(last.report));
    m_redactions->setRedactions(last.redacted, last.uncertain, redactionEnabled());
    m_where->showWritten(last);
    setStatus(last.screenshots.size() == 1 ? tr("Report written (1 screenshot).")
                                           : tr("Report written (%1 screenshots).").arg(last.screenshots.size()),
              false);
    Q_EMIT exported(last.folder, last.zip);
}

void ReportPage::onExportFailed(const QString& parentDir, const QString& reason)
{
    setExportRunning(false);
    m_where->showFailed(lastResult());
    // The reason says what to do (core's messages name the file or folder that failed); the folder chosen is said too.
    const QString message = parentDir.isEmpty() ? tr("The report was not written: %1").arg(reason)
                                                : tr("The report was not written into %1: %2").arg(parentDir, reason);
    setStatus(message, true);
    Q_EMIT errorOccurred(message);
}

void ReportPage::copySummary()
{
    try {
        QApplication::clipboard()->setText(m_controller->summaryMarkdown(redactionEnabled()));
        setStatus(redactionEnabled() ? tr("Summary (Markdown, redacted) copied to the clipboard.")
                                     : tr("Summary (Markdown, NOT redacted) copied to the clipboard."),
                  false);
    } catch (const std::exception& e) {
        const QString message = tr("Nothing copied: %1").arg(QString::fromUtf8(e.what()));
        setStatus(message, true);
        Q_EMIT errorOccurred(message);
    }
}

} // namespace stackscope::ui
