// VPOC page: the form, the job, the results and the exports.
#include "ui/vpoc/vpoc_page.h"
#include "ui/widgets/app_paths.h"
#include "ui/widgets/file_dialogs.h"

#include "core/util/atomic_file.h"
#include "core/vpoc/sample_data.h"
#include "core/vpoc/vpoc_output.h"
#include "ui/vpoc/option_changes.h"
#include "ui/vpoc/profile_geometry.h"
#include "ui/vpoc/session_model.h"
#include "ui/vpoc/session_time_axis.h"
#include "ui/vpoc/volume_profile_view.h"
#include "ui/widgets/gui_message.h"

#include <QChart>
#include <QCategoryAxis>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QTimeZone>
#include <QTimer>
#include <QDateTimeAxis>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QValueAxis>
#include <QVBoxLayout>

namespace stackscope::ui {

struct VpocPage::JobOutcome {
    std::shared_ptr<const vpoc::VpocResult> result;
    QString error;
    bool cancelled = false;
};

namespace {

QComboBox* combo(QWidget* parent, std::initializer_list<const char*> items)
{
    auto* c = new QComboBox(parent);
    for (const char* i : items)
        c->addItem(QString::fromLatin1(i));
    return c;
}

} // namespace

VpocPage::VpocPage(QWidget* parent)
    : QWidget(parent)
    , m_jobs(this)
{
    setAcceptDrops(true);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(createForm());
    split->addWidget(createResults());
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("<h2>VPOC</h2>"), this));
    layout->addWidget(split, 1);
    setRunning(false);
    // Every option that changes the results marks them when it differs from the run's.
    connect(m_input, &QLineEdit::textChanged, this, &VpocPage::markResults);
    for (auto* spin : {m_tick, m_va})
        connect(spin, &QDoubleSpinBox::valueChanged, this, &VpocPage::markResults);
    for (auto* box : {m_format, m_session, m_distribution, m_vaMethod})
        connect(box, &QComboBox::currentTextChanged, this, &VpocPage::markResults);
    for (auto* zone : {m_sessionTz, m_dataTz})
        connect(zone, &QLineEdit::textChanged, this, &VpocPage::markResults);
    for (auto* check : {m_developing, m_skipBad})
        connect(check, &QCheckBox::toggled, this, &VpocPage::markResults);
    markResults();
}

