// The Python probe worker through the probe runner, on Debian's python3-torch (CPU): the error model's results, a
// crash and a hang injected into a probe (and the restart after them), a plainly wrong result, a Gloo all-reduce
// with two processes, and the CLI's environment columns. Skips where /usr/bin/python3 has no torch.
#include "core/probes/probe_catalogue.h"
#include "core/probes/probe_runner.h"
#include "core/util/program_paths.h"

#include <nlohmann/json.hpp>

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>

using namespace stackscope;
using namespace std::chrono_literals;

namespace {

const std::string kPython = "/usr/bin/python3";

ProbeRunOptions pythonRun(std::vector<std::string> probes)
{
    ProbeRunOptions o;
    o.python = kPython;
    o.devices = {"cpu"};
    o.probeIds = std::move(probes);
    o.timeout = 30s;
    o.parallelCells = 1;
    return o;
}

const ProbeRecord* find(const std::vector<ProbeRecord>& records, const std::string& probe)
{
    for (const auto& r : records) {
        if (r.outcome.probeId == probe)
            return &r;
    }
    return nullptr;
}

// Writes a stand-in worker script into `dir` and returns the run options that use it.
ProbeRunOptions runWithScript(const QTemporaryDir& dir, const QByteArray& code)
{
    const QString script = dir.filePath(QStringLiteral("worker.py"));
    QFile f(script);
    if (f.open(QIODevice::WriteOnly))
        f.write(code);
    auto o = pythonRun({"alloc_zeros"});
    o.pythonScript = script.toStdString();
    return o;
}

} // namespace

