// The symptom words' matcher: every group on one line, word boundaries, '*' prefixes, excluded words, the first line.
#include "core/diagnosis/symptom_index.h"

#include <QtTest>

using namespace stackscope;

namespace {

// "bus error|sigbus;shm|docker" -> {{"bus error", "sigbus"}, {"shm", "docker"}}
std::vector<std::vector<std::string>> groupsOf(const QString& spec)
{
    std::vector<std::vector<std::string>> out;
    for (const auto& g : spec.split(';')) {
        auto& group = out.emplace_back();
        for (const auto& w : g.split('|'))
            group.push_back(w.toStdString());
    }
    return out;
}

} // namespace

class TestSymptomIndex : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void find_data()
    {
        QTest::addColumn<QString>("words"); // groups separated by ';', alternatives by '|'
        QTest::addColumn<QString>("none");  // '|'-separated, may be empty
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");      // index of the line that matches, -1 for none
        QTest::addColumn<QString>("found"); // the words found, '+'-joined
        QTest::newRow("both groups on one line") << "bus error|sigbus;shm|docker" << ""
                                                 << "intro\nDataLoader bus error inside Docker\n" << 1 << "bus error+docker";
        QTest::newRow("groups on two lines do not match") << "bus error;docker" << "" << "bus error\nin docker\n" << -1 << "";
        QTest::newRow("case folded") << "igpu;instead of" << "" << "ROCm defaulting to iGPU Instead Of dGPU" << 0 << "igpu+instead of";
        QTest::newRow("word inside a longer word") << "shm;bus error" << "" << "shmem bus error" << -1 << "";
        QTest::newRow("word before punctuation") << "shm;bus error" << "" << "bus error (shm)." << 0 << "shm+bus error";
        QTest::newRow("prefix word continues") << "hibernat*;gpu" << "" << "GPU lost after hibernation" << 0 << "hibernat+gpu";
        QTest::newRow("plain word does not continue") << "hang;nccl" << "" << "NCCL hangzhou mirror" << -1 << "";
        QTest::newRow("excluded word on the line") << "flash_attn;not supported" << "info"
                                                   << "INFO selector.py] flash_attn is not supported on NAVI GPUs." << -1 << "";
        QTest::newRow("excluded word on another line") << "flash_attn;not supported" << "info"
                                                       << "INFO start\nflash_attn not supported on gfx1100" << 1 << "flash_attn+not supported";
        QTest::newRow("the first line that matches") << "oom;gpu" << "" << "x\nOOM on GPU 0\nOOM on GPU 1" << 1 << "oom+gpu";
        QTest::newRow("non-ASCII words") << "cpu内存;不够|溢出" << "" << "加载LLaMA65b时CPU内存不够" << 0 << "cpu内存+不够";
        QTest::newRow("word with a path") << "no space left on device;/dev/shm" << ""
                                          << "write /dev/shm/x: No space left on device" << 0 << "no space left on device+/dev/shm";
        // A record a program logged is its message, not a person's words (symptom_index.cpp, writtenByProgram).
        QTest::newRow("logfmt record") << "vram usage;gpu" << ""
                                       << "time=2024-05-10T22:52:48 level=WARN source=sched.go:507 msg=\"gpu VRAM usage didn't recover\""
                                       << -1 << "";
        QTest::newRow("ISO-dated record") << "vram usage;gpu" << "" << "2024-05-10 22:52:48 gpu VRAM usage high" << -1 << "";
        QTest::newRow("bracketed date record") << "vram usage;gpu" << "" << "[2024-05-10T22:52:48Z] gpu VRAM usage high" << -1 << "";
        QTest::newRow("glog record") << "oom;gpu" << "" << "W0510 22:52:48.123 oom on gpu 0" << -1 << "";
        QTest::newRow("a date inside a sentence is words") << "oom;gpu" << "" << "since 2024-05-10 OOM on GPU 0" << 0 << "oom+gpu";
        QTest::newRow("a year at the start is words") << "oom;gpu" << "" << "2024 laptop: OOM on GPU" << 0 << "oom+gpu";
    }
    void find()
    {
        QFETCH(QString, words);
        QFETCH(QString, none);
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, found);
        DiagnosisRule rule;
        rule.id = "TEST_RULE";
        SymptomSet set;
        set.words = groupsOf(words);
        for (const auto& w : none.split('|', Qt::SkipEmptyParts))
            set.none.push_back(w.toStdString());
        set.note = "test";
        rule.symptoms.push_back(set);
        const SymptomIndex index({rule});
        const auto hits = index.find(NormalizedText(text.toStdString()));
        if (line < 0) {
            QVERIFY2(hits.empty(), hits.empty() ? "" : std::to_string(hits.front().line).c_str());
            return;
        }
        QCOMPARE(hits.size(), std::size_t(1));
        QCOMPARE(int(hits.front().line), line);
        QStringList got;
        for (const auto& w : hits.front().words)
            got << QString::fromStdString(w);
        QCOMPARE(got.join('+'), found);
    }

    // Hits come in rule order whatever line they are on; each (rule, set) once.
    void hitsInRuleOrder()
    {
        DiagnosisRule a, b;
        a.id = "A";
        b.id = "B";
        a.symptoms.push_back({{{"hang"}, {"nccl"}}, {}, "a"});
        b.symptoms.push_back({{{"oom"}, {"gpu"}}, {}, "b"});
        const SymptomIndex index({a, b});
        const auto hits = index.find(NormalizedText("OOM on GPU\nNCCL hang\nNCCL hang again"));
        QCOMPARE(hits.size(), std::size_t(2));
        QCOMPARE(hits[0].rule, std::size_t(0));
        QCOMPARE(hits[0].line, std::size_t(1));
        QCOMPARE(hits[1].rule, std::size_t(1));
        QCOMPARE(hits[1].line, std::size_t(0));
    }
};

QTEST_APPLESS_MAIN(TestSymptomIndex)
#include "tst_symptom_index.moc"
