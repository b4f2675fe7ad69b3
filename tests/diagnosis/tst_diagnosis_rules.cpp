// The rules file: it loads, every rule is complete and sourced, ids match the facts file, and a bad
// file is refused with a message naming the rule id and the key.
#include "core/diagnosis/diagnosis_rules.h"
#include "core/snapshot/stack_environment.h"
#include "core/util/public_url.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <set>

extern const char* const stackscope_diagnosis_rules_json;

using namespace stackscope;

namespace {

std::vector<std::string> idsFromFixture()
{
    std::ifstream in(STACKSCOPE_TEST_FIXTURES "/diagnosis/facts-rule-ids.txt");
    std::vector<std::string> ids;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] != '#')
            ids.push_back(line);
    }
    return ids;
}

// The ids in the table of section 2 of the facts file ("| ID | ...").
std::vector<std::string> idsFromFactsFile(std::ifstream& in)
{
    std::vector<std::string> ids;
    std::string line;
    bool inSection = false;
    const std::regex row(R"(^\| ([A-Z][A-Z0-9_]+) \|)");
    while (std::getline(in, line)) {
        if (line.rfind("## 2.", 0) == 0) {
            inSection = true;
            continue;
        }
        if (inSection && line.rfind("## ", 0) == 0)
            break;
        std::smatch m;
        if (inSection && std::regex_search(line, m, row))
            ids.push_back(m[1]);
    }
    return ids;
}

std::vector<std::string> loadedIds()
{
    std::vector<std::string> ids;
    for (const auto& r : DiagnosisRules::builtIn().rules())
        ids.push_back(r.id);
    return ids;
}

} // namespace

