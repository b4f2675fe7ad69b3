// The Probes page: one click runs the grid in child processes; cells, chart and findings fill in live.
#include "ui/probes/probes_page.h"

#include "core/probes/probe_figures.h"

#include "core/probes/probe_variants.h"
#include "ui/probes/outcome_chart.h"
#include "ui/system/snapshot_controller.h"
#include "ui/widgets/stale_banner.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

#include <map>
#include <set>
#include <utility>

namespace stackscope::ui {

ProbesPage::ProbesPage(SnapshotController* snapshots, QWidget* parent)
    : QWidget(parent)
    , m_snapshots(snapshots)
    , m_session(new ProbeSession(this))
    , m_grid(new ProbeGridModel(this))
    , m_findings(new FindingsModel(this))
{
    auto* bar = createRunBar();
    auto* split = createPanes();
    // Says whose results these are when the System page shows another machine (a file, a report, a root).
    m_machine = new QLabel(this);
    m_machine->setObjectName(QStringLiteral("probesMachine"));
    m_machine->setWordWrap(true);
    m_machine->setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; border: 1px solid #e0c36b; padding: 4px; }"));
    m_machine->hide();
    if (m_snapshots)
        connect(m_snapshots, &SnapshotController::snapshotChanged, this, [this] {
            updateMachineLabel();
            rediagnose(); // the findings are the shown machine's (or, for results measured elsewhere, the results' own)
        });

    // One banner area: "out of date" and "from another machine" share it (the second says more, so it wins).
    m_staleBanner = new StaleBanner(this);
    m_staleBanner->setObjectName(QStringLiteral("probesStale"));

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_machine);
    layout->addWidget(m_staleBanner);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    // Results can arrive in bursts: the chart is redrawn at most every 40 ms (25 Hz).
    m_chartTimer = new QTimer(this);
    m_chartTimer->setSingleShot(true);
    m_chartTimer->setInterval(40);
    connect(m_chartTimer, &QTimer::timeout, this, [this] { m_chart->setCounts(m_counts); });

    connectSignals();
    updateButtons();
}

// Run, Cancel, the rules' variants, the timeout; the status line below them.
QHBoxLayout* ProbesPage::createRunBar()
{
    m_runButton = new QPushButton(tr("Run all probes"), this);
    m_runButton->setDefault(true);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_ruleVariants = new QCheckBox(tr("With the rules' fix variants"), this);
    m_ruleVariants->setToolTip(tr("Also run every environment change a diagnosis rule proposes for this machine"));
    m_timeout = new QDoubleSpinBox(this);
    m_timeout->setRange(1, 600);
    m_timeout->setValue(30);
    m_timeout->setSuffix(tr(" s per probe"));
    m_status = new QLabel(tr("Each probe runs in a child process; a crash or hang cannot take the console down."), this);
    m_status->setWordWrap(true);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_runButton);
    bar->addWidget(m_cancelButton);
    bar->addWidget(m_ruleVariants);
    bar->addWidget(new QLabel(tr("Timeout"), this));
    bar->addWidget(m_timeout);
    bar->addStretch(1);
    return bar;
}

