// The Probes page's panes: the grid, the cell's text, the outcome chart and the findings with "Try this fix".
#include "ui/probes/probe_results_view.h"

#include "core/probes/probe_variants.h"
#include "ui/models/findings_model.h"
#include "ui/probes/outcome_chart.h"
#include "ui/probes/probe_grid_model.h"
#include "ui/probes/python_env_picker.h"
#include "ui/widgets/elided_label.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace stackscope::ui {

QString probeCellText(const ProbeRecord& r)
{
    QString text = QStringLiteral("%1 on %2 (%3): %4 in %5 s\n%6")
                       .arg(QString::fromStdString(r.outcome.probeId), QString::fromStdString(r.outcome.device),
                            QString::fromStdString(r.outcome.variant),
                            QString::fromLatin1(probeResultName(r.outcome.outcome)))
                       .arg(r.seconds, 0, 'f', 3)
                       .arg(QString::fromStdString(r.outcome.message));
    if (r.maxError && r.tolerance)
        text += ProbeResultsView::tr("\nworst element off by %1, error model allows %2 (%3 of the bound)")
                    .arg(*r.maxError, 0, 'g', 3)
                    .arg(*r.tolerance, 0, 'g', 3)
                    .arg(r.errorRatio ? QString::number(*r.errorRatio, 'g', 2) : QStringLiteral("?"));
    if (!r.outcome.capturedStderr.empty())
        text += ProbeResultsView::tr("\n\nstderr:\n") + QString::fromStdString(r.outcome.capturedStderr);
    return text;
}

ProbeResultsView::ProbeResultsView(ProbeGridModel* grid, FindingsModel* findings, QWidget* parent)
    : QSplitter(Qt::Horizontal, parent)
    , m_grid(grid)
    , m_findings(findings)
{
    createGridWidgets();
    arrangePanes(createFindingsBox());
    connect(m_tryFixButton, &QPushButton::clicked, this, &ProbeResultsView::tryFixClicked);
    connect(m_gridView->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { showCell(current); });
    connect(m_findingsView->selectionModel(), &QItemSelectionModel::currentChanged, this, &ProbeResultsView::showFinding);
    updateTryFix();
}

void ProbeResultsView::createGridWidgets()
{
    m_gridView = new QTableView(this);
    m_gridView->setObjectName(QStringLiteral("probeGrid"));
    m_gridView->setModel(m_grid);
    m_gridView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_gridView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_gridView->verticalHeader()->hide();
    // An empty grid said nothing but "Probe" in its header (walkthrough 2026-11-27 third, problem 10).
    m_gridHint = new QLabel(tr("No results yet: press Run all probes. Each probe runs on every device, in a child "
                               "process, in each checked environment."),
                            m_gridView->viewport());
    m_gridHint->setObjectName(QStringLiteral("probeGridHint"));
    m_gridHint->setWordWrap(true);
    m_gridHint->setStyleSheet(QStringLiteral("QLabel { color: gray; }"));
    m_gridHint->setContentsMargins(8, 8, 8, 8);
    m_gridView->viewport()->installEventFilter(this);
    connect(m_grid, &QAbstractItemModel::modelReset, this, &ProbeResultsView::updateGridHint);
    connect(m_grid, &QAbstractItemModel::rowsInserted, this, &ProbeResultsView::updateGridHint);
    connect(m_grid, &QAbstractItemModel::rowsRemoved, this, &ProbeResultsView::updateGridHint);
    updateGridHint();
    m_cellText = new QPlainTextEdit(this);
    m_cellText->setReadOnly(true);
    m_cellText->setPlaceholderText(tr("Select a cell to see its message and what the libraries printed"));
    m_chart = new OutcomeChart(this);
}

// The findings list, the Fix column's legend, the fixes with "Try this fix", the selected finding's text.
QWidget* ProbeResultsView::createFindingsBox()
{
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
    m_fixes->setObjectName(QStringLiteral("probeFixChoice"));
    // Empty and unlabelled it read as a broken control (walkthrough 2026-11-27 third, problem 10).
    m_fixes->setPlaceholderText(tr("No fix to try: select a finding whose fix is an environment change"));
    m_tryFixButton = new QPushButton(tr("Try this fix"), this);
    m_tryFixButton->setObjectName(QStringLiteral("probeTryFix"));
    m_findingText = new QLabel(this);
    m_findingText->setWordWrap(true);
    m_findingText->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* fixBar = new QHBoxLayout;
    fixBar->addWidget(new QLabel(tr("Fix:"), this));
    fixBar->addWidget(m_fixes, 1);
    fixBar->addWidget(m_tryFixButton);
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    m_findingsHeading = new ElidedLabel(this);
    m_findingsHeading->setObjectName(QStringLiteral("probesFindingsHeading"));
    m_findingsHeading->setFullText(tr("Findings"));
    layout->addWidget(m_findingsHeading);
    layout->addWidget(m_findingsView, 1);
    // What the Fix column's words mean (walkthrough 2026-11-27 problem 9: "not tried" was not explained).
    auto* fixLegend = new QLabel(fixColumnLegend(), box);
    fixLegend->setObjectName(QStringLiteral("fixLegend"));
    fixLegend->setWordWrap(true);
    fixLegend->setStyleSheet(QStringLiteral("QLabel { color: gray; }"));
    layout->addWidget(fixLegend);
    layout->addLayout(fixBar);
    layout->addWidget(m_findingText);
    return box;
}

