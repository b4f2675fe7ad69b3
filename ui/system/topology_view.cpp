#include "ui/system/topology_view.h"

#include "core/perf/link_matrix.h"
#include "core/perf/gpu_specs.h"
#include "core/perf/verdict.h"
#include "ui/models/link_models.h"

#include <QBoxLayout>
#include <QCheckBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollBar>
#include <QTableView>


namespace stackscope::ui {

namespace {

QTableView* makeView(QAbstractItemModel* model, QWidget* parent)
{
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setWordWrap(false);
    view->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // sized to its rows: the page scrolls, not the table
    view->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    // As wide as its columns, no wider: a frame stretched past the last column read as an empty column.
    view->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    return view;
}

} // namespace

TopologyView::TopologyView(QWidget* parent)
    : QWidget(parent)
    , m_matrixModel(new LinkMatrixModel(this))
    , m_figuresModel(new LinkFiguresModel(this))
    , m_header(new QLabel(this))
    , m_matrix(makeView(m_matrixModel, this))
    , m_figures(makeView(m_figuresModel, this))
    , m_allFigures(new QCheckBox(this))
    , m_body(new QBoxLayout(QBoxLayout::LeftToRight))
{
    m_header->setObjectName(QStringLiteral("topologyHeader"));
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::RichText);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_matrix->setObjectName(QStringLiteral("linkMatrix"));
    m_matrix->setWordWrap(true);
    m_matrix->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded); // 8 GPUs are wider than a laptop screen
    m_matrix->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_matrix->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_figures->setObjectName(QStringLiteral("linkFigures"));
    m_figures->verticalHeader()->hide();
    m_figures->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_figures->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_allFigures->setObjectName(QStringLiteral("allFigures"));
    m_allFigures->setToolTip(tr("Memory triad, GEMM and pageable copies: measured in the same run, not links"));
    connect(m_allFigures, &QCheckBox::toggled, this, [this] { showFigures(); });

    auto* matrixCaption = new QLabel(tr("Row: from, column: to; the diagonal is the GPU's own copy. GB/s measured of "
                                        "expected \u00b7 ratio."),
                                     this);
    matrixCaption->setWordWrap(true);
    auto* left = new QVBoxLayout;
    left->addWidget(matrixCaption);
    left->addWidget(m_matrix, 0, Qt::AlignLeft);
    left->addStretch(1);
    auto* right = new QVBoxLayout;
    right->addWidget(m_figures, 0, Qt::AlignLeft);
    right->addWidget(m_allFigures);
    right->addStretch(1);
    m_body->addLayout(left);
    m_body->addLayout(right, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_header);
    layout->addWidget(createLegend());
    layout->addLayout(m_body);
    showRun(nullptr);
}

// The four verdicts with their colour and marker, and the rule behind them with its public source: one label that
// wraps (four chips in a row were wider than the page at 1024 px).
QWidget* TopologyView::createLegend()
{
    const std::pair<perf::Verdict, QString> entries[] = {
        {perf::Verdict::AsExpected, tr("as expected: \u2265 %1 of expected").arg(perf::kAsExpectedShare)},
        {perf::Verdict::Degraded, tr("degraded: below that")},
        {perf::Verdict::Broken, tr("broken: the measurement failed")},
        {perf::Verdict::Unknown, tr("unknown: no expected value or not measured")},
    };
    QStringList chips;
    for (const auto& [verdict, text] : entries)
        chips << QStringLiteral("<span style=\"background-color:%1; color:%2;\">&nbsp;%3&nbsp;%4&nbsp;</span>")
                     .arg(verdictBackground(verdict).name(), verdictForeground(verdict).name(),
                          QString::fromUtf8(perf::verdictMarker(verdict)), text.toHtmlEscaped());
    auto* legend = new QLabel(chips.join(QStringLiteral(" &nbsp; ")) +
                                  tr(" &nbsp; (<a href=\"%1\">DCGM's rule</a>)").arg(QString::fromLatin1(perf::kDcgmSkus)),
                              this);
    legend->setObjectName(QStringLiteral("topologyLegend"));
    legend->setWordWrap(true);
    legend->setTextFormat(Qt::RichText);
    legend->setOpenExternalLinks(true);
    legend->setToolTip(QString::fromStdString(perf::verdictRuleText()));
    return legend;
}

