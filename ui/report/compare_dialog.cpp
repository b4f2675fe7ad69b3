// The Compare dialog: both sides loaded with the hardened report loader on the task runner, their findings side by
// side and diffSnapshots' rows.
#include "ui/report/compare_dialog.h"
#include "ui/widgets/file_dialogs.h"

#include "core/archscan/snapshot_coverage.h"
#include "core/inspect/inspector.h"
#include "ui/report/compare_sides.h"
#include "ui/report/diff_model.h"
#include "ui/report/findings_compare_model.h"
#include "ui/report/report_replay.h"
#include "ui/widgets/status_colors.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace stackscope::ui {

namespace {

// Rows match when the text is in any column and the area is the chosen one.
class DiffFilter : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    QString area;

    void refilter() { invalidateFilter(); }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override
    {
        const auto* m = sourceModel();
        if (!area.isEmpty() && m->index(row, DiffModel::AreaColumn, parent).data().toString() != area)
            return false;
        const auto re = filterRegularExpression();
        if (re.pattern().isEmpty())
            return true;
        for (int c = 0; c < DiffModel::NUM_COLUMNS; ++c) {
            if (m->index(row, c, parent).data().toString().contains(re))
                return true;
        }
        return false;
    }
};

// A value one side does not know is unknown: counted apart from the differences that matter (the CLI's diff says
// the same).
QString countsText(int known, int unknown)
{
    const QString differences = known == 0 ? CompareDialog::tr("No difference that matters")
        : known == 1                       ? CompareDialog::tr("1 difference that matters")
                                           : CompareDialog::tr("%1 differences that matter").arg(known);
    if (unknown == 0)
        return known == 0 ? CompareDialog::tr("Same in everything compared.") : differences + QLatin1Char('.');
    return (unknown == 1 ? CompareDialog::tr("%1; 1 value unknown on one side (not recorded, not read or not queried "
                                             "there), listed below them and not counted.")
                         : CompareDialog::tr("%1; %2 values unknown on one side (not recorded, not read or not queried "
                                             "there), listed below them and not counted."))
        .arg(differences)
        .arg(unknown);
}

// A side's name in the headers and the status line: the file's or folder's name, or "this machine".
QString sideLabel(const QString& side)
{
    return side == CompareDialog::thisMachineText() ? side : QFileInfo(QDir::cleanPath(side)).fileName();
}

} // namespace

