// ELF section reading of real and damaged files: truncation, absurd counts and offsets never crash.
#include "archscan_test_util.h"

#include "core/archscan/arch_scan.h"
#include "core/archscan/elf_reader.h"

#include <QtTest>

#include <unistd.h>

using namespace stackscope::archscan;
using namespace archscan_test;

namespace {

// A GPU library built here, else any ELF on the machine (the test program itself).
std::string sampleLibrary()
{
#ifdef ARCHSCAN_HAVE_HIP
    return binary("libarchscan_hip_two.so");
#elif defined(ARCHSCAN_HAVE_CUDA)
    return binary("libarchscan_cuda.so");
#else
    return QCoreApplication::applicationFilePath().toStdString();
#endif
}

} // namespace

class TestElfReader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void realLibrary()
    {
        const auto bytes = readBytes(sampleLibrary());
        const auto elf = readElf(view(bytes));
        QVERIFY(elf.sections.size() > 5);
        QVERIFY(elf.find(".text") != nullptr);
        QCOMPARE(elf.machine, std::uint16_t(62)); // x86-64
    }

    void truncated_data()
    {
        QTest::addColumn<double>("keep"); // fraction of the file kept
        QTest::addColumn<int>("keepBytes"); // or an absolute size when > 0
        QTest::newRow("empty") << 0.0 << 0;
        QTest::newRow("magic only") << 0.0 << 4;
        QTest::newRow("half header") << 0.0 << 40;
        QTest::newRow("header only") << 0.0 << 64;
        QTest::newRow("a quarter") << 0.25 << 0;
        QTest::newRow("half") << 0.5 << 0;
        QTest::newRow("all but one byte") << 1.0 << -1;
    }
    void truncated()
    {
        QFETCH(double, keep);
        QFETCH(int, keepBytes);
        auto bytes = readBytes(sampleLibrary());
        std::size_t n = keepBytes > 0 ? std::size_t(keepBytes) : std::size_t(double(bytes.size()) * keep);
        if (keepBytes < 0)
            n = bytes.size() - 1;
        bytes.resize(n);
        const auto scan = scanBinaryBytes(view(bytes), "cut.so");
        // The section table sits at the end of the file: every cut loses it or the code section.
        QVERIFY(!scan.errors.empty());
        QVERIFY(scan.targets.empty());
    }

    void damagedHeader_data()
    {
        QTest::addColumn<int>("field");
        QTest::addColumn<quint64>("value");
        QTest::addColumn<int>("width");
        QTest::addColumn<QString>("errorContains");
        QTest::newRow("section table far away") << 40 << quint64(1ull << 62) << 8 << "runs past the end";
        QTest::newRow("section entry size tiny") << 58 << quint64(4) << 2 << "smaller than 64";
        QTest::newRow("name table index past sections") << 62 << quint64(0xfe00) << 2 << "past the";
        QTest::newRow("32-bit class") << 4 << quint64(1) << 1 << "32-bit";
        QTest::newRow("big endian") << 5 << quint64(2) << 1 << "big-endian";
    }
    void damagedHeader()
    {
        QFETCH(int, field);
        QFETCH(quint64, value);
        QFETCH(int, width);
        QFETCH(QString, errorContains);
        auto bytes = readBytes(sampleLibrary());
        if (width == 8)
            put<std::uint64_t>(bytes, std::size_t(field), value);
        else if (width == 2)
            put<std::uint16_t>(bytes, std::size_t(field), std::uint16_t(value));
        else
            bytes[std::size_t(field)] = std::uint8_t(value);
        const auto scan = scanBinaryBytes(view(bytes), "patched.so");
        QVERIFY(!scan.errors.empty());
        QVERIFY2(QString::fromStdString(scan.errors.front()).contains(errorContains), scan.errors.front().c_str());
    }

    void gpuSectionPastEnd()
    {
#if !defined(ARCHSCAN_HAVE_HIP)
        QSKIP("hipcc was not found at configure time: no library with .hip_fatbin");
#else
        auto bytes = readBytes(binary("libarchscan_hip_two.so"));
        const auto elf = readElf(view(bytes));
        // Point .hip_fatbin's size past the end of the file by patching its section header.
        const auto shoff = *reinterpret_cast<const std::uint64_t*>(bytes.data() + 40);
        for (std::size_t i = 0; i < elf.sections.size(); ++i) {
            if (elf.sections[i].name == ".hip_fatbin")
                put<std::uint64_t>(bytes, shoff + i * 64 + 32, 1ull << 40);
        }
        const auto scan = scanBinaryBytes(view(bytes), "patched.so");
        QCOMPARE(scan.kind, LibraryKind::Hip);
        QVERIFY(!scan.errors.empty());
        QVERIFY2(QString::fromStdString(scan.errors.front()).contains("truncated"), scan.errors.front().c_str());
#endif
    }

    void notElfAndMissing()
    {
        const std::string text = binary("not_elf.txt");
        writeBytes(text, {'h', 'e', 'l', 'l', 'o'});
        auto scan = scanBinaryFile(text);
        QVERIFY(scan.has_value());
        QVERIFY(QString::fromStdString(scan->errors.front()).contains("no HIP"));
        QVERIFY(!scanBinaryFile(text, true).has_value());
        const auto missing = scanPath(binary("does_not_exist.so"));
        QCOMPARE(missing.size(), size_t(1));
        QVERIFY(QString::fromStdString(missing[0].errors.front()).contains("does not exist"));
    }
};

QTEST_GUILESS_MAIN(TestElfReader)
#include "tst_elf_reader.moc"
