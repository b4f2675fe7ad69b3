// The quick packaging checks: the install layout, the desktop and AppStream files, the installed
// programs finding their modules, and the .deb packages' fields (Depends without dlopen'd libraries).
#include "core/util/build_info.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <map>

namespace {

struct Run {
    int exitCode = -1; // -1: did not start, timed out or crashed
    QByteArray out;
    QByteArray err;
    QString text() const { return QString::fromLocal8Bit(out + err); }
};

Run runProgram(const QString& program, const QStringList& args,
               const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(), int timeoutMs = 240000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    Run r;
    if (!p.waitForStarted(10000)) {
        r.err = QStringLiteral("cannot start %1: %2").arg(program, p.errorString()).toLocal8Bit();
        return r;
    }
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(5000);
        r.err = QStringLiteral("%1 did not finish in %2 s").arg(program).arg(timeoutMs / 1000).toLocal8Bit();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QString env(const char* name)
{
    return qEnvironmentVariable(name);
}

bool feature(const char* name)
{
    return env(name) == QLatin1String("ON");
}

// The environment of a program run from the install: nothing pointing back into the build tree.
QProcessEnvironment installedEnvironment()
{
    auto e = QProcessEnvironment::systemEnvironment();
    e.remove(QStringLiteral("STACKSCOPE_MODULE_DIR"));
    e.remove(QStringLiteral("STACKSCOPE_TORCH_MODULE"));
    return e;
}

const QString kAppId = QStringLiteral("io.github.stackscope.StackScope");
const QStringList kDlopenedLibraries {QStringLiteral("libtorch"), QStringLiteral("libamdhip64"),
                                      QStringLiteral("librocm-smi"), QStringLiteral("libnvidia-ml"),
                                      QStringLiteral("libcuda"), QStringLiteral("libcudart")};

} // namespace

class TestPackaging : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void installedFiles_data();
    void installedFiles();
    void desktopFileValidates();
    void metainfoValidates();
    void manPageListsCommands();
    void installedCliVersion();
    void installedGuiVersionWithoutDisplay();
    void installedCliFindsModules();
    void debFields_data();
    void debFields();
    void debContents_data();
    void debContents();

private:
    QString installed(const QString& relative) const { return m_root + QStringLiteral("/usr/") + relative; }
    void buildPackages();

    QTemporaryDir m_work;
    QString m_root;
    QString m_buildDir;
    QString m_libDir;
    QString m_dataDir;
    QString m_manDir;
    std::map<QString, QString> m_debs; // package name -> .deb path
    QString m_cpackOutput;
};

void TestPackaging::initTestCase()
{
    QVERIFY2(m_work.isValid(), "cannot create a temporary folder; free some space in $TMPDIR");
    m_buildDir = env("STACKSCOPE_PACKAGING_BUILD_DIR");
    m_libDir = env("STACKSCOPE_INSTALL_LIBDIR");
    m_dataDir = env("STACKSCOPE_INSTALL_DATADIR");
    m_manDir = env("STACKSCOPE_INSTALL_MANDIR");
    QVERIFY2(!m_buildDir.isEmpty() && !m_libDir.isEmpty(),
             "STACKSCOPE_PACKAGING_BUILD_DIR and STACKSCOPE_INSTALL_LIBDIR are unset: run this test through ctest");
    m_root = m_work.path() + QStringLiteral("/root");

    // What `make install DESTDIR=...` of a distribution build does: prefix /usr, staged elsewhere.
    auto e = QProcessEnvironment::systemEnvironment();
    e.insert(QStringLiteral("DESTDIR"), m_root);
    const auto r = runProgram(env("STACKSCOPE_CMAKE"), {QStringLiteral("--install"), m_buildDir, QStringLiteral("--prefix"), QStringLiteral("/usr")}, e);
    QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("cmake --install failed (build everything first: cmake --build %1):\n%2").arg(m_buildDir, r.text())));
}