QWidget* VpocPage::createForm()
{
    // The options scroll on their own; Run, the progress and the status line stay in view below them (at 1024x640
    // with a report's banner the form's rows were squeezed and an error line fell below the window).
    auto* column = new QWidget(this);
    column->setMaximumWidth(360);
    auto* form = new QWidget(column);
    auto* v = new QVBoxLayout(form);
    v->setContentsMargins(0, 0, 0, 0);
    v->addWidget(createInputBox(form));
    v->addWidget(createOptionsBox(form));
    v->addStretch(1);
    auto* scroll = new QScrollArea(column);
    scroll->setObjectName(QStringLiteral("vpocFormScroll"));
    scroll->setWidget(form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(form->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width());
    scroll->setMinimumHeight(120);
    auto* c = new QVBoxLayout(column);
    c->setContentsMargins(0, 0, 0, 0);
    c->addWidget(scroll, 1);
    addRunControls(column, c);
    return column;
}

// The market data file: typed, browsed, dropped on the page, or the sample data.
QGroupBox* VpocPage::createInputBox(QWidget* form)
{
    auto* inputBox = new QGroupBox(tr("Market data (drop a file here)"), form);
    m_input = new QLineEdit(inputBox);
    m_input->setObjectName(QStringLiteral("vpocInput"));
    // Formats are recognised by content (core/vpoc/market_source.h).
    m_input->setPlaceholderText(tr("CSV, DBN, SCID or NinjaTrader file"));
    m_input->setToolTip(tr("Bars or trades: CSV (TradeStation/Barchart too), Databento .dbn or .dbn.zst, Sierra Chart "
                           ".scid, NinjaTrader .txt exports"));
    auto* browse = new QPushButton(tr("Browse…"), inputBox);
    auto* sample = new QPushButton(tr("Sample data"), inputBox);
    sample->setToolTip(tr("Synthetic ES futures 1-minute bars (20 trading days, deterministic)"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = openFileInLastFolder(this, tr("Market data"), tr("Market data (*.csv *.txt *.dbn *.zst *.scid);;All files (*)"));
        if (!path.isEmpty())
            setInputFile(path);
    });
    connect(sample, &QPushButton::clicked, this, &VpocPage::useSampleData);
    auto* inputLayout = new QGridLayout(inputBox);
    inputLayout->addWidget(m_input, 0, 0, 1, 2);
    inputLayout->addWidget(browse, 1, 0);
    inputLayout->addWidget(sample, 1, 1);
    return inputBox;
}

QGroupBox* VpocPage::createOptionsBox(QWidget* form)
{
    auto* optionsBox = new QGroupBox(tr("Options"), form);
    auto* f = new QFormLayout(optionsBox);
    m_format = combo(optionsBox, {"auto", "bars", "trades"});
    m_tick = new QDoubleSpinBox(optionsBox);
    m_tick->setDecimals(4);
    m_tick->setRange(0.0001, 10000);
    m_tick->setValue(0.25);
    m_session = combo(optionsBox, {"globex", "rth", "09:30-16:00"});
    m_session->setEditable(true);
    m_session->setToolTip(tr("globex (18:00 previous day to 17:00), rth (09:30-16:00) or HH:MM-HH:MM"));
    m_sessionTz = new QLineEdit(QStringLiteral("America/New_York"), optionsBox);
    m_dataTz = new QLineEdit(QStringLiteral("America/New_York"), optionsBox);
    m_dataTz->setToolTip(tr("Time zone of timestamps without an offset"));
    m_distribution = combo(optionsBox, {"uniform", "close", "typical"});
    m_va = new QDoubleSpinBox(optionsBox);
    m_va->setRange(1, 100);
    m_va->setValue(70);
    m_va->setSuffix(QStringLiteral(" %"));
    m_vaMethod = combo(optionsBox, {"dual", "single"});
    m_backend = combo(optionsBox, {"auto", "cpu", "gpu"});
    m_vramBudget = new QSpinBox(optionsBox);
    m_vramBudget->setRange(16, 1 << 20);
    m_vramBudget->setValue(1024);
    m_vramBudget->setSuffix(QStringLiteral(" MiB"));
    m_developing = new QCheckBox(tr("Developing POC/VAH/VAL (price chart)"), optionsBox);
    m_developing->setChecked(true);
    m_skipBad = new QCheckBox(tr("Skip bad rows (report them)"), optionsBox);
    m_tick->setObjectName(QStringLiteral("vpocTick"));
    m_session->setObjectName(QStringLiteral("vpocSession"));
    m_va->setObjectName(QStringLiteral("vpocValueArea"));
    m_distribution->setObjectName(QStringLiteral("vpocDistribution"));
    m_backend->setObjectName(QStringLiteral("vpocBackend"));
    f->addRow(tr("Format"), m_format);
    f->addRow(tr("Tick"), m_tick);
    f->addRow(tr("Session"), m_session);
    f->addRow(tr("Session zone"), m_sessionTz);
    f->addRow(tr("Data zone"), m_dataTz);
    f->addRow(tr("Distribution"), m_distribution);
    f->addRow(tr("Value area"), m_va);
    f->addRow(tr("VA method"), m_vaMethod);
    f->addRow(tr("Backend"), m_backend);
    f->addRow(tr("VRAM budget"), m_vramBudget);
    f->addRow(m_developing);
    f->addRow(m_skipBad);
    return optionsBox;
}

// Run and Cancel, the progress bar, the status line and its Details button, into `v` below the boxes.
void VpocPage::addRunControls(QWidget* form, QVBoxLayout* v)
{
    m_run = new QPushButton(tr("Run"), form);
    m_run->setObjectName(QStringLiteral("vpocRun"));
    m_run->setDefault(true);
    m_cancel = new QPushButton(tr("Cancel"), form);
    connect(m_run, &QPushButton::clicked, this, &VpocPage::run);
    connect(m_cancel, &QPushButton::clicked, this, &VpocPage::cancel);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    v->addLayout(buttons);
    m_progress = new QProgressBar(form);
    m_progress->setRange(0, 1000);
    v->addWidget(m_progress);
    m_status = new QLabel(tr("Choose a file or the sample data, then Run."), form);
    m_status->setObjectName(QStringLiteral("vpocStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details = new QPushButton(tr("Details…"), form);
    m_details->setObjectName(QStringLiteral("vpocDetails"));
    m_details->setToolTip(tr("The whole message"));
    m_details->hide();
    connect(m_details, &QPushButton::clicked, this, [this] {
        QMessageBox box(m_statusIsError ? QMessageBox::Warning : QMessageBox::Information, tr("VPOC"), m_status->text(),
                        QMessageBox::Close, this);
        box.setDetailedText(m_detailText);
        box.exec();
    });
    // A warning sign beside an error: the same red line was easy to take for a note.
    m_statusIcon = new QLabel(form);
    m_statusIcon->setObjectName(QStringLiteral("vpocStatusIcon"));
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_statusIcon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(iconSize, iconSize));
    m_statusIcon->setAlignment(Qt::AlignTop);
    m_statusIcon->hide();
    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(m_statusIcon, 0, Qt::AlignTop);
    statusRow->addWidget(m_status, 1);
    v->addLayout(statusRow);
    v->addWidget(m_details, 0, Qt::AlignLeft);
}

QWidget* VpocPage::createResults()
{
    m_sessions = new SessionModel(this);
    m_table = new QTableView(this);
    m_table->setModel(m_sessions);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setAlternatingRowColors(true);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { selectSession(current.row()); });

    m_priceChart = new QChart;
    m_priceChart->setTitle(tr("Price, POC, VAH, VAL"));
    m_priceChart->legend()->setAlignment(Qt::AlignBottom);
    m_priceView = new QChartView(m_priceChart, this);
    m_priceView->setRenderHint(QPainter::Antialiasing);
    m_priceView->setMinimumWidth(300);
    m_profile = new VolumeProfileView(this);
    // One price axis for both: the profile follows the chart's plot area whenever it moves.
    connect(m_priceChart, &QChart::plotAreaChanged, this, &VpocPage::alignProfile);
    // ... and whenever either widget moves or shows (a run while another page was in view is laid out later).
    m_profile->installEventFilter(this);
    m_priceView->installEventFilter(this);

    m_charts = new QWidget(this);
    auto* chartsLayout = new QHBoxLayout(m_charts);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    chartsLayout->addWidget(m_priceView, 3);
    chartsLayout->addWidget(m_profile, 2);

    auto* png = new QPushButton(tr("Export PNG…"), this);
    png->setObjectName(QStringLiteral("vpocExportPng"));
    auto* csv = new QPushButton(tr("Export CSV…"), this);
    csv->setObjectName(QStringLiteral("vpocExportCsv"));
    m_exportPng = png;
    m_exportCsv = csv;
    m_resultsFor = new QLabel(this);
    m_resultsFor->setObjectName(QStringLiteral("vpocResultsFor"));
    m_resultsFor->setWordWrap(true);
    m_resultsFor->setTextFormat(Qt::PlainText);
    connect(png, &QPushButton::clicked, this, [this] {
        const QString path = saveFileInLastFolder(this, tr("Export charts"), QStringLiteral("vpoc.png"), tr("PNG (*.png)"));
        if (!path.isEmpty())
            exportPng(path);
    });
    connect(csv, &QPushButton::clicked, this, [this] {
        const QString path = saveFileInLastFolder(this, tr("Export CSV"), QStringLiteral("vpoc-sessions.csv"), tr("CSV (*.csv)"));
        if (!path.isEmpty())
            exportCsv(path);
    });
    auto* exports = new QHBoxLayout;
    exports->addWidget(m_resultsFor, 1);
    exports->addWidget(png);
    exports->addWidget(csv);

    auto* lower = new QWidget(this);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(m_charts, 1);
    lowerLayout->addLayout(exports);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(lower);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);

    // Above the table and the charts: results computed with other options than the form's stay, marked.
    m_staleBanner = new QLabel(this);
    m_staleBanner->setObjectName(QStringLiteral("vpocStale"));
    m_staleBanner->setWordWrap(true);
    m_staleBanner->setTextFormat(Qt::RichText);
    m_staleBanner->setStyleSheet(QStringLiteral("QLabel#vpocStale { background: #fff3cd; border: 1px solid #e0c36b; padding: 6px; }"));
    m_staleBanner->hide();
    auto* results = new QWidget(this);
    auto* resultsLayout = new QVBoxLayout(results);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    resultsLayout->addWidget(m_staleBanner);
    resultsLayout->addWidget(split, 1);
    return results;
}

