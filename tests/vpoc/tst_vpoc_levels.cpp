// Hand-computed POC, value area (dual/single), distribution and developing-value cases.
#include "core/vpoc/volume_profile.h"

#include <QtTest/QtTest>

#include <vector>

using namespace stackscope::vpoc;

Q_DECLARE_METATYPE(std::vector<uint64_t>)

class TestVpocLevels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void levels_data()
    {
        QTest::addColumn<std::vector<uint64_t>>("profile");
        QTest::addColumn<bool>("dual");
        QTest::addColumn<int>("poc");
        QTest::addColumn<int>("val");
        QTest::addColumn<int>("vah");
        using V = std::vector<uint64_t>;
        QTest::newRow("one level") << V {7} << true << 0 << 0 << 0;
        QTest::newRow("tie at equal distance goes lower") << V {5, 1, 5} << true << 0 << 0 << 2;
        QTest::newRow("tie goes to the middle") << V {5, 5, 1, 5, 5} << true << 1 << 1 << 4;
        QTest::newRow("all zero volume") << V {0, 0, 0, 0} << true << 1 << 1 << 1;
        QTest::newRow("exact 70% stops") << V {3, 7} << true << 1 << 1 << 1;
        QTest::newRow("dual pair tie goes above") << V {1, 2, 10, 2, 1} << true << 2 << 2 << 4;
        QTest::newRow("single tie goes above") << V {1, 2, 10, 2, 1} << false << 2 << 2 << 3;
        QTest::newRow("dual at the low edge") << V {10, 3, 1, 1} << true << 0 << 0 << 2;
        QTest::newRow("dual one level left below, tie") << V {2, 10, 1, 1, 1} << true << 1 << 1 << 3;
        QTest::newRow("dual one level below wins") << V {3, 10, 1, 1} << true << 1 << 0 << 1;
        QTest::newRow("single walks one by one") << V {1, 4, 10, 3, 1} << false << 2 << 1 << 2;
    }
    void levels()
    {
        QFETCH(std::vector<uint64_t>, profile);
        QFETCH(bool, dual);
        QFETCH(int, poc);
        QFETCH(int, val);
        QFETCH(int, vah);
        const auto l = valueArea(profile.data(), static_cast<int32_t>(profile.size()), 7000, dual);
        QCOMPARE(l.poc, poc);
        QCOMPARE(l.val, val);
        QCOMPARE(l.vah, vah);
    }

    void distribution_data()
    {
        QTest::addColumn<int>("distribution");
        QTest::addColumn<std::vector<uint64_t>>("expected");
        // One bar low 100, high 102, close 102, volume 5 (ticks): uniform q=1 r=2 -> 2,2,1.
        QTest::newRow("uniform") << int(Distribution::Uniform) << std::vector<uint64_t> {2, 2, 1};
        QTest::newRow("close") << int(Distribution::Close) << std::vector<uint64_t> {0, 0, 5};
        // typical = round((102+100+102)/3) = round(101.33) = 101
        QTest::newRow("typical") << int(Distribution::Typical) << std::vector<uint64_t> {0, 5, 0};
    }
    void distribution()
    {
        QFETCH(int, distribution);
        QFETCH(std::vector<uint64_t>, expected);
        const MarketRecord bar {0, 101, 102, 100, 102, 5};
        ProfileBatch b;
        b.appendSession(0, &bar, 1, static_cast<Distribution>(distribution));
        std::vector<uint64_t> p;
        buildProfileCpu(b.view(), 0, p);
        QCOMPARE(p, expected);
    }

    void developingIsCausal()
    {
        std::vector<MarketRecord> bars;
        for (int i = 0; i < 200; ++i) {
            const int32_t lo = 1000 + (i * 7) % 23 - (i % 5);
            bars.push_back({i * 60000000LL, lo, lo + i % 6, lo, lo + i % 3 % (i % 6 + 1), uint32_t(100 + (i * 37) % 500)});
        }
        ProfileOptions o;
        const auto before = developingValues(bars.data(), bars.size(), o);
        const size_t cut = 120;
        auto changed = bars;
        for (size_t i = cut + 1; i < changed.size(); ++i) {
            changed[i].low -= 40;
            changed[i].volume *= 9;
        }
        const auto after = developingValues(changed.data(), changed.size(), o);
        QCOMPARE(after.size(), before.size());
        for (size_t i = 0; i <= cut; ++i) {
            QCOMPARE(after[i].pocTick, before[i].pocTick);
            QCOMPARE(after[i].vahTick, before[i].vahTick);
            QCOMPARE(after[i].valTick, before[i].valTick);
        }
        bool differs = false; // the change must be visible later, or the test proves nothing
        for (size_t i = cut + 1; i < after.size(); ++i)
            differs = differs || after[i].valTick != before[i].valTick || after[i].pocTick != before[i].pocTick;
        QVERIFY(differs);
        // The last developing point equals the whole session's levels.
        ProfileBatch b;
        b.appendSession(0, bars.data(), bars.size(), o.distribution);
        std::vector<uint64_t> p;
        buildProfileCpu(b.view(), 0, p);
        const auto s = finishSession(b.sessions[0], p.data(), o);
        QCOMPARE(before.back().pocTick, s.pocTick);
        QCOMPARE(before.back().vahTick, s.vahTick);
        QCOMPARE(before.back().valTick, s.valTick);
    }

    void threadsAgree()
    {
        ProfileBatch b;
        std::vector<MarketRecord> bars;
        for (int d = 0; d < 9; ++d) {
            bars.clear();
            for (int i = 0; i < 300; ++i)
                bars.push_back({i, 0, 2000 + (i * d) % 40 + 3, 2000 + (i * d) % 40, 2000 + (i * d) % 40, uint32_t(i * 13 % 97)});
            b.appendSession(d, bars.data(), bars.size(), Distribution::Uniform);
        }
        ProfileOptions o;
        o.keepProfiles = true;
        const auto one = computeBatchCpu(b.view(), o, 1);
        const auto many = computeBatchCpu(b.view(), o, 4);
        QCOMPARE(one.size(), many.size());
        for (size_t i = 0; i < one.size(); ++i) {
            QCOMPARE(one[i].profile, many[i].profile);
            QCOMPARE(one[i].pocTick, many[i].pocTick);
        }
    }
};

QTEST_GUILESS_MAIN(TestVpocLevels)
#include "tst_vpoc_levels.moc"