// The environment picker, the grid and the cell's text (left); the outcome chart and the findings (right).
QSplitter* ProbesPage::createPanes()
{
    m_gridView = new QTableView(this);
    m_gridView->setObjectName(QStringLiteral("probeGrid"));
    m_gridView->setModel(m_grid);
    m_gridView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_gridView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_gridView->verticalHeader()->hide();
    m_cellText = new QPlainTextEdit(this);
    m_cellText->setReadOnly(true);
    m_cellText->setPlaceholderText(tr("Select a cell to see its message and what the libraries printed"));
    m_chart = new OutcomeChart(this);

    m_findingsView = new QTableView(this);
    m_findingsView->setModel(m_findings);
    m_findingsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_findingsView->setSelectionMode(QAbstractItemView::SingleSelection);
    // Severity and fix as wide as their text, the title the rest on one line, cut in the middle (whole in the
    // tooltip): no sideways scrolling at 1024x640. The rule's id, which left the title about 80 px there, heads the
    // text below, as in the paste dialog.
    m_findingsView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_findingsView->horizontalHeader()->setSectionResizeMode(FindingsModel::TitleColumn, QHeaderView::Stretch);
    m_findingsView->setColumnHidden(FindingsModel::IdColumn, true);
    m_findingsView->setWordWrap(false);
    m_findingsView->setTextElideMode(Qt::ElideMiddle);
    m_findingsView->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_findingsView->verticalHeader()->hide();
    m_fixes = new QComboBox(this);
    m_tryFixButton = new QPushButton(tr("Try this fix"), this);
    m_tryFixButton->setToolTip(tr("Re-run the failing probes with this environment change and mark the fix verified or not"));
    m_findingText = new QLabel(this);
    m_findingText->setWordWrap(true);
    m_findingText->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* fixBar = new QHBoxLayout;
    fixBar->addWidget(m_fixes, 1);
    fixBar->addWidget(m_tryFixButton);
    auto* findingsBox = new QWidget(this);
    auto* findingsLayout = new QVBoxLayout(findingsBox);
    findingsLayout->setContentsMargins(0, 0, 0, 0);
    findingsLayout->addWidget(new QLabel(tr("Findings"), findingsBox));
    findingsLayout->addWidget(m_findingsView, 1);
    // What the Fix column's words mean (walkthrough 2026-11-27 problem 9: "not tried" was not explained).
    auto* fixLegend = new QLabel(fixColumnLegend(), findingsBox);
    fixLegend->setObjectName(QStringLiteral("fixLegend"));
    fixLegend->setWordWrap(true);
    fixLegend->setStyleSheet(QStringLiteral("QLabel { color: gray; }"));
    findingsLayout->addWidget(fixLegend);
    findingsLayout->addLayout(fixBar);
    findingsLayout->addWidget(m_findingText);

    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(m_chart);
    right->addWidget(findingsBox);
    m_picker = new PythonEnvPicker(this);
    auto* left = new QSplitter(Qt::Vertical, this);
    left->addWidget(m_picker);
    left->addWidget(m_gridView);
    left->addWidget(m_cellText);
    left->setStretchFactor(0, 0); // the picker keeps its (small) height; the grid grows
    left->setStretchFactor(1, 3);
    left->setStretchFactor(2, 1);
    // The picker at its own height, then the grid first: at 1280x720 the empty message pane took half the height.
    left->setSizes({m_picker->sizeHint().height(), 3000, 1000});
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    return split;
}

void ProbesPage::connectSignals()
{
    connect(m_picker, &PythonEnvPicker::choiceChanged, this, &ProbesPage::applyEnvironmentChoice);
    connect(m_picker, &PythonEnvPicker::choiceChanged, this, &ProbesPage::markResults);
    connect(m_timeout, &QDoubleSpinBox::valueChanged, this, &ProbesPage::markResults);
    connect(m_ruleVariants, &QCheckBox::toggled, this, &ProbesPage::markResults);
    connect(m_session, &ProbeSession::runningChanged, this, &ProbesPage::markResults);
    connect(m_picker, &PythonEnvPicker::discoveryFinished, this, [this] {
        if (std::exchange(m_runWhenDiscovered, false))
            startRun();
    });
    connect(m_grid, &QAbstractItemModel::columnsInserted, this, &ProbesPage::applyEnvironmentChoice);
    connect(m_runButton, &QPushButton::clicked, this, &ProbesPage::runAll);
    connect(m_cancelButton, &QPushButton::clicked, this, &ProbesPage::cancel);
    connect(m_tryFixButton, &QPushButton::clicked, this, &ProbesPage::tryFix);
    connect(m_session, &ProbeSession::recordArrived, this, &ProbesPage::onRecord);
    connect(m_session, &ProbeSession::failed, this, [this](const QString& message) { m_runError = message; });
    connect(m_session, &ProbeSession::finished, this, &ProbesPage::onFinished);
    connect(m_session, &ProbeSession::runningChanged, this, &ProbesPage::updateButtons);
    connect(m_gridView->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { showCell(current); });
    connect(m_findingsView->selectionModel(), &QItemSelectionModel::currentChanged, this, &ProbesPage::showFinding);
}

ProbeRunOptions ProbesPage::baseOptions() const
{
    ProbeRunOptions o;
    o.timeout = std::chrono::milliseconds(static_cast<long long>(m_timeout->value() * 1000));
    return o;
}

void ProbesPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (!m_picker->hasDiscovered())
        m_picker->discover();
}

// Columns of environments the picker has unchecked are hidden; the results stay (a report still has them).
void ProbesPage::applyEnvironmentChoice()
{
    const QStringList checked = m_picker->checkedEnvironments();
    const auto& columns = m_grid->cellColumns();
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const bool off = m_resultsLive && !checked.contains(QString::fromStdString(columns[i].environment));
        m_gridView->setColumnHidden(ProbeGridModel::NUM_COLUMNS + static_cast<int>(i), off);
    }
}