// The picker, the grid and the cell's text (left, 3 parts); the chart over the findings (right, 2 parts).
void ProbeResultsView::arrangePanes(QWidget* findingsBox)
{
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
    addWidget(left);
    addWidget(right);
    setStretchFactor(0, 3);
    setStretchFactor(1, 2);
}

const Finding* ProbeResultsView::currentFinding() const
{
    return m_findings->findingAt(m_findingsView->currentIndex().row());
}

int ProbeResultsView::currentFixIndex() const
{
    return m_fixes->currentData().toInt();
}

void ProbeResultsView::setRunning(bool running)
{
    m_running = running;
    updateTryFix();
}

void ProbeResultsView::setCounts(const OutcomeCounts& counts)
{
    m_chart->setCounts(counts);
}

void ProbeResultsView::clearCellText()
{
    m_cellText->clear();
}

void ProbeResultsView::showEnvironments(const QStringList& checked, bool hide)
{
    const auto& columns = m_grid->cellColumns();
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const bool off = hide && !checked.contains(QString::fromStdString(columns[i].environment));
        m_gridView->setColumnHidden(ProbeGridModel::NUM_COLUMNS + static_cast<int>(i), off);
    }
}

void ProbeResultsView::showCell(const QModelIndex& index)
{
    if (const auto* r = m_grid->recordAt(index)) {
        m_cellText->setPlainText(probeCellText(*r));
        return;
    }
    // A cell without a result says why here too ("no GPU", "Python only"): a click must not look ignored.
    const QString why = index.isValid() ? index.data(ProbeGridModel::MessageRole).toString() : QString();
    const QString probe = index.isValid() ? index.siblingAtColumn(0).data().toString() : QString();
    if (why.isEmpty() || probe.isEmpty())
        m_cellText->clear();
    else
        m_cellText->setPlainText(tr("%1: %2").arg(probe, why));
}

void ProbeResultsView::showFinding()
{
    m_fixes->clear();
    const auto* f = currentFinding();
    if (!f) {
        m_findingText->clear();
        updateTryFix();
        return;
    }
    const int row = m_findingsView->currentIndex().row();
    m_findingText->setText(QStringLiteral("%1 \u00b7 %2\n").arg(QString::fromStdString(f->id), QString::fromLatin1(severityName(f->severity)))
                           + m_findings->data(m_findings->index(row, 0), FindingsModel::DetailRole).toString());
    for (std::size_t i = 0; i < f->fixes.size(); ++i) {
        const auto& fix = f->fixes[i];
        if (fix.env.empty() || fix.diagnostic || fix.applies == std::optional<bool>(false))
            continue;
        m_fixes->addItem(QStringLiteral("%1  [%2]").arg(QString::fromStdString(variantName(fix.env)), verifiedText(fix.verified)),
                         static_cast<int>(i));
    }
    // With a placeholder the combo selects nothing by itself: the first fix is the one to try.
    if (m_fixes->count() > 0)
        m_fixes->setCurrentIndex(0);
    updateTryFix();
}

void ProbeResultsView::updateGridHint()
{
    m_gridHint->setVisible(m_grid->rowCount() == 0);
    m_gridHint->setFixedWidth(m_gridView->viewport()->width());
    m_gridHint->adjustSize();
}

bool ProbeResultsView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_gridView->viewport() && event->type() == QEvent::Resize)
        updateGridHint();
    return QSplitter::eventFilter(watched, event);
}

void ProbeResultsView::setFindingsHeading(const QString& heading)
{
    m_findingsHeading->setFullText(heading);
}

QString ProbeResultsView::findingsHeading() const
{
    return m_findingsHeading->fullText();
}

void ProbeResultsView::setFixesTriable(bool triable)
{
    m_triable = triable;
    updateTryFix();
}

void ProbeResultsView::updateTryFix()
{
    m_tryFixButton->setEnabled(m_triable && !m_running && m_fixes->count() > 0);
    m_tryFixButton->setToolTip(m_triable
            ? tr("Re-run the failing probes with this environment change and mark the fix verified or not")
            : tr("The findings are another machine's, and a fix is tried by running the failing probes on this one: "
                 "inspect this machine (View > Refresh) and run the probes here to try its fixes."));
}

} // namespace stackscope::ui
