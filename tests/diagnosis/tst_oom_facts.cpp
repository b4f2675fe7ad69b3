// PyTorch's out-of-memory message in numbers (both its forms), and the sentence that says who holds the memory.
#include "core/diagnosis/oom_facts.h"

#include <QtTest>

using namespace stackscope;

class TestOomFacts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("requested");
        QTest::addColumn<int>("gpu");
        QTest::addColumn<QString>("total");
        QTest::addColumn<QString>("free");
        QTest::addColumn<QString>("held");
        QTest::newRow("current form, H100 run") << "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has a "
                                                   "total capacity of 79.18 GiB of which 240.62 MiB is free. Process 1613 has 78.17 GiB "
                                                   "memory in use. Of the allocated memory 0 bytes is allocated by PyTorch"
                                                << "4.00 GiB" << 0 << "79.18 GiB" << "240.62 MiB" << "process 1613 holds 78.17 GiB";
        QTest::newRow("pre-2.1 form") << "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 4.00 GiB total "
                                         "capacity; 3.42 GiB already allocated; 0 bytes free; 3.48 GiB reserved in total by PyTorch)"
                                      << "20.00 MiB" << 0 << "4.00 GiB" << "0 bytes" << "";
        QTest::newRow("HIP, two holders") << "HIP out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 23.98 GiB "
                                             "of which 0 bytes is free. Process 11 has 10.00 GiB memory in use. Process 12 has 13.90 "
                                             "GiB memory in use."
                                          << "2.00 GiB" << 1 << "23.98 GiB" << "0 bytes"
                                          << "process 11 holds 10.00 GiB; process 12 holds 13.90 GiB";
        QTest::newRow("no numbers") << "CUDA out of memory. Tried to allocate " << "" << -1 << "" << "" << "";
    }
    void parse()
    {
        QFETCH(QString, line);
        QFETCH(QString, requested);
        QFETCH(int, gpu);
        QFETCH(QString, total);
        QFETCH(QString, free);
        QFETCH(QString, held);
        const auto m = parseOomMessage(line.toStdString());
        QVERIFY(m);
        QCOMPARE(QString::fromStdString(m->requested), requested);
        QCOMPARE(m->gpu.value_or(-1), gpu);
        QCOMPARE(QString::fromStdString(m->total), total);
        QCOMPARE(QString::fromStdString(m->free), free);
        QCOMPARE(QString::fromStdString(m->heldByProcesses), held);
    }

    void notAnOomMessage() { QVERIFY(!parseOomMessage("RuntimeError: CUDA error: out of memory")); }

    void describesWhoHoldsTheMemory()
    {
        Snapshot s;
        GpuInfo g;
        g.vendor = "nvidia";
        g.processesKnown = true;
        g.processes.push_back({1613, std::uint64_t(78) << 30, std::string("root"), std::string("python3")});
        s.gpus.push_back(g);
        const auto text = describeOom(parseOomMessage("CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total capacity "
                                                      "of 79.18 GiB of which 240.62 MiB is free."), &s);
        QVERIFY2(text.find("asked for 4.00 GiB on GPU 0") != std::string::npos, text.c_str());
        QVERIFY2(text.find("process 1613 (python3, user root) holds 78.00 GiB") != std::string::npos, text.c_str());
        s.gpus[0].processesKnown = false;
        QVERIFY(describeOom(std::nullopt, &s).find("unknown here") != std::string::npos); // unknown is said, not "none"
    }
};

QTEST_GUILESS_MAIN(TestOomFacts)
#include "tst_oom_facts.moc"
