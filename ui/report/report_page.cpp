// The Report page's widgets and the export/copy actions; the work is in ReportExporter.
#include "ui/report/report_page.h"
#include "ui/widgets/file_dialogs.h"

#include "core/report/report.h"
#include "core/training/training_files_check.h"
#include "ui/probes/probe_grid_model.h"
#include "ui/probes/probes_page.h"
#include "ui/report/recent_log.h"
#include "ui/report/session_logs.h"
#include "ui/report/summary_card.h"
#include "ui/vpoc/session_model.h"
#include "ui/vpoc/vpoc_page.h"
#include "core/vpoc/vpoc_output.h"
#include "ui/system/snapshot_controller.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListView>
#include <QMessageBox>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTableWidget>
#include <QThread>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

namespace stackscope::ui {

namespace {

// The trainer's own contract ("stackscope.training/1") into `r.trainingRun`; a file that cannot be read is said
// in the logs. `folder` "" means no training run.
void readTrainingRun(const QString& folder, ReportRequest& r)
{
    if (folder.isEmpty())
        return;
    const std::string where = "report: training run " + folder.toStdString() + ": ";
    QFile f(folder + QStringLiteral("/model_metadata.json"));
    if (!f.open(QIODevice::ReadOnly)) {
        r.logLines.push_back(where + "cannot read model_metadata.json (" + f.errorString().toStdString() + ")");
        return;
    }
    if (f.size() > 16 * 1024 * 1024) {
        r.logLines.push_back(where + "model_metadata.json is over 16 MiB; left out");
        return;
    }
    const QByteArray bytes = f.readAll();
    auto doc = nlohmann::json::parse(bytes.constBegin(), bytes.constEnd(), nullptr, false);
    if (doc.is_discarded()) {
        r.logLines.push_back(where + "model_metadata.json is not valid JSON; left out");
        return;
    }
    const auto note = training::checkTrainingFiles(doc, folder.toStdString());
    if (!note.empty())
        r.logLines.push_back(where + note);
    r.trainingRun = std::move(doc);
}

} // namespace

ReportPage::ReportPage(SnapshotController* snapshots, ProbesPage* probes, QWidget* parent)
    : QWidget(parent)
    , m_snapshots(snapshots)
    , m_probes(probes)
    , m_export(new QPushButton(tr("Export support report…"), this))
    , m_redact(new QCheckBox(tr("Redact private data (names, paths, addresses, serials)"), this))
    , m_copy(new QPushButton(tr("Copy summary"), this))
    , m_status(new QLabel(this))
    , m_where(new QLabel(this))
    , m_openFolder(new QPushButton(tr("Open folder"), this))
    , m_logs(new SessionLogModel(this))
    , m_logList(new QListView(this))
    , m_removeLog(new QPushButton(tr("Leave out"), this))
    , m_logsNote(new QLabel(this))
    , m_redactions(new QTableWidget(0, 3, this))
    , m_uncertain(new QLabel(this))
    , m_card(new SummaryCard(this))
    , m_previewTimer(new QTimer(this))
{
    // From here on the app's warnings are kept for the report's logs/recent.log.
    installRecentLog();
    configureWidgets();
    m_columns = new QBoxLayout(QBoxLayout::LeftToRight, this);
    // The card's column first (up to the card's width), the controls and the redaction list take the rest.
    m_columns->addLayout(buildControlsColumn(), 1);
    m_columns->addLayout(buildCardColumn(), 2);
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
    m_where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_where->setTextFormat(Qt::PlainText);
    m_where->setWordWrap(true);
    m_where->setText(tr("Not exported yet."));
    m_openFolder->setEnabled(false);
    m_redactions->setObjectName(QStringLiteral("redactions"));
    m_redactions->setHorizontalHeaderLabels({tr("What"), tr("Shown as"), tr("Times")});
    m_redactions->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_redactions->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_redactions->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_redactions->verticalHeader()->hide();
    m_redactions->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_redactions->setSelectionMode(QAbstractItemView::NoSelection);
    m_uncertain->setObjectName(QStringLiteral("redactionUncertain"));
    m_uncertain->setWordWrap(true);
    m_uncertain->setTextFormat(Qt::PlainText);
    m_uncertain->setStyleSheet(QStringLiteral("color: #b26a00;"));
    m_uncertain->hide();
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

    auto* whereBox = new QGroupBox(tr("Written to"), this);
    auto* whereLayout = new QHBoxLayout(whereBox);
    whereLayout->addWidget(m_where, 1);
    whereLayout->addWidget(m_openFolder, 0, Qt::AlignTop);
    auto* redactBox = new QGroupBox(tr("Redacted (the originals are never written)"), this);
    auto* redactLayout = new QVBoxLayout(redactBox);
    redactLayout->addWidget(m_redactions, 1);
    redactLayout->addWidget(m_uncertain);

    auto* left = new QVBoxLayout;
    left->addWidget(title);
    left->addWidget(intro);
    left->addLayout(actions);
    left->addWidget(m_redact);
    left->addWidget(m_status);
    left->addWidget(whereBox);
    left->addWidget(buildLogsBox());
    left->addWidget(redactBox, 1);
    return left;
}

// The logs pasted or dropped in this session, which the report will hold; one can be left out.
QWidget* ReportPage::buildLogsBox()
{
    m_logList->setObjectName(QStringLiteral("sessionLogs"));
    m_logList->setModel(m_logs);
    m_logList->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_logList->setSelectionMode(QAbstractItemView::SingleSelection);
    m_logList->setTextElideMode(Qt::ElideMiddle);
    // A few rows: the redaction list below keeps the page's room.
    m_logList->setMaximumHeight(m_logList->fontMetrics().height() * 4 + 12);
    m_removeLog->setObjectName(QStringLiteral("removeLogButton"));
    m_removeLog->setToolTip(tr("Leave the selected log out of the report"));
    m_logsNote->setObjectName(QStringLiteral("sessionLogsNote"));
    m_logsNote->setWordWrap(true);
    m_logsNote->setTextFormat(Qt::PlainText);
    auto update = [this] {
        const int n = m_logs->rowCount();
        m_logList->setVisible(n > 0);
        m_removeLog->setVisible(n > 0);
        m_removeLog->setEnabled(m_logList->currentIndex().isValid());
        m_logsNote->setText(n == 0 ? tr("None yet. What you paste or drop into \"Paste a log or error…\" is kept here and "
                                        "goes into the report's logs, redacted with the rest.")
                            : n == 1 ? tr("1 log goes into the report (logs/recent.log, report.json), redacted with the rest.")
                                     : tr("%1 logs go into the report (logs/recent.log, report.json), redacted with the rest.").arg(n));
    };
    connect(m_logs, &SessionLogModel::rowsInserted, this, update);
    connect(m_logs, &SessionLogModel::rowsRemoved, this, update);
    connect(m_logs, &SessionLogModel::modelReset, this, update); // an opened report's logs, or back to this session's
    connect(m_logList->selectionModel(), &QItemSelectionModel::currentChanged, this, update);
    connect(m_removeLog, &QPushButton::clicked, this, [this] { m_logs->remove(m_logList->currentIndex().row()); });
    update();
    auto* box = new QGroupBox(tr("Pasted logs"), this);
    auto* layout = new QGridLayout(box);
    layout->addWidget(m_logsNote, 0, 0, 1, 2);
    layout->addWidget(m_logList, 1, 0);
    layout->addWidget(m_removeLog, 1, 1, Qt::AlignTop);
    layout->setColumnStretch(0, 1);
    return box;
}

void ReportPage::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    arrangeColumns();
}

