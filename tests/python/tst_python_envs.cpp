// Discovery of Python environments: candidates from made-up trees (venvs, conda, pyenv, a broken, a hung and a
// torch-less interpreter), the parallel quick query with its time limit, and the real /usr/bin/python3.
#include "core/python/python_envs.h"
#include "core/python/python_files.h"

#include <QtTest>

#include <filesystem>

using namespace stackscope;
using nlohmann::json;

namespace {

const std::string kTree = STACKSCOPE_TEST_FIXTURES "/python_envs";

PythonPlaces fixturePlaces()
{
    PythonPlaces p;
    p.home = kTree + "/home";
    p.pyenvRoot = kTree + "/pyenv";
    p.cwd = kTree + "/project";
    p.condaBases = {kTree + "/home/miniconda3", kTree + "/home/anaconda3"}; // the second is absent
    return p;
}

std::string relative(const std::string& path)
{
    return path.compare(0, kTree.size() + 1, kTree + "/") == 0 ? path.substr(kTree.size() + 1) : path;
}

const json* byPath(const json& envs, const std::string& rel)
{
    for (const auto& e : envs) {
        if (relative(e.value("path", std::string())) == rel)
            return &e;
    }
    return nullptr;
}

} // namespace

class TestPythonEnvs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void candidates()
    {
        const auto found = pythonCandidates(fixturePlaces());
        std::vector<std::string> got;
        for (const auto& c : found)
            got.push_back(relative(c.path) + " " + c.source);
        const std::vector<std::string> expected {
            "home/miniconda3/bin/python3 conda base",
            "home/miniconda3/envs/cuda-torch/bin/python3 conda env",
            "pyenv/versions/3.12.1/bin/python3 pyenv",
            "project/.venv/bin/python3 ./.venv",
            "home/.venvs/no-torch/bin/python3 ~/.venvs",
            "home/.venvs/rocm-torch/bin/python3 ~/.venvs",
            "home/venv-broken/bin/python3 ~/venv*",
            "home/venv-hang/bin/python3 ~/venv*",
        };
        std::string text;
        for (const auto& g : got)
            text += "\n  " + g;
        QVERIFY2(got == expected, text.c_str()); // venv-not-executable and not-a-venv are left out
    }

    void activeAndAddedEnvironments()
    {
        PythonPlaces p;
        p.virtualEnv = kTree + "/home/.venvs/rocm-torch";
        p.condaPrefix = kTree + "/home/miniconda3/envs/cuda-torch";
        p.userAdded = {kTree + "/home/.venvs/rocm-torch/bin/python3", kTree + "/pyenv/versions/3.12.1"};
        const auto found = pythonCandidates(p);
        QCOMPARE(found.size(), std::size_t(3)); // the added rocm-torch interpreter is the VIRTUAL_ENV one
        QCOMPARE(found[0].source, std::string("VIRTUAL_ENV"));
        QCOMPARE(found[1].source, std::string("CONDA_PREFIX"));
        QCOMPARE(relative(found[2].path), std::string("pyenv/versions/3.12.1/bin/python3"));
        QCOMPARE(found[2].source, std::string("added"));
    }

    void pathFindsEveryPython3()
    {
        PythonPlaces p;
        p.pathDirs = {kTree + "/nowhere", kTree + "/home/venv-not-executable/bin", kTree + "/home/.venvs/no-torch/bin",
                      kTree + "/home/.venvs/rocm-torch/bin"};
        const auto found = pythonCandidates(p);
        QCOMPARE(found.size(), std::size_t(2)); // a folder without one, and a file that is not executable, are skipped
        QCOMPARE(relative(found[0].path), std::string("home/.venvs/no-torch/bin/python3"));
        QCOMPARE(found[0].source, std::string("PATH"));
        QCOMPARE(relative(found[1].path), std::string("home/.venvs/rocm-torch/bin/python3"));
    }

    void quickQuery()
    {
        PythonQueryOptions o;
        o.quickTimeout = std::chrono::milliseconds(1500); // the hung one is stopped at this limit
        const auto envs = queryPythonEnvs(pythonCandidates(fixturePlaces()), o);
        QCOMPARE(envs.size(), std::size_t(8));
        const auto* rocm = byPath(envs, "home/.venvs/rocm-torch/bin/python3");
        QVERIFY(rocm);
        QCOMPARE((*rocm)["has_torch"], json(true));
        QCOMPARE((*rocm)["build"], json("rocm"));
        QCOMPARE((*rocm)["torch_version"], json("2.5.1+rocm6.2"));
        QCOMPARE((*byPath(envs, "home/miniconda3/envs/cuda-torch/bin/python3"))["cuda_version"], json("12.4"));
        QCOMPARE((*byPath(envs, "home/.venvs/no-torch/bin/python3"))["has_torch"], json(false));
        const auto& broken = *byPath(envs, "home/venv-broken/bin/python3");
        QVERIFY(broken["has_torch"].is_null());
        QVERIFY2(broken.value("error", std::string()).find("exited with code 127: python3: error while loading") !=
                     std::string::npos, broken.dump().c_str());
        const auto& hung = *byPath(envs, "home/venv-hang/bin/python3");
        QVERIFY(hung["has_torch"].is_null());
        QVERIFY2(hung.value("error", std::string()).find("did not answer within 1.5 s") != std::string::npos,
                 hung.dump().c_str());
        const auto withTorch = pythonEnvsWithTorch(envs);
        QCOMPARE(withTorch.size(), std::size_t(3)); // rocm-torch, cuda-torch, and ./.venv (a symlink to rocm-torch's)
    }

    // Environments laid out as real ones are: answered from their files; their interpreters fail if started.
    void quickLookFromFiles_data()
    {
        QTest::addColumn<QString>("env");
        QTest::addColumn<QString>("lookedUp");
        QTest::addColumn<QString>("python");
        QTest::addColumn<bool>("hasTorch");
        QTest::addColumn<QString>("torch");
        QTest::addColumn<QString>("build");
        QTest::addColumn<bool>("amdsmi");
        QTest::addColumn<bool>("pynvml");
        QTest::newRow("venv, CUDA wheel") << "venv-cuda" << "files" << "3.12.3" << true << "2.11.0+cu130" << "cuda" << false << true;
        QTest::newRow("conda prefix, ROCm wheel") << "conda-rocm" << "files" << "3.11" << true << "2.5.1+rocm6.2" << "rocm" << true << false;
        QTest::newRow("prefix without torch, .pth folder") << "prefix-no-torch" << "files" << "3.10" << false << "" << "" << false << false;
        QTest::newRow("venv, torch in a .pth folder") << "venv-pth" << "files" << "3.11.9" << true << "1.13.0a0" << "cpu" << false << false;
        QTest::newRow("venv with system site-packages: asked") << "venv-system-site" << "interpreter" << "3.11.2" << false << "" << "" << false << false;
    }

    void quickLookFromFiles()
    {
        QFETCH(QString, env);
        QFETCH(QString, lookedUp);
        QFETCH(QString, python);
        QFETCH(bool, hasTorch);
        QFETCH(QString, torch);
        QFETCH(QString, build);
        QFETCH(bool, amdsmi);
        QFETCH(bool, pynvml);
        const auto envs = queryPythonEnvs({{kTree + "/files/" + env.toStdString() + "/bin/python3", "added"}});
        const auto& e = envs.at(0);
        QVERIFY2(!e.contains("error"), e.dump().c_str());
        QCOMPARE(QString::fromStdString(e.value("looked_up", std::string())), lookedUp);
        QCOMPARE(QString::fromStdString(e.value("python_version", std::string())), python);
        QCOMPARE(e["has_torch"], json(hasTorch));
        QCOMPARE(QString::fromStdString(e.value("torch_version", std::string())), torch);
        QCOMPARE(QString::fromStdString(e.value("build", std::string())), build);
        QCOMPARE(e["amdsmi_installed"], json(amdsmi));
        QCOMPARE(e["pynvml_installed"], json(pynvml));
        // With the file look turned off the interpreter is started, and these fail as they must.
        PythonQueryOptions o;
        o.readFiles = false;
        const auto asked = queryPythonEnvs({{kTree + "/files/" + env.toStdString() + "/bin/python3", "added"}}, o);
        QCOMPARE(asked.at(0).contains("error"), lookedUp == "files");
    }

    // pyenv's shim is resolved as pyenv resolves it, without starting the shim (a bash script).
    void pyenvShim_data()
    {
        QTest::addColumn<QString>("interpreter");
        QTest::addColumn<QString>("version"); // PYENV_VERSION
        QTest::addColumn<QString>("target");  // relative to the fixture tree; empty: none
        const QString shim = QStringLiteral("files/pyenv-root/shims/python3");
        QTest::newRow("the root's version file") << shim << "" << "files/pyenv-root/versions/3.11.9/bin/python3";
        QTest::newRow("PYENV_VERSION first of two") << shim << "3.11.9:3.12" << "files/pyenv-root/versions/3.11.9/bin/python3";
        QTest::newRow("system: next python3 on PATH") << shim << "system" << "files/venv-cuda/bin/python3";
        QTest::newRow("a version not installed") << shim << "3.99.0" << "";
        QTest::newRow("not a shim") << "files/venv-cuda/bin/python3" << "" << "";
    }

    void pyenvShim()
    {
        QFETCH(QString, interpreter);
        QFETCH(QString, version);
        QFETCH(QString, target);
        PythonFileContext c;
        c.pyenvRoot = kTree + "/files/pyenv-root";
        c.pyenvVersion = version.toStdString();
        c.cwd = "/";
        c.pathDirs = {kTree + "/files/pyenv-root/shims", kTree + "/files/venv-cuda/bin"};
        const auto got = pyenvShimTarget(kTree + "/" + interpreter.toStdString(), c);
        QCOMPARE(got ? QString::fromStdString(relative(*got)) : QString(), target);
    }

    void torchVersionPy_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("version"); // empty: not readable
        QTest::addColumn<QString>("cuda");
        QTest::newRow("2.x annotated") << "__version__ = '2.11.0+cu130'\ncuda: Optional[str] = '13.0'\nhip: Optional[str] = None\n"
                                       << "2.11.0+cu130" << "13.0";
        QTest::newRow("1.13 plain") << "__version__ = '1.13.0a0'\ndebug = False\ncuda = None\nhip = None\n" << "1.13.0a0" << "";
        QTest::newRow("double quotes, no hip line") << "__version__ = \"2.0.1\"\ncuda = \"11.8\"\n" << "2.0.1" << "11.8";
        QTest::newRow("computed version") << "__version__ = get_version()\n" << "" << "";
        QTest::newRow("computed cuda") << "__version__ = '2.1.0'\ncuda = _cuda()\n" << "" << "";
    }

    void torchVersionPy()
    {
        QFETCH(QString, text);
        QFETCH(QString, version);
        QFETCH(QString, cuda);
        const auto v = parseTorchVersionPy(text.toStdString());
        QCOMPARE(v.has_value(), !version.isEmpty());
        if (!v)
            return;
        QCOMPARE(QString::fromStdString((*v)["__version__"].get<std::string>()), version);
        QCOMPARE(QString::fromStdString((*v)["cuda"].is_null() ? std::string() : (*v)["cuda"].get<std::string>()), cuda);
    }

    // Debian's python3-torch: the real interpreter, its torch found without importing it, then imported.
    void realInterpreter()
    {
        PythonPlaces p;
        p.userAdded = {"/usr/bin/python3"};
        const auto found = pythonCandidates(p);
        if (found.empty())
            QSKIP("no /usr/bin/python3 here");
        PythonQueryOptions o;
        o.quickTimeout = std::chrono::seconds(20); // a loaded machine: the limit is not what this checks
        o.details = true;
        const auto envs = queryPythonEnvs(found, o);
        const auto& e = envs.at(0);
        if (e.value("has_torch", json()) != json(true))
            QSKIP("/usr/bin/python3 has no torch (install python3-torch: packaging/deps.sh does)");
        QVERIFY2(!e.contains("details_error") && !e.contains("import_error"), e.dump().c_str());
        QVERIFY(!e.value("torch_version", std::string()).empty());
        QVERIFY(e["build"] == json("cpu") || e["build"] == json("cuda") || e["build"] == json("rocm"));
        QVERIFY(e["arch_list"].is_array());
        QVERIFY(e["devices"].is_array());
        QVERIFY(e["amdsmi"].is_string());
        QVERIFY(e["pynvml"].is_string());
        QVERIFY(e["env"].is_object());
    }
};

QTEST_GUILESS_MAIN(TestPythonEnvs)
#include "tst_python_envs.moc"
