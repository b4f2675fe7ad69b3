// The time range shared by the Monitor charts and the Training page's loss chart: live (follows the
// newest sample with a fixed span) or a fixed window the user panned/zoomed to.
#pragma once

#include "core/telemetry/telemetry_types.h"

#include <QObject>

#include <utility>

namespace stackscope::ui {

class SharedTimeAxis : public QObject {
    Q_OBJECT
public:
    using TimeMs = telemetry::TimeMs;
    explicit SharedTimeAxis(QObject* parent = nullptr);

    bool isLive() const { return m_live; }
    TimeMs span() const { return m_span; }
    // The range to draw given the newest data time (used when live).
    std::pair<TimeMs, TimeMs> rangeFor(TimeMs newest) const;

    // Live: the window ends at the newest sample and is `span` wide.
    void setLive(TimeMs span);
    // Fixed: pan/zoom stops following the data.
    void setFixed(TimeMs t0, TimeMs t1);
    // Zooms around `anchor` by `factor` (< 1 zooms in); leaves live mode.
    void zoom(TimeMs anchor, double factor, TimeMs newest);
    void pan(TimeMs delta, TimeMs newest);

    static constexpr TimeMs kMinSpan = 2000;

Q_SIGNALS:
    void rangeChanged();

private:
    bool m_live = true;
    TimeMs m_span = 10 * 60 * 1000;
    TimeMs m_t0 = 0;
    TimeMs m_t1 = 0;
};

} // namespace stackscope::ui
