// Painting of the volume profile.
#include "ui/vpoc/volume_profile_view.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace stackscope::ui {

namespace {
const QColor kOutside(0x90, 0xa4, 0xae);
const QColor kValueArea(0x42, 0x85, 0xf4);
const QColor kPoc(0xe5, 0x39, 0x35);
} // namespace

VolumeProfileView::VolumeProfileView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(220, 260);
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, Qt::white);
    setPalette(p);
}

void VolumeProfileView::setProfile(ProfileInput profile, std::function<QString(int32_t)> priceText)
{
    m_profile = std::move(profile);
    m_priceText = std::move(priceText);
    update();
}

void VolumeProfileView::setEmptyText(const QString& text)
{
    m_emptyText = text;
    update();
}

QString VolumeProfileView::emptyText() const
{
    return m_emptyText.isEmpty() ? tr("Select a session") : m_emptyText;
}

void VolumeProfileView::clear()
{
    m_profile = {};
    update();
}

QColor VolumeProfileView::vahColor() { return QColor(0x2e, 0x7d, 0x32); }
QColor VolumeProfileView::valColor() { return QColor(0x8e, 0x24, 0xaa); }
QColor VolumeProfileView::pocColor() { return kPoc; }

QList<LegendEntry> VolumeProfileView::legendEntries()
{
    return { { kValueArea, tr("value area") }, { kPoc, tr("POC") }, { kOutside, tr("outside") } };
}

void VolumeProfileView::setPriceFrame(std::optional<PriceFrame> frame)
{
    m_frame = frame;
    update();
}

QRectF VolumeProfileView::plotArea() const
{
    const double left = 70, width = std::max(10, this->width() - 82);
    if (m_frame && !m_profile.volume.empty())
        return alignedProfileArea(m_profile, *m_frame, left, width);
    return QRectF(left, 24, width, std::max(10, height() - 48));
}

void VolumeProfileView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(Qt::black);
    p.drawText(QRectF(0, 2, width(), 20), Qt::AlignCenter, tr("Volume by price"));
    if (m_profile.volume.empty()) {
        p.setPen(Qt::gray);
        p.drawText(rect().adjusted(8, 0, -8, 0), Qt::AlignCenter | Qt::TextWordWrap,
                   emptyText());
        return;
    }
    const QRectF area = plotArea();
    const VolumeTicks ticks = scaleFor(p.fontMetrics(), area);
    for (const LevelBar& b : layoutProfile(m_profile, area, ticks.top)) {
        const QColor c = b.kind == LevelKind::Poc ? kPoc : b.kind == LevelKind::ValueArea ? kValueArea : kOutside;
        p.fillRect(b.rect.adjusted(0, 0, 0, b.rect.height() > 3 ? -0.5 : 0), c);
    }
    // Price labels: the value area edges and the POC, plus the extremes.
    const double h = area.height() / static_cast<double>(m_profile.volume.size());
    auto label = [&](int32_t tick, const QColor& colour) {
        const double y = area.bottom() - h * (tick - m_profile.lowTick + 0.5);
        p.setPen(colour);
        p.drawLine(QPointF(area.left() - 4, y), QPointF(area.right(), y));
        p.drawText(QRectF(0, y - 8, area.left() - 6, 16), Qt::AlignRight | Qt::AlignVCenter,
                   m_priceText ? m_priceText(tick) : QString::number(tick));
    };
    const int32_t high = m_profile.lowTick + static_cast<int32_t>(m_profile.volume.size()) - 1;
    // The extremes only where they do not collide with the value area and POC labels.
    const double minGap = p.fontMetrics().height() / h;
    for (int32_t extreme : {high, m_profile.lowTick}) {
        const bool clear = std::abs(extreme - m_profile.vahTick) > minGap && std::abs(extreme - m_profile.valTick) > minGap
            && std::abs(extreme - m_profile.pocTick) > minGap;
        if (clear)
            label(extreme, Qt::darkGray);
    }
    label(m_profile.vahTick, vahColor());
    label(m_profile.valTick, valColor());
    label(m_profile.pocTick, kPoc);
    drawVolumeScale(p, area, ticks);
}

QString VolumeProfileView::volumeText(uint64_t v)
{
    if (v >= 1'000'000 && v % 100'000 == 0)
        return QString::number(double(v) / 1e6, 'g', 4) + QStringLiteral("M");
    if (v >= 1'000 && v % 100 == 0)
        return QString::number(double(v) / 1e3, 'g', 4) + QStringLiteral("k");
    return QString::number(v);
}

// As many round intervals as labels of about "000k" fit the width (at least one: 0 and the top).
VolumeTicks VolumeProfileView::scaleFor(const QFontMetrics& fm, const QRectF& area) const
{
    const uint64_t peak = *std::max_element(m_profile.volume.begin(), m_profile.volume.end());
    const int labelRoom = fm.horizontalAdvance(QStringLiteral("000k")) + 16;
    return volumeAxisTicks(peak, std::clamp(static_cast<int>(area.width() / labelRoom), 1, 5));
}

// The volume scale under the bars: 0 to the scale's top at its round steps (every step labelled), the unit under it.
void VolumeProfileView::drawVolumeScale(QPainter& p, const QRectF& area, const VolumeTicks& ticks) const
{
    const QFontMetrics fm = p.fontMetrics();
    const double y = area.bottom() + 2;
    p.setPen(Qt::darkGray);
    p.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
    m_scaleValues.clear();
    for (uint64_t v = 0; v <= ticks.top; v += ticks.step) {
        m_scaleValues << v;
        const double x = area.left() + area.width() * double(v) / double(ticks.top);
        p.drawLine(QPointF(x, y), QPointF(x, y + 3));
        const QString text = volumeText(v);
        const double w = fm.horizontalAdvance(text) + 2;
        // Centred on its tick, kept inside the widget (the top's label at the right edge).
        const double left = std::clamp(x - w / 2, 0.0, std::max(0.0, width() - w));
        p.drawText(QRectF(left, y + 3, w, fm.height()), Qt::AlignCenter, text);
    }
    const QString unit = tr("contracts");
    p.drawText(QRectF(area.right() - fm.horizontalAdvance(unit), y + 3 + fm.height(), fm.horizontalAdvance(unit) + 2,
                      fm.height()),
               Qt::AlignRight, unit);
    m_scaleStep = ticks.step;
}

void VolumeProfileView::mouseMoveEvent(QMouseEvent* event)
{
    int32_t tick = 0;
    if (!tickAtY(m_profile, plotArea(), event->position().y(), &tick)) {
        QToolTip::hideText();
        return;
    }
    const uint64_t v = m_profile.volume[static_cast<size_t>(tick - m_profile.lowTick)];
    QToolTip::showText(event->globalPosition().toPoint(),
                       tr("%1: %2 contracts").arg(m_priceText ? m_priceText(tick) : QString::number(tick)).arg(v), this);
}

} // namespace stackscope::ui
