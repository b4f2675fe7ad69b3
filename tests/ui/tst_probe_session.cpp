// ProbeSession: the runners of a session side by side in one JobTracker job, each record in the GUI thread as it
// arrives, finished() once per session; a new session drops the old one's late results; cancel keeps what ran.
// The worker is a stand-in (tests/probes/fake_turn_worker.py: the probe protocol, each probe a 0.4 s sleep), so
// nothing here needs libtorch.
#include "core/probes/probe_protocol.h"
#include "ui/probes/probe_session.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace stackscope;
using stackscope::ui::ProbeSession;

namespace {

ProbeRunOptions fakeRun(std::vector<std::string> probes)
{
    ProbeRunOptions o;
    o.workerProgram = STACKSCOPE_TEST_FIXTURES "/../probes/fake_turn_worker.py";
    o.devices = {"cpu"};
    o.probeIds = std::move(probes);
    o.parallelCells = 2;
    return o;
}

} // namespace

class TestProbeSession : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<stackscope::ProbeRecord>("stackscope::ProbeRecord");
        qRegisterMetaType<std::vector<stackscope::ProbeDevice>>("std::vector<stackscope::ProbeDevice>");
        qputenv("FAKE_WORKER_PROTOCOL", QByteArray::number(kProbeProtocolVersion));
        qputenv("FAKE_WORKER_LOG", (m_dir.path() + QStringLiteral("/worker.log")).toLocal8Bit());
    }

    void twoRunsSideBySideDeliverEveryRecordInTheGuiThread()
    {
        ProbeSession session;
        std::vector<ProbeRecord> records;
        bool allInGuiThread = true;
        connect(&session, &ProbeSession::recordArrived, this, [&](const ProbeRecord& r) {
            records.push_back(r);
            allInGuiThread = allInGuiThread && QThread::currentThread() == thread();
        });
        QSignalSpy finished(&session, &ProbeSession::finished);
        QSignalSpy running(&session, &ProbeSession::runningChanged);
        session.start(std::vector<ProbeRunOptions> {fakeRun({"alloc_zeros", "softmax"}), fakeRun({"matmul_fp32"})});
        QVERIFY(session.isRunning());
        // Bounds: a fake worker starts (python, no torch) in ~0.1 s and sleeps 0.4 s a probe, so a session ends
        // within ~1.5 s here; 20 s leaves a factor of ten for a loaded CI machine.
        QVERIFY(finished.wait(20000));
        QCOMPARE(records.size(), std::size_t(3));
        QVERIFY(allInGuiThread);
        for (const auto& r : records)
            QVERIFY2(r.outcome.outcome == ProbeResult::Ok, (r.outcome.probeId + ": " + r.outcome.message).c_str());
        QCOMPARE(finished.first().at(0).toBool(), false); // not cancelled
        QVERIFY(!session.isRunning());
        QCOMPARE(running.count(), 2); // true, then false
    }

    void aNewSessionDropsTheOldOnesResults()
    {
        ProbeSession session;
        QStringList probes;
        connect(&session, &ProbeSession::recordArrived, this,
                [&](const ProbeRecord& r) { probes << QString::fromStdString(r.outcome.probeId); });
        QSignalSpy finished(&session, &ProbeSession::finished);
        session.start(fakeRun({"alloc_zeros", "softmax"}));
        session.start(fakeRun({"matmul_fp32"}));
        QVERIFY(finished.wait(20000));
        // The first session's probes would report 0.4 and 0.8 s after start had they not been killed: 1.5 s covers
        // both with room, so a result leaking through would show here.
        QTest::qWait(1500);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(probes, QStringList {QStringLiteral("matmul_fp32")});
    }

    void cancelEndsTheSessionAndSaysSo()
    {
        ProbeSession session;
        QSignalSpy finished(&session, &ProbeSession::finished);
        QSignalSpy records(&session, &ProbeSession::recordArrived);
        session.start(fakeRun({"alloc_zeros", "softmax", "matmul_fp32", "conv2d", "layer_norm", "elementwise"}));
        QVERIFY(records.wait(20000)); // the first result is in; cancel the rest
        QElapsedTimer clock;
        clock.start();
        session.cancel();
        QVERIFY(finished.wait(5000));
        // The runner kills its children within ~100 ms of cancel (ProbeRunner::cancel); 2 s is twenty times that.
        QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(finished.first().at(0).toBool(), true);
        QVERIFY(records.count() < 6);
        QVERIFY(!session.isRunning());
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestProbeSession)
#include "tst_probe_session.moc"