void ReportPage::arrangeColumns()
{
    // The controls read well from ~380 px; the card is kWidth wide. Below both side by side, the card goes under
    // the controls at its full height (the page scrolls down, never sideways).
    const int sideBySide = 380 + SummaryCard::kWidth + m_cardArea->verticalScrollBar()->sizeHint().width() + 40;
    const auto direction = width() >= sideBySide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (m_columns->direction() != direction)
        m_columns->setDirection(direction);
    const int height = direction == QBoxLayout::TopToBottom ? m_card->height() + 4 : 0;
    if (m_cardArea->minimumHeight() != height)
        m_cardArea->setMinimumHeight(height);
}

QLayout* ReportPage::buildCardColumn()
{
    auto* cardArea = new QScrollArea(this);
    m_cardArea = cardArea;
    cardArea->setWidget(m_card);
    cardArea->setWidgetResizable(false);
    cardArea->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    cardArea->setFrameShape(QFrame::NoFrame);
    // Narrower than the card: the preview scrolls rather than push the page wider than a 1280 screen.
    cardArea->setMinimumWidth(360);
    // Where the window has room the whole card shows (at 1920 it was cut off while the redaction list
    // took the rest): the card's column grows with the page up to the card's own width.
    cardArea->setMaximumWidth(SummaryCard::kWidth + cardArea->verticalScrollBar()->sizeHint().width() + 4);
    auto* right = new QVBoxLayout;
    auto* cardTitle = new QLabel(tr("<b>Summary card</b> (summary-card.png: post it alone, like a GPU-Z screenshot)"), this);
    cardTitle->setWordWrap(true); // a long unbreakable line would set the page's minimum width
    right->addWidget(cardTitle);
    right->addWidget(cardArea, 1);
    return right;
}

