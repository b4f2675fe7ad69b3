// The Monitor panel: chart series from a store, coalesced repaint, the readings model under
// QAbstractItemModelTester, shared time axis rows, CSV/PNG export, and a screenshot.
#include "core/telemetry/sampler.h"
#include "ui/monitor/latest_readings_model.h"
#include "ui/monitor/monitor_dock.h"
#include "ui/monitor/telemetry_chart.h"
#include "ui/monitor/time_axis.h"

#include <QAbstractItemModelTester>
#include <QTableView>
#include <QtTest/QtTest>

#include <thread>

using namespace stackscope;
using namespace stackscope::telemetry;

namespace {

constexpr TimeMs kStart = 1'767'225'600'000; // 2026-01-01 00:00 UTC

// One hour at 4 Hz for two synthetic GPUs, allocator figures on GPU 0, and a few events.
std::shared_ptr<TelemetryStore> filledStore(int samples = 4 * 3600)
{
    auto store = std::make_shared<TelemetryStore>();
    auto feed = std::make_shared<TorchAllocatorFeed>();
    std::vector<std::unique_ptr<TelemetrySource>> sources;
    sources.push_back(makeSyntheticSource(2));
    sources.push_back(makeTorchAllocatorSource(feed));
    TelemetrySampler sampler(std::move(sources), store);
    for (int i = 0; i < samples; ++i) {
        const TimeMs t = kStart + i * 250;
        feed->push("synthetic", 0, 4e9 + 2e9 * std::sin(i / 400.0), 9e9, 7e9, t);
        store->append(sampler.sampleOnce(t));
    }
    store->addEvent({kStart + 60'000, EventKind::RunStarted, "training run"});
    store->addEvent({kStart + 1'200'000, EventKind::EpochEnd, "epoch 1"});
    store->addEvent({kStart + 2'000'000, EventKind::ProbeFailure, "matmul fp16 crashed"});
    store->addEvent({kStart + 2'400'000, EventKind::VariantChange, "TORCH_BLAS_PREFER_HIPBLASLT=0"});
    return store;
}

} // namespace

class TestMonitorPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void chartsShowEveryGpuDecimated()
    {
        ui::MonitorDock dock(filledStore(), nullptr);
        dock.resize(1000, 800);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        dock.timeAxis()->setLive(3'600'000);
        dock.refreshNow();
        QCOMPARE(int(dock.charts().size()), 4);
        // VRAM: two GPUs plus allocated/reserved overlays of GPU 0; the others: one series per GPU.
        QCOMPARE(int(dock.charts()[0]->series().size()), 4);
        for (int i = 1; i < 4; ++i)
            QCOMPARE(int(dock.charts()[std::size_t(i)]->series().size()), 2);
        for (auto* chart : dock.charts()) {
            const int width = chart->plotRect().width();
            QVERIFY(width > 100);
            for (const auto& s : chart->series()) {
                QVERIFY(!s.spans.empty());
                QVERIFY(int(s.spans.size()) <= width); // 14,400 points become at most one column per pixel
                std::size_t n = 0;
                for (const auto& span : s.spans)
                    n += span.count;
                QVERIFY(n > 14000);
            }
        }
        // The readings table: 2 source rows (synthetic, torch feed) + 2 GPUs x 10 quantities.
        QCOMPARE(dock.latestModel()->rowCount(), 2 + 2 * kQuantityCount);
    }

    void repaintIsCoalesced()
    {
        auto store = std::make_shared<TelemetryStore>();
        ui::MonitorDock dock(store, nullptr);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        QTest::qWait(100);
        const int before = dock.refreshCount();
        // 20,000 samples from another thread as fast as it can: the GUI must redraw at most ~25 times a second.
        QElapsedTimer wall;
        wall.start();
        std::atomic<bool> done {false};
        std::thread producer([&] {
            auto src = makeSyntheticSource(1);
            for (int i = 0; i < 20000; ++i) {
                TelemetrySample s;
                s.timeMs = kStart + i * 50;
                src->read(s.gpus, s.timeMs);
                store->append(s);
                if (i % 100 == 0)
                    std::this_thread::sleep_for(std::chrono::milliseconds(2));
            }
            done = true;
        });
        while (!done)
            QTest::qWait(10);
        producer.join();
        QTest::qWait(200);
        const double seconds = wall.elapsed() / 1000.0;
        const int refreshes = dock.refreshCount() - before;
        QVERIFY2(refreshes >= 1, "the panel never redrew");
        QVERIFY2(refreshes <= int(seconds * 1000 / ui::MonitorDock::kRepaintIntervalMs) + 2,
                 qPrintable(QStringLiteral("%1 refreshes in %2 s").arg(refreshes).arg(seconds)));
        QCOMPARE(int(store->pointCount()), 20000 * 7);
    }

    void noGpuShowsWhy()
    {
        auto store = std::make_shared<TelemetryStore>();
        TelemetrySample s;
        s.timeMs = kStart;
        s.sources.push_back({"NVML", false, MissingReason::LibraryNotLoaded, "libnvidia-ml.so.1: cannot open shared object file"});
        store->append(s);
        ui::MonitorDock dock(store, nullptr);
        dock.resize(900, 700);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        dock.refreshNow();
        for (auto* chart : dock.charts())
            QVERIFY(chart->series().empty());
        QCOMPARE(dock.latestModel()->rowCount(), 1);
        const QModelIndex value = dock.latestModel()->index(0, ui::LatestReadingsModel::ValueColumn);
        QCOMPARE(value.data().toString(), QString("library_not_loaded"));
        QVERIFY(value.data(ui::LatestReadingsModel::MissingRole).toBool());
        QVERIFY(dock.latestModel()->index(0, ui::LatestReadingsModel::SourceColumn).data().toString().contains("libnvidia-ml"));
    }

    void readingsModel()
    {
        ui::LatestReadingsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        TelemetrySample s;
        s.timeMs = kStart;
        s.sources.push_back({"NVML", true, MissingReason::Present, "/usr/lib/libnvidia-ml.so.1"});
        GpuReadings g;
        g.vendor = "nvidia";
        g.name = "H100";
        g.at(Quantity::Power) = Reading::of(312, "NVML");
        g.at(Quantity::SmClock) = Reading::missing(MissingReason::Permission, "NVML", "no permission");
        s.gpus.push_back(g);
        model.setSample(s);
        QCOMPARE(model.rowCount(), 1 + kQuantityCount);
        QCOMPARE(model.columnCount(), int(ui::LatestReadingsModel::NUM_COLUMNS));
        const int powerRow = 1 + int(Quantity::Power);
        QCOMPARE(model.index(powerRow, ui::LatestReadingsModel::ValueColumn).data().toString(), QString("312 W"));
        QCOMPARE(model.index(powerRow, ui::LatestReadingsModel::ValueColumn).data(ui::LatestReadingsModel::SortRole).toDouble(), 312.0);
        const int clockRow = 1 + int(Quantity::SmClock);
        QCOMPARE(model.index(clockRow, ui::LatestReadingsModel::ValueColumn).data().toString(), QString("n/a: permission"));
        QCOMPARE(model.index(clockRow, ui::LatestReadingsModel::SourceColumn).data().toString(), QString("no permission"));

        // Same shape: values change in place (dataChanged, no reset).
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        s.gpus[0].at(Quantity::Power) = Reading::of(280, "NVML");
        model.setSample(s);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.index(powerRow, ui::LatestReadingsModel::ValueColumn).data().toString(), QString("280 W"));
        // A second GPU appears: reset.
        GpuReadings g1 = g;
        g1.index = 1;
        s.gpus.push_back(g1);
        model.setSample(s);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 1 + 2 * kQuantityCount);
        model.setSample({});
        QCOMPARE(model.rowCount(), 0);
    }

    void formatValue_data()
    {
        QTest::addColumn<int>("quantity");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("bytes small") << int(Quantity::VramUsed) << double(3ULL << 29) << "1.50 GiB";
        QTest::newRow("bytes large") << int(Quantity::VramTotal) << 80.0 * (1ULL << 30) << "80.0 GiB";
        QTest::newRow("percent") << int(Quantity::Utilisation) << 87.4 << "87 %";
        QTest::newRow("celsius") << int(Quantity::Temperature) << 64.6 << "65 °C";
        QTest::newRow("watts") << int(Quantity::Power) << 312.2 << "312 W";
    }
    void formatValue()
    {
        QFETCH(int, quantity);
        QFETCH(double, value);
        QFETCH(QString, expected);
        QCOMPARE(ui::TelemetryChart::formatValue(Quantity(quantity), value), expected);
    }

    void timeAxis_data()
    {
        QTest::addColumn<qint64>("anchor");
        QTest::addColumn<double>("factor");
        QTest::addColumn<qint64>("pan");
        QTest::addColumn<qint64>("t0");
        QTest::addColumn<qint64>("t1");
        // Live span 100 s ending at 1,000,000 ms: [900,000, 1,000,000].
        QTest::newRow("zoom in at centre") << qint64(950'000) << 0.5 << qint64(0) << qint64(925'000) << qint64(975'000);
        QTest::newRow("zoom in at right edge") << qint64(1'000'000) << 0.5 << qint64(0) << qint64(950'000) << qint64(1'000'000);
        QTest::newRow("zoom out") << qint64(950'000) << 2.0 << qint64(0) << qint64(850'000) << qint64(1'050'000);
        QTest::newRow("pan back") << qint64(950'000) << 1.0 << qint64(-30'000) << qint64(870'000) << qint64(970'000);
        QTest::newRow("minimum span") << qint64(950'000) << 0.00001 << qint64(0) << qint64(950'000) << qint64(952'000);
    }
    void timeAxis()
    {
        QFETCH(qint64, anchor);
        QFETCH(double, factor);
        QFETCH(qint64, pan);
        QFETCH(qint64, t0);
        QFETCH(qint64, t1);
        ui::SharedTimeAxis axis;
        QSignalSpy spy(&axis, &ui::SharedTimeAxis::rangeChanged);
        axis.setLive(100'000);
        QVERIFY(axis.isLive());
        QCOMPARE(qint64(axis.rangeFor(1'000'000).first), qint64(900'000));
        QCOMPARE(qint64(axis.rangeFor(1'000'000).second), qint64(1'000'000));
        axis.zoom(anchor, factor, 1'000'000);
        if (pan)
            axis.pan(pan, 1'000'000);
        QVERIFY(!axis.isLive());
        // Fixed: newer data does not move it.
        QCOMPARE(qint64(axis.rangeFor(5'000'000).first), t0);
        QCOMPARE(qint64(axis.rangeFor(5'000'000).second), t1);
        QVERIFY(spy.count() >= 2);
    }

    void exportAndScreenshot()
    {
        ui::MonitorDock dock(filledStore(), nullptr);
        dock.resize(1100, 900);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        dock.timeAxis()->setLive(3'600'000);
        dock.refreshNow();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QCOMPARE(dock.exportCsv(dir.filePath("t.csv")), QString());
        QFile csv(dir.filePath("t.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QByteArray head = csv.readLine();
        QCOMPARE(head, QByteArray("time_ms,time_utc,gpu,quantity,unit,value,text\n"));
        int rows = 0;
        while (!csv.atEnd()) {
            csv.readLine();
            ++rows;
        }
        QCOMPARE(rows, int(dock.store()->pointCount() + dock.store()->allEvents().size()));
        QCOMPARE(dock.exportPng(dir.filePath("c.png")), QString());
        QImage png(dir.filePath("c.png"));
        QVERIFY(!png.isNull());
        QCOMPARE(png.size(), dock.chartArea()->size() * dock.chartArea()->devicePixelRatio());
        QVERIFY(dock.exportCsv(dir.filePath("missing/t.csv")).contains("Choose a folder"));
        QVERIFY(dock.exportPng(dir.filePath("missing/c.png")).contains("Choose a folder"));

        const QString shots = QStringLiteral(STACKSCOPE_TEST_BINARY_DIR) + QStringLiteral("/screenshots");
        QVERIFY(QDir().mkpath(shots));
        QVERIFY(dock.grab().save(shots + QStringLiteral("/monitor_panel.png")));
    }
};

QTEST_MAIN(TestMonitorPanel)
#include "tst_monitor_panel.moc"