std::vector<ProbeRunOptions> ProbesPage::runOptions() const
{
    std::vector<ProbeRunOptions> out;
    for (const auto& env : m_picker->checkedEnvironments()) {
        ProbeRunOptions o = baseOptions();
        if (env != QLatin1String("libtorch"))
            o.python = env.mid(env.indexOf(QLatin1Char(':')) + 1).toStdString();
        out.push_back(std::move(o));
    }
    return out;
}

void ProbesPage::runAll()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_picker->isDiscovering()) {
        m_runWhenDiscovered = true;
        m_status->setText(tr("Still looking for Python environments; the run starts as soon as that is done\u2026"));
        return;
    }
    startRun();
}

void ProbesPage::startRun()
{
    auto runs = runOptions();
    if (runs.empty()) {
        m_status->setText(tr("No environment is checked: check libtorch (StackScope) or a Python environment, then run again."));
        return;
    }
    ProbeRunOptions o = baseOptions();
    o.variants.push_back(ProbeVariant {});
    // Rule variants follow this machine's GPUs: a loaded snapshot describes another machine.
    const auto snapshot = m_snapshots && m_snapshots->isThisMachine() ? m_snapshots->snapshot() : nullptr;
    if (m_ruleVariants->isChecked()) {
        if (snapshot) {
            for (auto& v : candidateVariants(*snapshot, DiagnosisRules::builtIn()))
                o.variants.push_back(std::move(v));
        } else {
            m_status->setText(tr("No inspection of this machine yet, so no rule variants: press Refresh on the System page, "
                                 "then run again."));
        }
    }
    m_tryingFix.clear();
    m_resultsLive = true;
    m_resultsOrigin.clear();
    m_ranWith = currentChoice();
    std::vector<std::string> order;
    for (auto& r : runs) {
        r.variants = o.variants;
        order.push_back(environmentLabel(r));
    }
    m_grid->setLayout({});
    m_grid->setEnvironmentOrder(order);
    m_grid->setTimeoutSeconds(m_timeout->value());
    m_counts = OutcomeCounts {};
    m_chart->setCounts(m_counts);
    m_findings->setFindings({});
    m_cellText->clear();
    const QString where = runs.size() == 1 ? tr("on this machine") : tr("in %1 environments on this machine").arg(runs.size());
    m_status->setText(o.variants.size() == 1 ? tr("Running %1\u2026").arg(where)
                                             : tr("Running %1 variants %2\u2026").arg(o.variants.size()).arg(where));
    updateMachineLabel();
    m_session->start(std::move(runs));
}

void ProbesPage::cancel()
{
    m_session->cancel();
    m_status->setText(tr("Cancelling\u2026"));
}

void ProbesPage::tryFix()
{
    const auto* finding = m_findings->findingAt(m_findingsView->currentIndex().row());
    const int fixIndex = m_fixes->currentData().toInt();
    if (!finding || fixIndex < 0 || fixIndex >= static_cast<int>(finding->fixes.size()))
        return;
    const auto& fix = finding->fixes[static_cast<std::size_t>(fixIndex)];
    // The cells that failed in the baseline are the ones the fix has to turn ok, in the environment they failed in.
    std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> failed; // env -> devices, probes
    std::set<std::string> probes;
    for (const auto& r : m_grid->records()) {
        if (r.outcome.variant == "baseline" && isFailure(r.outcome.outcome)) {
            failed[r.outcome.environment].first.insert(r.outcome.device);
            failed[r.outcome.environment].second.insert(r.outcome.probeId);
            probes.insert(r.outcome.probeId);
        }
    }
    if (probes.empty()) {
        m_status->setText(tr("Nothing failed in the baseline, so there is nothing for this fix to repair."));
        return;
    }
    ProbeVariant v;
    v.env = fix.env;
    v.name = variantName(fix.env);
    v.ruleIds = {finding->id};
    m_tryingFix = QString::fromStdString(v.name);
    std::vector<ProbeRunOptions> runs;
    for (const auto& [env, cells] : failed) {
        ProbeRunOptions o = baseOptions();
        const std::string prefix = "python:";
        if (env.compare(0, prefix.size(), prefix) == 0)
            o.python = env.substr(prefix.size());
        o.devices.assign(cells.first.begin(), cells.first.end());
        o.probeIds.assign(cells.second.begin(), cells.second.end());
        o.variants = {v};
        runs.push_back(std::move(o));
    }
    m_status->setText(probes.size() == 1 ? tr("Trying %1 on the failing probe\u2026").arg(m_tryingFix)
                                         : tr("Trying %1 on %2 failing probes\u2026").arg(m_tryingFix).arg(probes.size()));
    m_session->start(std::move(runs));
}

