// stackscope-cli monitor through QProcess: JSON lines, reasons for missing values, bad usage.
#include <QtTest/QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

class TestMonitorCli : public QObject {
    Q_OBJECT
    QString m_cli = qEnvironmentVariable("STACKSCOPE_CLI");

    int run(const QStringList& args, QByteArray* out = nullptr, QByteArray* err = nullptr)
    {
        QProcess p;
        p.start(m_cli, args);
        if (!p.waitForFinished(60000))
            return -1;
        if (out)
            *out = p.readAllStandardOutput();
        if (err)
            *err = p.readAllStandardError();
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (m_cli.isEmpty())
            QSKIP("STACKSCOPE_CLI is not set; run through ctest");
    }

    void jsonLines()
    {
        QByteArray out, err;
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(run({"monitor", "--count", "2", "--json", "--interval", "100"}, &out, &err), 0);
        QVERIFY(timer.elapsed() >= 100); // the second sample waits one interval
        const QList<QByteArray> lines = out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        qint64 previous = 0;
        for (const QByteArray& line : lines) {
            QJsonParseError pe;
            const QJsonObject j = QJsonDocument::fromJson(line, &pe).object();
            QVERIFY2(pe.error == QJsonParseError::NoError, line.constData());
            QVERIFY(j["time_ms"].toInteger() > previous);
            previous = j["time_ms"].toInteger();
            QVERIFY(j["gpus"].isArray());
            const QJsonArray sources = j["sources"].toArray();
            QCOMPARE(sources.size(), 3);
            QStringList names;
            for (const auto& v : sources) {
                const QJsonObject s = v.toObject();
                names << s["name"].toString();
                // Every source says whether it loaded; one that did not says why and what to do.
                QVERIFY(s.contains("available"));
                if (!s["available"].toBool()) {
                    QVERIFY(!s["reason"].toString().isEmpty());
                    QVERIFY2(s["detail"].toString().size() > 20, qPrintable(s["detail"].toString()));
                }
            }
            QCOMPARE(names, QStringList({"NVML", "rocm_smi", "libtorch caching allocator"}));
            for (const auto& gv : j["gpus"].toArray()) {
                const QJsonObject readings = gv.toObject()["readings"].toObject();
                for (auto it = readings.begin(); it != readings.end(); ++it) {
                    const QJsonObject r = it.value().toObject();
                    QVERIFY2(!r["value"].isNull() || !r["missing"].toString().isEmpty(), qPrintable(it.key()));
                }
            }
        }
        // No GPU here: the vendor libraries' reasons are what the lines carry.
        const QJsonObject first = QJsonDocument::fromJson(lines[0]).object();
        if (first["gpus"].toArray().isEmpty()) {
            const QJsonObject nvml = first["sources"].toArray()[0].toObject();
            QCOMPARE(nvml["available"].toBool(), false);
            QCOMPARE(nvml["reason"].toString(), QString("library_not_loaded"));
        }
    }

    void textMode()
    {
        QByteArray out;
        QCOMPARE(run({"monitor", "--count", "1"}, &out), 0);
        QVERIFY2(out.contains("# NVML:"), out.constData());
    }

    void badUsage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("too fast") << QStringList {"monitor", "--interval", "10", "--count", "1"} << "--interval 10";
        QTest::newRow("too slow") << QStringList {"monitor", "--interval", "5000", "--count", "1"} << "50-1000";
        QTest::newRow("negative count") << QStringList {"monitor", "--count", "-1"} << "--count -1";
        QTest::newRow("not a number") << QStringList {"monitor", "--interval", "fast"} << "interval";
    }
    void badUsage()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QByteArray out, err;
        QCOMPARE(run(args, &out, &err), 2);
        QVERIFY2(QString::fromUtf8(err).contains(message), err.constData());
        QVERIFY(out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestMonitorCli)
#include "tst_monitor_cli.moc"
