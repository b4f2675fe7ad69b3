// The headless job (packaging/headless-job.sh, what run.sh runs without a display): every step runs whatever the
// previous one returned, the outputs are always listed, and the exit code says the worst that happened.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

class TestHeadlessJob : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyStepRuns_data()
    {
        QTest::addColumn<QStringList>("env");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<bool>("trained");
        QTest::addColumn<QString>("expectedLine");
        // A probe that fails its check (exit 1 of the probe step): VPOC, training and the report still run.
        // STACKSCOPE_PYTHON=none: the Python grid has its own tests (tests/python); here it would only add minutes.
        QTest::newRow("probe forced wrong") << QStringList {"STACKSCOPE_TEST_INJECT=wrong:softmax", "STACKSCOPE_PYTHON=none"} << 1 << true
                                            << "at least one check failed";
        // A step that cannot run at all (no torch module: training exits 2): the steps after it still run.
        QTest::newRow("torch module missing") << QStringList {"STACKSCOPE_TORCH_MODULE=/nonexistent/libstackscope_torch.so",
                                                              "STACKSCOPE_PYTHON=none"}
                                              << 2 << false << "could not run";
    }
    void everyStepRuns()
    {
        QFETCH(QStringList, env);
        QFETCH(int, exitCode);
        QFETCH(bool, trained);
        QFETCH(QString, expectedLine);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QProcess job;
        auto environment = QProcessEnvironment::systemEnvironment();
        for (const auto& kv : env)
            environment.insert(kv.section('=', 0, 0), kv.section('=', 1));
        job.setProcessEnvironment(environment);
        job.setProcessChannelMode(QProcess::MergedChannels);
        job.start(QStringLiteral("bash"), {QStringLiteral(STACKSCOPE_SOURCE_DIR "/packaging/headless-job.sh"),
                                           qEnvironmentVariable("STACKSCOPE_CLI"), dir.path()});
        QVERIFY(job.waitForFinished(540000));
        const QString log = QString::fromUtf8(job.readAll());
        QVERIFY2(job.exitStatus() == QProcess::NormalExit, qPrintable(log));
        QVERIFY2(job.exitCode() == exitCode, qPrintable(QStringLiteral("exit %1\n").arg(job.exitCode()) + log));
        QVERIFY2(log.contains(expectedLine), qPrintable(log));
        // The outputs are listed whatever happened, and the steps after the failing one ran.
        QVERIFY2(log.contains(QStringLiteral("outputs in ") + dir.path()), qPrintable(log));
        for (const char* file : {"snapshot.json", "probes.json", "vpoc.json", "vpoc-developing.csv", "report.log"})
            QVERIFY2(QFileInfo::exists(dir.filePath(QLatin1String(file))), file);
        QCOMPARE(QFileInfo::exists(dir.filePath(QStringLiteral("training/model.pt"))), trained);
        if (!trained)
            QVERIFY2(log.contains(QStringLiteral("training/model.pt missing")), qPrintable(log));
        QFile report(dir.filePath(QStringLiteral("report.log")));
        QVERIFY(report.open(QIODevice::ReadOnly));
        QVERIFY2(report.readAll().contains("folder: "), "the report step wrote no report folder");
        if (env.first().startsWith(QLatin1String("STACKSCOPE_TEST_INJECT"))) {
            QFile probes(dir.filePath(QStringLiteral("probes.json")));
            QVERIFY(probes.open(QIODevice::ReadOnly));
            QVERIFY(probes.readAll().contains("\"wrong\""));
        }
    }
};

QTEST_GUILESS_MAIN(TestHeadlessJob)
#include "tst_headless_job.moc"