void ReportPage::connectSignals()
{
    // Snapshots and probe results can arrive in bursts: rebuild the preview once they settle.
    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(200);
    connect(m_previewTimer, &QTimer::timeout, this, &ReportPage::refreshPreview);
    if (m_snapshots)
        connect(m_snapshots, &SnapshotController::snapshotChanged, m_previewTimer, qOverload<>(&QTimer::start));
    if (m_probes)
        connect(m_probes, &ProbesPage::runFinished, m_previewTimer, qOverload<>(&QTimer::start));
    // A pasted log can match a rule: the card's findings follow the logs.
    connect(m_logs, &SessionLogModel::rowsInserted, m_previewTimer, qOverload<>(&QTimer::start));
    connect(m_logs, &SessionLogModel::rowsRemoved, m_previewTimer, qOverload<>(&QTimer::start));
    connect(m_logs, &SessionLogModel::dataChanged, m_previewTimer, qOverload<>(&QTimer::start));
    connect(m_logs, &SessionLogModel::modelReset, m_previewTimer, qOverload<>(&QTimer::start));
    connect(m_redact, &QCheckBox::toggled, this, &ReportPage::refreshPreview);
    connect(m_export, &QPushButton::clicked, this, &ReportPage::exportInteractive);
    connect(m_copy, &QPushButton::clicked, this, &ReportPage::copySummary);
    connect(m_openFolder, &QPushButton::clicked, this, [this] {
        if (!m_last.folder.isEmpty())
            QDesktopServices::openUrl(QUrl::fromLocalFile(m_last.folder));
    });
}

void ReportPage::addLivePage(const QString& title, QWidget* page)
{
    m_livePages.emplace_back(title, page);
}

void ReportPage::setVpocPage(VpocPage* page)
{
    m_vpoc = page;
    addLivePage(tr("VPOC"), page);
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
    ReportRequest r;
    r.snapshot = m_snapshots ? m_snapshots->snapshot() : nullptr;
    // One machine per report: probe results measured here stay out of a report on a loaded snapshot.
    if (m_probes && m_probes->resultsMatchSnapshot())
        r.probes = m_probes->gridModel()->records();

    r.redact = m_redact->isChecked();
    r.livePages = m_livePages;
    r.logLines = recentLogLines();
    for (auto& line : m_logs->reportLines())
        r.logLines.push_back(std::move(line));
    if (m_probes && !m_probes->resultsMatchSnapshot() && !m_probes->gridModel()->records().empty()) {
        r.logLines.push_back("report: the probe results were measured on another machine than the snapshot; left out");
        // Not "not run in this session": they were run, on this machine, and the report describes another one.
        r.probesNote = "run on this machine, not on the recorded machine this report describes, so left out: press "
                       "Refresh on the System page to report this machine with them";
    }
    if (m_vpoc) {
        if (const auto& result = m_vpoc->sessionModel()->result())
            r.vpocRun = vpoc::toJson(*result);
    }
    if (m_trainingFolder)
        readTrainingRun(m_trainingFolder(), r);
    if (m_bandwidth)
        r.bandwidth = m_bandwidth();
    if (!r.bandwidth)
        r.bandwidthNote = "not measured in this session: Measure links on the System page (or open a recorded run "
                          "with File > Open bandwidth run...), then export again";
    return r;
}

void ReportPage::setStatus(const QString& text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
}

