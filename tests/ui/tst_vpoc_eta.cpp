// The VPOC page's time left, driven by recorded progress sequences of real runs: the bytes-parsed estimate
// against the old one (elapsed since the click x bytes read ahead), and the final phase said as such.
#include "ui/vpoc/eta_estimate.h"
#include "ui/vpoc/vpoc_page.h"

#include <QFile>
#include <QtTest>

#include <cmath>
#include <vector>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

struct Recorded {
    double elapsedS = 0;
    uint64_t bytesDone = 0, bytesRead = 0, bytesTotal = 0;
    bool finishing = false;
};

struct Recording {
    std::vector<Recorded> reports;
    double endS = 0; // when the result was back
};

// tests/fixtures/vpoc/progress_*.csv, written by build/tests/vpoc/record_vpoc_progress (the file's header says how).
Recording load(const QString& name)
{
    Recording r;
    QFile f(QStringLiteral(STACKSCOPE_TEST_FIXTURES "/vpoc/") + name);
    if (!f.open(QIODevice::ReadOnly))
        return r;
    while (!f.atEnd()) {
        const QByteArray line = f.readLine().trimmed();
        if (line.startsWith('#'))
            continue;
        const QList<QByteArray> cells = line.split(',');
        if (cells.size() == 2 && cells[0] == "end")
            r.endS = cells[1].toDouble();
        else if (cells.size() == 5 && cells[0] != "elapsed_s")
            r.reports.push_back({cells[0].toDouble(), cells[1].toULongLong(), cells[2].toULongLong(), cells[3].toULongLong(),
                                 cells[4] == "finishing"});
    }
    return r;
}

// What the page said before: seconds since the click scaled by the bytes the reader had read ahead.
double oldEstimate(const Recorded& p)
{
    const double f = double(p.bytesRead) / double(p.bytesTotal);
    return p.elapsedS * (1.0 - f) / f;
}

} // namespace

class TestVpocEta : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Tolerance model: the estimate assumes the parse rate after the first report stays what it has been. In
    // the recording the time per full 32 MiB window varied from 0.651 to 0.851 s (slowest / fastest = 1.31),
    // so an estimate may be off by that spread of the time left; the absolute second covers progress that
    // moves one window at a time (the longest window, 0.85 s) plus the 100 ms report interval.
    void recordedRun_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("rateSpread");
        QTest::newRow("bars with developing values, 2 threads") << QStringLiteral("progress_bars_developing.csv") << 0.31;
    }
    void recordedRun()
    {
        QFETCH(QString, file);
        QFETCH(double, rateSpread);
        const Recording rec = load(file);
        QVERIFY2(rec.reports.size() > 20 && rec.endS > 0, qPrintable(file));
        EtaEstimate eta;
        int judged = 0;
        double worstNew = -1e9, worstOld = -1e9;
        for (const auto& p : rec.reports) {
            eta.add({p.elapsedS, p.bytesDone, p.bytesTotal, p.finishing});
            if (p.finishing) {
                QVERIFY(!eta.secondsLeft());
                QVERIFY2(eta.text().contains(QStringLiteral("finishing")), qPrintable(eta.text()));
                continue;
            }
            const double f = double(p.bytesDone) / double(p.bytesTotal);
            const double truth = rec.endS - p.elapsedS;
            if (f < 0.1 || f > 0.95) // before 10 % there is no rate yet; after 95 % the seconds are few
                continue;
            const auto left = eta.secondsLeft();
            QVERIFY2(left, qPrintable(QStringLiteral("no estimate at %1 %").arg(100 * f)));
            const double allowed = rateSpread * truth + 1.0;
            const double errNew = std::abs(*left - truth), errOld = std::abs(oldEstimate(p) - truth);
            worstNew = std::max(worstNew, errNew - allowed);
            worstOld = std::max(worstOld, errOld - allowed);
            QVERIFY2(errNew <= allowed, qPrintable(QStringLiteral("at %1 s (%2 % parsed): %3 s left estimated, %4 s true")
                                                       .arg(p.elapsedS).arg(100 * f, 0, 'f', 0).arg(*left, 0, 'f', 1)
                                                       .arg(truth, 0, 'f', 1)));
            ++judged;
        }
        QVERIFY(judged >= 10);
        // The same tolerance rejects the old estimate somewhere in the run: the test can tell them apart.
        QVERIFY2(worstOld > 0, qPrintable(QStringLiteral("old estimate within tolerance everywhere (worst excess %1 s)").arg(worstOld)));
        qInfo("%s: worst excess over the tolerance: new %.2f s, old %.2f s", qPrintable(file), worstNew, worstOld);
    }

    // A start-up of 3 s (GPU module, file open) before the first byte, then a constant rate of 10 % a second:
    // from the click the old estimate says 4.3 s at 70 % when 3 s are left; the new one says 3.
    void startupIsNotCountedInTheRate()
    {
        EtaEstimate eta;
        for (int i = 0; i <= 7; ++i)
            eta.add({3.0 + i, uint64_t(i) * 100, 1000, false});
        QVERIFY(eta.secondsLeft());
        QCOMPARE(std::round(*eta.secondsLeft()), 3.0);
        QCOMPARE(eta.text(), QStringLiteral("about 3 s left"));
    }

    void nothingBeforeEnoughWasMeasured()
    {
        EtaEstimate eta;
        eta.add({0.1, 0, 1000, false});
        eta.add({0.3, 5, 1000, false});
        QVERIFY(!eta.secondsLeft());
        QVERIFY(eta.text().startsWith(QStringLiteral("estimating")));
        eta.add({0.4, 1000, 1000, true});
        QVERIFY(!eta.secondsLeft());
        QVERIFY(eta.text().contains(QStringLiteral("finishing")));
        eta.reset();
        QVERIFY(eta.text().startsWith(QStringLiteral("estimating")));
    }

    // The page shows the estimate and the final phase in its status line.
    void pageSaysTheFinalPhase()
    {
        VpocPage page;
        page.showProgress({500, 1000, 1000, 2, vpoc::VpocPhase::Reading});
        QVERIFY2(page.statusText().contains(QStringLiteral("50 % read")), qPrintable(page.statusText()));
        page.showProgress({1000, 1000, 1000, 4, vpoc::VpocPhase::Finishing});
        QVERIFY2(page.statusText().contains(QStringLiteral("finishing")), qPrintable(page.statusText()));
        QVERIFY(!page.statusText().contains(QStringLiteral(" s left")));
    }
};

QTEST_MAIN(TestVpocEta)
#include "tst_vpoc_eta.moc"