void ProbesPage::showRecords(const std::vector<ProbeRecord>& records, const QString& status)
{
    m_session->cancel();
    m_tryingFix.clear();
    m_grid->clear(); // only the report's rows: pending cells would say "still running"
    m_resultsLive = false;
    m_resultsOrigin = m_snapshots ? m_snapshots->origin() : QString();
    m_ranWith.reset(); // a report's grid was not run with this form's choices
    markResults();
    m_counts = OutcomeCounts {};
    for (const auto& r : records) {
        m_grid->addRecord(r);
        m_counts.add(r);
    }
    m_chart->setCounts(m_counts);
    m_cellText->clear();
    rediagnose();
    m_grid->setFinished(true);
    m_status->setText(status);
    updateMachineLabel();
}

void ProbesPage::onRecord(const ProbeRecord& arrived)
{
    // A copy probe's GB/s gets its expected value and verdict as `probe --json` gives it (core/perf, against this
    // machine's links): the report written from this page carries the same figure.
    ProbeRecord record = arrived;
    const auto snapshot = m_snapshots && m_snapshots->isThisMachine() ? m_snapshots->snapshot() : nullptr;
    if (snapshot && probeFigure(record)) {
        std::vector<ProbeRecord> one {record};
        judgeCopyProbes(one, *snapshot);
        record = std::move(one.front());
    }
    m_grid->addRecord(record);
    m_counts.add(record);
    if (!m_chartTimer->isActive())
        m_chartTimer->start();
}

void ProbesPage::onFinished(bool cancelled, const std::vector<ProbeDevice>& devices, const QString& listError)
{
    m_chart->setCounts(m_counts);
    m_grid->setFinished(true);
    rediagnose();
    std::size_t failures = 0;
    for (const auto& r : m_grid->records())
        failures += isFailure(r.outcome.outcome) ? 1 : 0;
    const auto count = [](std::size_t n, const QString& one, const QString& many) { return n == 1 ? one : many.arg(n); };
    QString text = cancelled ? tr("Cancelled.")
                             : tr("Done on this machine: %1 on %2, %3 not ok.")
                                   .arg(count(m_grid->records().size(), tr("1 result"), tr("%1 results")),
                                        count(devices.size(), tr("1 device"), tr("%1 devices")))
                                   .arg(failures);
    if (!m_tryingFix.isEmpty() && !cancelled) {
        QString verdict = tr("not verified");
        for (const auto& f : m_findings->findings()) {
            for (const auto& fix : f.fixes) {
                if (QString::fromStdString(variantName(fix.env)) == m_tryingFix && fix.verified)
                    verdict = verifiedText(fix.verified);
            }
        }
        text = tr("%1: %2.").arg(m_tryingFix, verdict);
    }
    if (!listError.isEmpty())
        text += QLatin1Char(' ') + tr("Only the CPU was probed: %1").arg(listError);
    if (!m_runError.isEmpty())
        text = tr("The probe run failed: %1. The results above are those that arrived before it; run the probes "
                  "again, and if it fails the same way, export a report (Report page) and attach it to a bug report.")
                   .arg(std::exchange(m_runError, QString()));
    m_status->setText(text);
    Q_EMIT runFinished();
}

ProbeRunChoice ProbesPage::currentChoice() const
{
    return {m_picker->checkedEnvironments(), m_timeout->value(), m_ruleVariants->isChecked()};
}

void ProbesPage::setTimeoutSeconds(double seconds)
{
    m_timeout->setValue(seconds);
}

void ProbesPage::setRuleVariants(bool on)
{
    m_ruleVariants->setChecked(on);
}

void ProbesPage::markResults()
{
    const bool shown = m_ranWith && m_resultsLive && !m_session->isRunning() && !m_grid->records().empty() &&
                       !m_machine->isVisibleTo(this);
    if (!shown) {
        m_staleBanner->update({}, {}, {});
        return;
    }
    m_staleBanner->update(probeChoiceSummary(*m_ranWith), probeChoiceChanges(*m_ranWith, currentChoice()),
                          tr("press Run all probes to run them"));
}

bool ProbesPage::resultsStale() const
{
    return m_staleBanner->isStale();
}

QString ProbesPage::staleText() const
{
    return m_staleBanner->isStale() ? m_staleBanner->text() : QString();
}

bool ProbesPage::resultsMatchSnapshot() const
{
    if (!m_snapshots)
        return true;
    return m_resultsLive ? m_snapshots->isThisMachine() : m_snapshots->origin() == m_resultsOrigin;
}