QString TopologyView::headerText() const
{
    return m_header->text();
}

void TopologyView::showRun(ShownRunPtr run)
{
    m_run = std::move(run);
    setVisible(m_run != nullptr);
    if (!m_run) {
        m_matrixModel->setMatrix({});
        m_figuresModel->setFigures({});
        return;
    }
    const auto& r = m_run->judged.run;
    const auto gpus = perf::measuredGpus(r);
    QString when = QString::fromStdString(r.capturedAt);
    if (when.endsWith(QLatin1Char('Z')) && when.size() == 20) // ISO UTC, read as people write it
        when = when.left(10) + QLatin1Char(' ') + when.mid(11, 8) + QStringLiteral(" UTC");
    const QString origin = m_run->origin.contains(QLatin1Char('/')) ? QFileInfo(m_run->origin).fileName() : m_run->origin;
    m_header->setText(
        tr("<b>Run of %1</b> \u00b7 %2 \u00b7 %3 \u00b7 %4 GPU%5 measured \u00b7 from %6<br/>%7. <i>Verdicts %8.</i>")
            .arg(when.isEmpty() ? tr("an unknown time") : when.toHtmlEscaped(),
                 m_run->machine.isEmpty() ? tr("machine not recorded") : m_run->machine.toHtmlEscaped(),
                 r.torchVersion.empty() ? tr("torch unknown") : tr("torch %1").arg(QString::fromStdString(r.torchVersion)).toHtmlEscaped())
            .arg(gpus.size())
            .arg(gpus.size() == 1 ? QString() : QStringLiteral("s"), origin.toHtmlEscaped(),
                 QString::fromStdString(perf::verdictSummary(r.figures)).toHtmlEscaped(),
                 QString::fromStdString(m_run->judged.note).toHtmlEscaped()));
    m_header->setToolTip(m_run->origin);
    std::vector<int> alsoGpus;
    for (int i = 0; i < int(r.gpuNames.size()); ++i)
        alsoGpus.push_back(i);
    m_matrixModel->setMatrix(perf::linkMatrix(r.figures, alsoGpus));
    showFigures();
}

// The collectives always; the other figures of the run (memory, GEMM, pageable copies) on request.
void TopologyView::showFigures()
{
    const auto& others = m_matrixModel->matrix().others;
    const auto rest = std::count_if(others.begin(), others.end(), [](const perf::Figure& f) { return !perf::isCollective(f.test); });
    m_allFigures->setText(tr("Also the other figures of the run: memory, GEMM, pageable copies (%1)").arg(rest));
    m_allFigures->setVisible(m_run && rest > 0);
    std::vector<perf::Figure> shown;
    for (const auto& f : others)
        if (perf::isCollective(f.test) || m_allFigures->isChecked())
            shown.push_back(f);
    m_figures->setVisible(m_run && !shown.empty());
    m_figuresModel->setFigures(std::move(shown));
    fitTables();
}

// Each table as tall as its rows (no scroll bar of its own inside the scrolling page).
void TopologyView::fitTables()
{
    for (auto* view : {m_matrix, m_figures}) {
        view->resizeColumnsToContents();
        view->resizeRowsToContents();
        int height = view->horizontalHeader()->height() + 2 * view->frameWidth();
        for (int r = 0; r < view->model()->rowCount(); ++r)
            height += view->rowHeight(r);
        if (view == m_matrix && view->horizontalScrollBar()->isVisible())
            height += view->horizontalScrollBar()->sizeHint().height();
        view->setFixedHeight(height);
    }
    arrange();
}

// Side by side where both fit, the collectives below the matrix where they do not.
void TopologyView::arrange()
{
    const int needed = m_matrix->sizeHint().width() + m_figures->sizeHint().width() + m_body->spacing();
    m_body->setDirection(width() >= needed ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
}

void TopologyView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    arrange();
}

} // namespace stackscope::ui
