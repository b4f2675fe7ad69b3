// .nv_fatbin entries of nvcc-built binaries: exactly the -gencode list, SASS vs PTX, 'a'/'f' suffixes.
#include "archscan_test_util.h"

#include "core/archscan/arch_scan.h"
#include "core/archscan/nv_fatbin.h"

#include <QtTest>

using namespace stackscope::archscan;
using namespace archscan_test;

namespace {

QStringList described(const std::vector<ScannedTarget>& targets)
{
    QStringList out;
    for (const auto& t : targets)
        out << QString::fromStdString(t.id + "/" + codeFormatName(t.format) + "/" + t.arch);
    out.sort();
    return out;
}

} // namespace

class TestNvFatbin : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cudaBinaries_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("two sass one ptx") << "libarchscan_cuda.so"
                                          << QStringList {"compute_90/ptx/sm_90", "sm_75/sass/sm_75", "sm_86/sass/sm_86"};
        QTest::newRow("arch and family specific") << "archscan_cuda_specific.o"
                                                  << QStringList {"sm_100f/sass/sm_100f", "sm_80/sass/sm_80", "sm_90a/sass/sm_90a"};
    }
    void cudaBinaries()
    {
#ifndef ARCHSCAN_HAVE_CUDA
        QSKIP("nvcc was not found at configure time: no CUDA test binaries");
#endif
        QFETCH(QString, file);
        QFETCH(QStringList, expected);
        const auto scan = scanBinaryFile(binary(file.toUtf8().constData()));
        QVERIFY(scan.has_value());
        QVERIFY2(scan->errors.empty(), scan->errors.empty() ? "" : scan->errors.front().c_str());
        QCOMPARE(scan->kind, LibraryKind::Cuda);
        QCOMPARE(described(scan->targets), expected);
    }

    void damaged_data()
    {
        QTest::addColumn<int>("cutOrPatch"); // >0: keep this many bytes of the section; <0: patch field at -value
        QTest::addColumn<QString>("errorContains");
        QTest::newRow("cut in blob header") << 12 << "";
        QTest::newRow("cut in first entry") << 40 << "past";
        QTest::newRow("entry header too small") << -20 << "smaller than 48";
        QTest::newRow("payload size absurd") << -24 << "runs past";
    }
    void damaged()
    {
#ifndef ARCHSCAN_HAVE_CUDA
        QSKIP("nvcc was not found at configure time: no CUDA test binaries");
#else
        QFETCH(int, cutOrPatch);
        QFETCH(QString, errorContains);
        auto section = sectionBytes(readBytes(binary("libarchscan_cuda.so")), ".nv_fatbin");
        if (cutOrPatch > 0) {
            section.resize(std::size_t(cutOrPatch));
        } else if (cutOrPatch == -20) {
            put<std::uint32_t>(section, 16 + 4, 8); // first entry's header size
        } else {
            put<std::uint64_t>(section, 16 + 8, 1ull << 60); // first entry's payload size
        }
        const auto scan = scanNvFatbin(view(section));
        // nvcc's shared library holds two blobs: damage in the first is reported and the walk goes on.
        QVERIFY(!scan.errors.empty() || section.size() < 16);
        if (cutOrPatch < 0)
            QCOMPARE(int(scan.blobs), 1);
        if (!errorContains.isEmpty())
            QVERIFY2(QString::fromStdString(scan.errors.front()).contains(errorContains), scan.errors.front().c_str());
#endif
    }
};

QTEST_GUILESS_MAIN(TestNvFatbin)
#include "tst_nv_fatbin.moc"
