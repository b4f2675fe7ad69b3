// StallMeter: the longest time the GUI thread's event loop did not run, from a 5 ms timer's lateness.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace stackscope::ui {

// While running, a precise timer ticks every `intervalMs` on the owner's thread. A tick can only be late
// when the event loop was busy (or the process was not scheduled), so the largest lateness is the longest
// stall a user could have felt. The timer costs ~200 wakeups a second: run it only while work is running.
class StallMeter : public QObject {
    Q_OBJECT
public:
    explicit StallMeter(QObject* parent = nullptr, int intervalMs = 5);

    // Resets the figures and starts measuring.
    void start();
    // Counts the time since the last tick too (a stall that ends with stop() still counts).
    void stop();
    bool isRunning() const { return m_timer.isActive(); }

    // The largest lateness of a tick since start(), in milliseconds (0 until the first tick).
    double longestStallMs() const { return m_longestNs / 1e6; }
    int ticks() const { return m_ticks; }
    int intervalMs() const { return m_intervalMs; }

private:
    void onTick();

    int m_intervalMs;
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastNs = 0;
    qint64 m_longestNs = 0;
    int m_ticks = 0;
};

} // namespace stackscope::ui
