// Coverage matrix model: red "no" cells carry the consequence and the fix as tooltip.
#include "ui/models/coverage_model.h"

#include "ui/widgets/status_colors.h"

#include <QDir>
#include <QFileInfo>

namespace stackscope::ui {

namespace {
// The file name, with its folder where the name alone says nothing ("rocblas/library", not "library").
QString shortName(const QString& path)
{
    const QFileInfo info(path);
    const QString name = info.fileName();
    if (name.isEmpty())
        return path;
    if (name.contains(QLatin1Char('.')))
        return name;
    return info.dir().dirName() + QLatin1Char('/') + name;
}

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}
} // namespace

void CoverageModel::setCoverage(const std::optional<archscan::ArchCoverage>& coverage)
{
    beginResetModel();
    m_rows.clear();
    m_devices.clear();
    m_emptyReason.clear();
    if (!coverage) {
        m_emptyReason = tr("Not scanned (a recorded machine, or inspect --no-archscan).");
        endResetModel();
        return;
    }
    for (const auto& device : coverage->devices)
        m_devices << qs(device);
    for (const auto& lib : coverage->libraries) {
        Row r;
        r.path = qs(lib.path);
        r.kind = QString::fromLatin1(archscan::libraryKindName(lib.kind));
        for (const auto& target : lib.targets) {
            if (!target.id.empty() && !r.targets.contains(qs(target.id)))
                r.targets << qs(target.id);
        }
        for (const auto& error : lib.errors)
            r.errors << qs(error);
        for (const auto& [device, verdict] : lib.covers) {
            r.verdicts[qs(device)] = QString::fromLatin1(archscan::coverageName(verdict.coverage));
            if (!verdict.explanation.empty())
                r.explanations[qs(device)] = qs(verdict.explanation);
        }
        m_rows << r;
    }
    if (m_rows.isEmpty())
        m_emptyReason = tr("No GPU library found to scan (see the notes of the scan).");
    endResetModel();
}

int CoverageModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int CoverageModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : FIRST_DEVICE_COLUMN + static_cast<int>(m_devices.size());
}

QVariant CoverageModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& r = m_rows[index.row()];
    if (index.column() < FIRST_DEVICE_COLUMN) {
        if (role == Qt::DisplayRole || role == SortRole) {
            switch (index.column()) {
            case LibraryColumn: return shortName(r.path);
            case KindColumn: return r.kind;
            case TargetsColumn: return r.targets.size() > 6 ? tr("%1 targets").arg(r.targets.size()) : r.targets.join(QStringLiteral(" "));
            default: return {};
            }
        }
        if (role == Qt::ToolTipRole) {
            QString tip = r.path + QStringLiteral("\n") + r.targets.join(QStringLiteral(" "));
            if (!r.errors.isEmpty())
                tip += QStringLiteral("\nErrors: ") + r.errors.join(QStringLiteral("; "));
            return tip;
        }
        if (role == Qt::ForegroundRole && index.column() == LibraryColumn && !r.errors.isEmpty())
            return warningColor();
        return {};
    }
    const QString device = m_devices[index.column() - FIRST_DEVICE_COLUMN];
    const QString verdict = r.verdicts.value(device);
    switch (role) {
    case Qt::DisplayRole:
        return verdict.isEmpty() ? QStringLiteral("–") : verdict;
    case SortRole:
    case VerdictRole:
        return verdict;
    case ExplanationRole:
    case Qt::ToolTipRole:
        return verdict.isEmpty() ? tr("Not applicable: the library is for the other vendor.")
                                 : r.explanations.value(device, tr("Native code for %1.").arg(device));
    case Qt::BackgroundRole:
        if (verdict == QStringLiteral("yes"))
            return QColor(0xe8, 0xf5, 0xe9);
        if (verdict == QStringLiteral("no"))
            return QColor(0xff, 0xcd, 0xd2);
        if (!verdict.isEmpty())
            return QColor(0xff, 0xf3, 0xcd);
        return {};
    case Qt::TextAlignmentRole:
        return Qt::AlignCenter;
    default:
        return {};
    }
}

QVariant CoverageModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case LibraryColumn: return tr("Library");
    case KindColumn: return tr("Kind");
    case TargetsColumn: return tr("Targets");
    default:
        return section - FIRST_DEVICE_COLUMN < m_devices.size() ? m_devices[section - FIRST_DEVICE_COLUMN] : QVariant();
    }
}

} // namespace stackscope::ui
