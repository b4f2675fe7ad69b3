// One Monitor chart: a quantity for all GPUs (plus overlays such as libtorch's allocator figures on
// the VRAM chart), drawn from min/max-decimated columns, with timeline events as vertical markers.
#pragma once

#include "core/telemetry/decimation.h"
#include "core/telemetry/telemetry_store.h"
#include "ui/monitor/column_cache.h"

#include <QColor>
#include <QLineF>
#include <QVector>
#include <QWidget>

#include <map>
#include <utility>
#include <vector>

class QPainter;

namespace stackscope::ui {

class SharedTimeAxis;

class TelemetryChart : public QWidget {
    Q_OBJECT
public:
    using TimeMs = telemetry::TimeMs;
    TelemetryChart(telemetry::Quantity primary, std::vector<telemetry::Quantity> overlays, SharedTimeAxis* axis,
                   QWidget* parent = nullptr);

    telemetry::Quantity quantity() const { return m_primary; }
    // Decimates the series of this chart's quantities for [t0, t1] at one column per pixel and
    // schedules a paint; painting then only walks the (at most width) cached columns.
    void refresh(const telemetry::TelemetryStore& store, TimeMs t0, TimeMs t1,
                 std::vector<telemetry::TimelineEvent> events, const QString& emptyMessage);

    struct DrawnSeries {
        telemetry::SeriesKey key;
        QString label;
        QColor color;
        bool overlay = false;
        std::vector<telemetry::ColumnSpan> spans;
    };
    const std::vector<DrawnSeries>& series() const { return m_series; }
    QRect plotRect() const;
    // Off: every refresh decimates the whole view (the benchmark's same-run baseline).
    void setColumnCacheEnabled(bool on)
    {
        m_useColumnCache = on;
        m_caches.clear();
    }
    // What an empty chart draws in its middle (short: the reason is said once above the charts).
    QString emptyMessage() const { return m_emptyMessage; }
    // "12.5 GiB", "87 %", "312 W"
    static QString formatValue(telemetry::Quantity q, double v);
    // The value-axis labels for a range: `rows` + 1 evenly spaced, or fewer (2, then 1) when formatting
    // would print the same text twice ("0.00 GiB" five times, "1 C, 1 C, 0 C").
    static std::vector<std::pair<double, QString>> valueLabels(telemetry::Quantity q, telemetry::ValueRange range, int rows = 4);

    QSize sizeHint() const override { return {640, 170}; }
    QSize minimumSizeHint() const override { return {240, 110}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    TimeMs timeAtX(double x) const;
    // paintEvent's layers, in the order they are drawn (the painter's pen and font carry from one to the next).
    void paintLegend(QPainter& p, const QFont& small, const QColor& text) const;
    void paintValueGrid(QPainter& p, const QRect& plot, const QColor& text) const;
    void paintTimeLabels(QPainter& p, const QRect& plot, const QColor& text) const;
    void paintEmptyMessage(QPainter& p, const QRect& plot) const;
    void paintEvents(QPainter& p, const QRect& plot) const;
    void paintSeries(QPainter& p, const QRect& plot);

    telemetry::Quantity m_primary;
    std::vector<telemetry::Quantity> m_overlays;
    SharedTimeAxis* m_axis;
    std::vector<DrawnSeries> m_series;
    std::vector<telemetry::TimelineEvent> m_events;
    QString m_emptyMessage;
    TimeMs m_t0 = 0;
    TimeMs m_t1 = 1;
    TimeMs m_newest = 0;
    int m_columns = 1;
    telemetry::ValueRange m_range;
    int m_dragX = -1;
    QVector<QLineF> m_lines; // reused between paints
    bool m_useColumnCache = true;
    std::map<telemetry::SeriesKey, ColumnCache> m_caches;

};

} // namespace stackscope::ui
