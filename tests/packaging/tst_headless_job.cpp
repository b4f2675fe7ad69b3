// The headless job (packaging/headless-job.sh, what run.sh runs without a display): every step runs whatever the
// previous one returned, the outputs are always listed, and the exit code says the worst that happened.
#include <QtTest>

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>

class TestHeadlessJob : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyStepRuns_data()
    {
        QTest::addColumn<QStringList>("env"); // STACKSCOPE_TEST_CRASH=COMMAND: that command dies of SIGSEGV
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<bool>("trained");
        QTest::addColumn<QString>("expectedLine");
        // A probe that fails its check (exit 1 of the probe step): VPOC, training and the report still run.
        // STACKSCOPE_PYTHON=none: the Python grid has its own tests (tests/python); here it would only add minutes.
        QTest::newRow("probe forced wrong") << QStringList {"STACKSCOPE_TEST_INJECT=wrong:softmax", "STACKSCOPE_PYTHON=none"} << 1 << true
                                            << "at least one check failed";
        // No torch module: the probes and training fail (exit 1 each), the steps after them still run.
        QTest::newRow("torch module missing") << QStringList {"STACKSCOPE_TORCH_MODULE=/nonexistent/libstackscope_torch.so", "STACKSCOPE_PYTHON=none"}
                                              << 1 << false << "a check failed";
        // A step that dies (the VPOC step crashes): exit 2, and training and the report still run.
        QTest::newRow("vpoc step crashes") << QStringList {"STACKSCOPE_TEST_CRASH=vpoc", "STACKSCOPE_PYTHON=none"} << 2 << true << "could not run";
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
        // The CLI through a wrapper that crashes the command STACKSCOPE_TEST_CRASH names, as a broken stack would.
        const QString wrapper = dir.filePath(QStringLiteral("cli-wrapper.sh"));
        QFile w(wrapper);
        QVERIFY(w.open(QIODevice::WriteOnly));
        w.write(QStringLiteral("#!/bin/sh\nif [ \"$1\" = \"${STACKSCOPE_TEST_CRASH:-}\" ]; then kill -SEGV $$; fi\nexec '%1' \"$@\"\n")
                    .arg(qEnvironmentVariable("STACKSCOPE_CLI"))
                    .toUtf8());
        w.close();
        QVERIFY(w.setPermissions(w.permissions() | QFileDevice::ExeOwner));
        const QString out = dir.filePath(QStringLiteral("out"));
        job.start(QStringLiteral("bash"), {QStringLiteral(STACKSCOPE_SOURCE_DIR "/packaging/headless-job.sh"), wrapper, out});
        QVERIFY(job.waitForFinished(540000));
        const QString log = QString::fromUtf8(job.readAll());
        QVERIFY2(job.exitStatus() == QProcess::NormalExit, qPrintable(log));
        QVERIFY2(job.exitCode() == exitCode, qPrintable(QStringLiteral("exit %1\n").arg(job.exitCode()) + log));
        QVERIFY2(log.contains(expectedLine), qPrintable(log));
        // The outputs are listed whatever happened, and the steps after the failing one ran.
        QVERIFY2(log.contains(QStringLiteral("outputs in ") + out), qPrintable(log));
        const QDir o(out);
        for (const char* file : {"snapshot.json", "probes.json", "report.log"})
            QVERIFY2(QFileInfo::exists(o.filePath(QLatin1String(file))), file);
        const bool vpocCrashed = env.first() == QLatin1String("STACKSCOPE_TEST_CRASH=vpoc");
        QCOMPARE(QFileInfo::exists(o.filePath(QStringLiteral("vpoc.json"))), !vpocCrashed);
        if (vpocCrashed)
            QVERIFY2(log.contains(QStringLiteral("vpoc.json missing")), qPrintable(log));
        QCOMPARE(QFileInfo::exists(o.filePath(QStringLiteral("training/model.pt"))), trained);
        if (!trained)
            QVERIFY2(log.contains(QStringLiteral("training/model.pt missing")), qPrintable(log));
        QFile report(o.filePath(QStringLiteral("report.log")));
        QVERIFY(report.open(QIODevice::ReadOnly));
        QVERIFY2(report.readAll().contains("folder: "), "the report step wrote no report folder");
        if (env.first().startsWith(QLatin1String("STACKSCOPE_TEST_INJECT"))) {
            QFile probes(o.filePath(QStringLiteral("probes.json")));
            QVERIFY(probes.open(QIODevice::ReadOnly));
            QVERIFY(probes.readAll().contains("\"wrong\""));
        }
    }
};

QTEST_GUILESS_MAIN(TestHeadlessJob)
#include "tst_headless_job.moc"