QString VpocPage::statusText() const
{
    return m_status->text();
}

void VpocPage::setInputFile(const QString& path)
{
    m_input->setText(path);
}

bool VpocPage::hasResults() const
{
    return m_sessions->result() != nullptr;
}

// Results stay beside the input and options they came from: another path or a changed option marks them.
void VpocPage::markResults()
{
    const auto& result = m_sessions->result();
    if (!hasResults() || !result) {
        m_resultsFor->clear();
        m_staleBanner->hide();
        m_stale = false;
        m_exportPng->setEnabled(false);
        m_exportCsv->setEnabled(false);
        return;
    }
    const QString file = QFileInfo(m_resultsInput).fileName();
    const QString ran = vpocOptionsSummary(result->options);
    if (!m_recordedOrigin.isEmpty()) {
        // Not computed with this form: nothing to mark out of date; the line says whose run it is.
        m_staleBanner->hide();
        m_stale = false;
        m_exportPng->setEnabled(true);
        m_exportCsv->setEnabled(true);
        m_resultsFor->setStyleSheet(QString());
        m_resultsFor->setText(tr("From %1 (%2): %3. A report keeps the sessions' levels, not their profiles.")
                                  .arg(m_recordedOrigin, file.isEmpty() ? tr("input not named") : file, ran));
        return;
    }
    const bool sameInput = m_input->text().trimmed() == m_resultsInput;
    QStringList changes;
    try {
        changes = vpocOptionChanges(result->options, formOptions());
    } catch (const std::exception&) { // a tick the form cannot give: not the run's tick either
        changes << tr("tick %1").arg(m_tick->text());
    }
    const bool stale = !sameInput || !changes.isEmpty();
    // Exports write what is shown; while it is out of date a run comes first (the same options back clear the mark).
    for (auto* button : {m_exportPng, m_exportCsv}) {
        button->setEnabled(!stale);
        button->setToolTip(stale ? tr("The results are out of date: press Run, then export") : QString());
    }
    m_resultsFor->setStyleSheet(stale ? QStringLiteral("QLabel { color: #b26a00; font-weight: bold; }") : QString());
    m_resultsFor->setText(sameInput ? tr("Results for %1: %2").arg(file, ran)
                                    : tr("These results are for %1, not the file above: press Run to update them.").arg(file));
    if (!sameInput)
        m_staleBanner->setText(tr("<b>Out of date:</b> these results are for %1, not the file above: press Run to update them.")
                                   .arg(file.toHtmlEscaped()));
    else
        m_staleBanner->setText(tr("<b>Out of date:</b> computed with %1; options changed since (now %2): press Run again.")
                                   .arg(ran.toHtmlEscaped(), changes.join(QStringLiteral(", ")).toHtmlEscaped()));
    m_staleBanner->setVisible(stale);
    m_stale = stale;
}

