// The flight recorder's ring (core/util/flight_ring.h): the layout read back from a status file, ring wrap-around,
// and the attribution of a hang to the ranks that never entered the collective the others wait in.
#include "core/util/flight_ring.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <memory>

using namespace stackscope::flight;

namespace {

// A rank's layout with `count` collectives, the last one in `lastState` (the others completed).
std::unique_ptr<Layout> rankLayout(int rank, uint64_t count, State lastState)
{
    auto l = std::make_unique<Layout>();
    std::memset(static_cast<void*>(l.get()), 0, sizeof *l);
    std::memcpy(l->header.magic, kMagic, sizeof kMagic);
    l->header.capacity = kCapacity;
    l->header.rank = rank;
    l->header.worldSize = 2;
    l->header.pid = 1000 + rank;
    copyText(l->header.backend, sizeof l->header.backend, "gloo");
    for (uint64_t seq = 1; seq <= count; ++seq) {
        Record& r = l->records[seq % kCapacity];
        r.seq = seq;
        r.state = static_cast<uint32_t>(seq == count ? lastState : State::Completed);
        r.bytes = 64;
        r.enqueuedAt = 1000.0 + static_cast<double>(seq);
        copyText(r.op, sizeof r.op, "all_reduce");
        copyText(r.label, sizeof r.label, "all_reduce(gradients) step " + std::to_string(seq));
    }
    l->header.next = count;
    return l;
}

} // namespace

class TestFlightRing : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void attribution_data()
    {
        QTest::addColumn<int>("rank0Count");
        QTest::addColumn<int>("rank1Count");
        QTest::addColumn<int>("lastState"); // of each rank's newest entry
        QTest::addColumn<int>("rank1State"); // -1: lastState
        QTest::addColumn<QString>("expected"); // empty: nothing to attribute
        QTest::newRow("rank 1 one behind") << 7 << 6 << int(State::Started) << -1
                                           << "rank 1 never entered collective #7 (all_reduce(gradients) step 7, "
                                              "entered by rank 0); its last: #6 all_reduce(gradients) step 6 (started)";
        QTest::newRow("rank 0 behind") << 3 << 5 << int(State::Started) << -1
                                       << "rank 0 never entered collective #4 (all_reduce(gradients) step 4, entered "
                                          "by rank 1); its last: #3 all_reduce(gradients) step 3 (started)";
        QTest::newRow("rank 1 entered none") << 2 << 0 << int(State::Started) << -1
                                             << "rank 1 never entered collective #1 (all_reduce(gradients) step 1, "
                                                "entered by rank 0); it entered none";
        QTest::newRow("all in the same, not completed")
            << 5 << 5 << int(State::Enqueued) << -1
            << "rank 0 entered collective #5 all_reduce(gradients) step 5 (enqueued) with every rank and it did not "
               "complete";
        QTest::newRow("rank 1 stuck inside, rank 0 gave up")
            << 9 << 9 << int(State::Failed) << int(State::Started)
            << "rank 1 is stuck in collective #9 all_reduce(gradients) step 9 (started), which every rank entered: "
               "rank(s) 0 gave up waiting for it";
        QTest::newRow("all completed") << 5 << 5 << int(State::Completed) << -1 << "";
        QTest::newRow("wrapped ring, one behind") << int(kCapacity) + 40 << int(kCapacity) + 39 << int(State::Completed) << -1
                                                  << QString("rank 1 never entered collective #%1 (all_reduce(gradients) "
                                                             "step %1, entered by rank 0); its last: #%2 "
                                                             "all_reduce(gradients) step %2 (completed)")
                                                         .arg(kCapacity + 40)
                                                         .arg(kCapacity + 39);
    }
    void attribution()
    {
        QFETCH(int, rank0Count);
        QFETCH(int, rank1Count);
        QFETCH(int, lastState);
        QFETCH(int, rank1State);
        QFETCH(QString, expected);
        std::vector<RankRing> rings {ringOf(*rankLayout(0, rank0Count, State(lastState))),
                                     ringOf(*rankLayout(1, rank1Count, State(rank1State < 0 ? lastState : rank1State)))};
        QVERIFY(rings[0].records.size() <= kCapacity);
        const auto lines = attribute(rings);
        if (expected.isEmpty()) {
            QVERIFY2(lines.empty(), lines.empty() ? "" : lines[0].c_str());
            return;
        }
        QVERIFY(!lines.empty());
        QCOMPARE(QString::fromStdString(lines[0]), expected);
    }

    // What the launcher reads: the file a rank maps (label first, then the ring); an older 256-byte status file or
    // one without the magic holds no ring.
    void readBackFromFile_data()
    {
        QTest::addColumn<int>("bytes"); // how much of the layout is in the file
        QTest::addColumn<bool>("magic");
        QTest::addColumn<bool>("ring");
        QTest::newRow("whole layout") << int(kFileBytes) << true << true;
        QTest::newRow("label only (before the group)") << int(kLabelBytes) << true << false;
        QTest::newRow("no magic") << int(kFileBytes) << false << false;
    }
    void readBackFromFile()
    {
        QFETCH(int, bytes);
        QFETCH(bool, magic);
        QFETCH(bool, ring);
        QTemporaryDir dir;
        const std::string path = dir.filePath("rank1.status").toStdString();
        auto l = rankLayout(1, 12, State::Enqueued);
        copyText(l->label, kLabelBytes, "all_reduce(gradients) step 12");
        if (!magic)
            l->header.magic[0] = 'X';
        std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(l.get()), bytes);
        const auto read = readRing(path);
        QCOMPARE(read.has_value(), ring);
        if (!ring)
            return;
        QCOMPARE(read->rank, 1);
        QCOMPARE(read->backend, std::string("gloo"));
        QCOMPARE(read->label, std::string("all_reduce(gradients) step 12"));
        QCOMPARE(read->records.size(), size_t(12));
        const auto j = ringJson(*read);
        QCOMPARE(j["last_seq"].get<int>(), 12);
        QCOMPARE(j["collectives"].back()["state"].get<std::string>(), std::string("enqueued"));
        QVERIFY(j["collectives"].back()["completed_at"].is_null());
    }
};

QTEST_GUILESS_MAIN(TestFlightRing)
#include "tst_flight_ring.moc"
