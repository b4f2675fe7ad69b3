// The Compare dialog: loads both sides with the hardened report loader and shows diffSnapshots' rows.
#include "ui/report/compare_dialog.h"
#include "ui/widgets/file_dialogs.h"

#include "core/archscan/snapshot_coverage.h"
#include "core/inspect/inspector.h"
#include "core/report/report_loader.h"
#include "ui/report/diff_model.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSortFilterProxyModel>
#include <QTableView>
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

// A value one side did not report is unknown: counted apart from the differences that matter.
QString countsText(int known, int unknown)
{
    const QString differences = known == 0 ? CompareDialog::tr("No difference that matters")
        : known == 1                       ? CompareDialog::tr("1 difference that matters")
                                           : CompareDialog::tr("%1 differences that matter").arg(known);
    if (unknown == 0)
        return known == 0 ? CompareDialog::tr("Same in everything compared.") : differences + QLatin1Char('.');
    return (unknown == 1 ? CompareDialog::tr("%1; 1 value unknown (not queried on the recorded machine), listed below "
                                             "them and not counted.")
                         : CompareDialog::tr("%1; %2 values unknown (not queried on the recorded machine), listed below "
                                             "them and not counted."))
        .arg(differences)
        .arg(unknown);
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
    , m_jobs(this)
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
    m_view->setWordWrap(true);
    m_view->horizontalHeader()->setSectionResizeMode(DiffModel::AreaColumn, QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(DiffModel::ItemColumn, QHeaderView::Interactive);
    m_view->horizontalHeader()->setSectionResizeMode(DiffModel::AColumn, QHeaderView::Stretch);
    m_view->horizontalHeader()->setSectionResizeMode(DiffModel::BColumn, QHeaderView::Stretch);
    m_view->setColumnWidth(DiffModel::ItemColumn, 260);
    // Wrapped rows take their height from the columns' widths, which change once the dialog is laid out and on
    // every resize (rows measured before the first show were several lines tall).
    connect(m_view->horizontalHeader(), &QHeaderView::sectionResized, m_view, [this] { m_view->resizeRowsToContents(); });
    m_status->setWordWrap(true);
    m_status->setText(tr("Choose two files: only differences that matter are listed (versions, GPUs and archs, libraries, "
                         "environment, groups and device access, coverage)."));

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(files);
    layout->addWidget(m_status);
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
    m_jobs.run(
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
    const QString a = m_a->text().trimmed(), b = m_b->text().trimmed();
    if (a.isEmpty() || b.isEmpty()) {
        m_status->setText(tr("Give both A and B: a snapshot .json, a report.json, a report folder or its .zip."));
        return false;
    }
    report::LoadedReport ra, rb;
    for (auto [path, out] : {std::pair {a, &ra}, std::pair {b, &rb}}) {
        if (path == thisMachineText()) {
            if (!m_thisMachine) {
                m_status->setText(m_jobs.isRunning() ? tr("Inspecting this machine for B…")
                                                     : tr("This machine has not been inspected: press Refresh (F5) in the "
                                                          "window, or give a snapshot file for B."));
                return false;
            }
            out->snapshot = *m_thisMachine;
            continue;
        }
        try {
            *out = report::loadReport(path.toStdString());
        } catch (const std::exception& e) {
            m_model->setRows({});
            m_model->setHeaders(tr("A"), tr("B")); // the old files' names would label an empty table
            // The loader's message usually starts with the path already ("Cannot read x: x: no such file").
            const QString why = QString::fromUtf8(e.what());
            const QString text = why.startsWith(path) ? tr("Cannot read %1").arg(why) : tr("Cannot read %1: %2").arg(path, why);
            m_status->setText(QStringLiteral("<span style='color:#c62828'>%1</span>").arg(text.toHtmlEscaped()));
            return false;
        }
    }
    auto rows = report::diffSnapshots(ra.snapshot, rb.snapshot);
    auto label = [](const QString& side) {
        return side == thisMachineText() ? side : QFileInfo(QDir::cleanPath(side)).fileName();
    };
    m_model->setHeaders(tr("A: %1").arg(label(a)), tr("B: %1").arg(label(b)));
    std::set<std::string> areas;
    for (const auto& r : rows)
        areas.insert(r.area);
    const QString keep = m_area->currentData().toString();
    m_area->blockSignals(true);
    m_area->clear();
    m_area->addItem(tr("All areas"), QString());
    for (const auto& area : areas)
        m_area->addItem(QString::fromStdString(area), QString::fromStdString(area));
    m_area->setCurrentIndex(std::max(0, m_area->findData(keep)));
    m_area->blockSignals(false);
    m_model->setRows(std::move(rows));
    applyFilter();
    m_view->resizeRowsToContents();
    m_status->setText(countsText(m_model->knownCount(), m_model->unknownCount()));
    return true;
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
