// Monitor benchmark: feeds 1,000,000 samples at 10 Hz-equivalent (27.8 simulated hours) into the
// Monitor panel while a synthetic training job pushes allocator figures and epoch events, and reports
// the GUI thread's stalls (heartbeat gaps) and memory after more than 24 simulated hours.
// Usage: bench_monitor [--points N] [--gpus N] [--seconds S] [--span-hours H] [--column-cache 0|1]   (QT_QPA_PLATFORM=offscreen works)
#include "core/telemetry/sampler.h"
#include "ui/monitor/monitor_dock.h"
#include "ui/monitor/telemetry_chart.h"
#include "ui/monitor/time_axis.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace stackscope;
using namespace stackscope::telemetry;

namespace {

double rssMiB()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stod(line.substr(6)) / 1024.0;
    }
    return -1;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const std::size_t i = std::min(v.size() - 1, static_cast<std::size_t>(p / 100.0 * double(v.size())));
    return v[i];
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    long long points = 1'000'000;
    int gpus = 2;
    double seconds = 20;
    double spanHours = 24;
    int columnCache = 1;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        bool ok = false;
        if (args[i] == QStringLiteral("--points"))
            points = args[i + 1].toLongLong(&ok);
        else if (args[i] == QStringLiteral("--gpus"))
            gpus = args[i + 1].toInt(&ok);
        else if (args[i] == QStringLiteral("--seconds"))
            seconds = args[i + 1].toDouble(&ok);
        else if (args[i] == QStringLiteral("--span-hours"))
            spanHours = args[i + 1].toDouble(&ok);
        else if (args[i] == QStringLiteral("--column-cache"))
            columnCache = args[i + 1].toInt(&ok);
        if (!ok || points <= 0 || gpus <= 0 || seconds <= 0 || spanHours <= 0) {
            std::fprintf(stderr, "bench_monitor: bad %s %s; usage: bench_monitor [--points N] [--gpus N] "
                                 "[--seconds S] [--span-hours H] (all positive)\n",
                         qPrintable(args[i]), qPrintable(args[i + 1]));
            return 2;
        }
    }
    const TimeMs step = 100; // 10 Hz-equivalent
    StoreLimits limits;
    limits.window = 24LL * 3600 * 1000;
    limits.maxRateHz = 1000.0 / step;
    auto store = std::make_shared<TelemetryStore>(limits);
    auto feed = std::make_shared<TorchAllocatorFeed>();

    ui::MonitorDock dock(store, nullptr);
    dock.resize(1600, 1000);
    for (auto* chart : dock.charts())
        chart->setColumnCacheEnabled(columnCache != 0);
    dock.show();
    dock.timeAxis()->setLive(static_cast<TimeMs>(spanHours * 3600 * 1000));
    app.processEvents();
    const double rssBefore = rssMiB();

    const TimeMs start = 1'767'225'600'000; // 2026-01-01 00:00 UTC
    std::atomic<TimeMs> simulatedNow {start};
    std::atomic<bool> done {false};

    // The producer: the sampler's merge path (synthetic GPUs + the torch feed) with simulated times,
    // paced so that the points arrive over `seconds` of wall time while the GUI draws.
    std::thread producer([&] {
        std::vector<std::unique_ptr<TelemetrySource>> sources;
        sources.push_back(makeSyntheticSource(gpus));
        sources.push_back(makeTorchAllocatorSource(feed));
        TelemetrySampler sampler(std::move(sources), store);
        QElapsedTimer wall;
        wall.start();
        const double perMs = double(points) / (seconds * 1000.0);
        for (long long i = 0; i < points; ++i) {
            const TimeMs t = start + i * step;
            simulatedNow = t;
            store->append(sampler.sampleOnce(t));
            if (i % 256 == 0) {
                const double due = double(i) / perMs;
                const double ahead = due - double(wall.elapsed());
                if (ahead > 1)
                    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<long long>(ahead)));
            }
        }
        done = true;
    });
    // The synthetic training job: allocator figures every step and an epoch event every simulated 10 minutes.
    std::thread training([&] {
        TimeMs nextEpoch = start + 600'000;
        int epoch = 0;
        store->addEvent({start, EventKind::RunStarted, "synthetic run"});
        while (!done) {
            const TimeMs t = simulatedNow;
            const double phase = double(t % 600'000) / 600'000.0;
            feed->push("synthetic", 0, 6e9 + 4e9 * phase, 12e9, 10e9, t);
            if (t >= nextEpoch) {
                store->addEvent({t, EventKind::EpochEnd, "epoch " + std::to_string(++epoch)});
                nextEpoch += 600'000;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        store->addEvent({simulatedNow, EventKind::RunStopped, "synthetic run"});
    });

    // GUI thread heartbeat: a 5 ms timer; any gap beyond 5 ms is time the GUI thread was busy.
    std::vector<double> gaps;
    std::vector<double> gapAt; // seconds since the heartbeat started, for the longest stall
    QElapsedTimer beat;
    beat.start();
    qint64 last = 0;
    // A local loop: QApplication::quit() would close the panel's window before the final measurement.
    QEventLoop loop;
    QTimer heartbeat;
    heartbeat.setTimerType(Qt::PreciseTimer);
    heartbeat.setInterval(5);
    QObject::connect(&heartbeat, &QTimer::timeout, [&] {
        const qint64 now = beat.nsecsElapsed();
        if (last) {
            gaps.push_back(std::max(0.0, (now - last) / 1e6 - 5.0));
            gapAt.push_back(last / 1e9);
        }
        last = now;
        if (done && gaps.size() > 10) {
            // Stopped here, not left running: the direct refreshes below block the thread for ~0.5 s, and a
            // running heartbeat counted them as one GUI stall at the first processEvents() after them (the
            // "224-574 ms stall once per run" of earlier runs: 30 x the full refresh time + the store pass).
            heartbeat.stop();
            loop.quit();
        }
    });
    QElapsedTimer total;
    total.start();
    const int refreshesBefore = dock.refreshCount();
    heartbeat.start();
    loop.exec();
    producer.join();
    training.join();
    const double feedSeconds = total.elapsed() / 1000.0;
    const int refreshes = dock.refreshCount() - refreshesBefore;

    // A full refresh of the final 24 h view, measured directly.
    std::vector<double> refreshMs, decimateMs;
    for (int i = 0; i < 30; ++i) {
        QElapsedTimer r;
        r.start();
        dock.refreshNow();
        decimateMs.push_back(r.nsecsElapsed() / 1e6);
        dock.chartArea()->repaint();
        refreshMs.push_back(r.nsecsElapsed() / 1e6);
    }
    // The store alone: every series decimated over the whole retained range at 1,500 columns.
    QElapsedTimer storeTimer;
    storeTimer.start();
    const TimeMs viewEnd = store->newestTime().value_or(start);
    for (const auto& key : store->keys())
        (void)store->decimate(key, viewEnd - limits.window, viewEnd, 1500);
    const double storeMs = storeTimer.nsecsElapsed() / 1e6;
    app.processEvents();
    const double rssAfter = rssMiB();
    const auto newest = store->newestTime().value_or(start);
    const auto oldest = store->oldestTime().value_or(start);
    std::printf("bench_monitor: %lld samples x %d GPUs at %lld ms steps (%.1f simulated hours) fed in %.1f s wall\n",
                points, gpus, static_cast<long long>(step), double(points * step) / 3.6e6, feedSeconds);
    std::printf("  view: live, %.0f h span, panel %dx%d, %zu chart(s)\n", spanHours, dock.width(), dock.height(),
                dock.charts().size());
    std::printf("  GUI thread stalls (5 ms heartbeat, %zu beats): max %.1f ms, p99 %.1f ms, p50 %.2f ms\n", gaps.size(),
                gaps.empty() ? 0.0 : *std::max_element(gaps.begin(), gaps.end()), percentile(gaps, 99),
                percentile(gaps, 50));
    if (!gaps.empty()) {
        const auto worst = std::max_element(gaps.begin(), gaps.end()) - gaps.begin();
        std::printf("  longest stall began %.3f s after the heartbeat started (column cache %s)\n", gapAt[std::size_t(worst)],
                    columnCache ? "on" : "off");
    }
    std::printf("  repaints while feeding: %d (%.1f/s; cap 25/s)\n", refreshes, refreshes / feedSeconds);
    std::printf("  full refresh of the final view (4 charts, decimate + paint): mean %.1f ms, max %.1f ms\n",
                [&] { double s = 0; for (double v : refreshMs) s += v; return s / double(refreshMs.size()); }(),
                *std::max_element(refreshMs.begin(), refreshMs.end()));
    std::printf("  of which refreshNow (store reads, model): mean %.1f ms; all %zu series decimated alone: %.1f ms\n",
                [&] { double s = 0; for (double v : decimateMs) s += v; return s / double(decimateMs.size()); }(),
                store->keys().size(), storeMs);
    std::printf("  retained: %zu points in %zu series spanning %.2f h; events %zu\n", store->pointCount(),
                store->keys().size(), double(newest - oldest) / 3.6e6, store->allEvents().size());
    std::printf("  memory: store %.1f MiB; process RSS %.1f MiB before feeding, %.1f MiB after %.1f simulated hours\n",
                double(store->bytes()) / (1 << 20), rssBefore, rssAfter, double(points * step) / 3.6e6);
    return 0;
}