bool VpocPage::showRecordedRun(std::shared_ptr<const vpoc::VpocResult> result, const QString& origin)
{
    if (m_jobs.isRunning() || !result)
        return false;
    m_recordedOrigin = origin;
    m_sessions->setResult(result);
    m_resultsInput = QString::fromStdString(result->options.input);
    markResults();
    setStatus(tr("%1 from %2 (%3 rows, %4). Press Run to compute them here.")
                  .arg(result->sessions.size() == 1 ? tr("1 session") : tr("%1 sessions").arg(result->sessions.size()))
                  .arg(origin)
                  .arg(result->rows)
                  .arg(QString::fromStdString(result->backend)),
              {});
    if (m_sessions->rowCount() > 0) {
        m_table->selectRow(m_sessions->rowCount() - 1);
        m_table->scrollToBottom();
    }
    return true;
}

void VpocPage::clearRecordedRun()
{
    if (m_recordedOrigin.isEmpty())
        return;
    clearResults();
    setStatus(tr("Choose a file or the sample data, then Run."), {});
}

void VpocPage::clearResults()
{
    m_recordedOrigin.clear();
    m_profile->setEmptyText(QString());
    m_sessions->setResult(nullptr);
    m_profile->clear();
    m_priceChart->removeAllSeries();
    for (auto* axis : m_priceChart->axes())
        m_priceChart->removeAxis(axis);
    m_priceChart->setTitle(tr("Price, POC, VAH, VAL"));
    m_axisTicks = {0, 0};
    m_profile->setPriceFrame(std::nullopt);
    m_resultsInput.clear();
    markResults();
}

