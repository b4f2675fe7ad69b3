// stackscope-cli inspect: exit codes, JSON, --root, --out, and starting without the torch module.
#include "tests/common/cli_process.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = stackscope::test::CliRun;

Run runCli(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
{
    return stackscope::test::runCli(args, {}, env);
}

QString fixture(const char* root)
{
    return QStringLiteral(STACKSCOPE_TEST_FIXTURES "/roots/") + QLatin1String(root);
}

} // namespace

class TestCliInspect : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(!qEnvironmentVariable("STACKSCOPE_CLI").isEmpty(), "STACKSCOPE_CLI not set by CTest"); }

    void usage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrHas");
        QTest::newRow("no command") << QStringList {} << 2 << "";
        QTest::newRow("unknown option") << QStringList {"inspect", "--frobnicate"} << 2 << "frobnicate";
        QTest::newRow("root missing") << QStringList {"inspect", "--root", "/nonexistent/root"} << 2 << "not a folder";
        QTest::newRow("help") << QStringList {"inspect", "--help"} << 0 << "";
        QTest::newRow("version") << QStringList {"--version"} << 0 << "";
    }
    void usage()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrHas);
        const Run r = runCli(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(QString::fromUtf8(r.err).contains(stderrHas), r.err.constData());
    }

    void jsonOfRecordedRoot()
    {
        const Run r = runCli({"inspect", "--json", "--root", fixture("ubuntu2204-2x7900xt")});
        QCOMPARE(r.exitCode, 0);
        QJsonParseError err;
        const auto doc = QJsonDocument::fromJson(r.out, &err);
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        const auto o = doc.object();
        QCOMPARE(o[QStringLiteral("schema")].toString(), QStringLiteral("stackscope.snapshot/1"));
        QCOMPARE(o[QStringLiteral("gpus")].toArray().size(), 3);
        QCOMPARE(o[QStringLiteral("gpus")][0][QStringLiteral("arch")].toString(), QStringLiteral("gfx1100"));
        QVERIFY(o[QStringLiteral("torch")][QStringLiteral("version")].isNull());
        QVERIFY(o[QStringLiteral("rocm")][QStringLiteral("hip_runtime_version")].isNull());
        QCOMPARE(o[QStringLiteral("access")][QStringLiteral("kfd")][QStringLiteral("read_write")].toBool(true), false);
        for (const char* key : {"captured_at", "host", "rocm", "cuda", "torch", "access", "env", "findings"})
            QVERIFY2(o.contains(QLatin1String(key)), key);
    }

    void outWritesAtomically()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("snap.json"));
        const Run r = runCli({"inspect", "--root", fixture("debian12-nogpu"), "--out", path});
        QCOMPARE(r.exitCode, 0);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(f.readAll()).object()[QStringLiteral("schema")].toString(), QStringLiteral("stackscope.snapshot/1"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // no temporary file left behind
        const Run bad = runCli({"inspect", "--root", fixture("debian12-nogpu"), "--out", "/nonexistent/dir/snap.json"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(QString::fromUtf8(bad.err).contains(QStringLiteral("/nonexistent/dir/snap.json")));
    }

    void startsWithoutTorchModule_data()
    {
        QTest::addColumn<QByteArray>("moduleContent"); // empty: no such file
        QTest::newRow("module missing") << QByteArray();
        QTest::newRow("module corrupt") << QByteArray("garbage, not an ELF file");
    }
    void startsWithoutTorchModule()
    {
        QFETCH(QByteArray, moduleContent);
        QTemporaryDir dir;
        const QString module = dir.filePath(QStringLiteral("libstackscope_torch.so"));
        if (!moduleContent.isEmpty()) {
            QFile f(module);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(moduleContent);
        }
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("STACKSCOPE_TORCH_MODULE"), module);
        const Run r = runCli({"inspect", "--json"}, env);
        QCOMPARE(r.exitCode, 0);
        const auto o = QJsonDocument::fromJson(r.out).object();
        QVERIFY(o[QStringLiteral("torch")][QStringLiteral("version")].isNull());
        bool found = false;
        for (const auto& f : o[QStringLiteral("findings")].toArray()) {
            if (f[QStringLiteral("id")].toString() == QStringLiteral("TORCH_MODULE_LOAD_FAILED")) {
                found = true;
                QVERIFY(f[QStringLiteral("detail")].toString().contains(module));
            }
        }
        QVERIFY(found);
    }
};

QTEST_GUILESS_MAIN(TestCliInspect)
#include "tst_cli_inspect.moc"
