// Coverage rules: exact targets, xnack/sramecc features, generic targets, SASS/PTX, HSA override effects.
#include "core/archscan/coverage.h"
#include "core/archscan/target_id.h"

#include <QtTest>

using namespace stackscope::archscan;

namespace {

LibraryScan library(LibraryKind kind, const QString& ids)
{
    LibraryScan l;
    l.path = "lib";
    l.kind = kind;
    for (const auto& id : ids.split(' ', Qt::SkipEmptyParts)) {
        ScannedTarget t;
        t.id = id.toStdString();
        if (const auto amd = parseAmdTargetId(t.id)) {
            t.arch = amd->processor;
            t.features = amd->features;
        } else if (const auto cuda = parseCudaArch(t.id)) {
            t.arch = cudaArchName(*cuda, "sm_");
            t.format = id.startsWith("compute_") ? CodeFormat::Ptx : CodeFormat::Sass;
        }
        l.targets.push_back(t);
    }
    return l;
}

} // namespace

class TestCoverage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void verdict_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("targets");
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("expected");
        const int hip = int(LibraryKind::Hip), cuda = int(LibraryKind::Cuda), tensile = int(LibraryKind::Tensile);
        QTest::newRow("exact") << hip << "gfx906 gfx1030" << "gfx1030" << "yes";
        QTest::newRow("missing") << hip << "gfx906 gfx1030" << "gfx1100" << "no";
        QTest::newRow("gfx110 is not gfx1100") << tensile << "gfx110" << "gfx1100" << "no";
        QTest::newRow("feature any covers xnack+") << hip << "gfx90a" << "gfx90a:xnack+" << "yes";
        QTest::newRow("xnack+ code on xnack- device") << hip << "gfx90a:xnack+" << "gfx90a:xnack-" << "no";
        QTest::newRow("xnack- code on xnack- device") << hip << "gfx90a:xnack-" << "gfx90a:sramecc+:xnack-" << "yes";
        QTest::newRow("both modes") << hip << "gfx90a:xnack+ gfx90a:xnack-" << "gfx90a:xnack-" << "yes";
        QTest::newRow("sramecc- code on sramecc+") << hip << "gfx90a:sramecc-" << "gfx90a:sramecc+:xnack-" << "no";
        QTest::newRow("device mode unknown") << hip << "gfx90a:xnack+" << "gfx90a" << "yes";
        QTest::newRow("generic") << hip << "gfx11-generic" << "gfx1101" << "generic";
        QTest::newRow("generic not member") << hip << "gfx11-generic" << "gfx1030" << "no";
        QTest::newRow("exact beats generic") << hip << "gfx11-generic gfx1100" << "gfx1100" << "yes";
        QTest::newRow("sass same") << cuda << "sm_80 sm_90" << "sm_90" << "yes";
        QTest::newRow("sass minor up") << cuda << "sm_80" << "sm_86" << "yes";
        QTest::newRow("sass minor down") << cuda << "sm_86" << "sm_80" << "no";
        QTest::newRow("sass other major") << cuda << "sm_80" << "sm_90" << "no";
        QTest::newRow("ptx jit") << cuda << "sm_80 compute_80" << "sm_90" << "ptx";
        QTest::newRow("ptx newer than device") << cuda << "compute_90" << "sm_86" << "no";
        QTest::newRow("sm_90a only on 90") << cuda << "sm_90a" << "sm_90" << "yes";
        QTest::newRow("sm_100a not on 103") << cuda << "sm_100a" << "sm_103" << "no";
        QTest::newRow("sm_100f on 103") << cuda << "sm_100f" << "sm_103" << "yes";
        QTest::newRow("compute_90a not on 100") << cuda << "compute_90a" << "sm_100" << "no";
    }
    void verdict()
    {
        QFETCH(int, kind);
        QFETCH(QString, targets);
        QFETCH(QString, device);
        QFETCH(QString, expected);
        const auto lib = library(LibraryKind(kind), targets);
        const auto v = judgeCoverage(lib, device.toStdString());
        QCOMPARE(QString(coverageName(v.coverage)), expected);
        // Every verdict other than a plain yes tells the person what happens.
        if (v.coverage != Coverage::Yes)
            QVERIFY(!v.explanation.empty());
    }

    void vendorsAreSeparate()
    {
        ArchCoverage c;
        c.devices = {"gfx1030", "sm_86"};
        c.libraries = {library(LibraryKind::Hip, "gfx1030"), library(LibraryKind::Cuda, "sm_86")};
        applyCoverage(c, std::nullopt);
        QCOMPARE(c.libraries[0].covers.size(), size_t(1));
        QVERIFY(c.libraries[0].covers.count("gfx1030"));
        QCOMPARE(c.libraries[1].covers.size(), size_t(1));
        QVERIFY(c.libraries[1].covers.count("sm_86"));
        QVERIFY(!c.anyUncovered());
    }

    void unreadableLibraryHasNoVerdict()
    {
        ArchCoverage c;
        c.devices = {"gfx1030"};
        LibraryScan broken;
        broken.path = "broken.so";
        broken.errors = {"damaged"};
        c.libraries = {broken};
        applyCoverage(c, std::nullopt);
        QVERIFY(c.libraries[0].covers.empty());
        QVERIFY(!c.anyUncovered());
    }

    void overrideSuggestion()
    {
        ArchCoverage c;
        c.devices = {"gfx1031"};
        c.libraries = {library(LibraryKind::Hip, "gfx1030 gfx1100")};
        applyCoverage(c, std::nullopt);
        QVERIFY(c.anyUncovered());
        QCOMPARE(c.overrides.size(), size_t(1));
        QCOMPARE(QString::fromStdString(c.overrides[0].overrideValue), QString("10.3.0"));
        QCOMPARE(QString::fromStdString(c.overrides[0].reportedArch), QString("gfx1030"));
        QVERIFY(!c.overrides[0].inEffect);
        QCOMPARE(c.overrides[0].newlyCovered.size(), size_t(1));
    }

    void noSuggestionWhenBaseMissing()
    {
        ArchCoverage c;
        c.devices = {"gfx1101"};
        c.libraries = {library(LibraryKind::Hip, "gfx1030")};
        applyCoverage(c, std::nullopt);
        QVERIFY(c.overrides.empty());
    }

    void overrideInEffect()
    {
        ArchCoverage c;
        c.devices = {"gfx1102"};
        c.libraries = {library(LibraryKind::Hip, "gfx1100")};
        applyCoverage(c, std::string("11.0.0"));
        QCOMPARE(c.overrides.size(), size_t(1));
        QVERIFY(c.overrides[0].inEffect);
        QCOMPARE(QString::fromStdString(c.overrides[0].reportedArch), QString("gfx1100"));
        QCOMPARE(c.overrides[0].newlyCovered.size(), size_t(1));
    }

    void deviceNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        QTest::newRow("gfx1100") << "gfx1100" << true;
        QTest::newRow("features") << "gfx90a:sramecc+:xnack-" << true;
        QTest::newRow("sm_90") << "sm_90" << true;
        QTest::newRow("compute is no device") << "compute_90" << false;
        QTest::newRow("generic is no device") << "gfx11-generic" << false;
        QTest::newRow("word") << "rtx4090" << false;
    }
    void deviceNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        QCOMPARE(isValidDeviceName(name.toStdString()), valid);
    }
};

QTEST_GUILESS_MAIN(TestCoverage)
#include "tst_coverage.moc"
