// TelemetryChart: decimated drawing, axes, events, and pan/zoom on the shared time axis.
#include "ui/monitor/telemetry_chart.h"

#include "ui/monitor/time_axis.h"

#include <QDateTime>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace stackscope::ui {

using namespace telemetry;

namespace {

QColor gpuColor(int n, bool overlay)
{
    static const QColor palette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c),
                                     QColor(0xff, 0x7f, 0x0e), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                     QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf)};
    QColor c = palette[n % 8];
    return overlay ? c.lighter(135) : c;
}

QColor eventColor(EventKind k)
{
    switch (k) {
    case EventKind::RunStarted:
    case EventKind::RunStopped: return QColor(0x44, 0x44, 0x44);
    case EventKind::EpochEnd: return QColor(0x88, 0x88, 0x88);
    case EventKind::ProbeFailure: return QColor(0xc0, 0x00, 0x00);
    case EventKind::VariantChange: return QColor(0x80, 0x40, 0xc0);
    }
    return Qt::gray;
}

} // namespace

TelemetryChart::TelemetryChart(Quantity primary, std::vector<Quantity> overlays, SharedTimeAxis* axis, QWidget* parent)
    : QWidget(parent)
    , m_primary(primary)
    , m_overlays(std::move(overlays))
    , m_axis(axis)
{
    setObjectName(QString::fromLatin1(quantityKey(primary)) + QStringLiteral("Chart"));
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(false);
    setToolTip(tr("Wheel: zoom  ·  drag: pan  ·  double-click: follow live"));
}

QRect TelemetryChart::plotRect() const
{
    return rect().adjusted(70, 22, -12, -20);
}

QString TelemetryChart::formatValue(Quantity q, double v)
{
    const QString unit = QString::fromLatin1(quantityUnit(q));
    if (unit == QStringLiteral("B"))
        return QStringLiteral("%1 GiB").arg(v / double(1ULL << 30), 0, 'f', v < 10.0 * (1ULL << 30) ? 2 : 1);
    if (unit == QStringLiteral("C"))
        return QStringLiteral("%1 °C").arg(v, 0, 'f', 0);
    return QStringLiteral("%1 %2").arg(v, 0, 'f', 0).arg(unit);
}

void TelemetryChart::refresh(const TelemetryStore& store, TimeMs t0, TimeMs t1, std::vector<TimelineEvent> events,
                             const QString& emptyMessage)
{
    m_columns = std::max(1, plotRect().width());
    // Columns on a grid fixed in absolute time: a sliding window keeps its finished columns (the cache).
    const ColumnGrid grid = columnGrid(t0, std::max(t1, t0 + 1), m_columns);
    m_t0 = grid.first * grid.colMs;
    m_t1 = (grid.first + m_columns) * grid.colMs;
    m_newest = store.newestTime().value_or(t1);
    m_events = std::move(events);
    m_emptyMessage = emptyMessage;
    m_series.clear();
    int gpuNumber = 0;
    std::string lastGpu;
    for (const SeriesKey& key : store.keys()) {
        const bool primary = key.quantity == m_primary;
        const bool overlay = std::find(m_overlays.begin(), m_overlays.end(), key.quantity) != m_overlays.end();
        if (!primary && !overlay)
            continue;
        if (key.gpu != lastGpu && primary) {
            lastGpu = key.gpu;
            ++gpuNumber;
        }
        DrawnSeries s;
        s.key = key;
        s.overlay = overlay;
        s.label = QString::fromStdString(key.gpu) +
                  (overlay ? QStringLiteral(" ") + QString::fromLatin1(quantityLabel(key.quantity)) : QString());
        s.color = gpuColor(std::max(0, gpuNumber - 1), overlay);
        if (m_useColumnCache) {
            s.spans = m_caches[key].update(grid.first, m_columns, grid.colMs, [&store, &key](TimeMs a, TimeMs b, int n) {
                return store.decimate(key, a, b, n);
            });
        } else {
            s.spans = store.decimate(key, m_t0, m_t1, m_columns);
        }
        m_series.push_back(std::move(s));
    }
    std::vector<std::vector<ColumnSpan>> all;
    for (const auto& s : m_series)
        all.push_back(s.spans);
    const bool nonNegative = m_primary != Quantity::Temperature;
    m_range = valueRangeOf(all, nonNegative);
    if (m_primary == Quantity::Utilisation)
        m_range = {0, 100};
    update();
}

