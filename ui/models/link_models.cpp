#include "ui/models/link_models.h"

#include <QStringList>

namespace stackscope::ui {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// A cell's tooltip: each figure's details, then the rule every verdict follows.
QString tooltipOf(const std::vector<perf::Figure>& figures)
{
    QStringList parts;
    for (const auto& f : figures)
        parts << qs(perf::figureDetails(f));
    parts << qs(perf::verdictRuleText());
    return parts.join(QStringLiteral("\n\n"));
}

} // namespace

QColor verdictBackground(perf::Verdict v)
{
    switch (v) {
    case perf::Verdict::AsExpected: return QColor(0xd8, 0xf0, 0xda);
    case perf::Verdict::Degraded: return QColor(0xff, 0xe0, 0xb2);
    case perf::Verdict::Broken: return QColor(0xff, 0xcd, 0xd2);
    case perf::Verdict::Unknown: break;
    }
    return QColor(0xdd, 0xdd, 0xdd); // darker than a window's grey, so an unknown cell stands out as a cell
}

QColor verdictForeground(perf::Verdict v)
{
    switch (v) {
    case perf::Verdict::AsExpected: return QColor(0x1b, 0x5e, 0x20);
    case perf::Verdict::Degraded: return QColor(0x7a, 0x40, 0x00);
    case perf::Verdict::Broken: return QColor(0x9a, 0x00, 0x07);
    case perf::Verdict::Unknown: break;
    }
    return QColor(0x42, 0x42, 0x42);
}

void LinkMatrixModel::setMatrix(perf::LinkMatrix matrix)
{
    beginResetModel();
    m_matrix = std::move(matrix);
    endResetModel();
}

int LinkMatrixModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || m_matrix.cells.empty() ? 0 : m_matrix.size();
}

int LinkMatrixModel::columnCount(const QModelIndex& parent) const
{
    return rowCount(parent);
}

QString LinkMatrixModel::nodeName(int section) const
{
    if (section == m_matrix.hostIndex())
        return tr("host");
    return tr("GPU %1").arg(m_matrix.gpus[std::size_t(section)]);
}

QVariant LinkMatrixModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const auto& cell = m_matrix.at(index.row(), index.column());
    const bool empty = cell.figures.empty();
    switch (role) {
    case Qt::DisplayRole: {
        if (empty)
            return tr("\u2014 not measured");
        QStringList lines;
        for (const auto& f : cell.figures)
            lines << qs(perf::cellLine(f, false)); // every matrix figure is GB/s: the view says so once
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::ToolTipRole:
        return empty ? tr("%1 \u2192 %2: this run has no figure for it.").arg(nodeName(index.row()), nodeName(index.column()))
                     : tooltipOf(cell.figures);
    case Qt::BackgroundRole:
        return empty ? QVariant() : QVariant(verdictBackground(cell.verdict));
    case Qt::ForegroundRole:
        return empty ? QVariant(QColor(0x75, 0x75, 0x75)) : QVariant(verdictForeground(cell.verdict));
    case Qt::TextAlignmentRole:
        return int(Qt::AlignLeft | Qt::AlignVCenter);
    case VerdictRole:
        return QString::fromLatin1(perf::verdictId(cell.verdict));
    case FigureCountRole:
        return int(cell.figures.size());
    default:
        return {};
    }
}

QVariant LinkMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (section < 0 || section >= rowCount())
        return {};
    if (role == Qt::DisplayRole)
        return orientation == Qt::Horizontal ? tr("to %1").arg(nodeName(section)) : tr("from %1").arg(nodeName(section));
    if (role == Qt::ToolTipRole)
        return orientation == Qt::Horizontal ? tr("Destination: %1").arg(nodeName(section))
                                             : tr("Source: %1").arg(nodeName(section));
    return {};
}

void LinkFiguresModel::setFigures(std::vector<perf::Figure> figures)
{
    beginResetModel();
    m_figures = std::move(figures);
    endResetModel();
}

const perf::Figure* LinkFiguresModel::figureAt(int row) const
{
    return row >= 0 && row < rowCount() ? &m_figures[std::size_t(row)] : nullptr;
}

int LinkFiguresModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_figures.size());
}

int LinkFiguresModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant LinkFiguresModel::data(const QModelIndex& index, int role) const
{
    const auto* f = index.isValid() ? figureAt(index.row()) : nullptr;
    if (!f || index.column() >= NUM_COLUMNS)
        return {};
    const QString unit = QString::fromLatin1(perf::info(f->test).unit);
    const bool measured = !f->error && !f->skipped;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TestColumn: {
            QString name = QString::fromLatin1(perf::info(f->test).title);
            if (!f->dtype.empty())
                name += QLatin1Char(' ') + qs(f->dtype);
            return perf::isCollective(f->test) ? name + tr(" (busbw)") : name;
        }
        case WhereColumn: return qs(perf::figureWhere(*f));
        case MeasuredColumn:
            return f->error ? tr("failed") : f->skipped ? tr("not measured") : QStringLiteral("%1 %2").arg(f->value, 0, 'f', 1).arg(unit);
        case ExpectedColumn:
            return f->expected ? QStringLiteral("%1 %2").arg(f->expected->value, 0, 'f', 1).arg(unit) : tr("none");
        case RatioColumn: return f->ratio && measured ? QString::number(*f->ratio, 'f', 2) : QStringLiteral("-");
        case VerdictColumn:
            return QStringLiteral("%1 %2").arg(QString::fromUtf8(perf::verdictMarker(f->verdict)), QString::fromLatin1(perf::verdictText(f->verdict)));
        default: return {};
        }
    case Qt::ToolTipRole: return tooltipOf({*f});
    case Qt::BackgroundRole: return index.column() == VerdictColumn ? QVariant(verdictBackground(f->verdict)) : QVariant();
    case Qt::ForegroundRole: return index.column() == VerdictColumn ? QVariant(verdictForeground(f->verdict)) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() == MeasuredColumn || index.column() == ExpectedColumn || index.column() == RatioColumn
                   ? int(Qt::AlignRight | Qt::AlignVCenter)
                   : int(Qt::AlignLeft | Qt::AlignVCenter);
    case VerdictRole: return QString::fromLatin1(perf::verdictId(f->verdict));
    default: return {};
    }
}

QVariant LinkFiguresModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TestColumn: return tr("Figure");
    case WhereColumn: return tr("Where");
    case MeasuredColumn: return tr("Measured");
    case ExpectedColumn: return tr("Expected");
    case RatioColumn: return tr("Ratio");
    case VerdictColumn: return tr("Verdict");
    default: return {};
    }
}

} // namespace stackscope::ui