QString VpocPage::useSampleData()
{
    const QString dir = appDataFolder();
    const QString path = dir + QStringLiteral("/sample-es-1min-bars.csv");
    if (!QFileInfo::exists(path)) {
        try {
            QDir().mkpath(dir);
            writeFileAtomically(path.toStdString(), vpoc::generateSampleData(vpoc::SampleDataOptions {}));
        } catch (const std::exception& e) {
            showError(tr("Could not write the sample data: %1").arg(QString::fromStdString(e.what())));
            return {};
        }
    }
    setInputFile(path);
    setStatus(tr("Sample data selected: synthetic ES 1-minute bars (not real market data)."), {});
    return path;
}

vpoc::VpocOptions VpocPage::options() const
{
    vpoc::VpocOptions o = formOptions();
    if (o.input.empty())
        throw std::invalid_argument("choose an input file (Browse…, drop a file here, or Sample data)");
    return o;
}

vpoc::VpocOptions VpocPage::formOptions() const
{
    vpoc::VpocOptions o;
    o.input = m_input->text().trimmed().toStdString();
    const QString format = m_format->currentText();
    o.read.format = format == QStringLiteral("bars") ? vpoc::DataFormat::Bars
        : format == QStringLiteral("trades") ? vpoc::DataFormat::Trades : vpoc::DataFormat::Auto;
    o.read.tick = vpoc::Tick::parse(QString::number(m_tick->value(), 'g', 10).toStdString());
    o.read.timeZone = m_dataTz->text().trimmed().toStdString();
    o.read.skipBad = m_skipBad->isChecked();
    o.session = m_session->currentText().trimmed().toStdString();
    o.sessionTimeZone = m_sessionTz->text().trimmed().toStdString();
    const QString d = m_distribution->currentText();
    o.profile.distribution = d == QStringLiteral("close") ? vpoc::Distribution::Close
        : d == QStringLiteral("typical") ? vpoc::Distribution::Typical : vpoc::Distribution::Uniform;
    o.valueAreaPercent = m_va->value();
    o.profile.vaBasisPoints = vpoc::percentToBasisPoints(m_va->value());
    o.profile.method = m_vaMethod->currentText() == QStringLiteral("single") ? vpoc::ValueAreaMethod::Single
                                                                           : vpoc::ValueAreaMethod::Dual;
    o.profile.keepProfiles = true; // the histogram needs them
    const QString b = m_backend->currentText();
    o.backend = b == QStringLiteral("cpu") ? vpoc::Backend::Cpu : b == QStringLiteral("gpu") ? vpoc::Backend::Gpu : vpoc::Backend::Auto;
    o.vramBudgetMiB = static_cast<uint64_t>(m_vramBudget->value());
    o.developing = m_developing->isChecked();
    return o;
}

void VpocPage::run()
{
    vpoc::VpocOptions o;
    try {
        o = options();
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
        Q_EMIT finished(false);
        return;
    }
    setRunning(true);
    m_progress->setValue(0);
    setStatus(tr("Reading %1…").arg(m_input->text()), {});
    m_clock.start();
    m_eta.reset();
    m_jobs.run(
        [this, o](const JobControl& control) {
            JobOutcome out;
            try {
                // Progress arrives at most every 100 ms from the core; posted to the GUI thread.
                out.result = vpoc::runVpoc(o, [this, control](const vpoc::VpocProgress& p) {
                    control.post([this, p] { showProgress(p); });
                }, control.cancelToken());
            } catch (const vpoc::VpocCancelled&) {
                out.cancelled = true;
            } catch (const std::exception& e) {
                out.error = QString::fromStdString(e.what());
            }
            return out;
        },
        [this](JobOutcome out) { onJobEnded(std::move(out)); },
        [this](const QString& error) { // the job catches what it expects; this is anything else
            JobOutcome out;
            out.error = error;
            onJobEnded(std::move(out));
        });
}

