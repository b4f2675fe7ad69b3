// The System page's links view (issue 33) on the runs recorded on 2x H200: the matrix and figures models (under
// QAbstractItemModelTester), the header, the controller (no GPU here, another machine shown, a bad file, a stand-in
// suite measured and stopped), a replayed report's run on the System page and the run going into the export.
#include "core/perf/perf_json.h"
#include "core/report/report.h"
#include "core/report/report_writer.h"
#include "core/snapshot/snapshot_json.h"
#include "ui/main_window.h"
#include "ui/models/link_models.h"
#include "ui/report/report_page.h"
#include "ui/report/report_replay.h"
#include "tests/common/open_report.h"
#include "ui/system/bandwidth_controller.h"
#include "ui/system/links_panel.h"
#include "ui/system/system_page.h"
#include "ui/system/topology_view.h"
#include "tests/common/bandwidth_fixture.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

const QString kDir = QString::fromStdString(test::kBandwidthFixtures);

SnapshotPtr machine()
{
    return std::make_shared<const Snapshot>(snapshotFromJson(test::bandwidthFixture("inspect.json")));
}

// The window's controller pair: the recorded machine shown as "this machine" (no origin), so Measure links may run.
struct Controllers {
    SnapshotController snapshots;
    BandwidthController bandwidth {&snapshots};
    explicit Controllers(SnapshotPtr s, const QString& origin = {}) { snapshots.setSnapshot(std::move(s), origin); }
};

