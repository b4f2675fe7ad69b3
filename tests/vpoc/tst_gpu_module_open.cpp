// GpuProfiler::open loads the VPOC GPU module through DynamicLibrary: what it says for a path that is not there, a
// file that is not a library, and a library that is not a StackScope module (no GPU needed for any of them).
#include "core/vpoc/gpu_profiles.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstdlib>
#include <fstream>

using stackscope::vpoc::GpuProfiler;

class TestGpuModuleOpen : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup() { unsetenv("STACKSCOPE_VPOC_GPU_MODULE"); }

    void explicitModuleIsTheOnlyCandidate()
    {
        setenv("STACKSCOPE_VPOC_GPU_MODULE", "/somewhere/libx.so", 1);
        QCOMPARE(GpuProfiler::moduleCandidates(), std::vector<std::string>{"/somewhere/libx.so"});
    }

    void aModuleThatCannotServeSaysWhy_data()
    {
        QTest::addColumn<QString>("module"); // "TEXT": a text file written by the test
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing") << "/nonexistent/libstackscope_vpoc_cuda.so" << "no VPOC GPU module in";
        QTest::newRow("not a library") << "TEXT" << "libstackscope_vpoc_cuda.so:";
        QTest::newRow("not a StackScope module") << "/lib/x86_64-linux-gnu/libm.so.6"
                                                 << "libm.so.6: not a StackScope VPOC module (entry points missing)";
    }
    void aModuleThatCannotServeSaysWhy()
    {
        QFETCH(QString, module);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        if (module == QLatin1String("TEXT")) {
            module = dir.filePath(QStringLiteral("libstackscope_vpoc_cuda.so"));
            std::ofstream(module.toStdString()) << "not an ELF file\n";
        } else if (!module.startsWith(QLatin1String("/nonexistent")) && !QFile::exists(module)) {
            QSKIP("no libm.so.6 at the Debian path on this machine");
        }
        setenv("STACKSCOPE_VPOC_GPU_MODULE", module.toLocal8Bit().constData(), 1);
        std::string why;
        QVERIFY(!GpuProfiler::open(1 << 20, why));
        QVERIFY2(QString::fromStdString(why).contains(expected), why.c_str());
    }
};

QTEST_MAIN(TestGpuModuleOpen)
#include "tst_gpu_module_open.moc"