void TestPackaging::installedFiles_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("wanted");
    const QString mod = m_libDir + QStringLiteral("/stackscope/");
    const bool gui = feature("STACKSCOPE_PKG_GUI");
    QTest::newRow("stackscope-cli") << QStringLiteral("bin/stackscope-cli") << true;
    QTest::newRow("stackscope") << QStringLiteral("bin/stackscope") << gui;
    QTest::newRow("torch module") << mod + QStringLiteral("libstackscope_torch.so") << feature("STACKSCOPE_PKG_TORCH");
    QTest::newRow("CUDA module") << mod + QStringLiteral("libstackscope_vpoc_cuda.so") << feature("STACKSCOPE_PKG_CUDA");
    QTest::newRow("HIP module") << mod + QStringLiteral("libstackscope_vpoc_hip.so") << feature("STACKSCOPE_PKG_HIP");
    QTest::newRow("diagnosis rules") << m_dataDir + QStringLiteral("/stackscope/rules/diagnosis.json") << true;
    QTest::newRow("system checks") << m_dataDir + QStringLiteral("/stackscope/rules/system-checks.json") << true;
    QTest::newRow("man page") << m_manDir + QStringLiteral("/man1/stackscope-cli.1.gz") << true;
    QTest::newRow("desktop file") << m_dataDir + QStringLiteral("/applications/") + kAppId + QStringLiteral(".desktop") << gui;
    QTest::newRow("metainfo") << m_dataDir + QStringLiteral("/metainfo/") + kAppId + QStringLiteral(".metainfo.xml") << gui;
    QTest::newRow("svg icon") << m_dataDir + QStringLiteral("/icons/hicolor/scalable/apps/") + kAppId + QStringLiteral(".svg") << gui;
    for (int size : {16, 24, 32, 48, 64, 128, 256, 512}) {
        const QString dir = QStringLiteral("%1x%1").arg(size);
        QTest::newRow(qPrintable(QStringLiteral("png icon %1").arg(dir)))
            << m_dataDir + QStringLiteral("/icons/hicolor/") + dir + QStringLiteral("/apps/") + kAppId + QStringLiteral(".png") << gui;
    }
}

void TestPackaging::installedFiles()
{
    QFETCH(QString, path);
    QFETCH(bool, wanted);
    const QFileInfo info(installed(path));
    QVERIFY2(info.exists() == wanted,
             qPrintable(QStringLiteral("%1 %2 in the install; check the install() rules (packaging/CMakeLists.txt) "
                                       "and that help2man and rsvg-convert were found when cmake ran")
                            .arg(info.filePath(), wanted ? QStringLiteral("is missing") : QStringLiteral("should not be"))));
    if (wanted && path.endsWith(QLatin1String(".png"))) {
        // The PNG is really the size its folder claims (the width is at byte 16 of a PNG).
        QFile f(info.filePath());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray head = f.read(24);
        QCOMPARE(head.mid(1, 3), QByteArray("PNG"));
        const auto width = (uchar(head[16]) << 24) | (uchar(head[17]) << 16) | (uchar(head[18]) << 8) | uchar(head[19]);
        QCOMPARE(QString::number(width) + QLatin1Char('x') + QString::number(width), info.dir().path().section(QLatin1Char('/'), -2, -2));
    }
}

void TestPackaging::desktopFileValidates()
{
    if (!feature("STACKSCOPE_PKG_GUI"))
        QSKIP("no GUI in this build: no desktop file");
    const auto r = runProgram(QStringLiteral("desktop-file-validate"),
                              {installed(m_dataDir + QStringLiteral("/applications/") + kAppId + QStringLiteral(".desktop"))});
    QVERIFY2(r.exitCode == 0 && r.out.trimmed().isEmpty(),
             qPrintable(QStringLiteral("desktop-file-validate (install desktop-file-utils if it did not start):\n") + r.text()));
}

void TestPackaging::metainfoValidates()
{
    if (!feature("STACKSCOPE_PKG_GUI"))
        QSKIP("no GUI in this build: no AppStream metadata");
    const QString path = installed(m_dataDir + QStringLiteral("/metainfo/") + kAppId + QStringLiteral(".metainfo.xml"));
    const auto r = runProgram(QStringLiteral("appstreamcli"), {QStringLiteral("validate"), QStringLiteral("--no-net"), path});
    QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("appstreamcli validate (install appstream if it did not start):\n") + r.text()));
    // Software centres show the newest <release>: it must be this version.
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const auto m = QRegularExpression(QStringLiteral("<release version=\"([^\"]+)\"")).match(QString::fromUtf8(f.readAll()));
    QVERIFY2(m.hasMatch() && m.captured(1) == QString::fromStdString(stackscope::stackscopeVersion()),
             qPrintable(QStringLiteral("the first <release> in packaging/%1.metainfo.xml is '%2'; add a release entry for %3")
                            .arg(kAppId, m.captured(1), QString::fromStdString(stackscope::stackscopeVersion()))));
}

void TestPackaging::manPageListsCommands()
{
    const auto r = runProgram(QStringLiteral("gzip"), {QStringLiteral("-dc"), installed(m_manDir + QStringLiteral("/man1/stackscope-cli.1.gz"))});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QString page = QString::fromUtf8(r.out);
    for (const char* command : {"inspect", "archscan", "probe", "diagnose", "vpoc", "sample-data", "bench"})
        QVERIFY2(page.contains(QStringLiteral(".SS %1\n").arg(QLatin1String(command))),
                 qPrintable(QStringLiteral("the man page has no section for '%1'; see packaging/man-page.sh").arg(QLatin1String(command))));
    QVERIFY2(!page.contains(QLatin1String(".SS probe-worker")), "the internal probe-worker command should not be in the man page");
    QVERIFY(page.contains(QString::fromStdString(stackscope::stackscopeVersion())));
}