void ProbesPage::updateMachineLabel()
{
    const bool mixed = !m_grid->records().empty() || m_session->isRunning() ? !resultsMatchSnapshot() : false;
    m_machine->setVisible(mixed);
    markResults();
    if (mixed)
        m_machine->setText(m_resultsLive ? tr("<b>These results are from this machine.</b> The System page shows %1; "
                                              "its findings are not applied here and the report leaves these results out.")
                                               .arg(m_snapshots->originText().toHtmlEscaped())
                                         : tr("<b>These results are from %1.</b> The System page now shows %2.")
                                               .arg(m_resultsOrigin.toHtmlEscaped(), m_snapshots->originText().toHtmlEscaped()));
}

void ProbesPage::rediagnose()
{
    // The one diagnosis the System page shows (snapshot, the session's logs, these results) while the results were
    // measured on the machine it shows; results from another machine get their own, without that machine's facts.
    const bool sameMachine = m_snapshots && (m_grid->records().empty() || resultsMatchSnapshot());
    const auto snapshot = sameMachine ? m_snapshots->snapshot() : nullptr;
    MachineDiagnosisInput input;
    input.snapshot = snapshot.get();
    if (snapshot)
        input.logs = m_sessionLogs;
    input.probes = probeOutcomes(m_grid->records());
    m_findings->setFindings(diagnoseMachine(input).findings, FindingsModel::Order::AsGiven);
    showFinding();
    Q_EMIT findingsChanged();
}

void ProbesPage::setSessionLogs(std::vector<ReadLogText> logs)
{
    m_sessionLogs = std::move(logs);
    rediagnose();
}

std::vector<ProbeOutcome> ProbesPage::outcomesForShownMachine() const
{
    return m_snapshots && resultsMatchSnapshot() ? probeOutcomes(m_grid->records()) : std::vector<ProbeOutcome> {};
}

void ProbesPage::showCell(const QModelIndex& index)
{
    const auto* r = m_grid->recordAt(index);
    if (!r) {
        // A cell without a result says why here too ("no GPU", "Python only"): a click must not look ignored.
        const QString why = index.isValid() ? index.data(ProbeGridModel::MessageRole).toString() : QString();
        const QString probe = index.isValid() ? index.siblingAtColumn(0).data().toString() : QString();
        if (why.isEmpty() || probe.isEmpty())
            m_cellText->clear();
        else
            m_cellText->setPlainText(tr("%1: %2").arg(probe, why));
        return;
    }
    QString text = QStringLiteral("%1 on %2 (%3): %4 in %5 s\n%6")
                       .arg(QString::fromStdString(r->outcome.probeId), QString::fromStdString(r->outcome.device),
                            QString::fromStdString(r->outcome.variant),
                            QString::fromLatin1(probeResultName(r->outcome.outcome)))
                       .arg(r->seconds, 0, 'f', 3)
                       .arg(QString::fromStdString(r->outcome.message));
    if (r->maxError && r->tolerance)
        text += tr("\nworst element off by %1, error model allows %2 (%3 of the bound)")
                    .arg(*r->maxError, 0, 'g', 3)
                    .arg(*r->tolerance, 0, 'g', 3)
                    .arg(r->errorRatio ? QString::number(*r->errorRatio, 'g', 2) : QStringLiteral("?"));
    if (!r->outcome.capturedStderr.empty())
        text += tr("\n\nstderr:\n") + QString::fromStdString(r->outcome.capturedStderr);
    m_cellText->setPlainText(text);
}

void ProbesPage::showFinding()
{
    m_fixes->clear();
    const auto* f = m_findings->findingAt(m_findingsView->currentIndex().row());
    if (!f) {
        m_findingText->clear();
        updateButtons();
        return;
    }
    m_findingText->setText(QStringLiteral("%1 \u00b7 %2\n").arg(QString::fromStdString(f->id), QString::fromLatin1(severityName(f->severity)))
                           + m_findings->data(m_findings->index(m_findingsView->currentIndex().row(), 0),
                                             FindingsModel::DetailRole).toString());
    for (std::size_t i = 0; i < f->fixes.size(); ++i) {
        const auto& fix = f->fixes[i];
        if (fix.env.empty() || fix.diagnostic || fix.applies == std::optional<bool>(false))
            continue;
        m_fixes->addItem(QStringLiteral("%1  [%2]").arg(QString::fromStdString(variantName(fix.env)), verifiedText(fix.verified)),
                         static_cast<int>(i));
    }
    updateButtons();
}

void ProbesPage::updateButtons()
{
    const bool running = m_session->isRunning();
    m_runButton->setEnabled(!running);
    m_cancelButton->setEnabled(running);
    m_tryFixButton->setEnabled(!running && m_fixes->count() > 0);
}

} // namespace stackscope::ui
