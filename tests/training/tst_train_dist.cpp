// `train` over several processes with c10d's Gloo on the CPU: the same losses as one process on the same global
// batch, a killed rank (all end, with the rank and the collective, and --resume continues), and ranks started
// by an external launcher (this test) through env:// variables.
#include "tests/common/cli_process.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using stackscope::test::runCli;

namespace {

// Tolerance on a validation loss, relative. Model: the only difference between one process and W ranks is the
// order of fp32 additions in the batch mean (one mean of B rows vs a weighted sum of W shard means, then
// Gloo's ring sum). Higham's bound for a sum of n fp32 terms is gamma_n = n*u/(1-n*u), u = 2^-24; for the
// gradient of a batch of B = 64 rows that is 3.8e-6 relative per element per step. Adam's update m/sqrt(v) is
// scale-free, so a relative gradient error e moves each parameter by at most lr*e per step: after S steps at
// most S*lr*e = 3 epochs * 64 steps * 1e-3 * 3.8e-6 = 7.3e-7 per parameter, and the loss (about 1, gradients of
// order 1 over ~1000 parameters) by at most ~1e-6 relative. 1e-5 leaves a factor 10 over that worst case; the
// measured differences (tests/bench/RESULTS.md, "Training over several processes") are far below it.
constexpr double kRelativeTolerance = 1e-5;
// --dist-timeout for these runs. The longest legitimate wait between two collectives here is the ranks'
// start-up skew before the rendezvous (each loads libtorch, reads the CSV, builds the features) and rank 0's
// epoch end (validation, two files). Measured on the shared 2-core machine (RESULTS.md): 4 ranks pass with a
// 2 s timeout at load average 6-8 (3 of 3 runs) and fail at the rendezvous with 1 s at load 11. 8 s is 4x the
// passing figure; the hang test waits two of them.
constexpr int kTimeoutS = 8;

int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
}

