// TrainingCharts without a trainer: GPU-like progress fills the memory chart (MiB/GiB), CPU progress shows
// the note instead, log scale keeps the points, and a resume drops what followed the checkpoint.
#include "ui/training/training_charts.h"

#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

training::TrainingProgress step(int epoch, int64_t s, double memoryBytes)
{
    training::TrainingProgress p;
    p.kind = training::TrainingProgress::Kind::Step;
    p.epoch = epoch;
    p.step = s;
    p.stepsPerEpoch = 10;
    p.loss = 1.0 / (epoch + s * 0.1);
    p.samplesPerS = 2.5e6 + 1000 * s;
    p.allocatedBytes = memoryBytes;
    p.reservedBytes = memoryBytes < 0 ? -1 : memoryBytes * 1.5;
    p.deviceUsedBytes = memoryBytes < 0 ? -1 : memoryBytes * 2 + 500e6;
    p.deviceTotalBytes = memoryBytes < 0 ? -1 : 80e9;
    return p;
}

QValueAxis* valueAxis(QChartView* view, Qt::Orientation o)
{
    const auto axes = view->chart()->axes(o);
    return axes.isEmpty() ? nullptr : qobject_cast<QValueAxis*>(axes.first());
}

} // namespace

class TestTrainingCharts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void memory_data()
    {
        QTest::addColumn<QString>("devices");
        QTest::addColumn<double>("bytes");
        QTest::addColumn<bool>("note");
        QTest::addColumn<QString>("unit");
        QTest::newRow("CPU") << "CPU" << -1.0 << true << "MiB";
        QTest::newRow("GPU, small model") << "NVIDIA H100 80GB HBM3" << 50e6 << false << "MiB";
        QTest::newRow("GPU, large model") << "NVIDIA H100 80GB HBM3" << 6e9 << false << "GiB";
    }
    void memory()
    {
        QFETCH(QString, devices);
        QFETCH(double, bytes);
        QFETCH(bool, note);
        QFETCH(QString, unit);
        QWidget host;
        TrainingCharts charts(&host);
        charts.setPlannedEpochs(3);
        charts.setDevices(devices);
        for (int e = 1; e <= 3; ++e) {
            for (int s = 2; s <= 10; s += 2)
                charts.addStep(step(e, s, bytes));
            charts.addEpoch(e, 1.2 / e, 2.4e6);
        }
        charts.refresh();
        QCOMPARE(charts.memoryNoteShown(), note);
        QCOMPARE(charts.memoryPoints(), note ? 0 : 3 * 15);
        QCOMPARE(charts.trainLossPoints(), 15);
        QCOMPARE(charts.valLossPoints(), 3);
        auto* y = valueAxis(charts.memoryView(), Qt::Vertical);
        QVERIFY(y);
        QCOMPARE(y->titleText(), unit);
        QCOMPARE(y->isVisible(), !note);
        if (!note) {
            // The highest figure (device used) fits under the axis' top.
            const double scale = unit == QStringLiteral("GiB") ? double(1ULL << 30) : double(1ULL << 20);
            QVERIFY(y->max() * scale >= bytes * 2 + 500e6);
            QVERIFY(y->min() == 0);
        } else {
            auto* label = charts.memoryView()->findChild<QLabel*>(QStringLiteral("trainingMemoryNote"));
            QVERIFY(label->text().contains(QStringLiteral("Not reported on the CPU")));
        }
        // One stated unit at any speed (2.4 million samples/s reads 2,400 k samples/s), fixed decimals, never "2.4e+03";
        // the unit in the chart's title (a vertical axis title was cut in a low plot).
        QCOMPARE(charts.samplesView()->chart()->title(), QStringLiteral("Throughput (k samples/s)"));
        QVERIFY(valueAxis(charts.samplesView(), Qt::Vertical)->titleText().isEmpty());
        QVERIFY(!valueAxis(charts.samplesView(), Qt::Vertical)->labelFormat().contains(QLatin1Char('g')));
        QCOMPARE(valueAxis(charts.lossView(), Qt::Horizontal)->max(), 3.0);
        host.resize(1100, 700);
        charts.lossView()->setGeometry(0, 0, 540, 340);
        charts.samplesView()->setGeometry(550, 0, 540, 340);
        charts.memoryView()->setGeometry(0, 350, 540, 340);
        QVERIFY(host.grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/training-charts-") +
                                 QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-'))
                                     .remove(QLatin1Char(',')) + QStringLiteral(".png")));
    }

    // Several processes: each rank's GPU gets a VRAM line of its own; CPU ranks (-1) add none; clear() removes them.
    void aLinePerRanksGpu()
    {
        QWidget host;
        TrainingCharts charts(&host);
        charts.setPlannedEpochs(2);
        charts.setDevices(QStringLiteral("NVIDIA H100 80GB HBM3 (rank 0 of 3 processes, nccl)"));
        for (int s = 1; s <= 10; ++s) {
            auto p = step(1, s, 1e9);
            p.ranks = {{0, 0, p.deviceUsedBytes, p.allocatedBytes, p.reservedBytes},
                       {1, 1, 4e9 + s * 1e6, -1, -1}, // above rank 0's 2.5e9
                       {2, -1, -1, -1, -1}}; // a rank that reported nothing
            charts.addStep(p);
        }
        charts.refresh();
        const QStringList names = charts.memorySeriesNames();
        QVERIFY2(names.contains(QStringLiteral("GPU 0 VRAM")), qPrintable(names.join(QStringLiteral("; "))));
        QVERIFY2(names.contains(QStringLiteral("GPU 1 VRAM")), qPrintable(names.join(QStringLiteral("; "))));
        QVERIFY(charts.memoryView()->chart()->title().contains(QStringLiteral("rank 0's allocator")));
        QCOMPARE(names.size(), 4); // rank 0 VRAM, reserved, allocated, rank 1 VRAM
        auto* y = valueAxis(charts.memoryView(), Qt::Vertical);
        QCOMPARE(y->titleText(), QStringLiteral("GiB"));
        QVERIFY(y->max() * double(1ULL << 30) >= 4e9 + 10e6); // rank 1's line fits under the axis
        host.resize(560, 360);
        charts.memoryView()->setGeometry(0, 0, 560, 360);
        QVERIFY(charts.memoryView()->grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/training-charts-ranks.png")));
        charts.clear();
        QCOMPARE(charts.memorySeriesNames(), (QStringList {QStringLiteral("VRAM"), QStringLiteral("reserved"),
                                                           QStringLiteral("allocated")}));
    }

    void logScaleKeepsThePoints()
    {
        QWidget host;
        TrainingCharts charts(&host);
        charts.setPlannedEpochs(2);
        for (int s = 1; s <= 10; ++s)
            charts.addStep(step(1, s, -1));
        charts.addEpoch(1, 0.05, 1e5);
        charts.refresh();
        charts.setLogScale(true);
        QVERIFY(charts.logScale());
        const auto vertical = charts.lossView()->chart()->axes(Qt::Vertical);
        QCOMPARE(vertical.size(), 1);
        auto* log = qobject_cast<QLogValueAxis*>(vertical.first());
        QVERIFY(log);
        QCOMPARE(log->min(), 0.01); // whole decades around 0.05 .. 1
        QCOMPARE(log->max(), 1.0);
        QCOMPARE(charts.lossView()->chart()->title(), QStringLiteral("Loss (log scale)"));
        for (auto* s : charts.lossView()->chart()->series())
            QVERIFY(qobject_cast<QLineSeries*>(s)->count() > 0);
        charts.setLogScale(false);
        QCOMPARE(charts.lossView()->chart()->axes(Qt::Vertical).size(), 1);
        QVERIFY(qobject_cast<QValueAxis*>(charts.lossView()->chart()->axes(Qt::Vertical).first()));
        QCOMPARE(charts.lossView()->chart()->title(), QStringLiteral("Loss"));
        QCOMPARE(charts.trainLossPoints(), 10);
    }

    // Epoch N's figures sit at x = N on every chart, as in the epoch table (walkthrough 2026-11-27 problem 8: the
    // throughput's per-epoch points sat at 0.5, 1.5, 2.5).
    void epochPointsAtTheEpoch_data()
    {
        QTest::addColumn<bool>("recorded"); // a report's epochs, else a live run
        QTest::newRow("live run") << false;
        QTest::newRow("recorded run") << true;
    }
    void epochPointsAtTheEpoch()
    {
        QFETCH(bool, recorded);
        QWidget host;
        TrainingCharts charts(&host);
        if (recorded) {
            std::vector<training::EpochMetrics> epochs(3);
            for (int e = 1; e <= 3; ++e) {
                epochs[std::size_t(e - 1)].epoch = e;
                epochs[std::size_t(e - 1)].trainLoss = 1.0 / e;
                epochs[std::size_t(e - 1)].valLoss = 1.0 / e;
                epochs[std::size_t(e - 1)].samplesPerS = 1e5 * e;
            }
            charts.showRecordedEpochs(epochs, 3);
        } else {
            charts.setPlannedEpochs(3);
            for (int e = 1; e <= 3; ++e) {
                for (int s = 5; s <= 10; s += 5)
                    charts.addStep(step(e, s, -1));
                charts.addEpoch(e, 1.0 / e, 1e5 * e);
            }
        }
        charts.refresh();
        QLineSeries* perEpoch = nullptr;
        QLineSeries* validation = nullptr;
        for (auto* s : charts.samplesView()->chart()->series())
            if (s->name() == QStringLiteral("per epoch"))
                perEpoch = qobject_cast<QLineSeries*>(s);
        for (auto* s : charts.lossView()->chart()->series())
            if (s->name() == QStringLiteral("validation"))
                validation = qobject_cast<QLineSeries*>(s);
        QVERIFY(perEpoch && validation);
        QCOMPARE(perEpoch->count(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(perEpoch->at(i).x(), double(i + 1));
            QCOMPARE(validation->at(i).x(), double(i + 1));
        }
        // The convention is stated on every chart's axis: x counts the epochs done.
        for (auto* view : { charts.lossView(), charts.samplesView(), charts.memoryView() }) {
            const auto axes = view->chart()->axes(Qt::Horizontal);
            QCOMPARE(axes.size(), 1);
            QCOMPARE(axes.first()->titleText(), QStringLiteral("epochs completed"));
        }
    }

    void resumeDropsWhatFollowedTheCheckpoint()
    {
        QWidget host;
        TrainingCharts charts(&host);
        charts.setPlannedEpochs(5);
        for (int e = 1; e <= 3; ++e) {
            for (int s = 5; s <= 10; s += 5)
                charts.addStep(step(e, s, -1));
            if (e < 3)
                charts.addEpoch(e, 1.0, 1e5); // epoch 3 was stopped part way
        }
        QCOMPARE(charts.trainLossPoints(), 6);
        charts.truncateAfterEpoch(2);
        QCOMPARE(charts.trainLossPoints(), 4); // epoch 3's steps go; epoch 2's last step (x = 2) stays
        QCOMPARE(charts.valLossPoints(), 2);
        charts.clear();
        QCOMPARE(charts.trainLossPoints() + charts.valLossPoints() + charts.samplesPoints() + charts.memoryPoints(), 0);
    }
};

QTEST_MAIN(TestTrainingCharts)
#include "tst_training_charts.moc"
