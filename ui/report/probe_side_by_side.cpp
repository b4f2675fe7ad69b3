// The report's grid on the left, this machine's on the right, each in the Probes page's own model.
#include "ui/report/probe_side_by_side.h"

#include "ui/probes/probe_grid_model.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScreen>
#include <QTableView>
#include <QVBoxLayout>

#include <map>
#include <tuple>

namespace stackscope::ui {

namespace {
QTableView* gridView(ProbeGridModel* model, QWidget* parent)
{
    auto* v = new QTableView(parent);
    v->setModel(model);
    v->verticalHeader()->hide();
    v->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    v->setSelectionMode(QAbstractItemView::SingleSelection);
    return v;
}
} // namespace

ProbeSideBySide::ProbeSideBySide(QWidget* parent)
    : QWidget(parent)
    , m_report(new ProbeGridModel(this))
    , m_here(new ProbeGridModel(this))
    , m_reportTitle(new QLabel(this))
    , m_status(new QLabel(this))
{
    setWindowTitle(tr("Probes: report vs this machine"));
    m_status->setWordWrap(true);
    auto* left = new QVBoxLayout;
    left->addWidget(m_reportTitle);
    left->addWidget(gridView(m_report, this), 1);
    auto* right = new QVBoxLayout;
    right->addWidget(new QLabel(tr("<b>This machine</b>"), this));
    right->addWidget(gridView(m_here, this), 1);
    auto* grids = new QHBoxLayout;
    grids->addLayout(left, 1);
    grids->addLayout(right, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addLayout(grids, 1);
    // Never larger than the screen it opens on (1200x640 was taller than a 1024x640 screen with its panel and frame).
    QSize size(1200, 640);
    if (const QScreen* s = screen())
        size = size.boundedTo(s->availableGeometry().size() - QSize(40, 80));
    resize(size);
}

void ProbeSideBySide::setReport(const std::vector<ProbeRecord>& records, const QString& title)
{
    m_report->clear();
    for (const auto& r : records)
        m_report->addRecord(r);
    m_reportTitle->setText(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()));
    clearHere();
}

void ProbeSideBySide::clearHere()
{
    m_here->clear();
}

void ProbeSideBySide::addHere(const ProbeRecord& record)
{
    m_here->addRecord(record);
}

void ProbeSideBySide::setStatus(const QString& text)
{
    m_status->setText(text);
}

QString ProbeSideBySide::differenceText() const
{
    // Same probe, device and variant on both sides, different outcome.
    std::map<std::tuple<std::string, std::string, std::string>, ProbeResult> report;
    for (const auto& r : m_report->records())
        report[{r.outcome.probeId, r.outcome.device, r.outcome.variant}] = r.outcome.outcome;
    int same = 0, differ = 0;
    QStringList named; // the first few differences, so the one that matters is pointed out
    for (const auto& r : m_here->records()) {
        auto it = report.find({r.outcome.probeId, r.outcome.device, r.outcome.variant});
        if (it == report.end())
            continue;
        if (it->second == r.outcome.outcome) {
            ++same;
            continue;
        }
        ++differ;
        if (named.size() < 3)
            named << tr("%1 on %2 (%3): %4 in the report, %5 here")
                         .arg(QString::fromStdString(r.outcome.probeId), QString::fromStdString(r.outcome.device),
                              QString::fromStdString(r.outcome.variant), QString::fromLatin1(probeResultName(it->second)),
                              QString::fromLatin1(probeResultName(r.outcome.outcome)));
    }
    QString text = same == 1 ? tr("1 cell with the same outcome, %1 different.").arg(differ)
                             : tr("%1 cells with the same outcome, %2 different.").arg(same).arg(differ);
    if (!named.isEmpty())
        text += QLatin1Char(' ') + tr("Different: %1%2.").arg(named.join(QStringLiteral("; ")),
                                                              differ > named.size() ? tr("; …") : QString());
    return text;
}

} // namespace stackscope::ui