void VpocPage::onJobEnded(JobOutcome out)
{
    setRunning(false);
    if (out.cancelled) {
        setStatus(tr("Cancelled; the previous results are kept."), {});
        Q_EMIT finished(false);
        return;
    }
    if (!out.error.isEmpty()) {
        // The previous file's table and charts must not stand beside this input's error.
        clearResults();
        showError(out.error);
        Q_EMIT finished(false);
        return;
    }
    m_progress->setValue(1000);
    m_recordedOrigin.clear();
    m_sessions->setResult(out.result);
    m_resultsInput = QString::fromStdString(out.result->options.input);
    markResults();
    const auto& r = *out.result;
    QString text = tr("%1 from %2 rows (%3) on %4 in %5 s.")
                       .arg(r.sessions.size() == 1 ? tr("1 session") : tr("%1 sessions").arg(r.sessions.size()))
                       .arg(r.rows)
                       .arg(QString::fromLatin1(vpoc::formatName(r.format)), QString::fromStdString(r.backend))
                       .arg(m_clock.elapsed() / 1000.0, 0, 'f', 2);
    if (r.outsideSessions > 0)
        text += tr(" %1 rows outside every session were left out.").arg(r.outsideSessions);
    if (r.skipped.count > 0)
        text += tr(" %1 bad rows skipped, first: %2").arg(r.skipped.count).arg(QString::fromStdString(r.skipped.first.front()));
    // The backend note explains a CPU fallback at length (loader messages): its first words stay on the
    // line, the rest goes behind Details.
    QString details;
    if (!r.backendNote.empty()) {
        const QString note = QString::fromStdString(r.backendNote);
        const int why = note.indexOf(QLatin1String(" ("));
        QString first = why > 0 ? note.left(why) + QLatin1Char('.') : note;
        first[0] = first[0].toUpper(); // "no GPU, so the CPU was used" starts a sentence here
        text += QLatin1Char(' ') + first;
        details = note;
    }
    setStatus(text, details);
    if (m_sessions->rowCount() > 0) {
        // The latest session is what a trader looks at first.
        m_table->selectRow(m_sessions->rowCount() - 1);
        m_table->scrollToBottom();
    }
    Q_EMIT finished(true);
}

void VpocPage::cancel()
{
    if (!m_jobs.isRunning())
        return;
    m_jobs.cancel();
    setRunning(false);
    setStatus(tr("Cancelled; the previous results are kept."), {});
    Q_EMIT finished(false);
}

void VpocPage::setRunning(bool running)
{
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
}

void VpocPage::showProgress(const vpoc::VpocProgress& p)
{
    if (p.bytesTotal == 0)
        return;
    m_eta.add({m_clock.elapsed() / 1000.0, p.bytesDone, p.bytesTotal, p.phase == vpoc::VpocPhase::Finishing});
    const double fraction = m_eta.fractionRead();
    m_progress->setValue(static_cast<int>(1000.0 * fraction));
    const QString sessions = p.sessionsDone == 1 ? tr("1 session") : tr("%1 sessions").arg(p.sessionsDone);
    setStatus(tr("%1, %2 % read, %3").arg(sessions).arg(100.0 * fraction, 0, 'f', 0).arg(m_eta.text()), {});
}

void VpocPage::setStatus(const QString& text, const QString& details)
{
    m_status->setText(text);
    m_detailText = details;
    m_details->setVisible(!details.isEmpty());
    m_statusIsError = false;
    m_statusIcon->hide();
}

void VpocPage::showError(const QString& message)
{
    // An input error is shown whole where it is a few lines: its second half says what to do ("give a CSV whose
    // header has ..."), which a one-line cut hid under Details. Longer texts (a loader's output) keep the cut.
    const QString worded = guiWording(message.trimmed());
    const GuiMessage m = worded.size() <= kMaxShownError && !worded.contains(QLatin1Char('\n')) ? GuiMessage {worded, {}}
                                                                                                : guiMessage(message);
    m_status->setText(QStringLiteral("<span style='color:#c62828'>%1</span>").arg(m.line.toHtmlEscaped()));
    m_detailText = m.details;
    m_details->setVisible(!m.details.isEmpty());
    m_statusIsError = true;
    m_statusIcon->show();
}

void VpocPage::selectSession(int row)
{
    const auto& result = m_sessions->result();
    if (!result || row < 0 || row >= static_cast<int>(result->sessions.size())) {
        m_profile->clear();
        return;
    }
    const auto& s = result->sessions[static_cast<size_t>(row)];
    m_profile->setEmptyText(s.profile.empty() && !m_recordedOrigin.isEmpty()
                                ? tr("A report keeps no profiles: run VPOC on the data to see this session's")
                                : QString());
    ProfileInput in;
    in.volume = s.profile;
    in.lowTick = s.lowTick;
    in.pocTick = s.pocTick;
    in.vahTick = s.vahTick;
    in.valTick = s.valTick;
    m_profile->setProfile(std::move(in), [model = m_sessions](int32_t tick) { return model->priceText(tick); });
    updatePriceChart(row);
}