// A stand-in for stackscope-cli: a shell script that runs `body` whatever its arguments.
QString standIn(const QTemporaryDir& dir, const QString& body)
{
    const QString path = dir.filePath(QStringLiteral("stand-in-cli"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(QByteArray("#!/bin/sh\n") + body.toUtf8() + '\n');
    f.close();
    f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

QModelIndex cell(const LinkMatrixModel& m, int row, int column)
{
    return m.index(row, column);
}

} // namespace

class TestTopologyView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Each cell of the matrix: row = source, column = destination, the host last.
    void matrix_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("text"); // a piece of the cell's text
        const QString healthy = QStringLiteral("bw-healthy.json"), noP2p = QStringLiteral("bw-p2p-disabled.json");
        QTest::newRow("GPU 0 -> GPU 1") << healthy << 0 << 1 << "as_expected" << QString::fromUtf8("\u2713 copy engine 393.4 of 450.0 \u00b7 0.87");
        QTest::newRow("GPU 1 -> GPU 0 kernel") << healthy << 1 << 0 << "as_expected" << QString::fromUtf8("\u2713 kernel 367.5 of 450.0 \u00b7 0.82");
        QTest::newRow("both ways") << healthy << 0 << 1 << "as_expected" << QString::fromUtf8("\u2713 both ways 764.1 of 900.0 \u00b7 0.85");
        QTest::newRow("GPU 0 diagonal") << healthy << 0 << 0 << "as_expected" << QStringLiteral("device copy 2073.1 of 1555.3");
        QTest::newRow("GPU 1 -> host") << healthy << 1 << 2 << "as_expected" << QStringLiteral("pinned 55.0 of 57.6");
        QTest::newRow("host -> GPU 0") << healthy << 2 << 0 << "as_expected" << QStringLiteral("pinned 55.2 of 57.6");
        QTest::newRow("host memcpy") << healthy << 2 << 2 << "unknown" << QStringLiteral("? memcpy 9.9, a reference");
        QTest::newRow("P2P off: no host link measured") << noP2p << 2 << 0 << "unknown" << QString::fromUtf8("\u2014 not measured");
        QTest::newRow("P2P off: copies fine") << noP2p << 0 << 1 << "as_expected" << QStringLiteral("copy engine 393.3 of 450.0");
    }
    void matrix()
    {
        QFETCH(QString, file);
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(QString, verdict);
        QFETCH(QString, text);
        Controllers c(machine(), QStringLiteral("inspect.json"));
        TopologyView view;
        QAbstractItemModelTester matrixTester(view.matrixModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester figuresTester(view.figuresModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QObject::connect(&c.bandwidth, &BandwidthController::runChanged, &view, &TopologyView::showRun);
        QVERIFY(c.bandwidth.openFile(kDir + file));
        const auto& m = *view.matrixModel();
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.headerData(2, Qt::Horizontal).toString(), QStringLiteral("to host"));
        QCOMPARE(m.headerData(0, Qt::Vertical).toString(), QStringLiteral("from GPU 0"));
        const auto index = cell(m, row, column);
        QCOMPARE(index.data(LinkMatrixModel::VerdictRole).toString(), verdict);
        QVERIFY2(index.data().toString().contains(text), qPrintable(index.data().toString()));
        if (index.data(LinkMatrixModel::FigureCountRole).toInt() > 0) {
            QCOMPARE(index.data(Qt::BackgroundRole).value<QColor>(), verdictBackground(*perf::verdictFromId(verdict.toStdString())));
            const QString tip = index.data(Qt::ToolTipRole).toString();
            QVERIFY2(tip.contains(QStringLiteral("https://github.com/NVIDIA/DCGM/blob/master/nvvs/diag-skus.yaml.in")), qPrintable(tip));
            QVERIFY2(tip.contains(QStringLiteral("verdict: ")), qPrintable(tip));
        }
    }

    // The collectives' bus bandwidth beside the matrix: all as expected on the healthy machine, degraded with P2P off.
    void collectives_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<int>("rows");
        QTest::newRow("healthy") << "bw-healthy.json" << "as_expected" << 3;
        QTest::newRow("NCCL_P2P_DISABLE=1") << "bw-p2p-disabled.json" << "degraded" << 3;
    }
    void collectives()
    {
        QFETCH(QString, file);
        QFETCH(QString, verdict);
        QFETCH(int, rows);
        Controllers c(machine());
        TopologyView view;
        QObject::connect(&c.bandwidth, &BandwidthController::runChanged, &view, &TopologyView::showRun);
        QVERIFY(c.bandwidth.openFile(kDir + file));
        const auto* m = view.figuresModel();
        QCOMPARE(m->rowCount(), rows);
        for (int r = 0; r < rows; ++r) {
            QCOMPARE(m->index(r, LinkFiguresModel::VerdictColumn).data(LinkFiguresModel::VerdictRole).toString(), verdict);
            QVERIFY(m->index(r, LinkFiguresModel::TestColumn).data().toString().contains(QStringLiteral("(busbw)")));
            QVERIFY(m->index(r, LinkFiguresModel::ExpectedColumn).data().toString().endsWith(QStringLiteral("GB/s")));
        }
        // The other figures (memory, GEMM, pageable) on request.
        auto* all = view.findChild<QCheckBox*>(QStringLiteral("allFigures"));
        QVERIFY(all);
        all->setChecked(true);
        QCOMPARE(m->rowCount(), int(view.matrixModel()->matrix().others.size()));
        QVERIFY2(view.headerText().contains(QStringLiteral("2 GPUs measured")), qPrintable(view.headerText()));
        QVERIFY2(view.headerText().contains(QStringLiteral("judged against")), qPrintable(view.headerText()));
    }

    // Measure links says plainly why it cannot run, and a bad file why it is not shown.
    void saysWhy_data()
    {
        QTest::addColumn<QString>("situation");
        QTest::addColumn<QString>("text");
        QTest::newRow("no GPU visible") << "nogpu" << "No GPU is visible on this machine";
        QTest::newRow("another machine shown") << "other" << "not this machine";
        QTest::newRow("not a run") << "badfile" << "not a bandwidth run";
        QTest::newRow("no such file") << "nofile" << "cannot be read";
    }
    void saysWhy()
    {
        QFETCH(QString, situation);
        QFETCH(QString, text);
        auto s = std::make_shared<Snapshot>(*machine());
        if (situation == QLatin1String("nogpu"))
            s->gpus.clear();
        Controllers c(s, situation == QLatin1String("other") ? QStringLiteral("snapshot.json") : QString());
        QSignalSpy errors(&c.bandwidth, &BandwidthController::errorOccurred);
        QSignalSpy measuring(&c.bandwidth, &BandwidthController::measuringChanged);
        if (situation == QLatin1String("badfile"))
            QVERIFY(!c.bandwidth.openFile(kDir + QStringLiteral("inspect.json")));
        else if (situation == QLatin1String("nofile"))
            QVERIFY(!c.bandwidth.openFile(kDir + QStringLiteral("none.json")));
        else
            c.bandwidth.measure();
        const QString said = errors.isEmpty() ? c.bandwidth.statusText() : errors.first().first().toString();
        QVERIFY2(said.contains(text), qPrintable(said));
        QVERIFY(measuring.isEmpty());
        QVERIFY(!c.bandwidth.shown());
    }

    // The suite runs in a child (a stand-in here): its run is shown; Stop ends it at once and keeps nothing.
    void measureAndStop()
    {
        QTemporaryDir dir;
        Controllers c(machine());
        c.bandwidth.setProgram(standIn(dir, QStringLiteral("cat '%1'").arg(kDir + QStringLiteral("bw-healthy.json"))));
        QSignalSpy changed(&c.bandwidth, &BandwidthController::runChanged);
        c.bandwidth.measure();
        QVERIFY(c.bandwidth.isMeasuring());
        QTRY_VERIFY_WITH_TIMEOUT(!changed.isEmpty(), 10000);
        QVERIFY(c.bandwidth.shown());
        QCOMPARE(c.bandwidth.shown()->origin, QStringLiteral("measured on this machine"));
        QVERIFY(c.bandwidth.shown()->judged.rejudged);
        QVERIFY2(c.bandwidth.statusText().startsWith(QStringLiteral("Measured in")), qPrintable(c.bandwidth.statusText()));

        c.bandwidth.setProgram(standIn(dir, QStringLiteral("sleep 30")));
        QSignalSpy measuring(&c.bandwidth, &BandwidthController::measuringChanged);
        c.bandwidth.measure();
        QTest::qWait(200);
        QElapsedTimer t;
        t.start();
        c.bandwidth.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!c.bandwidth.isMeasuring(), 5000);
        QVERIFY2(t.elapsed() < 1500, qPrintable(QString::number(t.elapsed())));
        QVERIFY2(c.bandwidth.statusText().startsWith(QStringLiteral("Stopped")), qPrintable(c.bandwidth.statusText()));
        QVERIFY(c.bandwidth.shown()); // the run shown before stays

        c.bandwidth.setProgram(standIn(dir, QStringLiteral("echo 'bench bandwidth: no torch module here' >&2; exit 1")));
        QSignalSpy errors(&c.bandwidth, &BandwidthController::errorOccurred);
        c.bandwidth.measure();
        QTRY_VERIFY_WITH_TIMEOUT(!errors.isEmpty(), 10000);
        QVERIFY2(errors.first().first().toString().contains(QStringLiteral("no torch module here")),
                 qPrintable(errors.first().first().toString()));
    }

    // This VM has no GPU: the button says so on the page, in words (screenshot written for a person to look at).
    void noGpuSaysSo()
    {
        auto s = std::make_shared<Snapshot>(*machine());
        s->gpus.clear();
        MainWindow window;
        window.resize(1024, 640);
        window.show();
        window.snapshots()->setSnapshot(s, QString());
        auto* panel = window.systemPage()->links();
        auto* button = panel->findChild<QPushButton*>(QStringLiteral("measureLinksButton"));
        QVERIFY(button);
        button->click();
        QVERIFY2(panel->statusText().startsWith(QStringLiteral("No GPU is visible on this machine")), qPrintable(panel->statusText()));
        QVERIFY(!window.bandwidth()->isMeasuring());
        QTest::qWait(100); // the page lays the longer status line out
        auto* status = panel->findChild<QLabel*>(QStringLiteral("linksStatus"));
        QVERIFY(status->height() >= status->heightForWidth(status->width())); // the whole message, not cut
        QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
        QVERIFY(window.grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/links-no-gpu-1024x640.png")));
    }

    // A replayed report shows its run on the System page; the export of what is shown carries it.
    void replayAndExport()
    {
        QTemporaryDir dir;
        report::ReportInputs in;
        in.snapshot = *machine();
        in.bandwidth = perf::suiteRunFromJson(test::bandwidthFixture("bw-p2p-disabled.json"));
        const auto written = report::writeReport(dir.path().toStdString(), report::buildReport(in, nullptr), {},
                                                 std::chrono::system_clock::now());
        MainWindow window;
        window.resize(1280, 800);
        auto* view = window.systemPage()->links()->view();
        QVERIFY(stackscope::test::openReportAndWait(window.replay(), QString::fromStdString(written.folder)));
        QVERIFY(window.bandwidth()->shown());
        QCOMPARE(view->figuresModel()->index(0, LinkFiguresModel::VerdictColumn).data(LinkFiguresModel::VerdictRole).toString(),
                 QStringLiteral("degraded"));
        const auto request = window.reportPage()->request();
        QVERIFY(request.bandwidth);
        QCOMPARE(request.bandwidth->figures.size(), in.bandwidth->figures.size());
        window.replay()->close();
        QVERIFY(!window.bandwidth()->shown());
        QVERIFY(!window.reportPage()->request().bandwidth);
        QVERIFY(!window.reportPage()->request().bandwidthNote.empty());
    }
};

QTEST_MAIN(TestTopologyView)
#include "tst_topology_view.moc"
