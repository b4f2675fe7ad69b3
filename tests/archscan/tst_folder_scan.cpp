// rocBLAS/hipBLASLt Tensile folders and MIOpen databases by file name, with the gfx110/gfx1100 trap.
#include "archscan_test_util.h"

#include "core/archscan/arch_scan.h"
#include "core/archscan/folder_scan.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

#include <unistd.h>

using namespace stackscope::archscan;
using namespace archscan_test;

namespace {

QStringList ids(const LibraryScan& s)
{
    QStringList out;
    for (const auto& t : s.targets)
        out << QString::fromStdString(t.id);
    return out;
}

} // namespace

class TestFolderScan : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void folders_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("rocblas") << "rocblas/library" << "tensile"
                                 << QStringList {"gfx1030", "gfx90a", "gfx90a:xnack+", "gfx90a:xnack-"};
        QTest::newRow("hipblaslt") << "hipblaslt/library" << "tensile" << QStringList {"gfx1100", "gfx942"};
        QTest::newRow("miopen") << "miopen/db" << "miopen" << QStringList {"gfx1030", "gfx1100", "gfx906", "gfx90a", "gfx942"};
        QTest::newRow("gfx110 trap") << "rocblas-gfx110-trap/library" << "tensile" << QStringList {"gfx110"};
    }
    void folders()
    {
        QFETCH(QString, folder);
        QFETCH(QString, kind);
        QFETCH(QStringList, expected);
        const auto scans = scanPath(fixture(folder.toUtf8().constData()));
        QCOMPARE(scans.size(), size_t(1));
        QCOMPARE(QString(libraryKindName(scans[0].kind)), kind);
        QCOMPARE(ids(scans[0]), expected);
        QVERIFY(scans[0].errors.empty());
    }

    void tokenTrap_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("expected");
        QTest::newRow("gfx110 files, gfx1100 device") << "rocblas-gfx110-trap/library" << "gfx1100" << "no";
        QTest::newRow("gfx1100 files, gfx110 device") << "hipblaslt/library" << "gfx110" << "no";
        QTest::newRow("gfx1100 files, gfx1100 device") << "hipblaslt/library" << "gfx1100" << "yes";
        QTest::newRow("gfx90a6e is gfx90a") << "miopen/db" << "gfx90a" << "yes";
        QTest::newRow("gfx942130 is gfx942") << "miopen/db" << "gfx942" << "yes";
        QTest::newRow("miopen gfx1101") << "miopen/db" << "gfx1101" << "no";
        QTest::newRow("xnack- file") << "rocblas/library" << "gfx90a:xnack-" << "yes";
    }
    void tokenTrap()
    {
        QFETCH(QString, folder);
        QFETCH(QString, device);
        QFETCH(QString, expected);
        const auto c = scanCoverage({fixture(folder.toUtf8().constData())}, {device.toStdString()});
        QCOMPARE(c.libraries.size(), size_t(1));
        QCOMPARE(QString(coverageName(c.libraries[0].covers.at(device.toStdString()).coverage)), expected);
    }

    void miopenNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("arch");
        QTest::newRow("gfx1030_36.kdb") << "gfx1030_36.kdb" << "gfx1030";
        QTest::newRow("gfx90a68.HIP.fdb.txt") << "gfx90a68.HIP.fdb.txt" << "gfx90a";
        QTest::newRow("gfx942130.kdb") << "gfx942130.kdb" << "gfx942";
        QTest::newRow("README") << "README" << "";
        QTest::newRow("not a database") << "gfx1030_36.txt" << "";
    }
    void miopenNames()
    {
        QFETCH(QString, name);
        QFETCH(QString, arch);
        QCOMPARE(QString::fromStdString(miopenDatabaseArch(name.toStdString())), arch);
    }

    void emptyTensileFolderIsAnError()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto s = scanTensileFolder(dir.path().toStdString());
        QVERIFY(s.targets.empty());
        QVERIFY(QString::fromStdString(s.errors.front()).contains("TENSILE_LIBPATH"));
    }

    void folderOfBinaries()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // A folder that is no library folder: its ELF files are scanned, files without GPU code are skipped.
        std::filesystem::copy_file(QCoreApplication::applicationFilePath().toStdString(), dir.path().toStdString() + "/plain");
#ifdef ARCHSCAN_HAVE_HIP
        std::filesystem::copy_file(binary("libarchscan_hip_two.so"), dir.path().toStdString() + "/libk.so");
        const auto scans = scanPath(dir.path().toStdString());
        QCOMPARE(scans.size(), size_t(1));
        QCOMPARE(ids(scans[0]), (QStringList {"gfx1030", "gfx906"}));
#else
        const auto scans = scanPath(dir.path().toStdString());
        QCOMPARE(scans.size(), size_t(1));
        QVERIFY(QString::fromStdString(scans[0].errors.front()).contains("no file in"));
#endif
    }

    void unreadableFolder()
    {
        if (::geteuid() == 0)
            QSKIP("running as root: permissions do not stop root from listing a folder");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string locked = dir.path().toStdString() + "/library";
        std::filesystem::create_directory(locked);
        std::filesystem::permissions(locked, std::filesystem::perms::none);
        const auto s = scanTensileFolder(locked);
        std::filesystem::permissions(locked, std::filesystem::perms::owner_all);
        QVERIFY(!s.errors.empty());
        QVERIFY(QString::fromStdString(s.errors.front()).contains("permission"));
    }
};

QTEST_GUILESS_MAIN(TestFolderScan)
#include "tst_folder_scan.moc"
