// Offload bundles from hipcc-built libraries, CCOB v2/v3 with zlib and zstd made here, damaged bundles.
#include "archscan_test_util.h"

#include "core/archscan/arch_scan.h"
#include "core/archscan/offload_bundle.h"

#include <QtTest>

#include <zlib.h>
#include <zstd.h>

using namespace stackscope::archscan;
using namespace archscan_test;

namespace {

QStringList ids(const std::vector<ScannedTarget>& targets)
{
    QStringList out;
    for (const auto& t : targets)
        out << QString::fromStdString(t.id);
    out.sort();
    return out;
}

// The first bundle of a hipcc-built library, exactly as long as its entries reach.
std::vector<std::uint8_t> firstBundle(const std::string& library)
{
    const auto section = sectionBytes(readBytes(library), ".hip_fatbin");
    std::uint64_t consumed = 0;
    readUncompressedBundleIds(view(section), &consumed);
    return {section.begin(), section.begin() + static_cast<std::ptrdiff_t>(consumed)};
}

std::vector<std::uint8_t> compress(const std::vector<std::uint8_t>& in, std::uint16_t method)
{
    std::vector<std::uint8_t> out;
    if (method == 1) {
        out.resize(ZSTD_compressBound(in.size()));
        const auto n = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3);
        if (ZSTD_isError(n))
            throw std::runtime_error("zstd compression failed");
        out.resize(n);
    } else {
        uLongf n = compressBound(static_cast<uLong>(in.size()));
        out.resize(n);
        if (compress2(out.data(), &n, in.data(), static_cast<uLong>(in.size()), 6) != Z_OK)
            throw std::runtime_error("zlib compression failed");
        out.resize(n);
    }
    return out;
}

// CCOB header as clang's --offload-compress writes it (the MD5 field is left zero: the scanner
// does not check it).
std::vector<std::uint8_t> ccob(const std::vector<std::uint8_t>& bundle, std::uint16_t version, std::uint16_t method)
{
    const auto data = compress(bundle, method);
    std::vector<std::uint8_t> out = {'C', 'C', 'O', 'B'};
    put<std::uint16_t>(out, 4, version);
    put<std::uint16_t>(out, 6, method);
    std::size_t header = 0;
    if (version == 2) {
        header = 24;
        put<std::uint32_t>(out, 8, static_cast<std::uint32_t>(header + data.size()));
        put<std::uint32_t>(out, 12, static_cast<std::uint32_t>(bundle.size()));
        put<std::uint64_t>(out, 16, 0);
    } else {
        header = 32;
        put<std::uint64_t>(out, 8, header + data.size());
        put<std::uint64_t>(out, 16, bundle.size());
        put<std::uint64_t>(out, 24, 0);
    }
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

} // namespace

class TestOffloadBundle : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void hipLibraries_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<int>("bundles");
#ifdef ARCHSCAN_HAVE_HIP
        QStringList plain = QString(ARCHSCAN_HIP_ARCHS).split(',');
        plain.sort();
        QTest::newRow("every accepted arch") << "libarchscan_hip_plain.so" << plain << 1;
        QStringList features = {"gfx1030", "gfx90a:xnack-", "gfx90a:xnack+", "gfx908:sramecc+:xnack-"};
        features.sort();
        QTest::newRow("feature target ids") << "libarchscan_hip_features.so" << features << 1;
        QTest::newRow("two bundles") << "libarchscan_hip_two.so" << QStringList {"gfx1030", "gfx906"} << 2;
