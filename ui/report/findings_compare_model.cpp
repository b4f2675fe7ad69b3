// Both sides' findings by id, with where each was found; a side that could not check everything says so.
#include "ui/report/findings_compare_model.h"

#include "core/inspect/system_checks.h"
#include "ui/widgets/status_colors.h"

#include <algorithm>
#include <map>
#include <set>

namespace stackscope::ui {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// "KFD_PERMISSION, RENDER_NODE_PERMISSION and 2 more"
QString idList(const QStringList& ids)
{
    constexpr int kNamed = 3;
    if (ids.size() <= kNamed)
        return ids.join(QStringLiteral(", "));
    return FindingsCompareModel::tr("%1 and %2 more").arg(ids.mid(0, kNamed).join(QStringLiteral(", "))).arg(ids.size() - kNamed);
}

// "• whether the GPU runtime ... load and see the GPUs" a line.
QString bulleted(const std::vector<std::string>& lines)
{
    QStringList out;
    for (const auto& l : lines)
        out << QStringLiteral("\u2022 ") + qs(l);
    return out.join(QLatin1Char('\n'));
}

// The system checks each check that could not be made (notCheckedFacts, core/diagnosis) stands in for.
const std::map<std::string, std::set<std::string>>& checksCovered()
{
    static const std::map<std::string, std::set<std::string>> covered {
        {"GPU_ACCESS_UNKNOWN", {"KFD_PERMISSION", "RENDER_NODE_PERMISSION"}},
        {"ENVIRONMENT_NOT_RECORDED", {"HSA_OVERRIDE_SET"}},
        {"RUNTIME_NOT_QUERIED", {"HIP_RUNTIME_MISSING", "HIP_NO_DEVICE", "NVML_MISSING", "TORCH_MODULE_LOAD_FAILED",
                                 "TORCH_CPU_ONLY", "TORCH_CPU_BUILD", "TORCH_VENDOR_MISMATCH"}},
    };
    return covered;
}

bool isSystemCheck(const std::string& id)
{
    static const std::vector<std::string> ids = CheckCatalogue::builtIn().ids();
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

} // namespace

std::vector<std::string> checksThatCouldFind(const std::string& findingId, const std::vector<NotChecked>& notChecked)
{
    std::vector<std::string> out;
    for (const auto& n : notChecked) {
        const auto covered = checksCovered().find(n.id);
        // A check this table does not know, or a rule's finding (rules read any fact): it could have been found.
        const bool could = covered == checksCovered().end() || !isSystemCheck(findingId) || covered->second.count(findingId);
        if (could)
            out.push_back(n.what);
    }
    return out;
}

std::vector<FindingPresence> compareFindings(const MachineDiagnosis& a, const MachineDiagnosis& b)
{
    std::vector<FindingPresence> rows;
    std::map<std::string, std::size_t> at; // id -> row
    const auto add = [&](const Finding& f, bool sideA) {
        auto [it, fresh] = at.try_emplace(f.id, rows.size());
        if (fresh)
            rows.push_back({f.id, f.title, f.detail, f.severity, std::nullopt, std::nullopt, {}, {}});
        FindingPresence& row = rows[it->second];
        auto& on = sideA ? row.onA : row.onB;
        if (!on || *on < f.severity)
            on = f.severity;
        row.severity = std::max(row.severity, f.severity);
    };
    for (const auto& f : a.findings)
        add(f, true);
    for (const auto& f : b.findings)
        add(f, false);
    for (auto& row : rows) {
        if (!row.onA)
            row.unseenOnA = checksThatCouldFind(row.id, a.notChecked);
        if (!row.onB)
            row.unseenOnB = checksThatCouldFind(row.id, b.notChecked);
    }
    // Differences first, then one side unknown, then on both; stable: within a group the diagnosis's ranked order.
    const auto group = [](const FindingPresence& r) { return r.differs() ? 0 : r.onlyOnOneSide() ? 1 : 2; };
    std::stable_sort(rows.begin(), rows.end(), [&](const FindingPresence& x, const FindingPresence& y) {
        if (group(x) != group(y))
            return group(x) < group(y);
        return group(x) < 2 && x.severity > y.severity;
    });
    return rows;
}

void FindingsCompareModel::setDiagnoses(const MachineDiagnosis& a, const MachineDiagnosis& b)
{
    beginResetModel();
    m_rows = compareFindings(a, b);
    endResetModel();
}

void FindingsCompareModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

void FindingsCompareModel::setHeaders(const QString& a, const QString& b)
{
    m_a = a;
    m_b = b;
    Q_EMIT headerDataChanged(Qt::Horizontal, AColumn, BColumn);
}

QStringList FindingsCompareModel::onlyOn(Side side) const
{
    QStringList out;
    for (const auto& r : m_rows) {
        if (r.differs() && (side == Side::A) == r.onA.has_value())
            out << qs(r.id);
    }
    return out;
}

QStringList FindingsCompareModel::unknownOn(Side side) const
{
    QStringList out;
    for (const auto& r : m_rows) {
        if (!(side == Side::A ? r.unseenOnA : r.unseenOnB).empty() && (side == Side::A ? r.onB : r.onA))
            out << qs(r.id);
    }
    return out;
}

int FindingsCompareModel::onBoth() const
{
    return static_cast<int>(std::count_if(m_rows.begin(), m_rows.end(), [](const auto& r) { return r.onA && r.onB; }));
}

// "Only on A: KFD_PERMISSION; only on B: none; on both: 2." then what a side could not check.
QString FindingsCompareModel::summary() const
{
    if (m_rows.empty())
        return tr("Findings: none on either side.");
    const QStringList a = onlyOn(Side::A), b = onlyOn(Side::B);
    QString text = tr("Findings only on A: %1; only on B: %2; on both: %3.")
                       .arg(a.isEmpty() ? tr("none") : idList(a), b.isEmpty() ? tr("none") : idList(b))
                       .arg(onBoth());
    for (auto side : {Side::A, Side::B}) {
        const QStringList unknown = unknownOn(side);
        if (unknown.isEmpty())
            continue;
        const QString name = side == Side::A ? QStringLiteral("A") : QStringLiteral("B");
        const QString other = side == Side::A ? QStringLiteral("B") : QStringLiteral("A");
        text += QLatin1Char(' ')
            + tr("On %1 and unknown on %2 (not checked there, so not counted as a difference): %3.").arg(other, name, idList(unknown));
    }
    return text;
}

int FindingsCompareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int FindingsCompareModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

// Found: its severity there. Not found: plain where that side could have found it, unknown where it could not.
QVariant FindingsCompareModel::sideData(const std::optional<Severity>& on, const std::vector<std::string>& unseen, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        if (on)
            return tr("found (%1)").arg(QString::fromLatin1(severityName(*on)));
        return unseen.empty() ? tr("not found") : tr("unknown: not checked there");
    case Qt::ForegroundRole:
        if (on)
            return severityColor(*on);
        return unseen.empty() ? mutedColor() : unknownColor();
    case Qt::ToolTipRole:
        if (on || unseen.empty())
            return {};
        return tr("Unknown: it may be there unseen, because this could not be checked there:\n%1").arg(bulleted(unseen));
    default: return {};
    }
}

QVariant FindingsCompareModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const FindingPresence& r = m_rows[static_cast<std::size_t>(index.row())];
    if (index.column() == AColumn)
        return sideData(r.onA, r.unseenOnA, role);
    if (index.column() == BColumn)
        return sideData(r.onB, r.unseenOnB, role);
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        switch (index.column()) {
        case SeverityColumn: return role == SortRole ? QVariant(int(r.severity)) : QVariant(QString::fromLatin1(severityName(r.severity)));
        case IdColumn: return qs(r.id);
        case TitleColumn: return qs(r.title);
        default: return {};
        }
    case IdRole: return qs(r.id);
    case Qt::ForegroundRole: return index.column() == SeverityColumn ? QVariant(severityColor(r.severity)) : QVariant();
    case Qt::ToolTipRole: return qs(r.title) + QStringLiteral("\n\n") + qs(r.detail);
    default: return {};
    }
}

QVariant FindingsCompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn: return tr("Severity");
    case IdColumn: return tr("Rule");
    case TitleColumn: return tr("Finding");
    case AColumn: return m_a;
    case BColumn: return m_b;
    default: return {};
    }
}

} // namespace stackscope::ui
