// The real-report corpus (tests/fixtures/reports): its shape, the scoring rules, and the accuracy goal of
// issue 22 (top-1 >= 90 %, no error finding on a healthy text) for the built-in rules.
#include "core/diagnosis/log_diagnosis.h"
#include "core/diagnosis/report_corpus.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <unistd.h>

using namespace stackscope;

namespace {

const std::string kCorpus = STACKSCOPE_TEST_FIXTURES "/reports";
const std::string kHeldOut = STACKSCOPE_TEST_FIXTURES "/reports-heldout";

Finding finding(const std::string& id, Severity s)
{
    Finding f;
    f.id = id;
    f.severity = s;
    return f;
}

} // namespace

class TestReportCorpus : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void corpusHasTheSizeAndFamiliesAsked()
    {
        const auto reports = loadReportCorpus(kCorpus);
        int healthy = 0, failures = 0;
        std::map<std::string, int> families;
        for (const auto& r : reports) {
            QVERIFY2(r.url.rfind("https://", 0) == 0, r.name.c_str());
            QVERIFY2(!r.text.empty(), r.name.c_str());
            (r.family == "healthy" ? healthy : failures) += 1;
            ++families[r.family];
            if (r.family == "healthy")
                QVERIFY2(!r.expectedRule, r.name.c_str());
        }
        QVERIFY(failures >= 40);
        QVERIFY(healthy >= 10);
        for (const char* f : {"missing_code_object", "igpu_first", "kfd_permission", "hipblas_alloc_failed", "miopen_db",
                              "gpu_hang", "hip_oom", "bf16", "hsa_override", "kmd_userspace_skew", "wheel_rocm_mismatch",
                              "wsl", "aotriton_flash", "hipblaslt_unsupported_warning"})
            QVERIFY2(families[f] >= 2, f);
    }

    // The held-out part (issue 32): collected and frozen before the catalogue rules, by someone who did not read
    // them; scored by `bench diagnose`, never tuned to. Here only its shape and its split from the seen part.
    void heldOutCorpusIsApartAndLargeEnough()
    {
        std::set<std::string> seen;
        for (const auto& r : loadReportCorpus(kCorpus))
            seen.insert(r.url);
        int nvidia = 0, healthy = 0;
        const auto heldOut = loadReportCorpus(kHeldOut);
        for (const auto& r : heldOut) {
            QVERIFY2(!seen.count(r.url), (r.name + " is also in the seen corpus: " + r.url).c_str());
            nvidia += r.vendor == "nvidia" ? 1 : 0;
            healthy += r.expectedRule ? 0 : 1;
        }
        QVERIFY2(heldOut.size() >= 50, qPrintable(QString::number(heldOut.size())));
        QVERIFY2(nvidia >= 20, qPrintable(QString::number(nvidia)));
        QVERIFY2(seen.size() + heldOut.size() >= 150, qPrintable(QString::number(seen.size() + heldOut.size())));
    }

    void everyExpectedRuleExists_data()
    {
        QTest::addColumn<QString>("corpus");
        QTest::newRow("seen") << QString::fromStdString(kCorpus);
        QTest::newRow("held out") << QString::fromStdString(kHeldOut);
    }
    void everyExpectedRuleExists()
    {
        QFETCH(QString, corpus);
        for (const auto& r : loadReportCorpus(corpus.toStdString())) {
            if (!r.expectedRule || *r.expectedRule == kCauseOutsideRules)
                continue;
            const auto& rules = DiagnosisRules::builtIn().rules();
            const bool named = std::any_of(rules.begin(), rules.end(), [&](const DiagnosisRule& rule) {
                return DiagnosisRules::builtIn().names(rule.id, *r.expectedRule);
            });
            QVERIFY2(named, (r.name + ": " + *r.expectedRule + " is no rule's id or family").c_str());
        }
    }

    void scoring_data()
    {
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QStringList>("found"); // "ID:severity"
        QTest::addColumn<bool>("top1");
        QTest::addColumn<bool>("top3");
        QTest::newRow("first") << "A" << QStringList {"A:error", "B:error"} << true << true;
        QTest::newRow("second") << "A" << QStringList {"B:error", "A:error"} << false << true;
        QTest::newRow("fourth") << "A" << QStringList {"B:error", "C:error", "D:warning", "A:warning"} << false << false;
        QTest::newRow("absent") << "A" << QStringList {"B:error"} << false << false;
        QTest::newRow("info expected") << "A" << QStringList {"A:info"} << true << true;
        QTest::newRow("none expected, none") << "" << QStringList {} << true << true;
        QTest::newRow("none expected, info only") << "" << QStringList {"I:info"} << true << true;
        QTest::newRow("none expected, a warning") << "" << QStringList {"W:warning"} << false << false;
        QTest::newRow("other, none claimed") << "OTHER" << QStringList {"I:info"} << true << true;
        QTest::newRow("other, a claim") << "OTHER" << QStringList {"E:error"} << false << false;
        QTest::newRow("family member first") << "NVIDIA_XID" << QStringList {"NVIDIA_XID_79:error", "B:error"} << true << true;
        QTest::newRow("family member second") << "NVIDIA_XID" << QStringList {"B:error", "NVIDIA_XID_79:error"} << false << true;
    }
    void scoring()
    {
        QFETCH(QString, expected);
        QFETCH(QStringList, found);
        QFETCH(bool, top1);
        QFETCH(bool, top3);
        CorpusReport r;
        r.name = "x";
        r.family = "f";
        if (!expected.isEmpty())
            r.expectedRule = expected.toStdString();
        std::vector<Finding> findings;
        for (const auto& f : found) {
            const auto parts = f.split(':');
            findings.push_back(finding(parts[0].toStdString(), *severityFromName(parts[1].toStdString())));
        }
        const auto rules = DiagnosisRules::fromJson("{\"schema\": \"stackscope.diagnosis-rules/1\", \"rules\": [\n"
"            {\"id\": \"NVIDIA_XID_79\", \"title\": \"t\", \"severity\": \"error\", \"confidence\": \"high\", \"cause\": \"c\",\n"
"             \"family\": \"NVIDIA_XID\", \"signatures\": [{\"text\": \"fallen off the bus\"}], \"fixes\": [{\"text\": \"f\"}],\n"
"             \"sources\": [\"https://docs.nvidia.com/deploy/xid-errors/index.html\"]}]}", "test rules");
        const auto s = scoreReport(r, findings, rules);
        QCOMPARE(s.top1, top1);
        QCOMPARE(s.top3, top3);
    }

    void badExpectedJsonNamesFileLineColumn()
    {
        const auto dir = std::filesystem::temp_directory_path() / ("ss-corpus-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir / "01_x");
        std::ofstream(dir / "01_x" / "report.txt") << "text\n";
        std::ofstream(dir / "01_x" / "expected.json") << "{\n  \"url\": \"https://x\",\n  oops\n}\n";
        try {
            loadReportCorpus(dir.string());
            QFAIL("a broken expected.json was accepted");
        } catch (const CorpusError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("expected.json:3:") != std::string::npos, what.c_str());
        }
        std::filesystem::remove_all(dir);
    }

    // later-labels.tsv gives OTHER threads a later id; the frozen label stays, the later one scores apart.
    void laterLabels_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("error"); // empty: accepted
        QTest::newRow("relabels an OTHER thread") << "corpus/01_other\tNEW_ID\treason" << "";
        QTest::newRow("another folder is skipped") << "elsewhere/01_other\tNEW_ID\treason" << "";
        QTest::newRow("a labelled thread is refused") << "corpus/02_known\tNEW_ID\treason" << "not OTHER";
        QTest::newRow("an unknown thread is refused") << "corpus/09_none\tNEW_ID\treason" << "has no thread";
        QTest::newRow("a line without tabs is refused") << "corpus/01_other NEW_ID" << "expected '<folder>";
    }
    void laterLabels()
    {
        QFETCH(QString, line);
        QFETCH(QString, error);
        const auto root = std::filesystem::temp_directory_path() / ("ss-later-" + std::to_string(::getpid()));
        const auto dir = root / "corpus";
        for (const auto& [name, rule] : {std::pair {"01_other", "\"OTHER\""}, std::pair {"02_known", "\"CUDA_OOM\""}}) {
            std::filesystem::create_directories(dir / name);
            std::ofstream(dir / name / "report.txt") << "text\n";
            std::ofstream(dir / name / "expected.json") << "{\"url\": \"https://x\", \"family\": \"f\", \"expected_rule\": " << rule
                                                        << ", \"cause\": \"c\"}\n";
        }
        std::ofstream(root / "later.tsv") << "# comment\n" << line.toStdString() << "\n";
        auto reports = loadReportCorpus(dir.string());
        try {
            applyLaterLabels(reports, dir.string() + "/", (root / "later.tsv").string());
            QVERIFY2(error.isEmpty(), "a bad line was accepted");
            const bool relabelled = line.startsWith("corpus/");
            QCOMPARE(reports[0].laterRule.has_value(), relabelled);
            QCOMPARE(reports[0].expectedRule.value_or(""), std::string(kCauseOutsideRules));
            if (relabelled) {
                const auto s = scoreReport(reports[0], {finding("NEW_ID", Severity::Error)}, DiagnosisRules::builtIn());
                QVERIFY(!s.top1); // the frozen label: OTHER, and something was claimed
                QVERIFY(s.top1Later);
            }
        } catch (const CorpusError& e) {
            QVERIFY2(!error.isEmpty() && QString(e.what()).contains(error), e.what());
        }
        std::filesystem::remove_all(root);
    }

    // Issue 22's goal for the built-in rules; the figure itself is recorded by `bench diagnose`.
    void builtInRulesMeetTheGoal()
    {
        const auto reports = loadReportCorpus(kCorpus);
        const auto score = scoreCorpus(reports, [](const CorpusReport& r) { return diagnoseLogText(r.text, r.name).findings; },
                                       DiagnosisRules::builtIn());
        QString misses;
        for (const auto& r : score.reports)
            if (!r.top1)
                misses += QString::fromStdString(r.name + " ");
        QVERIFY2(score.top1 * 10 >= score.scored * 9, qPrintable(QString("top-1 %1/%2; misses: %3").arg(score.top1).arg(score.scored).arg(misses)));
        QCOMPARE(score.healthyErrors, 0);
    }
};

QTEST_GUILESS_MAIN(TestReportCorpus)
#include "tst_report_corpus.moc"
