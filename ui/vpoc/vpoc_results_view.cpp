// VpocResultsView: the table and the charts of one result, kept on one price axis, and their exports.
#include "ui/vpoc/vpoc_results_view.h"

#include "core/util/atomic_file.h"
#include "core/vpoc/vpoc_output.h"
#include "ui/vpoc/chart_legend.h"
#include "ui/vpoc/session_model.h"
#include "ui/vpoc/session_price_chart.h"
#include "ui/vpoc/volume_profile_view.h"
#include "ui/widgets/file_dialogs.h"

#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace stackscope::ui {

namespace {
QString noSessionsText()
{
    return VpocResultsView::tr("No sessions yet: choose a file or the sample data, then Run");
}
} // namespace

VpocResultsView::VpocResultsView(QWidget* parent)
    : QWidget(parent)
{
    auto* lower = new QWidget(this);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(createCharts(), 1);
    lowerLayout->addLayout(createExports());
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(createTable());
    split->addWidget(lower);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    // Above the table and the charts: results computed with other options than the form's stay, marked.
    m_staleBanner = new QLabel(this);
    m_staleBanner->setObjectName(QStringLiteral("vpocStale"));
    m_staleBanner->setWordWrap(true);
    m_staleBanner->setTextFormat(Qt::RichText);
    m_staleBanner->setStyleSheet(
        QStringLiteral("QLabel#vpocStale { background: #fff3cd; border: 1px solid #e0c36b; padding: 6px; }"));
    m_staleBanner->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_staleBanner);
    layout->addWidget(split, 1);
    applyMark({});
}

// The sessions fit the width at 1024x640: the first and last bar's times get columns only where all ten fit (they are
// in each row's tooltip and on the chart's time axis in any case), and a column too narrow for its text elides it in
// the middle.
QWidget* VpocResultsView::createTable()
{
    m_sessions = new SessionModel(this);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("vpocSessions"));
    m_table->setModel(m_sessions);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    // The date, times and counts as wide as they are; the five prices share what is left.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    for (int c : { SessionModel::DateColumn, SessionModel::FirstColumn, SessionModel::LastColumn,
             SessionModel::BarsColumn, SessionModel::VolumeColumn })
        m_table->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_table->installEventFilter(this);
    m_table->horizontalHeader()->setMinimumSectionSize(
        m_table->fontMetrics().horizontalAdvance(QStringLiteral("0000.0")));
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setAlternatingRowColors(true);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) { selectSession(current.row()); });
    return m_table;
}

QWidget* VpocResultsView::createCharts()
{
    m_chart = new SessionPriceChart(this);
    m_chart->setObjectName(QStringLiteral("vpocPriceChart"));
    m_profile = new VolumeProfileView(this);
    m_profile->setEmptyText(noSessionsText());
    // One price axis for both: the profile follows the chart's plot area whenever it moves, and whenever either
    // widget moves or shows (a run while another page was in view is laid out later).
    connect(m_chart, &SessionPriceChart::plotMoved, this, &VpocResultsView::alignProfile);
    m_profile->installEventFilter(this);
    m_chart->installEventFilter(this);
    // Each chart's legend under it, wrapped where the chart is narrow (1024x640), never cut.
    m_priceLegend = new ChartLegend(this);
    m_priceLegend->setObjectName(QStringLiteral("vpocPriceLegend"));
    m_profileLegend = new ChartLegend(this);
    m_profileLegend->setObjectName(QStringLiteral("vpocProfileLegend"));
    m_charts = new QWidget(this);
    auto* layout = new QGridLayout(m_charts);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setVerticalSpacing(2);
    layout->addWidget(m_chart, 0, 0);
    layout->addWidget(m_profile, 0, 1);
    layout->addWidget(m_priceLegend, 1, 0);
    layout->addWidget(m_profileLegend, 1, 1);
    layout->setColumnStretch(0, 3);
    layout->setColumnStretch(1, 2);
    layout->setRowStretch(0, 1);
    return m_charts;
}

QLayout* VpocResultsView::createExports()
{
    m_exportPng = new QPushButton(tr("Export PNG…"), this);
    m_exportPng->setObjectName(QStringLiteral("vpocExportPng"));
    m_exportCsv = new QPushButton(tr("Export CSV…"), this);
    m_exportCsv->setObjectName(QStringLiteral("vpocExportCsv"));
    m_resultsFor = new QLabel(this);
    m_resultsFor->setObjectName(QStringLiteral("vpocResultsFor"));
    m_resultsFor->setWordWrap(true);
    m_resultsFor->setTextFormat(Qt::PlainText);
    auto report = [this](const QString& error, const QString& done) {
        if (error.isEmpty())
            Q_EMIT exported(done);
        else
            Q_EMIT exportFailed(error);
    };
    connect(m_exportPng, &QPushButton::clicked, this, [this, report] {
        const QString path
            = saveFileInLastFolder(this, tr("Export charts"), QStringLiteral("vpoc.png"), tr("PNG (*.png)"));
        if (!path.isEmpty())
            report(exportPng(path), tr("Charts written to %1").arg(path));
    });
    connect(m_exportCsv, &QPushButton::clicked, this, [this, report] {
        const QString path
            = saveFileInLastFolder(this, tr("Export CSV"), QStringLiteral("vpoc-sessions.csv"), tr("CSV (*.csv)"));
        if (!path.isEmpty())
            report(exportCsv(path), tr("Sessions and profile written to %1").arg(path));
    });
    auto* row = new QHBoxLayout;
    row->addWidget(m_resultsFor, 1);
    row->addWidget(m_exportPng);
    row->addWidget(m_exportCsv);
    return row;
}

