// archscan on hostile input: files that shrink while mapped, FIFOs, floods of ids and magics, damaged files.
#include "archscan_test_util.h"

#include "core/archscan/arch_scan.h"
#include "core/archscan/bounded_scan.h"
#include "core/archscan/mapped_file.h"
#include "core/archscan/offload_bundle.h"
#include "tests/common/cli_process.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace archscan_test;
using namespace stackscope::archscan;

namespace {

// One uncompressed offload bundle with a single entry of `payload` bytes for `id`.
void appendBundle(std::vector<std::uint8_t>& out, const std::string& id, std::size_t payload)
{
    const std::size_t at = out.size();
    const std::string magic = "__CLANG_OFFLOAD_BUNDLE__";
    out.insert(out.end(), magic.begin(), magic.end());
    const std::uint64_t header = 32 + 24 + id.size();
    put<std::uint64_t>(out, at + 24, 1);
    put<std::uint64_t>(out, at + 32, header);
    put<std::uint64_t>(out, at + 40, payload);
    put<std::uint64_t>(out, at + 48, id.size());
    out.insert(out.end(), id.begin(), id.end());
    out.resize(out.size() + payload, 0x5a);
}

std::string gfxId(int n) { return "hipv4-amdgcn-amd-amdhsa--gfx" + std::to_string(1000 + n); }

} // namespace

