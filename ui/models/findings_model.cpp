// Findings as a Qt table model: a system check's fix text, a diagnosis finding's fixes with their verification.
#include "ui/models/findings_model.h"

#include "core/diagnosis/diagnosis.h"
#include "ui/widgets/status_colors.h"

#include <QStringList>

#include <algorithm>

namespace stackscope::ui {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// The detail, then each fix of a diagnosis finding with whether a probe variant verified it.
QString detailText(const Finding& f)
{
    QString text = qs(f.detail);
    for (const auto& fix : f.fixes) {
        text += QLatin1String("\n\u2022 ") + qs(fix.text);
        if (!fix.env.empty() && !fix.diagnostic)
            text += QLatin1String(" [") + verifiedText(fix.verified) + QLatin1Char(']');
    }
    return text;
}

QString fixText(const Finding& f)
{
    QStringList fixes;
    if (!f.fix.empty())
        fixes << qs(f.fix);
    for (const auto& fix : f.fixes)
        fixes << qs(fix.text);
    return fixes.join(QLatin1Char('\n'));
}

} // namespace

bool canBeTried(const Finding& f)
{
    return std::any_of(f.fixes.begin(), f.fixes.end(), [](const FixAdvice& fix) {
        return !fix.env.empty() && !fix.diagnostic && fix.applies != std::optional<bool>(false);
    });
}

QString verifiedText(const std::optional<bool>& verified)
{
    if (!verified)
        return QObject::tr("not tried");
    return *verified ? QObject::tr("verified here") : QObject::tr("did not work here");
}

QString verifiedToolTip(const std::optional<bool>& verified)
{
    if (!verified)
        return QObject::tr("Not tried: the failing probes have not been run again with this fix on this machine, so it "
                           "is not verified. On the Probes page, select the finding and press \u201cTry this fix\u201d.");
    return *verified ? QObject::tr("Verified here: the failing probes passed when run again with this fix on this machine.")
                     : QObject::tr("Did not work here: the failing probes still failed when run again with this fix on "
                                   "this machine.");
}

QString fixColumnLegend()
{
    return QObject::tr("Fix \u201cnot tried\u201d: the failing probes were not run again with the fix\u2019s variant "
                       "(Probes page: Try this fix); \u201cverified here\u201d / \u201cdid not work here\u201d: they were, "
                       "and passed / still failed; \u201cno probe can try this\u201d: the fix is not an environment change.");
}

void FindingsModel::setFindings(std::vector<Finding> findings, Order order)
{
    if (order == Order::ErrorsFirst) {
        std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
            return static_cast<int>(a.severity) > static_cast<int>(b.severity);
        });
    }
    beginResetModel();
    m_findings = std::move(findings);
    endResetModel();
}

const Finding* FindingsModel::findingAt(int row) const
{
    if (row < 0 || row >= static_cast<int>(m_findings.size()))
        return nullptr;
    return &m_findings[static_cast<size_t>(row)];
}

int FindingsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_findings.size());
}

int FindingsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant FindingsModel::display(const Finding& f, int column) const
{
    switch (column) {
    case SeverityColumn: return QString::fromLatin1(severityName(f.severity));
    case IdColumn: return qs(f.id);
    case TitleColumn: return findingTitle(f);
    // A system check has no fix a probe could try: nothing to say there. A fix that is not an environment change
    // (reseat the card, install another build) read "not tried" as if a probe could have tried it.
    case VerifiedColumn:
        if (f.fixes.empty())
            return QString();
        return canBeTried(f) || f.verified ? verifiedText(f.verified) : tr("no probe can try this");
    default: return {};
    }
}

QVariant FindingsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Finding& f = m_findings[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole: return display(f, index.column());
    case SortRole:
        return index.column() == SeverityColumn ? QVariant(static_cast<int>(f.severity)) : display(f, index.column());
    case SeverityRole: return static_cast<int>(f.severity);
    case IdRole: return qs(f.id);
    case DetailRole: return detailText(f);
    case FixRole: return fixText(f);
    case SourcesRole: {
        QStringList sources;
        for (const auto& s : f.sources)
            sources << qs(s);
        return sources;
    }
    case Qt::ToolTipRole: // a title cut in a narrow column is whole here
        if (index.column() == VerifiedColumn) {
            if (f.fixes.empty())
                return {};
            if (!canBeTried(f) && !f.verified)
                return tr("No probe can try this: its fixes are not environment changes a probe could run with (a slot, "
                          "a driver, another build). Follow the fix, then run the probes again.");
            return verifiedToolTip(f.verified);
        }
        return index.column() == TitleColumn ? qs(f.title) + QStringLiteral("\n\n") + qs(f.detail) : qs(f.detail);
    case Qt::ForegroundRole:
        if (index.column() == SeverityColumn)
            return severityColor(f.severity);
        if (index.column() == VerifiedColumn && f.verified && !f.fixes.empty())
            return *f.verified ? okColor() : errorColor();
        return {};
    default: return {};
    }
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == VerifiedColumn)
        return fixColumnLegend();
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn: return tr("Severity");
    case IdColumn: return tr("Rule");
    case TitleColumn: return tr("Finding");
    case VerifiedColumn: return tr("Fix");
    default: return {};
    }
}

QString findingTitle(const Finding& f)
{
    return qs(findingHeadline(f));
}

} // namespace stackscope::ui