void TestPackaging::installedCliVersion()
{
    const auto r = runProgram(installed(QStringLiteral("bin/stackscope-cli")), {QStringLiteral("--version")}, installedEnvironment());
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QCOMPARE(QString::fromUtf8(r.out).trimmed(), QStringLiteral("stackscope-cli ") + QString::fromStdString(stackscope::buildDescription()));
    // The version says what libtorch the build was made against (or that it has none).
    QVERIFY(QString::fromUtf8(r.out).contains(QRegularExpression(QStringLiteral("libtorch (off|\\d+\\.\\d+)"))));
}

void TestPackaging::installedGuiVersionWithoutDisplay()
{
    if (!feature("STACKSCOPE_PKG_GUI"))
        QSKIP("no GUI in this build");
    // A server or container has no display: --version must still answer, not abort in QApplication.
    auto e = installedEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        e.remove(QLatin1String(name));
    const auto r = runProgram(installed(QStringLiteral("bin/stackscope")), {QStringLiteral("--version")}, e);
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QCOMPARE(QString::fromUtf8(r.out).trimmed(), QStringLiteral("StackScope ") + QString::fromStdString(stackscope::buildDescription()));
}

void TestPackaging::installedCliFindsModules()
{
    const auto r = runProgram(installed(QStringLiteral("bin/stackscope-cli")), {QStringLiteral("inspect"), QStringLiteral("--json"), QStringLiteral("--no-archscan")},
                              installedEnvironment());
    QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(r.text()));
    const auto doc = QJsonDocument::fromJson(r.out);
    QVERIFY2(doc.isObject(), "inspect --json did not print a JSON object");
    QJsonObject torchModule;
    for (const auto& v : doc.object().value(QStringLiteral("libraries")).toArray())
        if (v.toObject().value(QStringLiteral("component")).toString() == QLatin1String("libtorch module"))
            torchModule = v.toObject();
    QVERIFY2(!torchModule.isEmpty(), "inspect --json has no 'libtorch module' entry in libraries");
    const QString moduleDir = QDir::cleanPath(installed(m_libDir + QStringLiteral("/stackscope")));
    const auto tried = torchModule.value(QStringLiteral("tried")).toArray();
    QVERIFY2(!tried.isEmpty(), "the libtorch module entry lists no paths tried");
    // The first place looked at is the installed module folder (program_paths.cpp agrees with install()).
    QCOMPARE(QFileInfo(tried.first().toObject().value(QStringLiteral("path")).toString()).path(), moduleDir);
    if (feature("STACKSCOPE_PKG_TORCH")) {
        QStringList why; // the loader's message for each path tried
        for (const auto& t : tried)
            why << t.toObject().value(QStringLiteral("error")).toString();
        QVERIFY2(torchModule.value(QStringLiteral("loaded")).toBool(),
                 qPrintable(QStringLiteral("the installed torch module did not load: %1 %2")
                                .arg(torchModule.value(QStringLiteral("error")).toString(), why.join(QStringLiteral("; ")))));
        QCOMPARE(QFileInfo(doc.object().value(QStringLiteral("torch")).toObject().value(QStringLiteral("module_path")).toString()).path(), moduleDir);
    }
}

void TestPackaging::buildPackages()
{
    if (!m_debs.empty() || !m_cpackOutput.isEmpty())
        return;
    const QString out = m_work.path() + QStringLiteral("/packages");
    const auto r = runProgram(env("STACKSCOPE_CPACK"), {QStringLiteral("--config"), m_buildDir + QStringLiteral("/CPackConfig.cmake"),
                                                        QStringLiteral("-B"), out});
    m_cpackOutput = r.text();
    if (r.exitCode != 0)
        return;
    for (const auto& deb : QDir(out).entryInfoList({QStringLiteral("*.deb")}, QDir::Files)) {
        const auto name = runProgram(QStringLiteral("dpkg-deb"), {QStringLiteral("-f"), deb.filePath(), QStringLiteral("Package")});
        m_debs[QString::fromUtf8(name.out).trimmed()] = deb.filePath();
    }
}

