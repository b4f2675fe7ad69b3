// VPOC sessions as a Qt table model.
#include "ui/vpoc/session_model.h"

#include <QDateTime>
#include <QLocale>
#include <QTimeZone>

namespace stackscope::ui {

namespace {

// The C locale with thousands separators ("1,234,567"): counts read the same on every system.
const QLocale& grouped()
{
    static const QLocale locale = [] {
        QLocale l = QLocale::c();
        l.setNumberOptions(QLocale::DefaultNumberOptions);
        return l;
    }();
    return locale;
}

} // namespace

void SessionModel::setResult(std::shared_ptr<const vpoc::VpocResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

QString SessionModel::priceText(int32_t tick) const
{
    const vpoc::Tick t = m_result ? m_result->options.read.tick : vpoc::Tick {};
    return QString::number(t.price(tick), 'f', t.decimals);
}

int SessionModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_result ? 0 : static_cast<int>(m_result->sessions.size());
}

int SessionModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant SessionModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& s = m_result->sessions[static_cast<size_t>(index.row())];
    if (role == SortRole) {
        switch (index.column()) {
        case DateColumn: return s.day;
        case FirstColumn: return qlonglong(s.firstUs);
        case LastColumn: return qlonglong(s.lastUs);
        case BarsColumn: return qlonglong(s.bars);
        case VolumeColumn: return qulonglong(s.volume);
        case LowColumn: return s.lowTick;
        case HighColumn: return s.highTick;
        case PocColumn: return s.pocTick;
        case VahColumn: return s.vahTick;
        case ValColumn: return s.valTick;
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() >= BarsColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role == Qt::ToolTipRole) // the whole row, with the times the page's table leaves out to fit its width
        return tr("Session %1: %2 to %3, %4 bars, volume %5; low %6, high %7, POC %8, VAH %9, VAL %10")
            .arg(text(s, DateColumn), text(s, FirstColumn), text(s, LastColumn), text(s, BarsColumn),
                 text(s, VolumeColumn), text(s, LowColumn), text(s, HighColumn), text(s, PocColumn), text(s, VahColumn))
            .arg(text(s, ValColumn));
    if (role != Qt::DisplayRole)
        return {};
    return text(s, index.column());
}

QString SessionModel::text(const vpoc::SessionResult& s, int column) const
{
    // In the session's zone, as the price chart's axis (a globex day reads 18:00 to 16:59 New York time).
    const QTimeZone zone(QByteArray::fromStdString(m_result->options.session.zoneName));
    auto utc = [&zone](int64_t us) {
        if (!zone.isValid())
            return QDateTime::fromMSecsSinceEpoch(us / 1000, QTimeZone::utc()).toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
        return QDateTime::fromMSecsSinceEpoch(us / 1000, zone).toString(QStringLiteral("yyyy-MM-dd HH:mm t"));
    };
    switch (column) {
    case DateColumn: return QDate(1970, 1, 1).addDays(s.day).toString(Qt::ISODate);
    case FirstColumn: return utc(s.firstUs);
    case LastColumn: return utc(s.lastUs);
    case BarsColumn: return grouped().toString(qlonglong(s.bars));
    case VolumeColumn: return grouped().toString(qulonglong(s.volume));
    case LowColumn: return priceText(s.lowTick);
    case HighColumn: return priceText(s.highTick);
    case PocColumn: return priceText(s.pocTick);
    case VahColumn: return priceText(s.vahTick);
    case ValColumn: return priceText(s.valTick);
    default: return {};
    }
}

QVariant SessionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {"Session", "First", "Last", "Bars", "Volume", "Low", "High", "POC", "VAH", "VAL"};
    return section >= 0 && section < NUM_COLUMNS ? tr(names[section]) : QVariant();
}

} // namespace stackscope::ui