class TestDiagnosisRules : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void builtInLoads()
    {
        QVERIFY(!DiagnosisRules::builtIn().rules().empty());
    }

    // The built-in rules compile their patterns on first use (the load does not check them): every one must compile.
    void builtInPatternsCompile()
    {
        int patterns = 0;
        for (const auto& r : DiagnosisRules::builtIn().rules()) {
            for (const auto& sig : r.signatures) {
                if (!sig.regex)
                    continue;
                ++patterns;
                try {
                    sig.regex->get();
                } catch (const std::regex_error& e) {
                    QFAIL(qPrintable(QString::fromStdString(r.id + ": pattern '" + sig.pattern + "': " + e.what())));
                }
            }
        }
        QVERIFY(patterns > 100);
    }

    void everyRuleIsComplete()
    {
        for (const auto& r : DiagnosisRules::builtIn().rules()) {
            const QByteArray id = QByteArray::fromStdString(r.id);
            QVERIFY2(!r.title.empty() && !r.cause.empty(), id);
            QVERIFY2(!r.sources.empty(), id);
            QVERIFY2(!r.fixes.empty(), id);
            for (const auto& f : r.fixes)
                QVERIFY2(!f.text.empty(), id);
            // A user must be able to open every source: a public http(s) URL, never a file of this project.
            for (const auto& s : r.sources)
                QVERIFY2(isPublicUrl(s), (r.id + ": source is not an http(s) URL: " + s).c_str());
            if (r.manualOnly)
                QVERIFY2(!r.detectionNote.empty(), id);
            else
                QVERIFY2(!r.signatures.empty() || !r.snapshotTriggers.empty() || !r.probeTriggers.empty(), id);
        }
    }

    void idsAreUnique()
    {
        const auto ids = loadedIds();
        QCOMPARE(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
    }

    void idsEqualTheFactsFileList()
    {
        // The facts file's rules come first, in its order; rules added for issue 22 follow.
        const auto expected = idsFromFixture();
        QVERIFY(expected.size() >= 18);
        const auto loaded = loadedIds();
        QVERIFY(loaded.size() >= expected.size());
        QCOMPARE(std::vector<std::string>(loaded.begin(), loaded.begin() + static_cast<std::ptrdiff_t>(expected.size())), expected);
    }

    // The checked-in list above could drift from the facts file; compare with the file itself where it
    // is present (the shared folder next to the repository; STACKSCOPE_FACTS_FILE names another copy).
    void idsEqualTheFactsFile()
    {
        QString path = qEnvironmentVariable("STACKSCOPE_FACTS_FILE",
                                            QStringLiteral(STACKSCOPE_TEST_FIXTURES "/../../../shared/knowledge/rocm-pytorch-facts.md"));
        std::ifstream in(path.toStdString());
        if (!in)
            QSKIP(qPrintable("facts file not present here: " + path));
        const auto ids = idsFromFactsFile(in);
        QVERIFY2(!ids.empty(), "no rule table found in section 2 of the facts file");
        const auto loaded = loadedIds();
        QVERIFY(loaded.size() >= ids.size());
        QCOMPARE(std::vector<std::string>(loaded.begin(), loaded.begin() + static_cast<std::ptrdiff_t>(ids.size())), ids);
    }

    // Fixes and triggers name variables the snapshot records, or a snapshot could never show them.
    void envVariablesAreOnesTheSnapshotRecords()
    {
        auto isKnown = [](const std::string& k) { return isStackEnvironmentVariable(k); };
        for (const auto& r : DiagnosisRules::builtIn().rules()) {
            for (const auto& f : r.fixes)
                for (const auto& [k, v] : f.env)
                    QVERIFY2(isKnown(k), (r.id + ": fix env " + k).c_str());
            for (const auto& t : r.snapshotTriggers) {
                for (const auto& k : t.envUnset)
                    QVERIFY2(isKnown(k), (r.id + ": " + k).c_str());
                for (const auto& [k, v] : t.envEquals)
                    QVERIFY2(isKnown(k), (r.id + ": " + k).c_str());
                for (const auto& [k, v] : t.envContains)
                    QVERIFY2(isKnown(k), (r.id + ": " + k).c_str());
            }
            for (const auto& k : r.applicability.envSet)
                QVERIFY2(isKnown(k), (r.id + ": " + k).c_str());
        }
    }

    void lowConfidenceFactsSayUnconfirmed()
    {
        // The facts file marks HIPBLAS_ALLOC_FAILED's handle-creation cause UNCONFIRMED: the rule must say so.
        const auto* r = DiagnosisRules::builtIn().find("HIPBLAS_ALLOC_FAILED");
        QVERIFY(r);
        QCOMPARE(r->confidence, Confidence::Low);
        QVERIFY(r->confidenceNote.find("UNCONFIRMED") != std::string::npos);
        QVERIFY(r->cause.find("UNCONFIRMED") != std::string::npos);
    }

    void badFilesAreRefused_data()
    {
        QTest::addColumn<QString>("pointer"); // JSON pointer into the built-in rules; empty: replace the whole text
        QTest::addColumn<QString>("value");   // JSON text to put there; empty: remove the key
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("missing sources") << "/rules/0/sources" << ""
                                         << QStringList {"rule 'HIPBLASLT_ARCH_FALLBACK'", "key 'sources'", "missing"};
        QTest::newRow("empty sources") << "/rules/0/sources" << "[]" << QStringList {"key 'sources'", "at least one"};
        QTest::newRow("source is a file of this project") << "/rules/0/sources/0" << "\"shared/knowledge/rocm-pytorch-facts.md section 1\""
                                                         << QStringList {"key 'sources[0]'", "not a public http(s) URL"};
        QTest::newRow("source without a host") << "/rules/0/sources/0" << "\"https://localhost/x\""
                                               << QStringList {"key 'sources[0]'", "not a public http(s) URL"};
        QTest::newRow("no fixes") << "/rules/1/fixes" << "[]" << QStringList {"rule 'HIPBLASLT_RUNTIMEERROR'", "key 'fixes'"};
        QTest::newRow("fix without text") << "/rules/1/fixes/0/text" << "" << QStringList {"key 'fixes[0].text'", "missing"};
        QTest::newRow("missing confidence") << "/rules/2/confidence" << ""
                                            << QStringList {"rule 'HIPBLASLT_NO_KERNELS'", "key 'confidence'"};
        QTest::newRow("bad confidence") << "/rules/2/confidence" << "\"certain\"" << QStringList {"key 'confidence'", "certain"};
        QTest::newRow("bad severity") << "/rules/2/severity" << "\"fatal\"" << QStringList {"key 'severity'", "fatal"};
        QTest::newRow("typo key") << "/rules/3/signatures/0/txt" << "\"x\""
                                  << QStringList {"rule 'ROCBLAS_TENSILE_MISSING'", "key 'signatures[0].txt'", "not a known key"};
        QTest::newRow("bad regex") << "/rules/4/signatures/3/pattern" << "\"hipErrorInvalidImage (unclosed\""
                                   << QStringList {"rule 'NO_CODE_OBJECT_FOR_GPU'", "key 'signatures[3].pattern'"};
        QTest::newRow("anchor drifted") << "/rules/0/signatures/1/anchor" << "\"not in the pattern\""
                                        << QStringList {"key 'signatures[1].anchor'"};
        QTest::newRow("text and pattern") << "/rules/0/signatures/0/pattern" << "\"x+\""
                                          << QStringList {"key 'signatures[0]'", "exactly one"};
        QTest::newRow("duplicate id") << "/rules/5/id" << "\"NO_CODE_OBJECT_FOR_GPU\""
                                      << QStringList {"rule 'NO_CODE_OBJECT_FOR_GPU'", "key 'id'", "twice"};
        QTest::newRow("lower-case id") << "/rules/5/id" << "\"hsa_override\"" << QStringList {"key 'id'", "UPPER_SNAKE"};
        QTest::newRow("env value not a string") << "/rules/0/fixes/1/env/TORCH_BLAS_PREFER_HIPBLASLT" << "0"
                                                << QStringList {"key 'fixes[1].env.TORCH_BLAS_PREFER_HIPBLASLT'"};
        QTest::newRow("bad range") << "/rules/0/applicability/torch" << "\"2.4\"" << QStringList {"key 'applicability.torch'"};
        QTest::newRow("bad backend") << "/rules/0/applicability/backend" << "\"metal\"" << QStringList {"key 'applicability.backend'"};
        QTest::newRow("nothing detects it") << "/rules/15/signatures" << ""
                                            << QStringList {"rule 'ASYNC_ERROR_LOCATION'", "no signatures"};
        QTest::newRow("empty snapshot trigger") << "/rules/17/snapshot_triggers/0" << "{\"note\": \"x\"}"
                                                << QStringList {"rule 'VERSION_STREAM'", "snapshot_triggers[0]", "at least one condition"};
        QTest::newRow("bad probe outcome") << "/rules/6/probe_triggers/0/outcomes" << "[\"exploded\"]"
                                           << QStringList {"rule 'WRONG_DEVICE_IGPU'", "probe_triggers[0].outcomes"};
        QTest::newRow("manual with signatures")
            << "/rules/8"
            << "{\"id\": \"KMD_USERSPACE_SKEW\", \"title\": \"t\", \"severity\": \"info\", \"confidence\": \"low\", "
               "\"cause\": \"c\", \"detection\": \"manual\", \"detection_note\": \"n\", "
               "\"signatures\": [{\"text\": \"some long text\"}], \"fixes\": [{\"text\": \"f\"}], \"sources\": [\"https://example.org\"]}"
            << QStringList {"rule 'KMD_USERSPACE_SKEW'", "key 'detection'"};
        QTest::newRow("explains an unknown rule") << "/rules/6/explains/0" << "\"NOPE\""
                                                  << QStringList {"rule 'WRONG_DEVICE_IGPU'", "key 'explains'", "NOPE"};
        QTest::newRow("require without triggers") << "/rules/4/require" << "\"text_and_snapshot\""
                                                  << QStringList {"rule 'NO_CODE_OBJECT_FOR_GPU'", "key 'require'"};
        QTest::newRow("symptom set of one short group") << "/rules/6/symptoms/0" << "{\"words\": [[\"igpu\"]], \"note\": \"n\"}"
                                                        << QStringList {"rule 'WRONG_DEVICE_IGPU'", "key 'symptoms[0].words'", "12 characters"};
        QTest::newRow("symptom word in upper case") << "/rules/6/symptoms/0/words/0/0" << "\"iGPU\""
                                                    << QStringList {"key 'symptoms[0].words'", "lower case"};
        QTest::newRow("symptom word with a star inside") << "/rules/6/symptoms/0/words/0/0" << "\"ig*pu\""
                                                         << QStringList {"key 'symptoms[0].words'", "'*' only at the end"};
        QTest::newRow("symptom word too short") << "/rules/6/symptoms/0/words/0/0" << "\"gp\""
                                                << QStringList {"key 'symptoms[0].words'", "3 characters"};
        QTest::newRow("symptom empty group") << "/rules/6/symptoms/0/words/1" << "[]"
                                             << QStringList {"key 'symptoms[0].words'", "non-empty"};
        QTest::newRow("symptom without note") << "/rules/6/symptoms/0/note" << ""
                                              << QStringList {"key 'symptoms[0].note'", "missing"};
        QTest::newRow("wrong schema") << "/schema" << "\"other/1\"" << QStringList {"schema"};
        QTest::newRow("not JSON") << "" << "{\"rules\": [" << QStringList {"not valid JSON"};
    }
    void badFilesAreRefused()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QStringList, expected);
        std::string text;
        if (pointer.isEmpty()) {
            text = value.toStdString();
        } else {
            auto j = nlohmann::json::parse(stackscope_diagnosis_rules_json);
            const nlohmann::json::json_pointer ptr(pointer.toStdString());
            if (value.isEmpty())
                j[ptr.parent_pointer()].erase(ptr.back());
            else
                j[ptr] = nlohmann::json::parse(value.toStdString());
            text = j.dump();
        }
        try {
            DiagnosisRules::fromJson(text, "test-rules.json");
            QFAIL("the bad rules file was accepted");
        } catch (const DiagnosisRulesError& e) {
            const QString msg = QString::fromUtf8(e.what());
            QVERIFY2(msg.startsWith("test-rules.json"), qPrintable(msg));
            for (const auto& part : expected)
                QVERIFY2(msg.contains(part), qPrintable(msg + "  (expected: " + part + ")"));
        }
    }

    // One group of long words is enough; the words it must not see may be short.
    void singleLongGroupWithShortExclusionsLoads()
    {
        auto j = nlohmann::json::parse(stackscope_diagnosis_rules_json);
        j["rules"][6]["symptoms"] = nlohmann::json::parse(
            R"([{"words": [["integrated graphics"]], "none": ["apu"], "note": "n"}])");
        auto sources = builtInCatalogues(); // diagnosis.json's "explains" name catalogue entries
        sources.insert(sources.begin(), RulesSource {"test-rules.json", j.dump()});
        const auto rules = DiagnosisRules::fromSources(sources);
        QCOMPARE(rules.find("WRONG_DEVICE_IGPU")->symptoms.at(0).none, std::vector<std::string> {"apu"});
    }

    void fromFileNamesAMissingFile()
    {
        QVERIFY_THROWS_EXCEPTION(DiagnosisRulesError, DiagnosisRules::fromFile("/nonexistent/diagnosis.json"));
    }

    // A folder laid out like resources/rules is the whole set: the same rules, in the same order, as built in.
    void fromFileReadsARulesFolder()
    {
        const auto folder = DiagnosisRules::fromFile(STACKSCOPE_TEST_FIXTURES "/../../resources/rules");
        const auto& builtIn = DiagnosisRules::builtIn();
        QCOMPARE(folder.rules().size(), builtIn.rules().size());
        for (std::size_t i = 0; i < builtIn.rules().size(); ++i)
            QCOMPARE(folder.rules()[i].id, builtIn.rules()[i].id);
    }

    // A folder without diagnosis.json says which file it lacks.
    void fromFileNamesAFolderWithoutDiagnosisJson()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        try {
            DiagnosisRules::fromFile(dir.path().toStdString());
            QFAIL("expected DiagnosisRulesError");
        } catch (const DiagnosisRulesError& e) {
            QVERIFY2(std::string(e.what()).find("diagnosis.json: cannot read") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestDiagnosisRules)
#include "tst_diagnosis_rules.moc"
