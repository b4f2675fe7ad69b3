// Honest charts: the Monitor says once why it has nothing (not in all four charts), value axes never
// repeat a label, and the Probes page's empty outcome chart counts 0, 1 (not 1, 0, 0, 0, 0).
#include "core/telemetry/telemetry_store.h"
#include "ui/monitor/column_cache.h"
#include "ui/monitor/monitor_dock.h"
#include "ui/monitor/telemetry_chart.h"
#include "ui/probes/outcome_chart.h"

#include <QToolButton>
#include <QValueAxis>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::telemetry;

class TestMonitorCharts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void reasonSaidOnce()
    {
        auto store = std::make_shared<TelemetryStore>();
        TelemetrySample sample;
        sample.timeMs = 1'767'225'600'000;
        for (const char* source : {"nvml", "rocm_smi"}) {
            SourceStatus st;
            st.source = source;
            st.reason = MissingReason::LibraryNotLoaded;
            st.detail = std::string(source) + ": cannot open shared object file: No such file or directory; install the driver";
            sample.sources.push_back(st);
        }
        store->append(sample);
        ui::MonitorDock dock(store, nullptr);
        dock.resize(900, 600);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        dock.refreshNow();
        QVERIFY2(dock.messageText().startsWith(QStringLiteral("No GPU samples from this machine: no GPU visible")),
                 qPrintable(dock.messageText()));
        // The four empty charts and the table fold into that one line; the dock asks for little more than it.
        QVERIFY(dock.chartsCollapsed());
        QVERIFY(!dock.chartArea()->isVisible());
        QVERIFY2(dock.compactHeight() < 160, qPrintable(QString::number(dock.compactHeight())));
        for (auto* chart : dock.charts()) {
            QVERIFY2(!chart->emptyMessage().contains(QStringLiteral("rocm_smi")), qPrintable(chart->emptyMessage()));
            QVERIFY(!chart->emptyMessage().contains(QStringLiteral("nvml")));
        }
    }

    // The dock says it samples this machine (under a page showing a recorded machine's GPU its "No GPU samples" read
    // as that machine's), and offers exports only with GPU samples to write (walkthrough 2026-11-27 third, problem 12).
    void saysThisMachineAndExportsWhatItHas_data()
    {
        QTest::addColumn<int>("samples"); // 0: none yet, 1: a sample without a GPU, 2: a sample of one GPU
        QTest::addColumn<bool>("exports");
        QTest::newRow("no sample yet") << 0 << false;
        QTest::newRow("no GPU") << 1 << false;
        QTest::newRow("a GPU") << 2 << true;
    }
    void saysThisMachineAndExportsWhatItHas()
    {
        QFETCH(int, samples);
        QFETCH(bool, exports);
        auto store = std::make_shared<TelemetryStore>();
        if (samples > 0) {
            TelemetrySample sample;
            sample.timeMs = 1'767'225'600'000;
            if (samples == 2) {
                GpuReadings gpu;
                gpu.vendor = "synthetic";
                gpu.name = "test GPU";
                gpu.offer(Quantity::Utilisation, Reading::of(50.0, "synthetic"));
                sample.gpus.push_back(gpu);
            }
            store->append(sample);
        }
        ui::MonitorDock dock(store, nullptr);
        dock.resize(900, 600);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        dock.refreshNow();
        QCOMPARE(dock.windowTitle(), QStringLiteral("Monitor: this machine"));
        QCOMPARE(dock.exportsEnabled(), exports);
        for (const char* name : {"monitorExportCsv", "monitorExportPng"}) {
            auto* button = dock.findChild<QToolButton*>(QString::fromLatin1(name));
            QVERIFY(button);
            QCOMPARE(button->isEnabled(), exports);
            QVERIFY2(exports || button->toolTip().contains(QStringLiteral("no GPU samples from this machine")),
                     qPrintable(button->toolTip()));
        }
    }

    void valueLabelsDistinct_data()
    {
        QTest::addColumn<int>("quantity");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::addColumn<int>("labels");
        QTest::newRow("flat VRAM at 0") << int(Quantity::VramUsed) << 0.0 << 1e6 << 1;
        QTest::newRow("temperature 0..1.2 C") << int(Quantity::Temperature) << 0.0 << 1.2 << 2;
        QTest::newRow("VRAM 0..16 GiB") << int(Quantity::VramUsed) << 0.0 << 16.0 * (1ULL << 30) << 5;
        QTest::newRow("utilisation") << int(Quantity::Utilisation) << 0.0 << 100.0 << 5;
    }
    void valueLabelsDistinct()
    {
        QFETCH(int, quantity);
        QFETCH(double, min);
        QFETCH(double, max);
        QFETCH(int, labels);
        const auto got = ui::TelemetryChart::valueLabels(Quantity(quantity), ValueRange {min, max});
        QCOMPARE(int(got.size()), labels);
        QSet<QString> texts;
        for (const auto& [v, text] : got)
            texts.insert(text);
        QCOMPARE(texts.size(), int(got.size()));
    }

    // A sliding window served from the cache equals decimating the whole window, while only the new
    // columns (and the last kRedoColumns) are decimated again.
    void columnCacheSlides_data()
    {
        QTest::addColumn<int>("columns");
        QTest::addColumn<int>("stepPoints"); // points arriving between refreshes
        QTest::newRow("1500 columns, 1 point per refresh") << 1500 << 1;
        QTest::newRow("300 columns, 50 points per refresh") << 300 << 50;
        QTest::newRow("10 columns, a whole window per refresh") << 10 << 400;
    }
    void columnCacheSlides()
    {
        QFETCH(int, columns);
        QFETCH(int, stepPoints);
        std::vector<SeriesPoint> points;
        ui::ColumnCache cache;
        const TimeMs span = 60'000, dt = 100;
        for (int refresh = 0; refresh < 40; ++refresh) {
            for (int i = 0; i < stepPoints; ++i) {
                const TimeMs t = TimeMs(points.size()) * dt;
                points.push_back({t, std::sin(double(t) / 7000.0) * 100 + double(points.size() % 13)});
            }
            const TimeMs newest = points.back().t;
            const auto grid = ui::columnGrid(newest - span, newest, columns);
            const TimeMs t0 = grid.first * grid.colMs, t1 = (grid.first + columns) * grid.colMs;
            const auto cached = cache.update(grid.first, columns, grid.colMs, [&](TimeMs a, TimeMs b, int n) {
                return decimateMinMax(points, a, b, n);
            });
            const auto full = decimateMinMax(points, t0, t1, columns);
            QCOMPARE(cached.size(), full.size());
            for (std::size_t i = 0; i < full.size(); ++i) {
                QCOMPARE(cached[i].column, full[i].column);
                QCOMPARE(cached[i].min, full[i].min);
                QCOMPARE(cached[i].max, full[i].max);
                QCOMPARE(cached[i].first, full[i].first);
                QCOMPARE(cached[i].last, full[i].last);
                QCOMPARE(cached[i].count, full[i].count);
            }
            if (refresh > 0 && stepPoints * dt < span / 2)
                QVERIFY2(cache.lastDecimatedColumns() <= ui::ColumnCache::kRedoColumns + stepPoints * dt / grid.colMs + 1,
                         qPrintable(QString::number(cache.lastDecimatedColumns())));
        }
    }

    void emptyOutcomeChartAxis()
    {
        ui::OutcomeChart chart;
        const auto axes = chart.chart()->axes(Qt::Vertical);
        QCOMPARE(axes.size(), 1);
        auto* axis = qobject_cast<QValueAxis*>(axes.first());
        QVERIFY(axis);
        // Whole-number ticks from the start: 0 and 1, each once.
        QCOMPARE(axis->tickType(), QValueAxis::TicksDynamic);
        QCOMPARE(axis->tickInterval(), 1.0);
        QCOMPARE(axis->max(), 1.0);
    }

    void outcomeTickStep_data()
    {
        QTest::addColumn<int>("top");
        QTest::addColumn<int>("maxIntervals");
        QTest::addColumn<int>("step");
        QTest::newRow("23 in 5") << 23 << 5 << 5;
        QTest::newRow("23 in 3") << 23 << 3 << 10;
        QTest::newRow("23 in 2") << 23 << 2 << 20;
        QTest::newRow("1 in 5") << 1 << 5 << 1;
        QTest::newRow("7 in 5") << 7 << 5 << 2;
        QTest::newRow("100 in 3") << 100 << 3 << 50;
        QTest::newRow("3 in 1") << 3 << 1 << 5;
    }
    void outcomeTickStep()
    {
        QFETCH(int, top);
        QFETCH(int, maxIntervals);
        QFETCH(int, step);
        QCOMPARE(ui::OutcomeChart::tickStep(top, maxIntervals), step);
    }

    // At the Probes page's height (220 px) with 47 results in a column the axis has no more labels than fit (it read
    // 0, 10, 15, 25: QtCharts hid the overlapping 5 and 20).
    void outcomeLabelsFitTheHeight()
    {
        ui::OutcomeChart chart;
        chart.resize(420, 220);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        ui::OutcomeCounts counts;
        counts.columns.resize(2);
        counts.counts = {{23, 0, 0, 0, 0}, {22, 0, 0, 0, 0}};
        chart.setCounts(counts);
        QTest::qWait(50);
        auto* axis = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).first());
        const double intervals = axis->max() / axis->tickInterval();
        // A label and the gap QtCharts needs before it hides the next: 1.5 lines (0, 10, 15, 25 had 1.2).
        const double labelHeight = 1.5 * QFontMetricsF(axis->labelsFont()).height();
        QVERIFY2(intervals * labelHeight <= chart.chart()->plotArea().height(),
                 qPrintable(QStringLiteral("%1 intervals of %2 px labels in a %3 px plot").arg(intervals)
                                .arg(labelHeight).arg(chart.chart()->plotArea().height())));
        QVERIFY(axis->max() >= 23);
    }
};

QTEST_MAIN(TestMonitorCharts)
#include "tst_monitor_charts.moc"
