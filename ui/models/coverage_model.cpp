// Coverage matrix model: red "no" cells carry the consequence and the fix as tooltip.
#include "ui/models/coverage_model.h"

#include "ui/widgets/status_colors.h"

#include <QDir>
#include <QFileInfo>

namespace stackscope::ui {

namespace {
QString str(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}
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
} // namespace

void CoverageModel::setCoverage(const nlohmann::json& coverage)
{
    beginResetModel();
    m_rows.clear();
    m_devices.clear();
    m_emptyReason.clear();
    if (!coverage.is_object()) {
        m_emptyReason = tr("Not scanned (a recorded machine, or inspect --no-archscan).");
    } else {
        if (auto d = coverage.find("devices"); d != coverage.end() && d->is_array()) {
            for (const auto& dev : *d) {
                if (dev.is_string())
                    m_devices << QString::fromStdString(dev.get<std::string>());
            }
        }
        if (auto libs = coverage.find("libraries"); libs != coverage.end() && libs->is_array()) {
            for (const auto& lib : *libs) {
                if (!lib.is_object())
                    continue;
                Row r;
                r.path = str(lib, "path");
                r.kind = str(lib, "kind");
                if (auto t = lib.find("targets"); t != lib.end() && t->is_array()) {
                    for (const auto& target : *t) {
                        const QString id = target.is_object() ? str(target, "id") : QString();
                        if (!id.isEmpty() && !r.targets.contains(id))
                            r.targets << id;
                    }
                }
                if (auto e = lib.find("errors"); e != lib.end() && e->is_array()) {
                    for (const auto& err : *e) {
                        if (err.is_string())
                            r.errors << QString::fromStdString(err.get<std::string>());
                    }
                }
                for (const char* key : {"covers", "explain"}) {
                    auto it = lib.find(key);
                    if (it == lib.end() || !it->is_object())
                        continue;
                    for (const auto& [dev, v] : it->items()) {
                        if (!v.is_string())
                            continue;
                        (std::string(key) == "covers" ? r.verdicts : r.explanations)[QString::fromStdString(dev)]
                            = QString::fromStdString(v.get<std::string>());
                    }
                }
                m_rows << r;
            }
        }
        if (m_rows.isEmpty())
            m_emptyReason = tr("No GPU library found to scan (see the notes of the scan).");
    }
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