void TestPackaging::debFields_data()
{
    QTest::addColumn<QString>("package");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QStringList>("contains");
    QTest::addColumn<QStringList>("lacks");
    const QString version = QString::fromStdString(stackscope::stackscopeVersion());
    QStringList depends {QStringLiteral("libc6"), QStringLiteral("libstdc++6")};
    if (feature("STACKSCOPE_PKG_GUI"))
        depends << QStringLiteral("libqt6widgets6") << QStringLiteral("libqt6charts6") << QStringLiteral("libqt6gui6");
    QTest::newRow("stackscope Depends") << QStringLiteral("stackscope") << QStringLiteral("Depends") << depends << kDlopenedLibraries;
    QTest::newRow("stackscope Suggests") << QStringLiteral("stackscope") << QStringLiteral("Suggests")
                                         << QStringList {QStringLiteral("libamdhip64-5"), QStringLiteral("librocm-smi64-1")} << QStringList {};
    if (feature("STACKSCOPE_PKG_TORCH")) {
        QTest::newRow("stackscope Recommends") << QStringLiteral("stackscope") << QStringLiteral("Recommends")
                                               << QStringList {QStringLiteral("stackscope-torch")} << QStringList {};
        QStringList torchDepends {QStringLiteral("stackscope (= %1)").arg(version)};
        // Debian's libtorch is a package (named by tests/packaging/CMakeLists.txt); a wheel's is not.
        if (!env("STACKSCOPE_PKG_DEBIAN_TORCH").isEmpty())
            torchDepends << env("STACKSCOPE_PKG_DEBIAN_TORCH");
        QTest::newRow("stackscope-torch Depends") << QStringLiteral("stackscope-torch") << QStringLiteral("Depends") << torchDepends << QStringList {};
    }
    if (feature("STACKSCOPE_PKG_HIP"))
        QTest::newRow("stackscope-hip Depends") << QStringLiteral("stackscope-hip") << QStringLiteral("Depends")
                                                << QStringList {QStringLiteral("stackscope (= %1)").arg(version), QStringLiteral("libamdhip64")}
                                                << QStringList {QStringLiteral("libtorch")};
}

void TestPackaging::debFields()
{
    QFETCH(QString, package);
    QFETCH(QString, field);
    QFETCH(QStringList, contains);
    QFETCH(QStringList, lacks);
    buildPackages();
    QVERIFY2(m_debs.count(package), qPrintable(QStringLiteral("cpack made no %1 package; its output:\n%2").arg(package, m_cpackOutput)));
    const auto r = runProgram(QStringLiteral("dpkg-deb"), {QStringLiteral("-f"), m_debs[package], field});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QString value = QString::fromUtf8(r.out).trimmed();
    for (const auto& want : contains)
        QVERIFY2(value.contains(want), qPrintable(QStringLiteral("%1 %2 lacks '%3': %4").arg(package, field, want, value)));
    for (const auto& unwanted : lacks)
        QVERIFY2(!value.contains(unwanted),
                 qPrintable(QStringLiteral("%1 %2 has '%3', which StackScope loads at run time and must stay optional: %4; "
                                           "move the file that links it into its own package (packaging/CMakeLists.txt)")
                                .arg(package, field, unwanted, value)));
}

void TestPackaging::debContents_data()
{
    QTest::addColumn<QString>("package");
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("wanted");
    QTest::newRow("stackscope has stackscope-cli") << QStringLiteral("stackscope") << QStringLiteral("./usr/bin/stackscope-cli") << true;
    QTest::newRow("stackscope has the man page") << QStringLiteral("stackscope") << QStringLiteral("stackscope-cli.1.gz") << true;
    QTest::newRow("stackscope lacks the torch module") << QStringLiteral("stackscope") << QStringLiteral("libstackscope_torch.so") << false;
    QTest::newRow("stackscope lacks the HIP module") << QStringLiteral("stackscope") << QStringLiteral("libstackscope_vpoc_hip.so") << false;
    if (feature("STACKSCOPE_PKG_TORCH"))
        QTest::newRow("stackscope-torch has the module") << QStringLiteral("stackscope-torch") << QStringLiteral("/stackscope/libstackscope_torch.so") << true;
    if (feature("STACKSCOPE_PKG_HIP"))
        QTest::newRow("stackscope-hip has the module") << QStringLiteral("stackscope-hip") << QStringLiteral("/stackscope/libstackscope_vpoc_hip.so") << true;
}

void TestPackaging::debContents()
{
    QFETCH(QString, package);
    QFETCH(QString, file);
    QFETCH(bool, wanted);
    buildPackages();
    QVERIFY2(m_debs.count(package), qPrintable(QStringLiteral("cpack made no %1 package; its output:\n%2").arg(package, m_cpackOutput)));
    const auto r = runProgram(QStringLiteral("dpkg-deb"), {QStringLiteral("-c"), m_debs[package]});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QCOMPARE(QString::fromUtf8(r.out).contains(file), wanted);
}

QTEST_GUILESS_MAIN(TestPackaging)
#include "tst_packaging.moc"
