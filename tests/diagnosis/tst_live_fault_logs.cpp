// Faults injected on a real GPU machine (tests/fixtures/live-faults/*/: what the user's own command printed, with the
// expected cause): each log, diagnosed as `diagnose --log-only` does, names that cause first; a healthy run, or a
// cause no id names, gets no warning or error finding.
#include "core/diagnosis/log_diagnosis.h"
#include "core/diagnosis/machine_diagnosis.h"
#include "core/snapshot/snapshot_json.h"

#include <QtTest>

using namespace stackscope;

namespace {

const QString kRoot = QStringLiteral(STACKSCOPE_TEST_FIXTURES "/live-faults");

QString readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestLiveFaultLogs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void faults_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("expected");
        for (const auto& run : QDir(kRoot).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            const auto lines = readAll(kRoot + "/" + run + "/manifest.tsv").split('\n', Qt::SkipEmptyParts);
            QVERIFY2(lines.size() > 1, qPrintable(run + ": no manifest"));
            const auto header = lines[0].split('\t');
            const int name = header.indexOf("name"), expected = header.indexOf("expected"), status = header.indexOf("status");
            for (int i = 1; i < lines.size(); ++i) {
                const auto cells = lines[i].split('\t');
                if (cells.value(status) != "ran")
                    continue;
                QTest::newRow(qPrintable(run + "/" + cells[name]))
                    << kRoot + "/" + run + "/" + cells[name] + ".log" << cells[expected];
            }
        }
    }
    void faults()
    {
        QFETCH(QString, log);
        QFETCH(QString, expected);
        const QString text = readAll(log);
        QVERIFY2(!text.isEmpty(), qPrintable("cannot read " + log));
        const auto findings = diagnoseLogText(text.toStdString(), log.toStdString()).findings;
        QString firstClaim;
        for (const auto& f : findings) {
            if (f.severity != Severity::Info) {
                firstClaim = QString::fromStdString(f.id);
                break;
            }
        }
        if (expected == "healthy" || expected == "OTHER") {
            QVERIFY2(firstClaim.isEmpty(), qPrintable(expected + " run, but " + firstClaim + " was claimed"));
            return;
        }
        bool named = false;
        for (const auto& id : expected.split('|'))
            named = named || DiagnosisRules::builtIn().names(firstClaim.toStdString(), id.toStdString());
        QVERIFY2(named, qPrintable("expected " + expected + ", first claim: " + (firstClaim.isEmpty() ? "(none)" : firstClaim)));
    }

    // The live snapshot of a healthy run taken after the suite's own faults (its kernel log holds their Xid 31 and
    // two Xid 43 lines): those are past faults of other programs, info; the same Xid in the user's text is theirs.
    void kernelLogHistory_data()
    {
        QTest::addColumn<QString>("extraLog");
        QTest::addColumn<QString>("xid31Severity");
        QTest::addColumn<bool>("claim");
        QTest::newRow("healthy run, Xids only in the kernel log") << QString() << "info" << false;
        QTest::newRow("the user's own text shows the Xid")
            << "NVRM: Xid (PCI:0000:00:06): 31, pid=3942, name=python3, channel 0x0000000a, intr 00000000. MMU Fault"
            << "warning" << true;
    }
    void kernelLogHistory()
    {
        QFETCH(QString, extraLog);
        QFETCH(QString, xid31Severity);
        QFETCH(bool, claim);
        const QString dir = kRoot + "/h200x2-20261127-s17/";
        const Snapshot snapshot = loadSnapshotFile((dir + "no_caching.snapshot.json").toStdString());
        QVERIFY(snapshot.hostExtras.kernelLogGpuLines.size() > 3);
        MachineDiagnosisInput in;
        in.snapshot = &snapshot;
        in.logs.push_back(readLogText((readAll(dir + "no_caching.log") + extraLog).toStdString(), "no_caching.log"));
        const auto d = diagnoseMachine(in);
        const Finding* xid31 = nullptr;
        bool claimed = false;
        for (const auto& f : d.findings) {
            if (f.id == "NVIDIA_XID_31")
                xid31 = &f;
            claimed = claimed || f.severity == Severity::Warning || f.severity == Severity::Error;
        }
        QVERIFY2(xid31, "the kernel log's Xid 31 is not listed");
        QCOMPARE(QString(severityName(xid31->severity)), xid31Severity);
        QCOMPARE(claimed, claim);
    }
};

QTEST_GUILESS_MAIN(TestLiveFaultLogs)
#include "tst_live_fault_logs.moc"
