// EpochTableView: column widths from the header and the cells' text, recomputed when the rows or the size change.
#include "ui/training/epoch_table_view.h"

#include "ui/training/epoch_table_model.h"

#include <QFontMetrics>
#include <QHeaderView>
#include <QResizeEvent>

#include <algorithm>
#include <numeric>

namespace stackscope::ui {

std::vector<int> fitColumnWidths(const std::vector<int>& needs, int available)
{
    std::vector<int> widths = needs;
    const int total = std::accumulate(needs.begin(), needs.end(), 0);
    if (needs.empty() || total >= available)
        return widths;
    const int n = static_cast<int>(needs.size());
    const int extra = available - total;
    for (int i = 0; i < n; ++i)
        widths[static_cast<std::size_t>(i)] += extra / n + (i < extra % n ? 1 : 0);
    return widths;
}

namespace {
// Measuring every row of a long run on each new epoch would cost O(epochs); the recent rows show the widths.
constexpr int kMeasuredRows = 200;
constexpr int kCellPadding = 10; // the style's cell margins (2 x 3 px) and a little air
constexpr int kHeaderPadding = 12; // the header section's margins (no sort indicator: the table does not sort)
} // namespace

EpochTableView::EpochTableView(QWidget* parent)
    : QTableView(parent)
{
    setTextElideMode(Qt::ElideMiddle);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    horizontalHeader()->setTextElideMode(Qt::ElideMiddle);
    horizontalHeader()->setStretchLastSection(false);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
}

void EpochTableView::setModel(QAbstractItemModel* model)
{
    QTableView::setModel(model);
    if (!model)
        return;
    connect(model, &QAbstractItemModel::modelReset, this, &EpochTableView::fitColumns);
    connect(model, &QAbstractItemModel::rowsInserted, this, &EpochTableView::fitColumns);
    fitColumns();
}

std::vector<int> EpochTableView::columnNeeds() const
{
    std::vector<int> needs;
    const auto* m = model();
    if (!m)
        return needs;
    const QFontMetrics plain(font());
    QFont boldFont = font();
    boldFont.setBold(true);
    const QFontMetrics bold(boldFont);
    const QFontMetrics header(horizontalHeader()->font());
    const int rows = m->rowCount();
    for (int c = 0; c < m->columnCount(); ++c) {
        int need = header.horizontalAdvance(m->headerData(c, Qt::Horizontal).toString()) + kHeaderPadding;
        auto measure = [&](int r) {
            const QModelIndex i = m->index(r, c);
            const bool isBold = i.data(EpochTableModel::BestRole).toBool();
            need = std::max(need, (isBold ? bold : plain).horizontalAdvance(i.data().toString()) + kCellPadding);
        };
        for (int r = std::max(0, rows - kMeasuredRows); r < rows; ++r)
            measure(r);
        for (int r = 0; r < std::max(0, rows - kMeasuredRows); ++r) {
            if (m->index(r, 0).data(EpochTableModel::BestRole).toBool())
                measure(r);
        }
        needs.push_back(need);
    }
    return needs;
}

QSize EpochTableView::minimumSizeHint() const
{
    // Wide enough for every header and cell where the layout can give it; the rest scrolls.
    const auto needs = columnNeeds();
    const int columns = std::accumulate(needs.begin(), needs.end(), 0);
    return { columns + 2 * frameWidth(), QTableView::minimumSizeHint().height() };
}

void EpochTableView::resizeEvent(QResizeEvent* event)
{
    QTableView::resizeEvent(event);
    fitColumns();
}

void EpochTableView::fitColumns()
{
    const auto widths = fitColumnWidths(columnNeeds(), viewport()->width());
    for (std::size_t c = 0; c < widths.size(); ++c)
        horizontalHeader()->resizeSection(static_cast<int>(c), widths[c]);
    updateGeometry();
}

} // namespace stackscope::ui