CompareDialog::CompareDialog(QWidget* parent)
    : QDialog(parent)
    , m_a(new QLineEdit(this))
    , m_b(new QLineEdit(this))
    , m_filter(new QLineEdit(this))
    , m_area(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_model(new DiffModel(this))
    , m_proxy(new DiffFilter(this))
    , m_view(new QTableView(this))
    , m_findings(new FindingsCompareModel(this))
    , m_findingsView(new QTableView(this))
    , m_findingsSummary(new QLabel(this))
    , m_inspect(this)
    , m_load(this)
{
    setWindowTitle(tr("Compare snapshots or reports"));
    // Never larger than the screen (1100x640 cut Compare and the area box off a 1024x640 screen).
    QSize size(1100, 640);
    if (const QScreen* s = screen())
        size = size.boundedTo(s->availableGeometry().size() - QSize(40, 80));
    resize(size);
    for (auto* edit : {m_a, m_b})
        edit->setPlaceholderText(tr("snapshot .json, report.json, a report folder or its .zip"));
    auto* files = new QGridLayout;
    int row = 0;
    for (auto* edit : {m_a, m_b}) {
        auto* fileButton = new QPushButton(tr("File…"), this);
        auto* folder = new QPushButton(tr("Folder…"), this);
        files->addWidget(new QLabel(row == 0 ? tr("A") : tr("B"), this), row, 0);
        files->addWidget(edit, row, 1);
        files->addWidget(fileButton, row, 2);
        files->addWidget(folder, row, 3);
        connect(fileButton, &QPushButton::clicked, this, [this, edit] { browse(edit); });
        connect(folder, &QPushButton::clicked, this, [this, edit] {
            const QString dir = folderInLastFolder(this, tr("Report folder"), edit->text());
            if (!dir.isEmpty())
                edit->setText(dir);
        });
        connect(edit, &QLineEdit::returnPressed, this, &CompareDialog::compare);
        ++row;
    }
    auto* compareButton = new QPushButton(tr("Compare"), this);
    compareButton->setObjectName(QStringLiteral("compareButton"));
    compareButton->setDefault(true);
    files->addWidget(compareButton, 0, 4, 2, 1);

    m_filter->setPlaceholderText(tr("Filter: text in any column"));
    m_filter->setClearButtonEnabled(true);
    m_area->addItem(tr("All areas"), QString());
    auto* filters = new QHBoxLayout;
    filters->addWidget(m_filter, 1);
    filters->addWidget(m_area);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(DiffModel::SortRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(false);
    m_view->verticalHeader()->hide();
    // One line a row, long values (PATH, LD_LIBRARY_PATH) cut in the middle with the whole value in the tooltip: wrapped
    // rows were several lines tall and left room for three rows at 1024x640.
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    m_view->horizontalHeader()->setSectionResizeMode(DiffModel::AreaColumn, QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(DiffModel::ItemColumn, QHeaderView::Interactive);
    m_view->horizontalHeader()->setSectionResizeMode(DiffModel::AColumn, QHeaderView::Stretch);
    m_view->horizontalHeader()->setSectionResizeMode(DiffModel::BColumn, QHeaderView::Stretch);
    m_view->setColumnWidth(DiffModel::ItemColumn, 260);
    m_status->setObjectName(QStringLiteral("compareStatus"));
    m_status->setWordWrap(true);
    m_status->setText(tr("Choose two files: each side's findings, then only the differences that matter are listed "
                         "(versions, GPUs and archs, libraries, environment, groups and device access, coverage)."));

    // The findings take the height of their rows (a few); the differences get the rest.
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(files);
    layout->addWidget(m_status);
    layout->addWidget(createFindingsBox());
    layout->addLayout(filters);
    layout->addWidget(m_view, 1);

    // Tab goes from A to B (it went to A's File… button), then Compare, then the filter.
    setTabOrder(m_a, m_b);
    setTabOrder(m_b, compareButton);
    setTabOrder(compareButton, m_filter);
    connect(compareButton, &QPushButton::clicked, this, &CompareDialog::compare);
    connect(m_filter, &QLineEdit::textChanged, this, &CompareDialog::applyFilter);
    connect(m_area, qOverload<int>(&QComboBox::currentIndexChanged), this, &CompareDialog::applyFilter);
}

// Each side's findings (the one diagnosis, as the System page shows that file), which are only on A, only on B.
QWidget* CompareDialog::createFindingsBox()
{
    auto* box = new QGroupBox(tr("Findings (as the System page shows each side)"), this);
    box->setObjectName(QStringLiteral("compareFindings"));
    box->setToolTip(tr("A file's side: its snapshot with this version's checks, its pasted logs and probe results. "
                       "This machine: its snapshot alone."));
    m_findingsSummary->setObjectName(QStringLiteral("compareFindingsSummary"));
    m_findingsSummary->setWordWrap(true);
    m_findingsSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_findingsView->setModel(m_findings);
    m_findingsView->setObjectName(QStringLiteral("compareFindingsTable"));
    m_findingsView->verticalHeader()->hide();
    m_findingsView->verticalHeader()->setDefaultSectionSize(m_findingsView->fontMetrics().height() + 8);
    m_findingsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_findingsView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_findingsView->setWordWrap(false);
    m_findingsView->setTextElideMode(Qt::ElideMiddle);
    auto* header = m_findingsView->horizontalHeader();
    for (int c : {FindingsCompareModel::SeverityColumn, FindingsCompareModel::IdColumn, FindingsCompareModel::AColumn,
                  FindingsCompareModel::BColumn})
        header->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(FindingsCompareModel::TitleColumn, QHeaderView::Stretch);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(m_findingsSummary);
    layout->addWidget(m_findingsView);
    fitFindingsTable();
    return box;
}

// The findings table as tall as its rows, up to kFindingsRows (then it scrolls); one row's height when empty.
void CompareDialog::fitFindingsTable()
{
    constexpr int kFindingsRows = 6;
    const int rows = std::clamp(m_findings->rowCount(), 1, kFindingsRows);
    const int frame = 2 * m_findingsView->frameWidth();
    m_findingsView->setFixedHeight(m_findingsView->horizontalHeader()->sizeHint().height()
                                   + rows * m_findingsView->verticalHeader()->defaultSectionSize() + frame);
}

void CompareDialog::browse(QLineEdit* edit)
{
    const QString path = openFileInLastFolder(this, tr("Snapshot or report"),
                                              tr("Snapshots and reports (*.json *.zip);;All files (*)"), edit->text());
    if (!path.isEmpty())
        edit->setText(path);
}

QString CompareDialog::statusText() const
{
    return m_status->text();
}

QString CompareDialog::findingsSummary() const
{
    return m_findingsSummary->text();
}

void CompareDialog::setFiles(const QString& a, const QString& b)
{
    m_a->setText(a);
    m_b->setText(b);
    if (!a.isEmpty() && !b.isEmpty())
        compare();
}

void CompareDialog::setFilterText(const QString& text)
{
    m_filter->setText(text);
}

void CompareDialog::setArea(const QString& area)
{
    const int i = m_area->findData(area);
    m_area->setCurrentIndex(i < 0 ? 0 : i);
}

QString CompareDialog::thisMachineText()
{
    return tr("this machine");
}

void CompareDialog::setThisMachineAsB(std::shared_ptr<const Snapshot> known)
{
    m_b->setText(thisMachineText());
    m_b->setToolTip(tr("This machine as the window last inspected it; type a path to compare with a file instead"));
    m_thisMachine = std::move(known);
    if (m_thisMachine) {
        if (!m_a->text().trimmed().isEmpty())
            compare();
        return;
    }
    m_status->setText(tr("Inspecting this machine for B…"));
    m_inspect.run(
        [](const JobControl&) {
            Snapshot s = inspectMachine(InspectOptions {});
            archscan::addArchCoverage(s);
            return std::make_shared<const Snapshot>(std::move(s));
        },
        [this](std::shared_ptr<const Snapshot> s) {
            m_thisMachine = std::move(s);
            if (!m_a->text().trimmed().isEmpty() && m_b->text() == thisMachineText())
                compare();
            else
                m_status->setText(tr("This machine inspected for B; give A and press Compare."));
        },
        [this](const QString& error) {
            m_status->setText(tr("Could not inspect this machine for B: %1. Give a snapshot file for B instead.").arg(error));
        });
}

bool CompareDialog::compare()
{
    Q_ASSERT(QThread::currentThread() == thread());
    const QString a = m_a->text().trimmed(), b = m_b->text().trimmed();
    if (a.isEmpty() || b.isEmpty()) {
        m_status->setText(tr("Give both A and B: a snapshot .json, a report.json, a report folder or its .zip."));
        return false;
    }
    CompareInput inA {a, nullptr}, inB {b, nullptr};
    for (auto* in : {&inA, &inB}) {
        if (in->path != thisMachineText())
            continue;
        if (!m_thisMachine) {
            m_status->setText(m_inspect.isRunning() ? tr("Inspecting this machine for B…")
                                                    : tr("This machine has not been inspected: press Refresh (F5) in the "
                                                         "window, or give a snapshot file for B."));
            return false;
        }
        in->machine = m_thisMachine;
    }
    setLoading(true);
    m_status->setText(tr("Loading A (%1) and B (%2)…").arg(sideLabel(a), sideLabel(b)));
    m_status->setToolTip(QString());
    m_load.run([inA, inB](const JobControl& control) { return compareSides(inA, inB, control.cancelToken()); },
               [this, a, b](CompareResult result) { showResult(std::move(result), a, b); },
               [this, a](const QString& error) {
                   CompareResult failed;
                   failed.failedSide = tr("A and B"); // compareSides names the side; only the diff can throw here
                   failed.failedPath = a;
                   failed.error = error;
                   failed.errorKind = ErrorKind::Failed;
                   showError(failed);
               });
    return true;
}

void CompareDialog::setLoading(bool loading)
{
    m_view->setEnabled(!loading);
    m_findingsView->setEnabled(!loading);
    setCursor(loading ? Qt::BusyCursor : Qt::ArrowCursor);
    if (loading)
        m_findingsSummary->setText(tr("Loading…"));
}

// The side that could not be read, what was wrong and what to do (by the error's kind); the loader's whole text is the
// tool tip. The tables are emptied: the old files' rows and names would stand under the new names.
void CompareDialog::showError(const CompareResult& result)
{
    setLoading(false);
    m_model->setRows({});
    m_model->setHeaders(tr("A"), tr("B"));
    m_findings->clear();
    m_findings->setHeaders(tr("A"), tr("B"));
    fitFindingsTable();
    QString line, details;
    if (result.failedDiagnosing) {
        line = tr("%1 was read, but diagnosing it failed: %2. This is StackScope's fault, not the file's: copy this "
                  "message into a bug report.")
                   .arg(result.failedSide, result.error.section(QLatin1Char('\n'), 0, 0));
        details = result.error;
    } else {
        const QString text = ReportReplay::openErrorText(result.failedPath, result.error, result.errorKind);
        // By the error's kind, as File > Open report says it: what to give instead, or to try again.
        line = tr("%1: %2").arg(result.failedSide, text.section(QLatin1Char('\n'), 0, 0));
        details = text.section(QStringLiteral("\n\n"), 1);
    }
    m_status->setText(QStringLiteral("<span style='color:%1'>%2</span>").arg(errorColor().name(), line.toHtmlEscaped()));
    m_status->setToolTip(details);
    m_findingsSummary->setText(result.failedDiagnosing ? tr("No findings: %1 could not be diagnosed.").arg(result.failedSide)
                                                       : tr("No findings: %1 could not be read.").arg(result.failedSide));
    Q_EMIT compared(false);
}

void CompareDialog::showResult(CompareResult result, const QString& a, const QString& b)
{
    if (result.cancelled)
        return;
    if (!result.failedSide.isEmpty()) {
        showError(result);
        return;
    }
    setLoading(false);
    const QString headerA = tr("A: %1").arg(sideLabel(a)), headerB = tr("B: %1").arg(sideLabel(b));
    m_model->setHeaders(headerA, headerB);
    m_findings->setHeaders(headerA, headerB);
    m_findings->setDiagnoses(result.a.diagnosis, result.b.diagnosis);
    m_findingsSummary->setText(m_findings->summary());
    std::set<std::string> areas;
    for (const auto& r : result.rows)
        areas.insert(r.area);
    const QString keep = m_area->currentData().toString();
    m_area->blockSignals(true);
    m_area->clear();
    m_area->addItem(tr("All areas"), QString());
    for (const auto& area : areas)
        m_area->addItem(QString::fromStdString(area), QString::fromStdString(area));
    m_area->setCurrentIndex(std::max(0, m_area->findData(keep)));
    m_area->blockSignals(false);
    m_model->setRows(std::move(result.rows));
    applyFilter();
    fitFindingsTable();
    m_status->setText(countsText(m_model->knownCount(), m_model->unknownCount()));
    Q_EMIT compared(true);
}

void CompareDialog::applyFilter()
{
    auto* f = static_cast<DiffFilter*>(m_proxy);
    f->area = m_area->currentData().toString();
    f->setFilterRegularExpression(QRegularExpression(QRegularExpression::escape(m_filter->text()),
                                                     QRegularExpression::CaseInsensitiveOption));
    f->refilter();
}

} // namespace stackscope::ui
