// Discovery of Python environments: candidates from made-up trees (venvs, conda, pyenv, a broken, a hung and a
// torch-less interpreter), the parallel quick query with its time limit, and the real /usr/bin/python3.
#include "core/python/python_envs.h"
#include "core/python/python_files.h"
#include "core/python/python_trust.h"

#include "core/util/subprocess.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

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

void writeFile(const std::string& path, const std::string& text, bool executable = false)
{
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << text;
    if (executable)
        ::chmod(path.c_str(), 0755);
}

// A fake interpreter: a shell script whose body is `body`.
std::string fakeInterpreter(const std::string& envDir, const std::string& body)
{
    const std::string path = envDir + "/bin/python3";
    writeFile(path, "#!/bin/sh\n" + body + "\n", true);
    return path;
}

// "3.11" of the real python3, or empty.
std::string realMinorVersion()
{
    const auto r = runProcess({"/usr/bin/python3", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"},
                              std::chrono::seconds(20));
    return r.exitCode == 0 && r.out.size() > 2 ? r.out.substr(0, r.out.find('\n')) : std::string();
}

// A venv on the real /usr/bin/python3 whose torch/version.py and .pth file write a marker file when run.
std::string plantedVenv(const std::string& dir, const std::string& minor, const std::string& marker)
{
    writeFile(dir + "/pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\nversion = " + minor + ".0\n");
    std::filesystem::create_directories(dir + "/bin");
    std::filesystem::create_symlink("/usr/bin/python3", dir + "/bin/python3");
    const std::string site = dir + "/lib/python" + minor + "/site-packages";
    writeFile(site + "/torch/__init__.py", "");
    writeFile(site + "/torch/version.py", "__version__ = str(open('" + marker + ".version', 'w').write('ran'))\n");
    writeFile(site + "/planted.pth", "import os; open('" + marker + ".pth', 'w').write('ran')\n");
    return dir + "/bin/python3";
}

bool exists(const std::string& path)
{
    std::error_code ec;
    return std::filesystem::exists(path, ec);
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
        // ./.venv lies inside the current folder (a symlink to rocm-torch's interpreter): listed, not started.
        const auto& local = *byPath(envs, "project/.venv/bin/python3");
        QVERIFY(local["has_torch"].is_null());
        QVERIFY2(local.value("not_started", std::string()).find("inside the current folder") != std::string::npos,
                 local.dump().c_str());
        QCOMPARE(QString::fromStdString(relative(local.value("probe_command", std::string()))),
                 QStringLiteral("stackscope-cli inspect --python ") + QString::fromStdString(kTree) +
                     QStringLiteral("/project/.venv/bin/python3"));
        const auto withTorch = pythonEnvsWithTorch(envs);
        QCOMPARE(withTorch.size(), std::size_t(2)); // rocm-torch and cuda-torch
    }

    // Issue 36, row 1: discovery reads an environment's files and never runs them. A venv on the real python3 whose
    // torch/version.py and a .pth file write a marker when run: named by the user it is started (its .pth runs, as
    // in any start) but version.py is only read; found inside the current folder it is not started at all.
    void plantedCodeDoesNotRun()
    {
        const auto minor = realMinorVersion();
        if (minor.empty())
            QSKIP("no /usr/bin/python3 here");
        QTemporaryDir tmp;
        const std::string root = tmp.path().toStdString();
        const std::string marker = root + "/ran";
        const auto chosen = plantedVenv(root + "/chosen", minor, marker);
        PythonQueryOptions o;
        o.quickTimeout = std::chrono::seconds(20);
        const auto named = queryPythonEnvs({{chosen, "added"}}, o).at(0);
        QCOMPARE(named["has_torch"], json(true));
        QVERIFY2(named["torch_version"].is_null(), named.dump().c_str());
        QVERIFY2(named.value("torch_version_note", std::string()).find("never runs it") != std::string::npos,
                 named.dump().c_str());
        QVERIFY2(!exists(marker + ".version"), "torch/version.py was executed");

        std::filesystem::remove(marker + ".pth");
        PythonPlaces places;
        places.cwd = root + "/repo";
        places.home = root + "/home";
        plantedVenv(places.cwd + "/.venv", minor, marker);
        const auto candidates = pythonCandidates(places);
        QCOMPARE(candidates.size(), std::size_t(1));
        QCOMPARE(candidates[0].source, std::string("./.venv"));
        o.details = true; // not even --python-details starts it
        const auto found = queryPythonEnvs(candidates, o).at(0);
        QVERIFY2(found.value("not_started", std::string()).find("inside the current folder") != std::string::npos ||
                     found.value("details_error", std::string()).find("not started") != std::string::npos,
                 found.dump().c_str());
        QVERIFY2(!exists(marker + ".pth"), "the .pth file of an environment inside the current folder ran");
        QVERIFY2(!exists(marker + ".version"), "torch/version.py was executed");
    }

    // Row 1 continued: who may have put the environment there. Owned by the user or root and not writable by
    // everyone: started; writable by everyone: listed with why and the command that looks inside.
    void worldWritableEnvironmentIsNotStarted()
    {
        QTemporaryDir tmp;
        const std::string env = tmp.path().toStdString() + "/shared-venv";
        const auto python = fakeInterpreter(env, "echo '{\"python_version\": \"3.12.0\", \"has_torch\": false}'");
        PythonPlaces places;
        places.home = tmp.path().toStdString();
        places.cwd = "/";
        places.userAdded = {};
        ::chmod(env.c_str(), 0777);
        auto found = queryPythonEnvs({{python, "~/venv*", whyNotStarted(python, "~/venv*", {"/", places.home, {}, {}})}});
        QVERIFY2(found.at(0).value("not_started", std::string()).find("writable by everyone") != std::string::npos,
                 found.dump().c_str());
        ::chmod(env.c_str(), 0755);
        found = queryPythonEnvs({{python, "~/venv*", whyNotStarted(python, "~/venv*", {"/", places.home, {}, {}})}});
        QCOMPARE(found.at(0)["has_torch"], json(false));
    }

    // Rows 3, 5 and 6: a child that leaves a grandchild holding its stdout, one that never stops writing, one that
    // prints bytes that are not UTF-8 and terminal escapes. Each ends within its limit with a message JSON can hold.
    void hostileInterpreters_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("expect"); // in the "error" field; empty: answered
        QTest::newRow("setsid child holds stdout") << "setsid sleep 60 &\necho '{\"python_version\": \"3.12.0\", \"has_torch\": false}'" << "";
        QTest::newRow("endless output, no newline") << "exec cat /dev/zero" << "did not answer within 1.5 s";
        QTest::newRow("endless lines") << "exec yes" << "did not answer within 1.5 s";
        QTest::newRow("not UTF-8 and escapes on stderr") << "printf '\\377\\376\\033[2J' >&2; exit 1" << "\\xff\\xfe\\x1b[2J";
        QTest::newRow("not UTF-8 inside its JSON") << "printf '{\"python_version\": \"\\377\"}\\n'" << "printed no answer";
        QTest::newRow("wrong types in its JSON") << "echo '{\"python_version\": 3, \"has_torch\": \"yes\", \"devices\": [1]}'" << "";
    }

    void hostileInterpreters()
    {
        QFETCH(QString, body);
        QFETCH(QString, expect);
        QTemporaryDir tmp;
        const auto python = fakeInterpreter(tmp.path().toStdString() + "/env", body.toStdString());
        PythonQueryOptions o;
        o.quickTimeout = std::chrono::milliseconds(1500);
        QElapsedTimer timer;
        timer.start();
        const auto envs = queryPythonEnvs({{python, "added"}}, o);
        QVERIFY2(timer.elapsed() < 15000, "discovery waited for a pipe past the quick limit"); // the limit is 1.5 s
        const auto& e = envs.at(0);
        const auto text = e.dump(); // throws if a field is not UTF-8
        if (expect.isEmpty()) {
            QVERIFY2(!e.contains("error"), text.c_str());
        } else {
            QVERIFY2(e.value("error", std::string()).find(expect.toStdString()) != std::string::npos, text.c_str());
        }
        QVERIFY(e["has_torch"].is_null() || e["has_torch"].is_boolean());
        QVERIFY(!e.contains("python_version") || e["python_version"].is_string());
    }

    // Rows 2 and 4: the files discovery reads are small regular files. A FIFO or a link to /dev/zero in place of
    // pyvenv.cfg, torch/version.py or a .pth file, or a 100 KB version.py line, gives "the files cannot say" at once.
    void hostileFiles_data()
    {
        QTest::addColumn<QString>("file"); // relative to the venv
        QTest::addColumn<QString>("kind"); // fifo, zero, or text
        const QString site = QStringLiteral("lib/python3.12/site-packages/");
        QTest::newRow("pyvenv.cfg FIFO") << "pyvenv.cfg" << "fifo";
        QTest::newRow("pyvenv.cfg -> /dev/zero") << "pyvenv.cfg" << "zero";
        QTest::newRow("version.py FIFO") << site + "torch/version.py" << "fifo";
        QTest::newRow("version.py -> /dev/zero") << site + "torch/version.py" << "zero";
        QTest::newRow("version.py of 300 KB") << site + "torch/version.py" << "big";
        QTest::newRow(".pth FIFO") << site + "x.pth" << "fifo";
        QTest::newRow(".pth -> /dev/zero") << site + "x.pth" << "zero";
    }

    void hostileFiles()
    {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QTemporaryDir tmp;
        const std::string env = tmp.path().toStdString() + "/venv";
        const auto python = fakeInterpreter(env, "exit 3");
        writeFile(env + "/pyvenv.cfg", "home = /usr/bin\nversion = 3.12.3\n");
        writeFile(env + "/lib/python3.12/site-packages/torch/__init__.py", "");
        writeFile(env + "/lib/python3.12/site-packages/torch/version.py", "__version__ = '2.11.0'\ncuda = None\n");
        const std::string target = env + "/" + file.toStdString();
        std::filesystem::remove(target);
        if (kind == "fifo")
            QCOMPARE(::mkfifo(target.c_str(), 0600), 0);
        else if (kind == "zero")
            std::filesystem::create_symlink("/dev/zero", target);
        else
            writeFile(target, "__version__ = '" + std::string(300 * 1024, '1') + "'\n");
        PythonFileContext c;
        c.cwd = "/";
        QVERIFY(!stackscope::quickLookFromFiles(python, c));
    }

    // Found by fuzz_python_files (tests/fuzz/python/regression-pyvenv-version-not-utf8): a pyvenv.cfg version with
    // a byte that is not UTF-8 made the answer unwritable as JSON (inspect --json exited 1). It is kept escaped.
    void fileTextNotUtf8()
    {
        QTemporaryDir tmp;
        const std::string env = tmp.path().toStdString() + "/venv";
        const auto python = fakeInterpreter(env, "exit 3");
        writeFile(env + "/pyvenv.cfg", "home = /usr/bin\nversion = 3.12.\x8b\n");
        std::filesystem::create_directories(env + "/lib/python3.12/site-packages");
        PythonFileContext c;
        c.cwd = "/";
        const auto r = stackscope::quickLookFromFiles(python, c);
        QVERIFY(r);
        QCOMPARE((*r)["python_version"], json("3.12.\\x8b"));
        QVERIFY(!r->dump().empty());
        // regression-version-py-other-assignment-not-utf8: another assignment's bytes are skipped, not kept.
        const auto v = parseTorchVersionPy("__version__ = '2.1.0'\nx = '\x9a\x9a'\n");
        QVERIFY(v);
        QCOMPARE((*v)["__version__"], json("2.1.0"));
        QVERIFY(!v->dump().empty());
        QVERIFY(!parseTorchVersionPy("__version__ = '2.\x9a'\n"));
    }

    // Row 2: a single 100 KB line is parsed in linear time, whatever it holds.
    void longVersionLine()
    {
        const std::string computed = "__version__ = " + std::string(100 * 1024, '(') + "\n";
        QVERIFY(!parseTorchVersionPy(computed));
        const std::string annotated = "__version__ : " + std::string(100 * 1024, 'x') + " = '1.0'\n";
        const auto v = parseTorchVersionPy(annotated);
        QVERIFY(v);
        QCOMPARE((*v)["__version__"], json("1.0"));
    }

    // Row 4: pyenv's version files. A FIFO or a link to /dev/zero as $PYENV_ROOT/version or .python-version: the
    // shim's target is unknown (nullopt) at once.
    void hostilePyenvFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        QTest::newRow("$PYENV_ROOT/version FIFO") << "root/version" << "fifo";
        QTest::newRow("$PYENV_ROOT/version -> /dev/zero") << "root/version" << "zero";
        QTest::newRow(".python-version FIFO") << "project/.python-version" << "fifo";
        QTest::newRow(".python-version -> /dev/zero") << "project/.python-version" << "zero";
    }

    void hostilePyenvFiles()
    {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QTemporaryDir tmp;
        const std::string root = tmp.path().toStdString();
        const auto shim = fakeInterpreter(root + "/root/shims-parent", "exit 3"); // bin/python3 under it
        std::filesystem::rename(root + "/root/shims-parent/bin", root + "/root/shims");
        fakeInterpreter(root + "/root/versions/3.12.1", "exit 3");
        std::filesystem::create_directories(root + "/project");
        const std::string target = root + "/" + file.toStdString();
        if (kind == "fifo")
            QCOMPARE(::mkfifo(target.c_str(), 0600), 0);
        else
            std::filesystem::create_symlink("/dev/zero", target);
        PythonFileContext c;
        c.pyenvRoot = root + "/root";
        c.cwd = root + "/project";
        QVERIFY(!pyenvShimTarget(root + "/root/shims/python3", c));
        Q_UNUSED(shim);
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