QJsonObject metadata(const QString& dir)
{
    QFile f(dir + "/model_metadata.json");
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

QVector<double> valLosses(const QString& dir)
{
    QVector<double> out;
    for (const auto& e : metadata(dir).value("epochs").toArray())
        out.push_back(e.toObject().value("val_loss").toDouble());
    return out;
}

// The pid of the launcher's child that is rank `rank` (its environment says RANK=rank).
pid_t rankPid(qint64 launcher, int rank)
{
    for (const auto& entry : QDir("/proc").entryList(QDir::Dirs)) {
        bool ok = false;
        const int pid = entry.toInt(&ok);
        if (!ok)
            continue;
        QFile stat(QString("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const auto fields = QString::fromLatin1(stat.readAll()).section(')', -1).split(' ', Qt::SkipEmptyParts);
        if (fields.size() < 3 || fields[1].toLongLong() != launcher)
            continue;
        QFile env(QString("/proc/%1/environ").arg(pid));
        if (env.open(QIODevice::ReadOnly) && env.readAll().split('\0').contains("RANK=" + QByteArray::number(rank)))
            return pid;
    }
    return -1;
}

// Starts `rank` of `world` as an env:// launcher (torchrun) would.
void startRank(QProcess& p, int rank, int world, int port, const QStringList& args)
{
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("RANK", QString::number(rank));
    env.insert("LOCAL_RANK", QString::number(rank));
    env.insert("WORLD_SIZE", QString::number(world));
    env.insert("MASTER_ADDR", "127.0.0.1");
    env.insert("MASTER_PORT", QString::number(port));
    p.setProcessEnvironment(env);
    p.start(qEnvironmentVariable("STACKSCOPE_CLI"), args);
}

} // namespace

class TestTrainDist : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_bars;
    QVector<double> m_single;
    bool m_haveGloo = false;

    QString path(const QString& name) const { return m_dir.filePath(name); }
    QStringList trainArgs(const QString& out, int epochs = 3) const
    {
        return {"train", "--input", m_bars, "--output", out, "--epochs", QString::number(epochs), "--batch-size", "64",
                "--hidden", "16,8", "--patience", "0", "--device", "cpu", "--step-interval", "8", "--dist-timeout",
                QString::number(kTimeoutS)};
    }
    void compareWithSingle(const QVector<double>& got)
    {
        QCOMPARE(got.size(), m_single.size());
        for (int i = 0; i < got.size(); ++i) {
            const double rel = std::abs(got[i] - m_single[i]) / std::abs(m_single[i]);
            qInfo("epoch %d: validation loss %.9g vs one process %.9g, relative difference %.3g", i + 1, got[i],
                  m_single[i], rel);
            QVERIFY2(rel <= kRelativeTolerance, qPrintable(QString("epoch %1: %2 vs %3").arg(i + 1).arg(got[i]).arg(m_single[i])));
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_bars = path("bars.csv");
        QCOMPARE(runCli({"sample-data", "--out", m_bars, "--days", "6"}).exitCode, 0);
        // The barrier probe runs two Gloo ranks: "unsupported" where the module has no torch or no Gloo group.
        const auto probe = runCli({"probe", "--probe", "barrier", "--device", "cpu", "--json"});
        const auto results = QJsonDocument::fromJson(probe.out).object().value("results").toArray();
        m_haveGloo = !results.isEmpty() && results.first().toObject().value("outcome").toString() != "unsupported";
        if (!m_haveGloo)
            return;
        const auto r = runCli(trainArgs(path("single")));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        m_single = valLosses(path("single"));
        QCOMPARE(m_single.size(), 3);
    }

    void sameLossesAsOneProcess_data()
    {
        QTest::addColumn<int>("ranks");
        QTest::addColumn<QString>("bucketMb");
        QTest::newRow("2 ranks") << 2 << "4";
        QTest::newRow("4 ranks") << 4 << "4";
        // Every parameter its own bucket (10 of them): the all-reduces start one by one during backward and must
        // each take their own slice of the flat gradients, in the same order on every rank.
        QTest::newRow("2 ranks, a bucket per parameter") << 2 << "0.000001";
    }
    void sameLossesAsOneProcess()
    {
        if (!m_haveGloo)
            QSKIP("no libtorch module with c10d's Gloo process group in this build (Debian: install libgloo-dev, rebuild)");
        QFETCH(int, ranks);
        QFETCH(QString, bucketMb);
        const QString out = path(QString("ranks%1-%2").arg(ranks).arg(bucketMb));
        const auto r = runCli(trainArgs(out) << "--nproc" << QString::number(ranks) << "--dist-backend" << "gloo"
                                             << "--dist-bucket-mb" << bucketMb);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains(QByteArray("rank 0 of ") + QByteArray::number(ranks) + " processes, gloo"),
                 r.out.constData());
        compareWithSingle(valLosses(out));
        QVERIFY(QFile::exists(out + "/model.pt"));
    }

    // Every step line of a run over several processes carries each rank's memory figures (CPU ranks: -1, not known),
    // gathered in the report point's one all-reduce; the GUI draws a VRAM line per rank's GPU from them.
    void stepLinesCarryEveryRanksMemory()
    {
        if (!m_haveGloo)
            QSKIP("no libtorch module with c10d's Gloo process group in this build (Debian: install libgloo-dev, rebuild)");
        const int ranks = 2;
        const auto r = runCli(trainArgs(path("ranks-memory"), 1) << "--nproc" << "2" << "--dist-backend" << "gloo"
                                                                 << "--json-progress");
        QVERIFY2(r.exitCode == 0, r.err.constData());
        int stepLines = 0;
        for (const auto& line : r.out.split('\n')) {
            const auto o = QJsonDocument::fromJson(line).object();
            if (o.value("event").toString() != QStringLiteral("step"))
                continue;
            ++stepLines;
            const auto list = o.value("ranks").toArray();
            QCOMPARE(list.size(), ranks);
            for (int k = 0; k < ranks; ++k) {
                QCOMPARE(list[k].toObject().value("rank").toInt(), k);
                QCOMPARE(list[k].toObject().value("device_used_bytes").toDouble(), -1.0);
            }
        }
        QVERIFY(stepLines > 0);
    }

    void killedRankStopsAllAndResumeContinues()
    {
        if (!m_haveGloo)
            QSKIP("no libtorch module with c10d's Gloo process group in this build (Debian: install libgloo-dev, rebuild)");
        const QString out = path("killed");
        QProcess launcher;
        launcher.start(qEnvironmentVariable("STACKSCOPE_CLI"), trainArgs(out, 400) << "--nproc" << "2");
        QVERIFY(launcher.waitForStarted(10000));
        QElapsedTimer clock;
        clock.start();
        while (!QFile::exists(out + "/checkpoint.pt") && clock.elapsed() < 60000)
            QTest::qWait(20);
        QVERIFY2(QFile::exists(out + "/checkpoint.pt"), "no epoch finished within 60 s");
        const pid_t victim = rankPid(launcher.processId(), 1);
        QVERIFY(victim > 0);
        QCOMPARE(::kill(victim, SIGKILL), 0);
        clock.restart();
        QVERIFY2(launcher.waitForFinished((kTimeoutS + 10) * 1000), "the launcher outlived the timeout");
        qInfo("the run ended %.2f s after rank 1 was killed", clock.elapsed() / 1000.0);
        QCOMPARE(launcher.exitStatus(), QProcess::NormalExit);
        QCOMPARE(launcher.exitCode(), 1);
        const QByteArray err = launcher.readAllStandardError();
        QVERIFY2(err.contains("rank 1 (pid " + QByteArray::number(victim) + ") was killed by signal 9"), err.constData());
        QVERIFY2(err.contains("last collective: all_reduce(") || err.contains("last collective: broadcast("),
                 err.constData());
        QVERIFY2(err.contains("--resume"), err.constData());
        QCOMPARE(rankPid(launcher.processId(), 0), -1); // no rank left behind
        const int done = metadata(out).value("epochs").toArray().size();
        QVERIFY(done >= 1);
        // Resume with another world size: one process more than before.
        const auto r = runCli(trainArgs(out, done + 2) << "--nproc" << "3" << "--resume");
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains(QByteArray("resumed from ")), r.out.constData());
        QCOMPARE(metadata(out).value("epochs").toArray().size(), done + 2);
        QCOMPARE(metadata(out).value("status").toString(), QStringLiteral("finished"));
    }

    // A rank that hangs (SIGSTOP): the others time out in their collective and the launcher, seeing the hung one
    // stopped, ends it at once and names it with its last collective from the flight recorder (issue 37: within
    // --dist-timeout + 5 s of the stop), writing every rank's ring to flight_recorder.json.
    void hungRankStopsAll()
    {
        if (!m_haveGloo)
            QSKIP("no libtorch module with c10d's Gloo process group in this build");
        const QString out = path("hung");
        QProcess launcher;
        launcher.start(qEnvironmentVariable("STACKSCOPE_CLI"), trainArgs(out, 400) << "--nproc" << "2");
        QVERIFY(launcher.waitForStarted(10000));
        QElapsedTimer clock;
        clock.start();
        while (!QFile::exists(out + "/checkpoint.pt") && clock.elapsed() < 60000)
            QTest::qWait(20);
        const pid_t victim = rankPid(launcher.processId(), 1);
        QVERIFY(victim > 0);
        QCOMPARE(::kill(victim, SIGSTOP), 0);
        clock.restart();
        // Rank 0 gives up after one timeout; the launcher ends the stopped rank 1 at once.
        QVERIFY2(launcher.waitForFinished((kTimeoutS + 5) * 1000), "the hung rank was not named within timeout + 5 s");
        qInfo("the run ended %.2f s after rank 1 stopped (timeout %d s)", clock.elapsed() / 1000.0, kTimeoutS);
        QVERIFY(clock.elapsed() >= kTimeoutS * 1000); // it waited for the timeout, not less
        QCOMPARE(launcher.exitCode(), 1);
        const QByteArray err = launcher.readAllStandardError();
        QVERIFY2(err.contains("rank 1 (pid " + QByteArray::number(victim) + ") was stopped (SIGSTOP"), err.constData());
        QVERIFY2(err.contains("rank 0 of 2: gloo all_reduce(") || err.contains("rank 0 of 2: gloo broadcast("),
                 err.constData());
        // The flight recorder names rank 1 with its last collective (one behind rank 0's, or the same one).
        QVERIFY2(err.contains("flight recorder: rank 1 never entered collective #") ||
                     err.contains("flight recorder: rank 1 is stuck in collective #"),
                 err.constData());
        QVERIFY2(err.contains("its last: #") || err.contains("gave up waiting for it"), err.constData());
        QVERIFY2(!err.contains("frame #"), err.constData()); // no C++ backtrace in a person's message
        QCOMPARE(rankPid(launcher.processId(), 1), -1);
        // Every rank's ring beside the outputs, and rank 0's own dump from its failure.
        QFile all(out + "/flight_recorder.json");
        QVERIFY(all.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(all.readAll()).object();
        QCOMPARE(doc.value("schema").toString(), QStringLiteral("stackscope.flight-recorder/1"));
        QCOMPARE(doc.value("ranks").toArray().size(), 2);
        QVERIFY(!doc.value("verdict").toArray().isEmpty());
        for (const auto& r : doc.value("ranks").toArray()) {
            const auto list = r.toObject().value("collectives").toArray();
            QVERIFY(!list.isEmpty());
            const auto last = list.last().toObject();
            QVERIFY(last.value("seq").toInt() > 0);
            QVERIFY(!last.value("label").toString().isEmpty());
            QVERIFY(last.value("enqueued_at").toDouble() > 0);
        }
        QFile own(out + "/flight_recorder_rank0.json");
        QVERIFY(own.open(QIODevice::ReadOnly));
        QVERIFY(QJsonDocument::fromJson(own.readAll()).object().value("reason").toString().startsWith("error: "));
        // diagnose --log reads the dump.
        const auto d = runCli({"diagnose", "--log", out + "/flight_recorder.json", "--json"});
        QVERIFY2(d.out.contains("COLLECTIVE_HELD_UP_BY_RANK"), d.out.constData());
    }

    // Rank 0 refusing the configuration (nothing to resume) is bad input: exit 2 with its message, and the rank
    // waiting at the rendezvous is ended at once, not after the timeout.
    void refusedConfigurationEndsAllAtOnce()
    {
        if (!m_haveGloo)
            QSKIP("no libtorch module with c10d's Gloo process group in this build");
        const QString out = path("nothing-to-resume");
        QElapsedTimer clock;
        clock.start();
        const auto r = runCli(trainArgs(out) << "--nproc" << "2" << "--resume");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--resume"), r.err.constData());
        QVERIFY2(!r.err.contains("stackscope-cli: stackscope-cli"), r.err.constData());
        qInfo("refused after %.2f s (timeout %d s)", clock.elapsed() / 1000.0, kTimeoutS);
    }

    // Issue 36 row 8: two ranks of an external launcher started with different options or data. Every rank ends
    // with exit 2 and the same message naming the field and the ranks, before any collective of another size.
    void mismatchedRanksAreRefused_data()
    {
        QTest::addColumn<QStringList>("rank1Extra"); // flag and value pairs that replace rank 1's
        QTest::addColumn<QString>("field");
        QTest::newRow("hidden layers") << QStringList {"--hidden", "32,8"} << "hidden: rank 0 has [16,8], rank 1 has [32,8]";
        QTest::newRow("batch size") << QStringList {"--batch-size", "32"} << "batch_size: rank 0 has 64, rank 1 has 32";
        QTest::newRow("epochs") << QStringList {"--epochs", "4"} << "epochs: rank 0 has 3, rank 1 has 4";
        QTest::newRow("other data") << QStringList {"--input", "OTHER"} << "data_";
    }

    void mismatchedRanksAreRefused()
    {
        QFETCH(QStringList, rank1Extra);
        QFETCH(QString, field);
        if (!m_haveGloo)
            QSKIP("no libtorch module with c10d's Gloo process group in this build");
        const QString other = path("bars-other.csv");
        if (!QFile::exists(other))
            QCOMPARE(runCli({"sample-data", "--out", other, "--days", "6", "--seed", "7"}).exitCode, 0);
        const QString out = path("mismatch-" + QString::number(qHash(field)));
        const int port = freePort();
        QProcess ranks[2];
        for (int r = 0; r < 2; ++r) {
            QStringList args = trainArgs(out);
            for (int i = 0; r == 1 && i + 1 < rank1Extra.size(); i += 2) {
                const int at = args.indexOf(rank1Extra[i]);
                QVERIFY(at >= 0);
                args[at + 1] = rank1Extra[i + 1] == "OTHER" ? other : rank1Extra[i + 1];
            }
            startRank(ranks[r], r, 2, port, args);
            QVERIFY(ranks[r].waitForStarted(10000));
        }
        for (int r = 0; r < 2; ++r) {
            QVERIFY(ranks[r].waitForFinished(120000));
            const QByteArray err = ranks[r].readAllStandardError();
            QCOMPARE(ranks[r].exitStatus(), QProcess::NormalExit); // no abort inside Gloo
            QVERIFY2(ranks[r].exitCode() == 2, err.constData());
            QVERIFY2(err.contains("started with different options or data"), err.constData());
            QVERIFY2(err.contains(field.toUtf8()), err.constData());
        }
    }

    // Row 12: a world far larger than this process could connect to is refused before the rendezvous (a 1024-file
    // limit here: the model in checkWorldFits), not after --dist-timeout and a teardown of 10 ms a rank.
    void hugeWorldIsRefused()
    {
        const QString out = path("huge-world");
        QProcess rank;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("RANK", "0");
        env.insert("WORLD_SIZE", "100000");
        env.insert("MASTER_ADDR", "127.0.0.1");
        env.insert("MASTER_PORT", QString::number(freePort()));
        rank.setProcessEnvironment(env);
        const QString command = "ulimit -n 1024 && exec \"$0\" \"$@\"";
        rank.start("/bin/sh", QStringList {"-c", command, qEnvironmentVariable("STACKSCOPE_CLI")} + trainArgs(out));
        QVERIFY(rank.waitForStarted(10000));
        QVERIFY2(rank.waitForFinished(60000), "rank 0 of WORLD_SIZE=100000 was still running after 60 s");
        const QByteArray err = rank.readAllStandardError();
        QVERIFY2(rank.exitCode() == 2, err.constData());
        QVERIFY2(err.contains("WORLD_SIZE=100000") && err.contains("ulimit -n"), err.constData());
    }

    // A run that fails before its first epoch has nothing to --resume from: the advice says to run it again.
    void noResumeAdviceWithoutCheckpoint()
    {
        if (!m_haveGloo)
            QSKIP("no libtorch module with c10d's Gloo process group in this build");
        const QString out = path("no-checkpoint");
        QProcess launcher;
        launcher.start(qEnvironmentVariable("STACKSCOPE_CLI"), trainArgs(out, 400) << "--nproc" << "2");
        QVERIFY(launcher.waitForStarted(10000));
        pid_t victim = -1;
        QElapsedTimer clock;
        clock.start();
        while ((victim = rankPid(launcher.processId(), 1)) <= 0 && clock.elapsed() < 30000)
            QTest::qWait(5);
        QVERIFY(victim > 0);
        QCOMPARE(::kill(victim, SIGKILL), 0);
        QVERIFY(launcher.waitForFinished((kTimeoutS + 10) * 1000));
        const QByteArray err = launcher.readAllStandardError();
        if (QFile::exists(out + "/checkpoint.pt"))
            QSKIP("an epoch finished before the rank was killed (a fast machine): nothing to check");
        QCOMPARE(launcher.exitCode(), 1);
        QVERIFY2(err.contains("no checkpoint to --resume from"), err.constData());
        QVERIFY2(!err.contains("and --resume:"), err.constData());
    }

    void externalLauncher()
    {
        if (!m_haveGloo)
            QSKIP("no libtorch module with c10d's Gloo process group in this build (Debian: install libgloo-dev, rebuild)");
        const QString out = path("external");
        const int port = freePort();
        QProcess ranks[2];
        for (int r = 0; r < 2; ++r) {
            startRank(ranks[r], r, 2, port, trainArgs(out));
            QVERIFY(ranks[r].waitForStarted(10000));
        }
        for (auto& p : ranks) {
            QVERIFY(p.waitForFinished(120000));
            QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        }
        QVERIFY(ranks[0].readAllStandardOutput().contains("rank 0 of 2 processes, gloo"));
        QCOMPARE(ranks[1].readAllStandardOutput(), QByteArray()); // rank 0 reports for the run
        compareWithSingle(valLosses(out));
    }
};

QTEST_GUILESS_MAIN(TestTrainDist)
#include "tst_train_dist.moc"