void VpocPage::updatePriceChart(int row)
{
    m_priceChart->removeAllSeries();
    for (auto* axis : m_priceChart->axes())
        m_priceChart->removeAxis(axis);
    const auto& result = m_sessions->result();
    const auto& s = result->sessions[static_cast<size_t>(row)];
    const double tick = result->options.read.tick.value;
    auto* close = new QLineSeries;
    close->setName(tr("close"));
    close->setPen(QPen(QColor(0x45, 0x5a, 0x64), 1));
    auto* developing = new QLineSeries;
    developing->setName(tr("developing POC"));
    developing->setPen(QPen(QColor(0xfb, 0x8c, 0x00), 1.5, Qt::DashLine)); // apart from the final POC's red
    if (static_cast<size_t>(row) < result->developing.size()) {
        for (const auto& d : result->developing[static_cast<size_t>(row)]) {
            const double t = static_cast<double>(d.timeUs / 1000);
            close->append(t, d.closeTick * tick);
            developing->append(t, d.pocTick * tick);
        }
    }
    auto level = [&](const QString& name, int32_t value, const QColor& colour) {
        auto* line = new QLineSeries;
        line->setName(name);
        line->setPen(QPen(colour, 1.5));
        line->append(static_cast<double>(s.firstUs / 1000), value * tick);
        line->append(static_cast<double>(s.lastUs / 1000), value * tick);
        return line;
    };
    QList<QLineSeries*> all {level(tr("POC"), s.pocTick, VolumeProfileView::pocColor()),
                             level(tr("VAH"), s.vahTick, VolumeProfileView::vahColor()),
                             level(tr("VAL"), s.valTick, VolumeProfileView::valColor())};
    // The price lines only where there are points: a legend entry for an empty line reads like missing data.
    const bool priceLine = close->count() > 0;
    if (priceLine) {
        all.prepend(developing);
        all.prepend(close);
    } else {
        delete close;
        delete developing;
    }
    // Labels at whole hours of the session's own zone (a globex day reads 18:00 to 17:00 New York time).
    const QString zoneName = QString::fromStdString(result->options.sessionTimeZone);
    const QTimeZone zone(zoneName.toUtf8());
    auto* x = new QCategoryAxis;
    x->setObjectName(QStringLiteral("sessionTimeAxis"));
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    x->setTitleText(zone.isValid() ? tr("%1 time").arg(zoneName) : tr("UTC (unknown zone %1)").arg(zoneName));
    // A label ("Fri 02:00") needs about 90 px at the default font, or the axis cuts it to "Fri 02:..." (at
    // 1280x720 the chart is ~450 px wide, its plot ~360); the y axis labels take ~90 px of the view.
    const int maxLabels = timeLabelsFor(m_priceView->width());
    m_timeLabels = maxLabels;
    m_chartRow = row;
    for (const auto& [ms, label] : sessionTimeTicks(s.firstUs / 1000, s.lastUs / 1000, zone.isValid() ? zone : QTimeZone::utc(), maxLabels))
        x->append(label, static_cast<double>(ms));
    // Prices on the instrument's tick grid (ES 0.25: 5095.75, not 5095.81), labels with the tick's decimals.
    const auto& tickSize = result->options.read.tick;
    const int intervals = std::clamp(m_priceView->height() / 45, 2, 8);
    const PriceTicks grid = priceAxisTicks(s.lowTick, s.highTick, tickSize.value, intervals);
    auto* y = new QValueAxis;
    y->setObjectName(QStringLiteral("priceAxis"));
    y->setLabelFormat(QStringLiteral("%.%1f").arg(tickSize.decimals));
    y->setTickType(QValueAxis::TicksDynamic);
    y->setTickAnchor(double(grid.lowTick) * tick);
    y->setTickInterval(double(grid.stepTicks) * tick);
    m_priceChart->addAxis(x, Qt::AlignBottom);
    m_priceChart->addAxis(y, Qt::AlignLeft);
    for (auto* series : all) {
        m_priceChart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }
    x->setRange(static_cast<double>(s.firstUs / 1000), static_cast<double>(s.lastUs / 1000));
    y->setRange(double(grid.lowTick) * tick, double(grid.highTick) * tick);
    m_axisTicks = {double(grid.lowTick), double(grid.highTick)};
    m_priceChart->setTitle(tr("Session %1").arg(m_sessions->index(row, SessionModel::DateColumn).data().toString()));
    // Short (the title is cut at ~300 px); the tooltip says why there is no price line.
    if (!priceLine)
        m_priceChart->setTitle(m_priceChart->title() + tr(" · no price line"));
    m_priceView->setToolTip(priceLine ? QString()
                            : m_recordedOrigin.isEmpty() ? tr("Turn on Developing POC/VAH/VAL and run again for the price line")
                                                         : tr("A report keeps the sessions' levels, not their prices: run VPOC "
                                                              "on the data for the price line"));
    alignProfile(); // the plot area may not move (then no plotAreaChanged), but the price range did
}

