// StallMeter: a precise timer whose lateness measures how long the GUI thread's event loop was blocked.
#include "ui/training/stall_meter.h"

#include <QThread>

#include <algorithm>

namespace stackscope::ui {

StallMeter::StallMeter(QObject* parent, int intervalMs)
    : QObject(parent)
    , m_intervalMs(std::max(1, intervalMs))
{
    // Coarse timers may fire up to 5 % late by design; a precise one is late only when the loop was busy.
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(m_intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &StallMeter::onTick);
}

void StallMeter::start()
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_longestNs = 0;
    m_ticks = 0;
    m_clock.start();
    m_lastNs = 0;
    m_timer.start();
}

void StallMeter::stop()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_timer.isActive())
        return;
    onTick();
    m_timer.stop();
}

void StallMeter::onTick()
{
    const qint64 now = m_clock.nsecsElapsed();
    const qint64 late = now - m_lastNs - qint64(m_intervalMs) * 1000000;
    m_lastNs = now;
    ++m_ticks;
    m_longestNs = std::max(m_longestNs, late);
}

} // namespace stackscope::ui
