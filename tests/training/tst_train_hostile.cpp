// `train` on hostile input: a model too large for memory (RLIMIT_AS), bad --output folders, two writers of one
// folder, a full disk (RLIMIT_FSIZE) during a run and a resume: exit 2 and never a half-written set of files.
#include "core/training/output_lock.h"
#include "core/training/training_config.h"
#include "tests/common/cli_process.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using stackscope::test::CliRun;
using stackscope::test::runCli;

namespace {

// Runs the CLI with resource limits set in the child only (after fork, before exec).
CliRun runLimited(const QStringList& args, rlim_t addressSpace, rlim_t fileSize, int timeoutMs = 120000)
{
    QProcess p;
    p.setChildProcessModifier([addressSpace, fileSize] {
        if (addressSpace) {
            const rlimit as {addressSpace, addressSpace};
            ::setrlimit(RLIMIT_AS, &as);
        }
        if (fileSize) {
            ::signal(SIGXFSZ, SIG_IGN); // a write past the limit fails with EFBIG, as on a full disk
            const rlimit fs {fileSize, fileSize};
            ::setrlimit(RLIMIT_FSIZE, &fs);
        }
    });
    p.start(qEnvironmentVariable("STACKSCOPE_CLI"), args);
    CliRun r;
    if (!p.waitForStarted(10000) || !p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(5000);
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QByteArray hashOf(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return "<missing>";
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex();
}

constexpr rlim_t kGiB = 1024ull * 1024 * 1024;

} // namespace

class TestTrainHostile : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_bars;
    bool m_haveModule = false;

    QString path(const char* name) const { return m_dir.filePath(QString::fromUtf8(name)); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_bars = path("bars.csv");
        QCOMPARE(runCli({"sample-data", "--out", m_bars, "--days", "3"}).exitCode, 0);
        const auto probe = runCli({"inspect", "--json", "--no-archscan"});
        m_haveModule = QJsonDocument::fromJson(probe.out).object().value("torch").toObject().contains("version");
    }

    // 30000x30000 weights are 0.9 billion parameters, about 54 GiB by the memory model: refused at once under
    // a 4 GiB address-space limit, with the figure, before anything is allocated or written.
    void modelTooLargeForMemory()
    {
        const QString out = path("huge");
        const auto r = runLimited({"train", "--input", m_bars, "--output", out, "--hidden", "30000,30000",
                                   "--device", "cpu"},
                                  4 * kGiB, 0);
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QVERIFY2(r.err.contains("--hidden 30000,30000") && r.err.contains("GiB is available"), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    void badOutputFolders_data()
    {
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("stderrHas");
        QTest::newRow("a file") << "%1/bars.csv" << "is a file";
        QTest::newRow("under /proc") << "/proc/self/stackscope-run" << "under /proc";
        QTest::newRow("under /sys") << "/sys/kernel/stackscope" << "under /sys";
    }
    void badOutputFolders()
    {
        QFETCH(QString, output);
        QFETCH(QString, stderrHas);
        output.replace(QStringLiteral("%1"), m_dir.path());
        const auto before = hashOf(m_bars);
        const auto r = runCli({"train", "--input", m_bars, "--output", output, "--epochs", "1"});
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QVERIFY2(r.err.contains(stderrHas.toUtf8()), r.err.constData());
        QCOMPARE(hashOf(m_bars), before);
    }

    void notWritableFolder()
    {
        if (::geteuid() == 0)
            QSKIP("root writes into a read-only folder; the row runs as an ordinary user");
        if (!m_haveModule)
            QSKIP("no libtorch module in this build");
        const QString out = path("readonly");
        QVERIFY(QDir().mkdir(out));
        QFile::setPermissions(out, QFile::ReadOwner | QFile::ExeOwner);
        const auto r = runCli({"train", "--input", m_bars, "--output", out, "--epochs", "1"});
        QFile::setPermissions(out, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QVERIFY2(r.err.contains("not writable"), r.err.constData());
    }

    // The lock on its own: a second holder is refused naming the first; a lock file left by a dead run is
    // taken over and reported; releasing removes the file.
    void outputLock()
    {
        using stackscope::training::OutputLock;
        const QString folder = path("locked");
        QVERIFY(QDir().mkpath(folder));
        {
            OutputLock first(folder.toStdString());
            QVERIFY(first.staleOwner().empty());
            try {
                OutputLock second(folder.toStdString());
                QFAIL("a second writer got the lock");
            } catch (const stackscope::training::ConfigError& e) {
                const QString m = QString::fromStdString(e.what());
                QVERIFY2(m.contains(QStringLiteral("pid %1").arg(::getpid())), qPrintable(m));
                QVERIFY2(m.contains(QStringLiteral("another training run")), qPrintable(m));
            }
        }
        const QString lockFile = folder + "/" + OutputLock::kFileName;
        QVERIFY(!QFile::exists(lockFile));
        QFile stale(lockFile);
        QVERIFY(stale.open(QIODevice::WriteOnly));
        stale.write("pid 999999 on gone-host\n");
        stale.close();
        OutputLock taken(folder.toStdString());
        QCOMPARE(QString::fromStdString(taken.staleOwner()), QStringLiteral("pid 999999 on gone-host"));
    }

    void secondWriterRefused()
    {
        if (!m_haveModule)
            QSKIP("no libtorch module in this build");
        const QString out = path("shared");
        QProcess first;
        first.start(qEnvironmentVariable("STACKSCOPE_CLI"),
                    {"train", "--input", m_bars, "--output", out, "--epochs", "200", "--patience", "0",
                     "--device", "cpu", "--batch-size", "8"});
        QVERIFY(first.waitForStarted(10000));
        // Wait (bounded) until the first run holds the folder.
        for (int i = 0; i < 300 && !QFile::exists(out + "/.stackscope-train.lock"); ++i)
            QTest::qWait(50);
        const auto r = runCli({"train", "--input", m_bars, "--output", out, "--epochs", "1", "--device", "cpu"});
        first.kill();
        first.waitForFinished(10000);
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QVERIFY2(r.err.contains("another training run (pid"), r.err.constData());
    }

    // A 64 KiB file size limit: model_metadata.json fits, model.pt of 256x256 weights (about 270 KB) does not.
    void fullDiskFreshRun()
    {
        if (!m_haveModule)
            QSKIP("no libtorch module in this build");
        const QString out = path("full-fresh");
        const auto r = runLimited({"train", "--input", m_bars, "--output", out, "--epochs", "2", "--hidden",
                                   "256,256", "--device", "cpu"},
                                  0, 64 * 1024);
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QVERIFY2(r.err.contains("the disk holding"), r.err.constData());
        QVERIFY2(!QFile::exists(out), "a failed first run left its folder (a half set)");
    }

    // Issue 36 row 14: train-rank's --config is the launcher's small JSON file; a FIFO nobody writes, a device or
    // a folder is refused at once with exit 2 (a FIFO used to hang it).
    void rankConfigNotAFile_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("FIFO") << "fifo";
        QTest::newRow("/dev/zero") << "/dev/zero";
        QTest::newRow("a folder") << "dir";
    }

    void rankConfigNotAFile()
    {
        QFETCH(QString, kind);
        QString config = kind;
        if (kind == "fifo") {
            config = path("config.fifo");
            QCOMPARE(::mkfifo(config.toLocal8Bit().constData(), 0600), 0);
        } else if (kind == "dir") {
            config = m_dir.path();
        }
        const auto r = runCli({"train-rank", "--config", config});
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QVERIFY2(r.err.contains("not a regular file") && r.err.contains("stackscope-cli train"), r.err.constData());
    }

    void fullDiskResumeKeepsTheSet()
    {
        if (!m_haveModule)
            QSKIP("no libtorch module in this build");
        const QString out = path("full-resume");
        const QStringList common {"--input", m_bars, "--output", out, "--hidden", "256,256", "--device", "cpu",
                                  "--patience", "0"};
        auto r = runCli(QStringList {"train", "--epochs", "1"} + common);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto model = hashOf(out + "/model.pt");
        const auto checkpoint = hashOf(out + "/checkpoint.pt");
        r = runLimited(QStringList {"train", "--epochs", "3", "--resume"} + common, 0, 64 * 1024);
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QCOMPARE(hashOf(out + "/model.pt"), model);
        QCOMPARE(hashOf(out + "/checkpoint.pt"), checkpoint);
        const QStringList left = QDir(out).entryList(QDir::Files | QDir::Hidden);
        QCOMPARE(left, (QStringList {"checkpoint.pt", "model.pt", "model_metadata.json"}));
        QFile meta(out + "/model_metadata.json");
        QVERIFY(meta.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(meta.readAll()).object().value("epochs").toArray().size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestTrainHostile)
#include "tst_train_hostile.moc"