class TestArchscanHostile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Deterministic: the mapping outlives the file's end, and the next read of that page raises SIGBUS.
    void shrunkMappingIsCaught()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("lib.so")).toStdString();
        writeBytes(path, std::vector<std::uint8_t>(1 << 20, 7));
        const MappedFile file(path);
        QVERIFY(!file.changedSinceOpen());
        QCOMPARE(::truncate(path.c_str(), 0), 0);
        volatile std::uint8_t last = 0;
        const bool survived = file.readGuarded([&] { last = file.view().data[file.view().size - 1]; });
        QVERIFY(!survived);
        QVERIFY(file.changedSinceOpen());
        // The guard is per read: the next guarded read of readable bytes works.
        QVERIFY(file.readGuarded([] {}));
        (void)last;
    }

    // A second thread cuts the file (mid-bundle) while this one scans it over and over: every result is
    // the whole file's or says the file changed; the process never dies of SIGBUS.
    void truncatedBySecondThread()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("bundles.bin")).toStdString();
        std::vector<std::uint8_t> bytes;
        for (int i = 0; bytes.size() < (32u << 20); ++i)
            appendBundle(bytes, gfxId(i % 8), 4000);
        writeBytes(path, bytes);
        const auto reference = scanBinaryFile(path);
        QVERIFY(reference && !reference->unreadable && reference->targets.size() == 8);
        std::atomic<bool> cut {false};
        std::thread cutter([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            ::truncate(path.c_str(), static_cast<off_t>(bytes.size() / 3 + 17)); // inside a bundle
            cut = true;
        });
        int changed = 0;
        for (int scans = 0; scans < 200 && !(cut && changed); ++scans) {
            const auto s = scanBinaryFile(path);
            QVERIFY(s.has_value());
            if (s->unreadable)
                ++changed;
            else
                QCOMPARE(s->containers, reference->containers);
        }
        cutter.join();
        QVERIFY2(changed > 0, "no scan saw the cut file as changed or damaged");
    }

    void fifoRefusedWithoutBlocking()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("lib.so"));
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        const auto s = scanBinaryFile(fifo.toStdString());
        QVERIFY(s && s->unreadable);
        QVERIFY2(QString::fromStdString(s->errors.front()).contains(QStringLiteral("FIFO")), s->errors.front().c_str());
        const auto r = stackscope::test::runCli({"archscan", fifo, "--arch", "gfx1100"}, {},
                                                QProcessEnvironment::systemEnvironment(), 60000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("FIFO"), r.err.constData());
    }

    // Distinct ids beyond the cap are counted, not kept (a linear search per id made 364k ids take minutes).
    void distinctIdsCapped()
    {
        std::vector<std::uint8_t> bytes;
        const int n = static_cast<int>(kMaxTargetsKept) + 3000;
        for (int i = 0; i < n; ++i)
            appendBundle(bytes, gfxId(i), 0);
        const BundleScan b = scanOffloadBundles(view(bytes));
        QCOMPARE(b.bundles, std::uint64_t(n));
        QCOMPARE(b.targets.size(), kMaxTargetsKept);
        QCOMPARE(b.targetsNotKept, std::uint64_t(3000));
        const LibraryScan l = scanBinaryBytes(view(bytes), "ids");
        QCOMPARE(l.targets.size(), kMaxTargetsKept);
        QCOMPARE(l.targetsNotKept, std::uint64_t(3000));
    }

    // A flood of magics that start no bundle: twenty messages kept, the rest counted.
    void magicFloodErrorsCapped_data()
    {
        QTest::addColumn<QByteArray>("unit");
        QTest::newRow("CCOB") << QByteArray("CCOB");
        QTest::newRow("plain magic") << QByteArray("__CLANG_OFFLOAD_BUNDLE__");
        QTest::newRow("CCOB v3 zstd, total past the end") << QByteArray("CCOB\x03\x00\x01\x00\xff\xff\xff\xff\xff\xff\xff\x7f"
                                                                        "\x10\x00\x00\x00\x00\x00\x00\x00", 24);
    }
    void magicFloodErrorsCapped()
    {
        QFETCH(QByteArray, unit);
        const int copies = (1 << 20) / unit.size();
        const QByteArray flood = unit.repeated(copies);
        const ByteView v {reinterpret_cast<const std::uint8_t*>(flood.constData()), static_cast<std::size_t>(flood.size())};
        const BundleScan b = scanOffloadBundles(v);
        QCOMPARE(b.errors.size(), kMaxErrorsKept);
        QCOMPARE(b.errors.size() + b.errorsNotKept, std::uint64_t(copies));
        QCOMPARE(b.bundles, std::uint64_t(0));
    }

    // A damaged file is not "covered": exit 1, listed as not read whole, "unreadable" in the JSON.
    void damagedFileIsNotCovered()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("damaged.bin"));
        std::vector<std::uint8_t> bytes;
        appendBundle(bytes, "hipv4-amdgcn-amd-amdhsa--gfx1100", 64);
        const std::string junk = "CCOB\x09\x00junk";
        bytes.insert(bytes.end(), junk.begin(), junk.end());
        writeBytes(path.toStdString(), bytes);
        auto r = stackscope::test::runCli({"archscan", path, "--arch", "gfx1100"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("Not read whole"), r.out.constData());
        QVERIFY(!r.out.contains("Every device is covered by every scanned library"));
        r = stackscope::test::runCli({"archscan", path, "--arch", "gfx1100", "--json"});
        QCOMPARE(r.exitCode, 1);
        const auto lib = QJsonDocument::fromJson(r.out).object()[QStringLiteral("libraries")].toArray()[0].toObject();
        QVERIFY(lib[QStringLiteral("unreadable")].toBool());
        QCOMPARE(lib[QStringLiteral("covers")].toObject()[QStringLiteral("gfx1100")].toString(), QStringLiteral("yes"));
    }

    // Bundle ids are file bytes: ESC never reaches the terminal, and bytes that are not UTF-8 keep --json valid.
    void idsWithControlBytes()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("esc.bin"));
        std::vector<std::uint8_t> bytes;
        appendBundle(bytes, "hipv4-amdgcn-amd-amdhsa--gfx1100:\x1b[2J\xff", 8);
        writeBytes(path.toStdString(), bytes);
        auto r = stackscope::test::runCli({"archscan", path, "--arch", "gfx1100"});
        QVERIFY2(!r.out.contains('\x1b'), r.out.constData());
        QVERIFY2(r.out.contains("\\x1b[2J"), r.out.constData());
        r = stackscope::test::runCli({"archscan", path, "--arch", "gfx1100", "--json"});
        QJsonParseError e;
        QJsonDocument::fromJson(r.out, &e);
        QVERIFY2(e.error == QJsonParseError::NoError, r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestArchscanHostile)
#include "tst_hostile.moc"