int VpocPage::timeLabelsFor(int viewWidth)
{
    return std::clamp((viewWidth - 90) / 90, 2, 6);
}

bool VpocPage::eventFilter(QObject* watched, QEvent* event)
{
    const auto type = event->type();
    if ((watched == m_profile || watched == m_priceView) &&
        (type == QEvent::Resize || type == QEvent::Move || type == QEvent::Show))
        QTimer::singleShot(0, this, &VpocPage::alignProfile);
    // A wider or narrower chart fits more or fewer time labels: rebuild it when that number changes.
    if (watched == m_priceView && type == QEvent::Resize && m_chartRow >= 0 &&
        timeLabelsFor(m_priceView->width()) != m_timeLabels)
        QTimer::singleShot(0, this, [this] {
            const auto& result = m_sessions->result();
            if (result && m_chartRow >= 0 && m_chartRow < static_cast<int>(result->sessions.size()))
                updatePriceChart(m_chartRow);
        });
    return QWidget::eventFilter(watched, event);
}

void VpocPage::alignProfile()
{
    if (m_priceChart->series().isEmpty() || m_axisTicks.second <= m_axisTicks.first) {
        m_profile->setPriceFrame(std::nullopt);
        return;
    }
    const QRectF plot = m_priceChart->plotArea(); // scene coordinates (the chart fills the scene)
    const QPoint top = m_profile->mapFromGlobal(m_priceView->viewport()->mapToGlobal(m_priceView->mapFromScene(plot.topLeft())));
    const QPoint bottom = m_profile->mapFromGlobal(m_priceView->viewport()->mapToGlobal(m_priceView->mapFromScene(plot.bottomLeft())));
    m_profile->setPriceFrame(PriceFrame {m_axisTicks.first, m_axisTicks.second, double(top.y()), double(bottom.y())});
}

bool VpocPage::exportPng(const QString& path)
{
    if (!m_charts->grab().save(path, "PNG")) {
        showError(tr("Could not write %1; choose a writable path ending in .png").arg(path));
        return false;
    }
    setStatus(tr("Charts written to %1").arg(path), {});
    return true;
}

bool VpocPage::exportCsv(const QString& path)
{
    const auto& result = m_sessions->result();
    if (!result) {
        showError(tr("Nothing to export yet: run VPOC first."));
        return false;
    }
    std::string text = vpoc::sessionsCsv(*result);
    const int row = m_table->currentIndex().row();
    if (row >= 0 && static_cast<size_t>(row) < result->sessions.size()) {
        const auto& s = result->sessions[static_cast<size_t>(row)];
        text += "\n# profile of session " + m_sessions->index(row, SessionModel::DateColumn).data().toString().toStdString() + "\nprice,volume,in_value_area\n";
        for (size_t i = 0; i < s.profile.size(); ++i) {
            const int32_t t = s.lowTick + static_cast<int32_t>(i);
            text += m_sessions->priceText(t).toStdString() + "," + std::to_string(s.profile[i]) + ","
                + (t >= s.valTick && t <= s.vahTick ? "1" : "0") + "\n";
        }
    }
    try {
        writeFileAtomically(path.toStdString(), text);
    } catch (const FileWriteError& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
    setStatus(tr("Sessions and profile written to %1").arg(path), {});
    return true;
}

void VpocPage::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void VpocPage::dropEvent(QDropEvent* event)
{
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile())
        setInputFile(urls.first().toLocalFile());
}

} // namespace stackscope::ui
