// The Probes page's environment picker: libtorch and the Python environments found (checked by default), Add...
// validating an interpreter by running it, added ones remembered, the run and the grid's columns following the choice.
#include "ui/probes/probes_page.h"

#include "core/probes/probe_catalogue.h"

#include <QListWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

const QString kTree = QStringLiteral(STACKSCOPE_TEST_FIXTURES "/python_envs");
const QString kCudaTorch = kTree + QStringLiteral("/home/miniconda3/envs/cuda-torch/bin/python3");
const QString kRocmTorch = kTree + QStringLiteral("/home/.venvs/rocm-torch/bin/python3");

ProbeRecord record(const std::string& environment, const std::string& device)
{
    ProbeRecord r;
    r.outcome.probeId = "alloc_zeros";
    r.outcome.device = device;
    r.outcome.environment = environment;
    r.outcome.outcome = ProbeResult::Ok;
    return r;
}

} // namespace

class TestPythonEnvPicker : public QObject {
    Q_OBJECT
    QTemporaryDir m_settings;

private Q_SLOTS:
    void init()
    {
        // Each test starts with its own, empty settings (added interpreters are remembered there).
        QVERIFY(m_settings.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path() + QLatin1Char('/') + QTest::currentTestFunction());
        QSettings().clear();
        qputenv("STACKSCOPE_PYTHON_ENVS", "off"); // discovery of this machine's own environments: see discovery()
    }

    void rememberedAreListedAndRun()
    {
        QSettings().setValue(QStringLiteral("probes/pythonInterpreters"), QStringList {kCudaTorch});
        ProbesPage page(nullptr);
        auto* picker = page.environmentPicker();
        QCOMPARE(picker->environments(), (QStringList {QStringLiteral("libtorch"), QStringLiteral("python:") + kCudaTorch}));
        QCOMPARE(picker->checkedEnvironments(), picker->environments());
        auto runs = page.runOptions();
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(runs[0].python, std::string());
        QCOMPARE(QString::fromStdString(runs[1].python), kCudaTorch);

        picker->setEnvironmentChecked(QStringLiteral("libtorch"), false);
        runs = page.runOptions();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(runs[0].python), kCudaTorch);