#endif
    }
    void hipLibraries()
    {
#ifndef ARCHSCAN_HAVE_HIP
        QSKIP("hipcc was not found at configure time: no HIP test binaries");
#endif
        QFETCH(QString, file);
        QFETCH(QStringList, expected);
        QFETCH(int, bundles);
        const auto scan = scanBinaryFile(binary(file.toUtf8().constData()));
        QVERIFY(scan.has_value());
        QVERIFY2(scan->errors.empty(), scan->errors.empty() ? "" : scan->errors.front().c_str());
        QCOMPARE(scan->kind, LibraryKind::Hip);
        QCOMPARE(ids(scan->targets), expected);
        QCOMPARE(int(scan->containers), bundles);
        for (const auto& t : scan->targets) {
            QVERIFY(!t.compressed);
            QCOMPARE(t.format, CodeFormat::CodeObject);
            QVERIFY(QString::fromStdString(t.bundleId).startsWith("hipv4-amdgcn-amd-amdhsa--"));
        }
    }

    void featuresParsed()
    {
#ifndef ARCHSCAN_HAVE_HIP
        QSKIP("hipcc was not found at configure time: no HIP test binaries");
#else
        const auto scan = scanBinaryFile(binary("libarchscan_hip_features.so"));
        for (const auto& t : scan->targets) {
            if (t.id == "gfx908:sramecc+:xnack-") {
                QCOMPARE(QString::fromStdString(t.arch), QString("gfx908"));
                QCOMPARE(QString::fromStdString(t.features.at("sramecc")), QString("+"));
                QCOMPARE(QString::fromStdString(t.features.at("xnack")), QString("-"));
                return;
            }
        }
        QFAIL("gfx908:sramecc+:xnack- not found");
#endif
    }

    void compressed_data()
    {
        QTest::addColumn<int>("version");
        QTest::addColumn<int>("method");
        QTest::newRow("v2 zlib") << 2 << 0;
        QTest::newRow("v2 zstd") << 2 << 1;
        QTest::newRow("v3 zlib") << 3 << 0;
        QTest::newRow("v3 zstd") << 3 << 1;
    }
    void compressed()
    {
#ifndef ARCHSCAN_HAVE_HIP
        QSKIP("hipcc was not found at configure time: no real bundle to compress");
#else
        QFETCH(int, version);
        QFETCH(int, method);
        const auto bundle = firstBundle(binary("libarchscan_hip_features.so"));
        const auto packed = ccob(bundle, std::uint16_t(version), std::uint16_t(method));
        const std::string path = binary("bundle.ccob");
        writeBytes(path, packed);
        const auto scan = scanBinaryFile(path);
        QVERIFY2(scan->errors.empty(), scan->errors.empty() ? "" : scan->errors.front().c_str());
        QStringList features = {"gfx1030", "gfx90a:xnack-", "gfx90a:xnack+", "gfx908:sramecc+:xnack-"};
        features.sort();
        QCOMPARE(ids(scan->targets), features);
        for (const auto& t : scan->targets)
            QVERIFY(t.compressed);
#endif
    }

    void mixedSection()
    {
#ifndef ARCHSCAN_HAVE_HIP
        QSKIP("hipcc was not found at configure time: no real bundle to compress");
#else
        // A section as a linked library holds it: bundles back to back with alignment padding.
        const auto a = firstBundle(binary("libarchscan_hip_two.so"));
        const auto b = firstBundle(binary("libarchscan_hip_plain.so"));
        std::vector<std::uint8_t> section = ccob(a, 2, 1);
        section.resize(4096, 0);
        const auto c = ccob(b, 3, 0);
        section.insert(section.end(), c.begin(), c.end());
        section.resize(8192, 0);
        section.insert(section.end(), a.begin(), a.end());
        const auto scan = scanOffloadBundles(view(section));
        QVERIFY(scan.errors.empty());
        QCOMPARE(int(scan.bundles), 3);
        // gfx1030 appears compressed and uncompressed: both are listed.
        int gfx1030 = 0;
        for (const auto& t : scan.targets)
            gfx1030 += t.id == "gfx1030";
        QCOMPARE(gfx1030, 2);
#endif
    }

    void damaged_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("errorContains");
        auto bundleHeader = [](std::uint64_t count) {
            std::vector<std::uint8_t> b(24);
            std::memcpy(b.data(), "__CLANG_OFFLOAD_BUNDLE__", 24);
            put<std::uint64_t>(b, 24, count);
            return b;
        };
        auto entry = [](std::vector<std::uint8_t>& b, std::uint64_t off, std::uint64_t size, const std::string& id,
                        std::uint64_t idLen) {
            const std::size_t at = b.size();
            put<std::uint64_t>(b, at, off);
            put<std::uint64_t>(b, at + 8, size);
            put<std::uint64_t>(b, at + 16, idLen);
            b.insert(b.end(), id.begin(), id.end());
        };
        auto qba = [](const std::vector<std::uint8_t>& v) { return QByteArray(reinterpret_cast<const char*>(v.data()), int(v.size())); };

        QTest::newRow("huge count") << qba(bundleHeader(1ull << 40)) << "entries";
        auto b = bundleHeader(2);
        entry(b, 64, 8, "hipv4-amdgcn-amd-amdhsa--gfx1030", 32);
        QTest::newRow("count past end") << qba(b) << "past the end";
        b = bundleHeader(1);
        entry(b, 1ull << 62, 8, "hipv4-amdgcn-amd-amdhsa--gfx1030", 32);
        QTest::newRow("offset past end") << qba(b) << "past the bundle";
        b = bundleHeader(1);
        entry(b, 0, ~0ull, "hipv4-amdgcn-amd-amdhsa--gfx1030", 32);
        QTest::newRow("size wraps") << qba(b) << "past the bundle";
        b = bundleHeader(1);
        entry(b, 0, 8, "hipv4", ~0ull - 10);
        QTest::newRow("id length absurd") << qba(b) << "runs past the end";

        std::vector<std::uint8_t> c = {'C', 'C', 'O', 'B'};
        put<std::uint16_t>(c, 4, 2);
        put<std::uint16_t>(c, 6, 1);
        put<std::uint32_t>(c, 8, 64);
        put<std::uint32_t>(c, 12, 0xfffffff0u);
        put<std::uint64_t>(c, 16, 0);
        for (int i = 0; i < 40; ++i)
            c.push_back(std::uint8_t(i * 37));
        QTest::newRow("zstd garbage") << qba(c) << "does not decompress";
        auto z = c;
        put<std::uint16_t>(z, 6, 0);
        QTest::newRow("zlib garbage") << qba(z) << "does not decompress";
        auto t = c;
        put<std::uint32_t>(t, 8, 1u << 30);
        QTest::newRow("total size past end") << qba(t) << "truncated";
        auto v = c;
        put<std::uint16_t>(v, 4, 9);
        QTest::newRow("unknown version") << qba(v) << "version 9";
        auto m = c;
        put<std::uint16_t>(m, 6, 7);
        QTest::newRow("unknown method") << qba(m) << "method 7";
        QTest::newRow("header cut") << QByteArray("CCOB\x03\x00", 6) << "CCOB";

        // A real zstd stream whose bundle header would need more than the 1 MiB cap.
        auto big = bundleHeader(1);
        entry(big, 0, 0, "", 4ull << 20);
        big.resize(64, 0);
        const auto packed = compress(big, 1);
        std::vector<std::uint8_t> cap = {'C', 'C', 'O', 'B'};
        put<std::uint16_t>(cap, 4, 3);
        put<std::uint16_t>(cap, 6, 1);
        put<std::uint64_t>(cap, 8, 32 + packed.size());
        put<std::uint64_t>(cap, 16, 1ull << 40);
        put<std::uint64_t>(cap, 24, 0);
        cap.insert(cap.end(), packed.begin(), packed.end());
        QTest::newRow("header over cap") << qba(cap) << "1 MiB cap";
        // A stream that ends before the header does.
        auto shortStream = bundleHeader(3);
        const auto shortPacked = compress(shortStream, 0);
        std::vector<std::uint8_t> sp = {'C', 'C', 'O', 'B'};
        put<std::uint16_t>(sp, 4, 2);
        put<std::uint16_t>(sp, 6, 0);
        put<std::uint32_t>(sp, 8, std::uint32_t(24 + shortPacked.size()));
        put<std::uint32_t>(sp, 12, 4096);
        put<std::uint64_t>(sp, 16, 0);
        sp.insert(sp.end(), shortPacked.begin(), shortPacked.end());
        QTest::newRow("stream shorter than header") << qba(sp) << "too short";
    }
    void damaged()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, errorContains);
        const std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
        const auto scan = scanBinaryBytes(view(data), "damaged");
        QVERIFY(scan.targets.empty());
        QVERIFY(!scan.errors.empty());
        const QString all = QString::fromStdString(scan.errors.front());
        QVERIFY2(all.contains(errorContains), qPrintable(all));
    }

    void goodBundleAfterDamagedOne()
    {
#ifndef ARCHSCAN_HAVE_HIP
        QSKIP("hipcc was not found at configure time: no real bundle");
#else
        std::vector<std::uint8_t> section(32, 0);
        std::memcpy(section.data(), "__CLANG_OFFLOAD_BUNDLE__", 24);
        put<std::uint64_t>(section, 24, 1ull << 50);
        const auto good = firstBundle(binary("libarchscan_hip_two.so"));
        section.insert(section.end(), good.begin(), good.end());
        const auto scan = scanOffloadBundles(view(section));
        QCOMPARE(scan.errors.size(), size_t(1));
        QCOMPARE(int(scan.bundles), 1);
        QCOMPARE(ids(scan.targets), QStringList {"gfx1030"});
#endif
    }
};

QTEST_GUILESS_MAIN(TestOffloadBundle)
#include "tst_offload_bundle.moc"