QChart* VpocResultsView::priceChart() const
{
    return m_chart->chart();
}

QChartView* VpocResultsView::priceView() const
{
    return m_chart;
}

void VpocResultsView::showResult(std::shared_ptr<const vpoc::VpocResult> result, bool recorded)
{
    m_recorded = recorded;
    m_sessions->setResult(std::move(result));
    // "Select a session" over an empty table (after a failed run) pointed at nothing to select.
    m_profile->setEmptyText(m_sessions->rowCount() > 0 ? QString() : noSessionsText());
    m_profile->clear();
    m_chart->clear();
    m_priceLegend->setEntries({});
    m_profileLegend->setEntries({});
    m_profile->setPriceFrame(std::nullopt);
    fitColumns();
    if (m_sessions->rowCount() > 0) {
        // The latest session is what a trader looks at first.
        m_table->selectRow(m_sessions->rowCount() - 1);
        m_table->scrollToBottom();
    }
}

void VpocResultsView::selectSession(int row)
{
    const auto& result = m_sessions->result();
    if (!result || row < 0 || row >= static_cast<int>(result->sessions.size())) {
        m_profile->clear();
        m_profileLegend->setEntries({});
        return;
    }
    const auto& s = result->sessions[static_cast<size_t>(row)];
    m_profile->setEmptyText(s.profile.empty() && m_recorded
            ? tr("A report keeps no profiles: run VPOC on the data to see this session's profile")
            : QString());
    ProfileInput in;
    in.volume = s.profile;
    in.lowTick = s.lowTick;
    in.pocTick = s.pocTick;
    in.vahTick = s.vahTick;
    in.valTick = s.valTick;
    m_profile->setProfile(std::move(in), [model = m_sessions](int32_t tick) { return model->priceText(tick); });
    m_chart->showSession(result, row, m_recorded);
    m_priceLegend->setEntries(m_chart->legendEntries());
    m_profileLegend->setEntries(s.profile.empty() ? QList<LegendEntry> {} : VolumeProfileView::legendEntries());
}

void VpocResultsView::applyMark(const ResultsMark& mark)
{
    for (auto* button : { m_exportPng, m_exportCsv }) {
        button->setEnabled(mark.exportsEnabled);
        button->setToolTip(mark.stale ? tr("The results are out of date: press Run, then export") : QString());
    }
    m_resultsFor->setStyleSheet(
        mark.resultsForWarns ? QStringLiteral("QLabel { color: #b26a00; font-weight: bold; }") : QString());
    m_resultsFor->setText(mark.resultsFor);
    m_staleBanner->setText(mark.banner);
    m_staleBanner->setVisible(mark.stale);
}

void VpocResultsView::fitColumns()
{
    const QHeaderView* header = m_table->horizontalHeader();
    const QAbstractItemView* view = m_table; // QTableView keeps sizeHintForColumn protected
    int all = 0;
    for (int c = 0; c < SessionModel::NUM_COLUMNS; ++c)
        all += std::max(view->sizeHintForColumn(c), header->sectionSizeHint(c));
    const bool times = all <= m_table->viewport()->width();
    m_table->setColumnHidden(SessionModel::FirstColumn, !times);
    m_table->setColumnHidden(SessionModel::LastColumn, !times);
}

bool VpocResultsView::eventFilter(QObject* watched, QEvent* event)
{
    const auto type = event->type();
    // A filter sees the table's Resize before the table lays out its viewport: fit once the new width is there.
    if (watched == m_table && type == QEvent::Resize)
        QTimer::singleShot(0, this, &VpocResultsView::fitColumns);
    if ((watched == m_profile || watched == m_chart)
        && (type == QEvent::Resize || type == QEvent::Move || type == QEvent::Show))
        QTimer::singleShot(0, this, &VpocResultsView::alignProfile);
    return QWidget::eventFilter(watched, event);
}

void VpocResultsView::alignProfile()
{
    const auto [low, high] = m_chart->axisTicks();
    if (priceChart()->series().isEmpty() || high <= low) {
        m_profile->setPriceFrame(std::nullopt);
        return;
    }
    const QRectF plot = priceChart()->plotArea(); // scene coordinates (the chart fills the scene)
    auto toProfile = [this](QPointF scene) {
        return m_profile->mapFromGlobal(m_chart->viewport()->mapToGlobal(m_chart->mapFromScene(scene)));
    };
    m_profile->setPriceFrame(
        PriceFrame { low, high, double(toProfile(plot.topLeft()).y()), double(toProfile(plot.bottomLeft()).y()) });
}

QString VpocResultsView::exportPng(const QString& path)
{
    if (!m_charts->grab().save(path, "PNG"))
        return tr("Could not write %1; choose a writable path ending in .png").arg(path);
    return {};
}

QString VpocResultsView::exportCsv(const QString& path)
{
    const auto& result = m_sessions->result();
    if (!result)
        return tr("Nothing to export yet: run VPOC first.");
    std::string text = vpoc::sessionsCsv(*result);
    const int row = m_table->currentIndex().row();
    if (row >= 0 && static_cast<size_t>(row) < result->sessions.size())
        text += vpoc::profileCsv(*result, static_cast<size_t>(row));
    try {
        writeFileAtomically(path.toStdString(), text);
    } catch (const FileWriteError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace stackscope::ui