std::vector<std::pair<double, QString>> TelemetryChart::valueLabels(Quantity q, telemetry::ValueRange range, int rows)
{
    for (int n : {rows, 2, 1}) {
        std::vector<std::pair<double, QString>> labels;
        bool distinct = true;
        for (int i = 0; i <= n && distinct; ++i) {
            const double v = range.min + (range.max - range.min) * i / n;
            QString text = formatValue(q, v);
            distinct = labels.empty() || labels.back().second != text;
            labels.emplace_back(v, std::move(text));
        }
        if (distinct)
            return labels;
    }
    return {{range.min, formatValue(q, range.min)}}; // a flat range: one label says it all
}

void TelemetryChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const QRect plot = plotRect();
    const QColor text = palette().color(QPalette::Text);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);

    paintLegend(p, small, text);
    paintValueGrid(p, plot, text);
    paintTimeLabels(p, plot, text);
    paintEmptyMessage(p, plot);

    p.setClipRect(plot.adjusted(1, 1, 0, 0));
    paintEvents(p, plot);
    paintSeries(p, plot);
}

void TelemetryChart::paintLegend(QPainter& p, const QFont& small, const QColor& text) const
{
    // Title and legend on the top line.
    p.setPen(text);
    QFont bold = small;
    bold.setBold(true);
    p.setFont(bold);
    const QString title = QString::fromLatin1(quantityLabel(m_primary));
    p.drawText(QPoint(8, 15), title);
    int x = 8 + QFontMetrics(bold).horizontalAdvance(title) + 16;
    p.setFont(small);
    for (const auto& s : m_series) {
        QString label = s.label;
        if (!s.spans.empty())
            label += QStringLiteral(" ") + formatValue(s.key.quantity, s.spans.back().last);
        p.fillRect(QRect(x, 7, 10, 10), s.color);
        p.setPen(text);
        p.drawText(QPoint(x + 14, 16), label);
        x += 14 + QFontMetrics(small).horizontalAdvance(label) + 14;
    }
}

void TelemetryChart::paintValueGrid(QPainter& p, const QRect& plot, const QColor& text) const
{
    // Grid and value labels.
    p.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DotLine));
    const int rows = 4;
    for (int i = 0; i <= rows; ++i) {
        const int y = plot.bottom() - plot.height() * i / rows;
        p.drawLine(plot.left(), y, plot.right(), y);
    }
    p.save();
    p.setPen(text);
    const double span = std::max(1e-12, m_range.max - m_range.min);
    for (const auto& [v, label] : valueLabels(m_primary, m_range, rows)) {
        const int y = plot.bottom() - static_cast<int>(std::lround(plot.height() * (v - m_range.min) / span));
        p.drawText(QRect(0, y - 8, plot.left() - 6, 16), Qt::AlignRight | Qt::AlignVCenter, label);
    }
    p.restore();
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(plot);
}

void TelemetryChart::paintTimeLabels(QPainter& p, const QRect& plot, const QColor& text) const
{
    // Time labels: start, middle, end (local time; the span decides whether seconds matter).
    p.setPen(text);
    const bool longSpan = m_t1 - m_t0 > 6LL * 3600 * 1000;
    const QString fmt = longSpan ? QStringLiteral("ddd HH:mm") : QStringLiteral("HH:mm:ss");
    for (int i = 0; i <= 2; ++i) {
        const TimeMs t = m_t0 + (m_t1 - m_t0) * i / 2;
        const QString label = QDateTime::fromMSecsSinceEpoch(t).toString(fmt);
        const int lx = plot.left() + plot.width() * i / 2;
        const Qt::Alignment align = i == 0 ? Qt::AlignLeft : i == 2 ? Qt::AlignRight : Qt::AlignHCenter;
        const QRect box = i == 0 ? QRect(lx, plot.bottom() + 2, 120, 16)
                          : i == 2 ? QRect(lx - 120, plot.bottom() + 2, 120, 16)
                                   : QRect(lx - 60, plot.bottom() + 2, 120, 16);
        p.drawText(box, align | Qt::AlignTop, label);
    }
}