void ReportPage::refreshPreview()
{
    Q_ASSERT(QThread::currentThread() == thread());
    const auto r = request();
    if (!r.snapshot)
        return;
    try {
        std::optional<report::Redactor> red;
        const auto doc = ReportExporter::buildDocument(r, &red);
        m_card->setReport(report::reportSummary(doc));
        m_card->adjustSize();
        arrangeColumns(); // below the controls the card's column is as tall as the card
        showRedactions(red ? red->replaced() : std::vector<report::RedactionEntry> {},
                       red ? red->uncertainties() : std::vector<std::string> {}, r.redact);
        if (m_last.folder.isEmpty())
            setStatus(r.redact ? tr("Ready. Private data will be replaced by placeholders in every file and screenshot.")
                               : tr("Redaction is OFF: the report will contain user and host names, paths and addresses."),
                      !r.redact);
    } catch (const std::exception& e) {
        setStatus(tr("The preview could not be built: %1").arg(QString::fromUtf8(e.what())), true);
    }
}

void ReportPage::showRedactions(const std::vector<report::RedactionEntry>& entries,
                                const std::vector<std::string>& uncertain, bool enabled)
{
    m_redactions->setRowCount(0);
    // Said before the export, in the words report.json's redaction.uncertain keeps: the user decides
    // whether to post the report with what may remain.
    QStringList notes;
    for (const auto& u : uncertain)
        notes << QStringLiteral("• ") + QString::fromStdString(u);
    m_uncertain->setText(tr("Not certain (check the report before you post it):\n%1").arg(notes.join(QLatin1Char('\n'))));
    m_uncertain->setVisible(enabled && !notes.isEmpty());
    if (!enabled) {
        m_redactions->setRowCount(1);
        m_redactions->setItem(0, 0, new QTableWidgetItem(tr("Redaction is off: nothing is replaced")));
        return;
    }
    for (const auto& e : entries) {
        const int row = m_redactions->rowCount();
        m_redactions->insertRow(row);
        m_redactions->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(e.kind)));
        m_redactions->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(e.placeholder)));
        m_redactions->setItem(row, 2, new QTableWidgetItem(QString::number(e.count)));
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
    if (m_exporter.isRunning())
        return false;
    setStatus(tr("Writing the report…"), false);
    // The previous export's folder must not stand here as if it were this one's.
    m_where->setText(tr("Writing a new report into %1…").arg(parentDir.isEmpty() ? tr("the chosen folder") : parentDir));
    m_openFolder->setEnabled(false);
    setExportRunning(true);
    m_exporter.start(
        request(), parentDir, [this](ReportResult result) { onExported(std::move(result)); },
        [this, parentDir](const QString& message) { onExportFailed(parentDir, message); });
    return true;
}

QString ReportPage::writtenToText() const
{
    return m_where->text();
}

bool ReportPage::isExporting() const
{
    return m_exporter.isRunning();
}

void ReportPage::setExportRunning(bool running)
{
    // One export at a time: the button and the window's Export action (through exportRunningChanged).
    m_export->setEnabled(!running);
    Q_EMIT exportRunningChanged(running);
}

void ReportPage::onExported(ReportResult result)
{
    m_last = std::move(result);
    setExportRunning(false);
    m_card->setReport(report::reportSummary(m_last.report));
    showRedactions(m_last.redacted, m_last.uncertain, redactionEnabled());
    m_where->setText(tr("%1\n%2").arg(m_last.folder, m_last.zip));
    m_openFolder->setEnabled(true);
    setStatus(m_last.screenshots.size() == 1 ? tr("Report written (1 screenshot).")
                                             : tr("Report written (%1 screenshots).").arg(m_last.screenshots.size()),
              false);
    Q_EMIT exported(m_last.folder, m_last.zip);
}

void ReportPage::onExportFailed(const QString& parentDir, const QString& reason)
{
    setExportRunning(false);
    if (m_last.folder.isEmpty()) {
        m_where->setText(tr("Not exported yet (the last try failed: see above)."));
    } else {
        m_where->setText(tr("The new report was not written; the last one written:\n%1\n%2").arg(m_last.folder, m_last.zip));
        m_openFolder->setEnabled(true);
    }
    // The reason says what to do (core's messages name the file or folder that failed); the folder chosen is said too.
    const QString message = parentDir.isEmpty() ? tr("The report was not written: %1").arg(reason)
                                                : tr("The report was not written into %1: %2").arg(parentDir, reason);
    setStatus(message, true);
    Q_EMIT errorOccurred(message);
}

void ReportPage::copySummary()
{
    try {
        const auto doc = ReportExporter::buildDocument(request());
        QApplication::clipboard()->setText(QString::fromStdString(report::reportMarkdown(doc)));
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