        picker->setEnvironmentChecked(QStringLiteral("python:") + kCudaTorch, false);
        QVERIFY(page.runOptions().empty());
        page.runAll();
        QVERIFY(!page.isRunning());
    }

    void addInterpreter_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("says");
        QTest::newRow("conda env, CUDA wheel") << kCudaTorch << true << "torch 2.4.0+cu124 (CUDA 12.4)";
        QTest::newRow("environment folder") << kTree + "/home/.venvs/rocm-torch" << true << "torch 2.5.1+rocm6.2 (ROCm 6.2.41133)";
        QTest::newRow("no torch") << kTree + "/home/.venvs/no-torch/bin/python3" << false << "has no torch: install PyTorch";
        QTest::newRow("fails at start") << kTree + "/home/venv-broken/bin/python3" << false << "cannot be used:";
        QTest::newRow("not executable") << kTree + "/home/venv-not-executable/bin/python3" << false << "no executable interpreter there";
    }

    void addInterpreter()
    {
        QFETCH(QString, path);
        QFETCH(bool, ok);
        QFETCH(QString, says);
        {
            ProbesPage page(nullptr);
            auto* picker = page.environmentPicker();
            QSignalSpy checked(picker, &PythonEnvPicker::interpreterChecked);
            picker->addInterpreter(path);
            QVERIFY(checked.count() == 1 || checked.wait(20000));
            QCOMPARE(checked.at(0).at(1).toBool(), ok);
            QVERIFY2(checked.at(0).at(2).toString().contains(says), qPrintable(checked.at(0).at(2).toString()));
            QVERIFY2(picker->statusText().contains(says), qPrintable(picker->statusText()));
            QCOMPARE(picker->environments().size(), ok ? 2 : 1);
            if (ok) {
                QCOMPARE(picker->checkedEnvironments().size(), 2);
                QVERIFY(picker->list()->item(1)->text().contains(says));
                QCOMPARE(page.runOptions().size(), std::size_t(2));
            }
        }
        // Remembered for the next session only when it has torch.
        ProbesPage again(nullptr);
        QCOMPARE(again.environmentPicker()->environments().size(), ok ? 2 : 1);
    }

    // Discovery on a made-up home (tests/fixtures/python_envs): the environments with torch are listed and checked;
    // one the user turned off stays off when discovery runs again.
    void discovery()
    {
        qunsetenv("STACKSCOPE_PYTHON_ENVS");
        for (const char* v : {"VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_EXE", "MAMBA_ROOT_PREFIX"})
            qunsetenv(v);
        const QByteArray home = qgetenv("HOME"), path = qgetenv("PATH"), pyenv = qgetenv("PYENV_ROOT");
        const QString cwd = QDir::currentPath();
        qputenv("HOME", (kTree + QStringLiteral("/home")).toUtf8());
        qputenv("PYENV_ROOT", (kTree + QStringLiteral("/pyenv")).toUtf8());
        qputenv("PATH", QByteArray("/nonexistent"));
        QDir::setCurrent(kTree + QStringLiteral("/project"));
        ProbesPage page(nullptr);
        auto* picker = page.environmentPicker();
        QSignalSpy done(picker, &PythonEnvPicker::discoveryFinished);
        page.show(); // the first show starts discovery
        const bool finished = done.wait(30000); // with PATH=/nonexistent venv-hang's `exec sleep` fails at once
        qputenv("HOME", home);
        qputenv("PATH", path);
        qputenv("PYENV_ROOT", pyenv);
        QDir::setCurrent(cwd);
        QVERIFY(finished);
        // ./.venv lies inside the current folder: listed in the status as not started, not offered (issue 36).
        QCOMPARE(picker->environments(),
                 (QStringList {QStringLiteral("libtorch"), QStringLiteral("python:") + kCudaTorch,
                               QStringLiteral("python:") + kRocmTorch}));
        QCOMPARE(picker->checkedEnvironments(), picker->environments());
        QVERIFY2(picker->statusText().startsWith(QStringLiteral("2 Python environments with torch among 8 interpreters")),
                 qPrintable(picker->statusText()));
        QVERIFY2(picker->statusText().contains(QStringLiteral("Not started")) &&
                     picker->statusText().contains(QStringLiteral("/project/.venv/bin/python3")),
                 qPrintable(picker->statusText()));
        picker->setEnvironmentChecked(QStringLiteral("python:") + kRocmTorch, false);
        QCOMPARE(page.runOptions().size(), std::size_t(2));
    }

    // Columns come in the picker's order whatever order results arrive in, and hide with their environment.
    void columnsFollowTheChoice()
    {
        QSettings().setValue(QStringLiteral("probes/pythonInterpreters"), QStringList {kCudaTorch});
        ProbesPage page(nullptr);
        auto* grid = page.gridModel();
        grid->setEnvironmentOrder({"libtorch", "python:" + kCudaTorch.toStdString()});
        grid->addRecord(record("python:" + kCudaTorch.toStdString(), "cpu"));
        grid->addRecord(record("libtorch", "0"));
        grid->addRecord(record("libtorch", "cpu"));
        QCOMPARE(grid->columnCount(), 4);
        QCOMPARE(grid->headerData(1, Qt::Horizontal).toString(), QStringLiteral("libtorch \u00b7 gpu 0"));
        QCOMPARE(grid->headerData(2, Qt::Horizontal).toString(), QStringLiteral("libtorch \u00b7 cpu"));
        QCOMPARE(grid->headerData(3, Qt::Horizontal).toString(), QStringLiteral("cuda-torch \u00b7 cpu"));
        QVERIFY(page.environmentPicker()->list()->item(1)->text().startsWith(QStringLiteral("cuda-torch \u2014 ")));
        QCOMPARE(grid->index(0, 3).data(ProbeGridModel::EnvironmentRole).toString(), QStringLiteral("python:") + kCudaTorch);
        auto* view = page.findChild<QTableView*>(QStringLiteral("probeGrid"));
        QVERIFY(view);
        QVERIFY(!view->isColumnHidden(3));
        page.environmentPicker()->setEnvironmentChecked(QStringLiteral("python:") + kCudaTorch, false);
        QVERIFY(view->isColumnHidden(3));
        QVERIFY(!view->isColumnHidden(1));
        page.environmentPicker()->setEnvironmentChecked(QStringLiteral("python:") + kCudaTorch, true);
        QVERIFY(!view->isColumnHidden(3));
    }

    // The page at the two window sizes people use, with two Python environments and a filled grid: saved under the
    // build folder's screenshots/ to be looked at; the list, Add... and the grid must all be in view.
    void screenshots_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1920x1080") << QSize(1920, 1080);
        QTest::newRow("1280x720") << QSize(1280, 720);
    }

    void screenshots()
    {
        QFETCH(QSize, size);
        QSettings().setValue(QStringLiteral("probes/pythonInterpreters"), QStringList {kCudaTorch, kRocmTorch});
        ProbesPage page(nullptr);
        page.gridModel()->setEnvironmentOrder({"libtorch", "python:" + kCudaTorch.toStdString(), "python:" + kRocmTorch.toStdString()});
        std::vector<ProbeRecord> records;
        for (const auto& env : {std::string("libtorch"), "python:" + kCudaTorch.toStdString()}) {
            for (const auto& id : probesForDevice("cpu", {}, env != "libtorch")) {
                records.push_back(record(env, "cpu"));
                records.back().outcome.probeId = id;
                records.back().seconds = 0.25;
            }
        }
        page.showRecords(records, QStringLiteral("Made-up results: every probe ok on the CPU in two environments."));
        page.resize(size);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTest::qWait(200);
        QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
        const QString file = QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/probes-environments-%1x%2.png")
                                 .arg(size.width()).arg(size.height());
        QVERIFY(page.grab().save(file));
        auto* list = page.findChild<QListWidget*>(QStringLiteral("pythonEnvironments"));
        auto* view = page.findChild<QTableView*>(QStringLiteral("probeGrid"));
        QVERIFY(list && view);
        const QRect pageRect = page.rect();
        // Every environment's row is in view, and the grid shows more rows than the list takes.
        QVERIFY2(list->visualItemRect(list->item(2)).bottom() <= list->viewport()->height(),
                 qPrintable(QStringLiteral("list viewport %1 px high").arg(list->viewport()->height())));
        QVERIFY2(view->viewport()->height() > list->height(), qPrintable(QStringLiteral("grid %1 px, list %2 px")
                                                                              .arg(view->viewport()->height()).arg(list->height())));
        QVERIFY(pageRect.contains(QRect(list->mapTo(&page, QPoint(0, 0)), list->size())));
        // A Python-only probe in the libtorch column says so instead of "not run".
        const int compileRow = static_cast<int>(std::find_if(probeCatalogue().begin(), probeCatalogue().end(),
                                                             [](const ProbeSpec& p) { return p.id == "torch_compile_fn"; }) -
                                                probeCatalogue().begin());
        QCOMPARE(page.gridModel()->index(compileRow, 1).data().toString(), QStringLiteral("Python only"));
    }
};

QTEST_MAIN(TestPythonEnvPicker)
#include "tst_python_env_picker.moc"