class TestPythonProbes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (pythonWorkerScript().empty())
            QFAIL("the Python probe worker is not in the build tree (STACKSCOPE_DATA_DIR/python); rerun cmake");
        if (!QFileInfo(QString::fromStdString(kPython)).isExecutable())
            QSKIP("no /usr/bin/python3 here");
        std::string error, backend;
        const auto devices = listPythonProbeDevices(kPython, pythonWorkerScript(), kPythonStartupTimeout, &error, &backend);
        if (!error.empty())
            QSKIP(qPrintable(QStringLiteral("/usr/bin/python3 cannot run the worker (install python3-torch): ") +
                             QString::fromStdString(error)));
        QCOMPARE(devices.front().id, std::string("cpu"));
    }

    // A worker of another build (its hello says protocol 99) is refused at once with what to do, in the grid and
    // when listing devices; before, its lines were read as if it spoke this protocol.
    void workerOfAnotherProtocolIsRefused()
    {
        QTemporaryDir dir;
        const auto o = runWithScript(dir, "import json, sys, time\n"
                                          "print(json.dumps({'type': 'hello', 'protocol': 99, 'pid': 0}), flush=True)\n"
                                          "if '--list-devices' not in sys.argv:\n"
                                          "    time.sleep(20)  # a grid worker waits: the runner must stop it at its hello\n");
        const std::string script = o.pythonScript;
        QElapsedTimer clock;
        clock.start();
        const auto records = ProbeRunner(o).run();
        const auto* r = find(records, "alloc_zeros");
        QVERIFY(r);
        QCOMPARE(r->outcome.outcome, ProbeResult::Error);
        QVERIFY2(r->outcome.message.find("speaks protocol 99, this StackScope expects 2") != std::string::npos,
                 r->outcome.message.c_str());
        QVERIFY2(clock.elapsed() < 10000, "the worker was not stopped at its hello");
        std::string error, backend;
        const auto devices = listPythonProbeDevices(kPython, script, kPythonStartupTimeout, &error, &backend);
        QCOMPARE(devices.size(), size_t(1)); // the CPU column that every listing failure falls back to, with the why
        QVERIFY2(error.find("speaks protocol 99") != std::string::npos, error.c_str());
    }

    // Issue 36 rows 3, 5 and 6 through the probe runner: a worker that writes one endless line, one that leaves a
    // child holding its stdout (setsid) and exits, one that writes bytes that are not UTF-8 and terminal escapes
    // before it aborts. Each cell ends with one clear line, memory stays bounded, and the text is JSON-safe.
    void hostileWorkers_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("outcome");
        QTest::addColumn<QString>("expect"); // in the message or the captured stderr
        QTest::newRow("endless line") << "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n"
                                      << int(ProbeResult::Error) << "without a line end";
        QTest::newRow("setsid child holds stdout")
            << "import os, sys, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(60)\n    os._exit(0)\nsys.exit(0)\n"
            << int(ProbeResult::Error) << "without reporting";
        QTest::newRow("not UTF-8 on stderr, then abort")
            << "import os, sys\nsys.stderr.buffer.write(b'\\xff\\xfe\\x1b[2J boom\\n')\nsys.stderr.flush()\nos.abort()\n"
            << int(ProbeResult::Crash) << "\\xff\\xfe\\x1b[2J boom";
    }

    void hostileWorkers()
    {
        QFETCH(QString, code);
        QFETCH(int, outcome);
        QFETCH(QString, expect);
        QTemporaryDir dir;
        const auto o = runWithScript(dir, code.toUtf8());
        QElapsedTimer clock;
        clock.start();
        const auto records = ProbeRunner(o).run();
        // The probe's limit is 30 s; before, the first and second rows never ended (memory grew, or EOF never came).
        QVERIFY2(clock.elapsed() < 60000, "the runner waited past the probe's limit");
        const auto* r = find(records, "alloc_zeros");
        QVERIFY(r);
        const std::string text = r->outcome.message + "\n" + r->outcome.capturedStderr;
        QCOMPARE(int(r->outcome.outcome), outcome);
        QVERIFY2(text.find(expect.toStdString()) != std::string::npos, text.c_str());
        QVERIFY(!nlohmann::json(text).dump().empty()); // throws on bytes that are not UTF-8
    }

    // inductor's vector-ISA check (torch.compile on the CPU) against a stand-in module (tests/python/vec_isa_fake.py):
    // the candidates are checked side by side, the answers kept; a second process answers every check from the
    // cache and picks the same ISA; a check whose code changed runs again; a cache that cannot be written is said on
    // stderr and the pick is still made.
    void vecIsaChecksSideBySideThenCached()
    {
        QTemporaryDir dir;
        const QString fake = QStringLiteral(STACKSCOPE_TEST_FIXTURES "/../python/vec_isa_fake.py");
        auto run = [&](const QString& cacheDir, const QString& suffix, QByteArray* err = nullptr) {
            QProcess p;
            QStringList args {fake, QString::fromStdString(pythonWorkerScript()), cacheDir};
            if (!suffix.isEmpty())
                args << suffix;
            p.start(QString::fromStdString(kPython), args);
            p.waitForFinished(60000);
            if (err)
                *err = p.readAllStandardError();
            return nlohmann::json::parse(p.readAllStandardOutput().toStdString(), nullptr, false);
        };
        const auto first = run(dir.path(), {});
        QVERIFY2(first.is_object(), first.dump().c_str());
        QCOMPARE(first["picked"], nlohmann::json("avx512")); // AMX's own check fails, as inductor would find
        QCOMPARE(first["run"], nlohmann::json(6));
        QCOMPARE(first["cached"], nlohmann::json(0));
        QVERIFY2(first["most_at_once"].get<int>() > 1, "the candidates were checked one after another");
        const auto second = run(dir.path(), {});
        QCOMPARE(second["picked"], first["picked"]);
        QCOMPARE(second["run"], nlohmann::json(0));
        QCOMPARE(second["calls"], nlohmann::json(0));
        QCOMPARE(second["cached"], nlohmann::json(6));
        QVERIFY(second["first_seconds"].is_number()); // the note tells the user what a process of theirs pays
        const auto changed = run(dir.path(), QStringLiteral("v2"));
        QCOMPARE(changed["run"], nlohmann::json(3)); // the three base checks changed, the others did not
        QCOMPARE(changed["cached"], nlohmann::json(3));
        QFile blocker(dir.filePath(QStringLiteral("a-file")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        QByteArray err;
        const auto unwritable = run(blocker.fileName() + QStringLiteral("/cache"), {}, &err);
        QCOMPARE(unwritable["picked"], first["picked"]);
        QVERIFY2(err.contains("could not keep the vector-ISA answers"), err.constData());
    }

    // The same catalogue and error model as libtorch, plus the seed user's checks; the environment is recorded.
    void gridWithinTheErrorModel()
    {
        const std::vector<std::string> probes {"elementwise", "matmul_fp32", "matmul_bf16", "linear_bf16", "softmax",
                                               "batch_norm", "user_checks", "torch_compile_fn", "stackscope_kernel"};
        ProbeRunner runner(pythonRun(probes));
        const auto records = runner.run();
        QCOMPARE(records.size(), probes.size() - 1); // StackScope's own kernel runs in the libtorch worker only
        for (const auto& r : records) {
            QCOMPARE(r.outcome.environment, "python:" + kPython);
            if (r.outcome.probeId == "torch_compile_fn") {
                // Debian's 1.13 has no torch.compile; a PyTorch 2 says ok (or what broke).
                QVERIFY2(r.outcome.outcome == ProbeResult::Unsupported || r.outcome.outcome == ProbeResult::Ok,
                         r.outcome.message.c_str());
                continue;
            }
            QVERIFY2(r.outcome.outcome == ProbeResult::Ok, (r.outcome.probeId + ": " + r.outcome.message).c_str());
            QVERIFY(r.errorRatio && *r.errorRatio <= 1.0);
            QVERIFY(r.details.contains("error_model"));
        }
    }

    void injectedFaults_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("expected");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("crash") << "crash" << int(ProbeResult::Crash) << "SIGSEGV";
        QTest::newRow("abort") << "abort" << int(ProbeResult::Crash) << "SIGABRT";
        QTest::newRow("hang") << "hang" << int(ProbeResult::Hang) << "no result after";
        QTest::newRow("wrong") << "wrong" << int(ProbeResult::Wrong) << "times the bound";
        QTest::newRow("oom") << "oom" << int(ProbeResult::Error) << "alloc";
    }

    // The fault goes into matmul_fp32; elementwise after it runs in a restarted worker and is ok.
    void injectedFaults()
    {
        QFETCH(QString, kind);
        QFETCH(int, expected);
        QFETCH(QString, messagePart);
        auto o = pythonRun({"matmul_fp32", "elementwise"});
        o.inject = kind.toStdString();
        o.injectProbe = "matmul_fp32";
        o.timeout = 3s; // the hang: 3 s after its start message (the start with `import torch` has its own limit)
        ProbeRunner runner(o);
        const auto records = runner.run();
        const auto* hit = find(records, "matmul_fp32");
        const auto* next = find(records, "elementwise");
        QVERIFY(hit && next);
        QCOMPARE(int(hit->outcome.outcome), expected);
        QVERIFY2(QString::fromStdString(hit->outcome.message).contains(messagePart, Qt::CaseInsensitive),
                 hit->outcome.message.c_str());
        QVERIFY2(next->outcome.outcome == ProbeResult::Ok, next->outcome.message.c_str());
    }

    // torch.distributed over Gloo: two processes on the CPU, all_reduce within gamma_2, broadcast exact, barrier.
    void glooAllReduceTwoProcesses()
    {
        ProbeRunner runner(pythonRun({"dist_gloo"}));
        const auto records = runner.run();
        QCOMPARE(records.size(), std::size_t(1));
        const auto& r = records.front();
        QVERIFY2(r.outcome.outcome == ProbeResult::Ok, (r.outcome.message + "\n" + r.outcome.capturedStderr).c_str());
        QCOMPARE(r.details.value("world_size", 0), 2);
        QCOMPARE(r.details.value("backend", std::string()), std::string("gloo"));
        QVERIFY(r.errorRatio && *r.errorRatio <= 1.0);
    }

    // The CLI: a column per environment, each result saying which PyTorch ran it.
    void cliEnvironmentColumns()
    {
        const QString cli = qEnvironmentVariable("STACKSCOPE_CLI");
        if (cli.isEmpty())
            QSKIP("STACKSCOPE_CLI is not set; run through ctest");
        QProcess p;
        p.start(cli, {QStringLiteral("probe"), QStringLiteral("--python"), QString::fromStdString(kPython),
                      QStringLiteral("--no-libtorch"), QStringLiteral("--device"), QStringLiteral("cpu"),
                      QStringLiteral("--probe"), QStringLiteral("reduction"), QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(300000));
        QCOMPARE(p.exitCode(), 0);
        const auto doc = nlohmann::json::parse(p.readAllStandardOutput().toStdString());
        QCOMPARE(doc["environments"].size(), std::size_t(1));
        QCOMPARE(doc["environments"][0]["python"], nlohmann::json(kPython));
        QCOMPARE(doc["results"].size(), std::size_t(1));
        QCOMPARE(doc["results"][0]["environment"], nlohmann::json("python:" + kPython));
        QCOMPARE(doc["results"][0]["outcome"], nlohmann::json("ok"));

        QProcess bad;
        bad.start(cli, {QStringLiteral("probe"), QStringLiteral("--no-libtorch")});
        QVERIFY(bad.waitForFinished(60000));
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY(bad.readAllStandardError().contains("--python"));
    }
};

QTEST_GUILESS_MAIN(TestPythonProbes)
#include "tst_python_probes.moc"
