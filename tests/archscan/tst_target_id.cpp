// Target-id, bundle entry id, CUDA arch, HSA override and file-name token parsing.
#include "core/archscan/target_id.h"

#include <QtTest>

using namespace stackscope::archscan;

class TestTargetId : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void amdTargetId_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("processor");
        QTest::addColumn<QString>("features"); // "k=v,k=v" sorted
        QTest::newRow("plain") << "gfx1100" << true << "gfx1100" << "";
        QTest::newRow("xnack-") << "gfx90a:xnack-" << true << "gfx90a" << "xnack=-";
        QTest::newRow("two features") << "gfx90a:sramecc+:xnack-" << true << "gfx90a" << "sramecc=+,xnack=-";
        QTest::newRow("generic") << "gfx11-generic" << true << "gfx11-generic" << "";
        QTest::newRow("feature without sign") << "gfx90a:xnack" << false << "" << "";
        QTest::newRow("empty feature") << "gfx90a:" << false << "" << "";
        QTest::newRow("not gfx") << "sm_90" << false << "" << "";
        QTest::newRow("too short") << "gfx9" << false << "" << "";
        QTest::newRow("upper case") << "gfx90A" << false << "" << "";
        QTest::newRow("unknown generic") << "gfx13-generic" << false << "" << "";
    }
    void amdTargetId()
    {
        QFETCH(QString, id);
        QFETCH(bool, valid);
        QFETCH(QString, processor);
        QFETCH(QString, features);
        const auto t = parseAmdTargetId(id.toStdString());
        QCOMPARE(t.has_value(), valid);
        if (!t)
            return;
        QCOMPARE(QString::fromStdString(t->processor), processor);
        QStringList f;
        for (const auto& [k, v] : t->features)
            f << QString::fromStdString(k + "=" + v);
        QCOMPARE(f.join(','), features);
    }

    void bundleEntryId_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("target");
        QTest::newRow("hipv4") << "hipv4-amdgcn-amd-amdhsa--gfx1100" << "hipv4" << "gfx1100";
        QTest::newRow("features") << "hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-" << "hipv4" << "gfx90a:sramecc+:xnack-";
        QTest::newRow("host") << "host-x86_64-unknown-linux" << "host" << "";
        QTest::newRow("host gnu") << "host-x86_64-unknown-linux-gnu" << "host" << "";
        QTest::newRow("old hip") << "hip-amdgcn-amd-amdhsa-gfx906" << "hip" << "gfx906";
        QTest::newRow("openmp") << "openmp-amdgcn-amd-amdhsa--gfx90a" << "openmp" << "gfx90a";
        QTest::newRow("no dash") << "garbage" << "garbage" << "";
    }
    void bundleEntryId()
    {
        QFETCH(QString, id);
        QFETCH(QString, kind);
        QFETCH(QString, target);
        const auto e = parseBundleEntryId(id.toStdString());
        QCOMPARE(QString::fromStdString(e.kind), kind);
        QCOMPARE(QString::fromStdString(e.targetId), target);
    }

    void cudaArch_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<int>("major");
        QTest::addColumn<int>("minor");
        QTest::addColumn<QString>("suffix");
        QTest::newRow("sm_86") << "sm_86" << true << 8 << 6 << "";
        QTest::newRow("sm_90a") << "sm_90a" << true << 9 << 0 << "a";
        QTest::newRow("sm_100f") << "sm_100f" << true << 10 << 0 << "f";
        QTest::newRow("compute_120") << "compute_120" << true << 12 << 0 << "";
        QTest::newRow("sm_") << "sm_" << false << 0 << 0 << "";
        QTest::newRow("sm_9x") << "sm_9x" << false << 0 << 0 << "";
        QTest::newRow("gfx") << "gfx1100" << false << 0 << 0 << "";
    }
    void cudaArch()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        QFETCH(int, major);
        QFETCH(int, minor);
        QFETCH(QString, suffix);
        const auto a = parseCudaArch(name.toStdString());
        QCOMPARE(a.has_value(), valid);
        if (!a)
            return;
        QCOMPARE(a->major, major);
        QCOMPARE(a->minor, minor);
        QCOMPARE(a->suffix ? QString(QChar(a->suffix)) : QString(), suffix);
    }

    void hsaOverride_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("processor"); // empty: invalid
        QTest::newRow("11.0.0") << "11.0.0" << "gfx1100";
        QTest::newRow("10.3.0") << "10.3.0" << "gfx1030";
        QTest::newRow("9.0.10") << "9.0.10" << "gfx90a";
        QTest::newRow("9.4.2") << "9.4.2" << "gfx942";
        QTest::newRow("two parts") << "11.0" << "";
        QTest::newRow("letters") << "11.x.0" << "";
        QTest::newRow("stepping 16") << "9.0.16" << "";
    }
    void hsaOverride()
    {
        QFETCH(QString, value);
        QFETCH(QString, processor);
        const auto p = overrideToProcessor(value.toStdString());
        QCOMPARE(p ? QString::fromStdString(*p) : QString(), processor);
        if (p) // the inverse gives the value back
            QCOMPARE(QString::fromStdString(processorToOverride(*p).value_or("")), value);
    }

    void gfxTokens_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("tokens");
        QTest::newRow("lazy") << "TensileLibrary_lazy_gfx1030.dat" << "gfx1030";
        QTest::newRow("kernels") << "Kernels.so-000-gfx90a-xnack+.hsaco" << "gfx90a:xnack+";
        QTest::newRow("extop") << "extop_gfx942.co" << "gfx942";
        QTest::newRow("gfx110 trap") << "TensileLibrary_gfx110.dat" << "gfx110";
        QTest::newRow("inside word") << "xgfx1100.dat" << "";
        QTest::newRow("generic") << "TensileLibrary_gfx11-generic.co" << "gfx11-generic";
        QTest::newRow("two") << "a_gfx906_b_gfx1030.co" << "gfx906 gfx1030";
        QTest::newRow("not hex") << "gfxzzz.dat" << "";
    }
    void gfxTokens()
    {
        QFETCH(QString, name);
        QFETCH(QString, tokens);
        QStringList got;
        for (const auto& t : gfxTokensInName(name.toStdString())) {
            QString s = QString::fromStdString(t.processor);
            for (const auto& [k, v] : t.features)
                s += QString::fromStdString(":" + k + v);
            got << s;
        }
        QCOMPARE(got.join(' '), tokens);
    }
};

QTEST_GUILESS_MAIN(TestTargetId)
#include "tst_target_id.moc"