void TelemetryChart::paintEmptyMessage(QPainter& p, const QRect& plot) const
{
    if (m_series.empty() || std::all_of(m_series.begin(), m_series.end(), [](const auto& s) { return s.spans.empty(); })) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(plot.adjusted(8, 4, -8, -4), Qt::AlignCenter | Qt::TextWordWrap,
                   m_emptyMessage.isEmpty() ? tr("No samples in this time range") : m_emptyMessage);
    }
}

void TelemetryChart::paintEvents(QPainter& p, const QRect& plot) const
{
    // Events: a vertical line each, labelled where there is room.
    for (const auto& e : m_events) {
        const int c = columnOf(e.timeMs, m_t0, m_t1, m_columns);
        if (c < 0)
            continue;
        p.setPen(QPen(eventColor(e.kind), 1, Qt::DashLine));
        p.drawLine(plot.left() + c, plot.top(), plot.left() + c, plot.bottom());
    }
}

void TelemetryChart::paintSeries(QPainter& p, const QRect& plot)
{
    // Series: per column a vertical bar min..max, and a line from one column's last value to the
    // next column's first, so a million points cost at most a few thousand segments.
    p.setRenderHint(QPainter::Antialiasing, false);
    const double yScale = plot.height() / std::max(1e-12, m_range.max - m_range.min);
    auto yOf = [&](double v) { return plot.bottom() - (v - m_range.min) * yScale; };
    for (const auto& s : m_series) {
        // Overlays: reserved dashed, allocated dotted, so the allocator's cache reads apart from the tensors.
        const Qt::PenStyle style = !s.overlay ? Qt::SolidLine
                                   : s.key.quantity == Quantity::TorchAllocated ? Qt::DotLine
                                                                                : Qt::DashLine;
        // A cosmetic 1-pixel pen and one drawLines call: the raster engine's fast path (a wider pen
        // or a QPainterPath goes through the stroker, ten times slower for thousands of segments).
        QPen pen(s.color, 1, style);
        pen.setCosmetic(true);
        p.setPen(pen);
        m_lines.clear();
        m_lines.reserve(s.spans.size() * 2);
        const ColumnSpan* previous = nullptr;
        for (const auto& span : s.spans) {
            const double cx = plot.left() + span.column + 0.5;
            // A gap of more than a few columns means no samples there (sampler stopped): break the line.
            if (previous && span.column - previous->column <= 8)
                m_lines.append(QLineF(plot.left() + previous->column + 0.5, yOf(previous->last), cx, yOf(span.first)));
            if (span.min != span.max)
                m_lines.append(QLineF(cx, yOf(span.min), cx, yOf(span.max)));
            previous = &span;
        }
        p.drawLines(m_lines);
    }
}

SharedTimeAxis::TimeMs TelemetryChart::timeAtX(double x) const
{
    const QRect plot = plotRect();
    const double f = (x - plot.left()) / std::max(1, plot.width());
    return m_t0 + static_cast<TimeMs>(std::llround(f * double(m_t1 - m_t0)));
}

void TelemetryChart::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0 || !m_axis)
        return;
    m_axis->zoom(timeAtX(event->position().x()), std::pow(0.8, steps), m_newest);
    event->accept();
}

void TelemetryChart::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        m_dragX = qRound(event->position().x());
}

void TelemetryChart::mouseMoveEvent(QMouseEvent* event)
{
    if (m_dragX < 0 || !m_axis || !(event->buttons() & Qt::LeftButton))
        return;
    const int x = qRound(event->position().x());
    const TimeMs delta = timeAtX(m_dragX) - timeAtX(x);
    m_dragX = x;
    if (delta != 0)
        m_axis->pan(delta, m_newest);
}

void TelemetryChart::mouseDoubleClickEvent(QMouseEvent*)
{
    if (m_axis)
        m_axis->setLive(m_axis->span());
}

} // namespace stackscope::ui
