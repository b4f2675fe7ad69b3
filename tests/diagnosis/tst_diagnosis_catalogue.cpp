// Catalogues (resources/rules/catalogues): entries become rules (codes as whole identifiers, messages as exact
// texts, defaults and sources merged), bad files are refused naming the entry and key, the built-in vocabulary
// maps every code to a rule; and the literal automaton behind the matcher agrees with a plain search.
#include "core/diagnosis/cuda_driver_matrix.h"
#include "core/diagnosis/diagnosis.h"
#include "core/diagnosis/visibility_facts.h"
#include "core/diagnosis/literal_set.h"

#include <QtTest>

#include <algorithm>
#include <random>
#include <set>

using namespace stackscope;

namespace {

std::string catalogue(const std::string& entries, const std::string& extra = "")
{
    return "{\"schema\": \"stackscope.diagnosis-catalogue/1\", \"catalogue\": \"test\", \"title\": \"t\", \"vendor\": \"any\",\n"
"               \"sources\": [\"https://example.org/catalogue\"], \"defaults\": {\"severity\": \"error\", \"confidence\": \"high\"},\n"
"               \"entries\": [" + entries + "]" + extra + "}";
}

const std::string kIsaEntry = "{\"id\": \"HSA_INVALID_ISA\", \"title\": \"t\", \"cause\": \"c\", \"fixes\": [{\"text\": \"f\"}],\n"
"    \"codes\": [\"HSA_STATUS_ERROR_INVALID_ISA\"], \"messages\": [\"The instruction set architecture is invalid.\"],\n"
"    \"family\": \"HSA_STATUS_ERROR\", \"sources\": [\"https://example.org/isa\"]}";

// Whether a catalogue of these entries raises anything on one log.
bool raises(const std::string& entries, const QString& log)
{
    const auto rules = DiagnosisRules::fromSources({{"test.json", catalogue(entries)}});
    DiagnosisInput in;
    in.logs.push_back({"log", log.toStdString()});
    return !diagnose(in, rules).empty();
}

std::vector<std::string> ids(const std::vector<Finding>& findings)
{
    std::vector<std::string> out;
    for (const auto& f : findings)
        out.push_back(f.id);
    return out;
}

} // namespace

class TestDiagnosisCatalogue : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void literalSetAgreesWithFind_data()
    {
        QTest::addColumn<QStringList>("literals");
        QTest::addColumn<QString>("text");
        QTest::newRow("overlapping") << QStringList {"he", "she", "his", "hers"} << "ushers and his hershey";
        QTest::newRow("case folded") << QStringList {"CUDA error", "nccl"} << "cuda ERROR: NCCL WARN";
        QTest::newRow("prefix of another") << QStringList {"HSA_STATUS_ERROR", "HSA_STATUS_ERROR_INVALID_ISA"}
                                           << "HSA_STATUS_ERROR_INVALID_ISA_NAME";
        QTest::newRow("none") << QStringList {"xyz"} << "abc";
        QTest::newRow("empty literal ignored") << QStringList {"", "ab"} << "abab";
        QTest::newRow("repeated") << QStringList {"aa"} << "aaaa";
        // The same text twice, and in two cases: both literals end at one state (the automaton is laid out from the
        // sorted literals; equal ones are neighbours).
        QTest::newRow("same literal twice, and in other case") << QStringList {"nccl", "NCCL", "nccl", "cl"}
                                                               << "NCCL WARN nccl";
        QTest::newRow("one letter, one level") << QStringList {"a", "b"} << "abcab";
        QTest::newRow("bytes above ASCII") << QStringList {"\u2026", "caf\u00e9"} << "caf\u00e9 \u2026 CAF\u00e9";
        // Deep states and long failure chains (the automaton has complete rows only near the root): many overlapping
        // literals over a small alphabet, a fixed seed.
        std::mt19937 random(32);
        const auto word = [&](int maxLength, const char* alphabet, int letters) {
            QString w;
            for (int n = 1 + int(random() % maxLength); n > 0; --n)
                w += QLatin1Char(alphabet[random() % letters]);
            return w;
        };
        QStringList many;
        for (int i = 0; i < 300; ++i)
            many << word(9, "abcAB", 5);
        QString text;
        for (int i = 0; i < 20; ++i)
            text += word(400, "abcdABC", 7);
        QTest::newRow("many overlapping, small alphabet") << many << text;
    }
    void literalSetAgreesWithFind()
    {
        QFETCH(QStringList, literals);
        QFETCH(QString, text);
        std::vector<std::string> lits;
        for (const auto& l : literals)
            lits.push_back(l.toLower().toStdString());
        const std::string t = text.toLower().toStdString();
        std::set<std::pair<std::size_t, std::size_t>> expected, found;
        for (std::size_t i = 0; i < lits.size(); ++i) {
            if (lits[i].empty())
                continue;
            for (auto p = t.find(lits[i]); p != std::string::npos; p = t.find(lits[i], p + 1))
                expected.insert({i, p + lits[i].size()});
        }
        const LiteralSet set(lits);
        set.scan(text.toStdString(), [&](std::uint32_t lit, std::size_t end) { found.insert({lit, end}); });
        QCOMPARE(found, expected);
        QCOMPARE(set.any(text.toStdString()), !expected.empty());
    }

    void entriesBecomeRules()
    {
        const auto rules = DiagnosisRules::fromSources({{"test.json", catalogue(kIsaEntry)}});
        const auto* r = rules.find("HSA_INVALID_ISA");
        QVERIFY(r);
        QCOMPARE(r->severity, Severity::Error); // from the defaults
        QCOMPARE(r->catalogue, std::string("test"));
        QCOMPARE(r->families, std::vector<std::string>{"HSA_STATUS_ERROR"});
        QCOMPARE(r->sources, (std::vector<std::string> {"https://example.org/isa", "https://example.org/catalogue"}));
        QCOMPARE(rules.catalogueCodes().size(), std::size_t(1));
        QVERIFY(rules.names("HSA_INVALID_ISA", "HSA_STATUS_ERROR"));
        QVERIFY(!rules.names("HSA_INVALID_ISA", "HSA_STATUS"));
    }

    void codesMatchWholeIdentifiers_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<bool>("raised");
        QTest::newRow("the code") << "hipModuleLoad failed: HSA_STATUS_ERROR_INVALID_ISA (0x100f)" << true;
        QTest::newRow("code at line end") << "status = HSA_STATUS_ERROR_INVALID_ISA" << true;
        QTest::newRow("longer code") << "HSA_STATUS_ERROR_INVALID_ISA_NAME: the name is invalid" << false;
        QTest::newRow("inside an identifier") << "MY_HSA_STATUS_ERROR_INVALID_ISA" << false;
        QTest::newRow("message wrapped") << "error: The instruction set\narchitecture is invalid." << true;
        // An issue title or a sentence capitalises a message's first letter: only that letter may differ.
        QTest::newRow("message, first letter in other case") << "the instruction set architecture is invalid." << true;
        QTest::newRow("message, other letters in other case") << "The Instruction Set architecture is invalid." << false;
        // Retyped in lower case throughout (titles, chat): the whole text, at least kLowerCaseMinLength characters.
        QTest::newRow("message all lower case") << "issue: the instruction set architecture is invalid. on gfx1100" << true;
        QTest::newRow("message all lower case, cut short of kCutMinLength") << "the instruction set architect" << false;
        // Cut at a line end (an issue title), at least kCutMinLength characters of it: SignatureIndex::kCutMinLength.
        QTest::newRow("message cut at the line end") << "HSA error: The instruction set architecture is" << true;
        QTest::newRow("message cut, all lower case") << "the instruction set architecture is" << true;
        QTest::newRow("message cut, an ellipsis") << "The instruction set architecture is inv...\nnext line" << true;
        QTest::newRow("message cut, then other words") << "The instruction set architecture is fine here" << false;
        QTest::newRow("message cut across a line break") << "The instruction set\narchitecture is" << false;
        QTest::newRow("message all upper case") << "THE INSTRUCTION SET ARCHITECTURE IS INVALID." << false;
        QTest::newRow("message lower case, one capital") << "the instruction Set architecture is invalid." << false;
    }
    void codesMatchWholeIdentifiers()
    {
        QFETCH(QString, log);
        QFETCH(bool, raised);
        QCOMPARE(raises(kIsaEntry, log), raised);
    }

    // Quotes and backticks read as spaces: Markdown eats backticks in pairs and people retype messages without
    // them; a quote that closes a message still ends a word there.
    void quotesReadAsWordBreaks_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<bool>("raised");
        QTest::newRow("as printed") << "ImportError: /lib/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by x.so)" << true;
        QTest::newRow("backtick eaten") << "ImportError: /lib/libstdc++.so.6: version GLIBCXX_3.4.29' not found" << true;
        QTest::newRow("no quotes") << "version GLIBCXX_3.4.29 not found" << true;
        QTest::newRow("double quotes") << "version \"GLIBCXX_3.4.29\" not found" << true;
        QTest::newRow("other symbol version") << "version `GLIBCXX_3.4.290' not found" << false;
        QTest::newRow("closing quote ends a word") << "No module named 'flash_attn'" << true;
        QTest::newRow("closing quote at the line end, next line") << "No module named flash_attn\nTraceback" << true;
        QTest::newRow("a longer name") << "No module named 'flash_attn_2_cuda'" << false;
    }
    void quotesReadAsWordBreaks()
    {
        QFETCH(QString, log);
        QFETCH(bool, raised);
        QCOMPARE(raises(
            "{\"id\": \"GLIBCXX\", \"title\": \"t\", \"cause\": \"c\", \"fixes\": [{\"text\": \"f\"}],\n"
            "    \"messages\": [\"version `GLIBCXX_3.4.29' not found\", \"No module named 'flash_attn'\"]}", log), raised);
    }

    // Patterns read quotes as any quote or none, and a line retyped all in lower case ignoring case
    // (SignatureIndex::isRetypedLowerCase), as exact texts do.
    void patternsToleratePastedForms_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<bool>("raised");
        QTest::newRow("as printed") << "nvcc fatal : Unsupported gpu architecture 'compute_89'" << true;
        QTest::newRow("quotes eaten") << "nvcc fatal : Unsupported gpu architecture compute_89" << true;
        QTest::newRow("double quotes") << "nvcc fatal : Unsupported gpu architecture \"compute_89\"" << true;
        QTest::newRow("line retyped in lower case") << "nvcc fatal : unsupported gpu architecture 'compute_89'" << true;
        QTest::newRow("other case, line not all lower case") << "Nvcc fatal : unsupported gpu architecture 'compute_89'" << false;
        QTest::newRow("not an architecture") << "nvcc fatal : unsupported gpu architecture compute_xy" << false;
    }
    void patternsToleratePastedForms()
    {
        QFETCH(QString, log);
        QFETCH(bool, raised);
        QCOMPARE(raises(
            "{\"id\": \"ARCH\", \"title\": \"t\", \"cause\": \"c\", \"fixes\": [{\"text\": \"f\"}],\n"
            "    \"patterns\": [{\"pattern\": \"Unsupported gpu architecture 'compute_\\\\d+'\", \"anchor\": \"Unsupported gpu architecture '\"}]}", log), raised);
    }

    void genericEntriesRankBelowSpecificOnes()
    {
        const auto rules = DiagnosisRules::fromSources({{"test.json", catalogue("\n"
"            {\"id\": \"WRAPPER\", \"title\": \"t\", \"cause\": \"c\", \"fixes\": [{\"text\": \"f\"}], \"codes\": [\"ncclSystemError\"], \"generic\": true},\n"
"            {\"id\": \"SPECIFIC\", \"title\": \"t\", \"cause\": \"c\", \"fixes\": [{\"text\": \"f\"}], \"messages\": [\"no socket interface found\"]}")}});
        DiagnosisInput in;
        in.logs.push_back({"log", "ncclSystemError: System call failed\nNCCL WARN Bootstrap : no socket interface found"});
        QCOMPARE(ids(diagnose(in, rules)), (std::vector<std::string> {"SPECIFIC", "WRAPPER"}));
    }

    // A program that prints the vocabulary behind its own prefix (Triton: "Triton Error [CUDA]: " + cuGetErrorString):
    // the wrapped message raises the same entry, and the entry cites the wrapper's source.
    void wrappersMatchWrappedMessages_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<bool>("raised");
        QTest::newRow("as the library prints it") << "RuntimeError: CUDA error: an illegal memory access was encountered" << true;
        QTest::newRow("as the wrapper prints it") << "RuntimeError: Triton Error [CUDA]: an illegal memory access was encountered" << true;
        QTest::newRow("the driver API's form, wrapped") << "Triton Error [CUDA]: an illegal memory access was encountered" << true;
        QTest::newRow("another wrapper") << "Other Error [CUDA]: an illegal memory access was encountered" << false;
    }
    void wrappersMatchWrappedMessages()
    {
        QFETCH(QString, log);
        QFETCH(bool, raised);
        const auto rules = DiagnosisRules::fromSources({{"test.json", catalogue(
            "{\"id\": \"ILLEGAL\", \"title\": \"t\", \"cause\": \"c\", \"fixes\": [{\"text\": \"f\"}], \"messages\": "
            "[\"CUDA error: an illegal memory access was encountered\", \"CUDA driver error: an illegal memory access was encountered\"]}",
            ", \"wrappers\": [{\"prefixes\": [\"CUDA error: \", \"CUDA driver error: \"], \"as\": \"Triton Error [CUDA]: \", "
            "\"source\": \"https://example.org/driver.c\"}]")}});
        const auto* r = rules.find("ILLEGAL");
        QVERIFY(r);
        QCOMPARE(r->sources, (std::vector<std::string> {"https://example.org/driver.c", "https://example.org/catalogue"}));
        DiagnosisInput in;
        in.logs.push_back({"log", log.toStdString()});
        QCOMPARE(!diagnose(in, rules).empty(), raised);
    }

    void badCataloguesAreRefused_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("unknown top key") << QString::fromStdString(catalogue(kIsaEntry, ", \"extra\": 1")) << "key 'extra'";
        QTest::newRow("entry without text") << QString::fromStdString(catalogue(
            "{\"id\": \"X_Y\", \"title\": \"t\", \"cause\": \"c\", \"fixes\": [{\"text\": \"f\"}]}")) << "at least one of codes";
        QTest::newRow("code with a space") << QString::fromStdString(catalogue(
            "{\"id\": \"X_Y\", \"title\": \"t\", \"cause\": \"c\", \"fixes\": [{\"text\": \"f\"}], \"codes\": [\"bad code\"]}")) << "not an identifier";
        QTest::newRow("unknown entry key") << QString::fromStdString(catalogue(
            "{\"id\": \"X_Y\", \"title\": \"t\", \"cause\": \"c\", \"fixes\": [{\"text\": \"f\"}], \"codes\": [\"GOOD_CODE\"], \"colour\": 1}")) << "'X_Y'";
        QTest::newRow("covered by no rule") << QString::fromStdString(catalogue(kIsaEntry, ", \"covered_by\": {\"hipErrorX\": \"NOPE\"}"))
                                            << "'NOPE'";
        QTest::newRow("local source") << QString::fromStdString(catalogue(
            "{\"id\": \"X_Y\", \"title\": \"t\", \"cause\": \"c\", \"fixes\": [{\"text\": \"f\"}], \"codes\": [\"GOOD_CODE\"], \"sources\": [\"/usr/include/x.h\"]}"))
                                      << "public http(s) URL";
        QTest::newRow("wrapper without a source") << QString::fromStdString(catalogue(kIsaEntry,
            ", \"wrappers\": [{\"prefixes\": [\"The \"], \"as\": \"Wrapped: \"}]")) << "wrappers[0]";
    }
    void badCataloguesAreRefused()
    {
        QFETCH(QString, text);
        QFETCH(QString, mentions);
        try {
            DiagnosisRules::fromSources({{"bad.json", text.toStdString()}});
            QFAIL("a bad catalogue was accepted");
        } catch (const DiagnosisRulesError& e) {
            QVERIFY2(QString(e.what()).contains(mentions), e.what());
            QVERIFY2(QString(e.what()).contains("bad.json"), e.what());
        }
    }

    void idsAreUniqueAcrossFiles()
    {
        try {
            DiagnosisRules::fromSources({{"a.json", catalogue(kIsaEntry)}, {"b.json", catalogue(kIsaEntry)}});
            QFAIL("a duplicate id across files was accepted");
        } catch (const DiagnosisRulesError& e) {
            QVERIFY2(QString(e.what()).contains("used twice (first in a.json)"), e.what());
        }
    }

    // The release notes' table: 12.8 needs 570.26, or branch 525 with minor-version compatibility.
    void cudaDriverOlderThanTorch_data()
    {
        QTest::addColumn<QString>("torchCuda");
        QTest::addColumn<QString>("driver");
        QTest::addColumn<bool>("tooOld");
        QTest::addColumn<bool>("torchFoundGpu"); // forward compatibility: the runtime initialised anyway
        QTest::newRow("470 for 12.8") << "12.8" << "470.57.02" << true << false;
        QTest::newRow("550 for 12.8 (minor compat)") << "12.8" << "550.54.14" << false << false;
        QTest::newRow("580 for 13.0") << "13.0" << "580.159.04" << false << false;
        QTest::newRow("575 for 13.0") << "13.0" << "575.57.08" << true << false;
        QTest::newRow("patch in torch's version") << "11.8.89" << "450.80.02" << false << false;
        QTest::newRow("toolkit the table lacks") << "14.1" << "300.1" << false << false;
        QTest::newRow("driver unknown") << "12.8" << "" << false << false;
        QTest::newRow("515 for 12.0, the runtime initialised (NGC's cuda-compat)") << "12.0" << "515.65.01" << false << true;
        QTest::newRow("515 for 12.0, not known to work") << "12.0" << "515.65.01" << true << false;
    }
    void cudaDriverOlderThanTorch()
    {
        QFETCH(QString, torchCuda);
        QFETCH(QString, driver);
        QFETCH(bool, tooOld);
        QFETCH(bool, torchFoundGpu);
        Snapshot s;
        if (torchFoundGpu)
            s.hostExtras.torchFoundGpu = "Is CUDA available: True";
        s.torch.backend = "cuda";
        s.torch.builtWith = torchCuda.toStdString();
        if (!driver.isEmpty())
            s.cuda.driverVersion = driver.toStdString();
        QCOMPARE(stackscope::cudaDriverOlderThanTorch(s).has_value(), tooOld);
    }

    void gpusHiddenByEnvironment_data()
    {
        QTest::addColumn<QString>("variable");
        QTest::addColumn<QString>("value");
        QTest::addColumn<int>("torchSees"); // -1: unknown; -2: a CPU-only torch (sees 0)
        QTest::addColumn<bool>("hidden");
        QTest::newRow("empty") << "CUDA_VISIBLE_DEVICES" << "" << -1 << true;
        QTest::newRow("index past the last GPU") << "CUDA_VISIBLE_DEVICES" << "7" << -1 << true;
        QTest::newRow("-1") << "CUDA_VISIBLE_DEVICES" << "-1" << -1 << true;
        QTest::newRow("bogus UUID, torch sees none") << "CUDA_VISIBLE_DEVICES" << "GPU-0000-bogus" << 0 << true;
        QTest::newRow("bogus UUID, torch unknown") << "CUDA_VISIBLE_DEVICES" << "GPU-0000-bogus" << -1 << false;
        QTest::newRow("a GPU that exists") << "CUDA_VISIBLE_DEVICES" << "1" << 1 << false;
        QTest::newRow("HIP variable on an NVIDIA box") << "HIP_VISIBLE_DEVICES" << "" << 2 << false;
        QTest::newRow("CPU libtorch sees none, GPU exists") << "CUDA_VISIBLE_DEVICES" << "0" << -2 << false;
    }
    void gpusHiddenByEnvironment()
    {
        QFETCH(QString, variable);
        QFETCH(QString, value);
        QFETCH(int, torchSees);
        QFETCH(bool, hidden);
        Snapshot s;
        for (int i = 0; i < 2; ++i) {
            GpuInfo g;
            g.index = i;
            g.vendor = "nvidia";
            s.gpus.push_back(g);
        }
        s.env[variable.toStdString()] = value.toStdString();
        s.torch.backend = torchSees == -2 ? "cpu" : "cuda";
        if (torchSees >= 0 || torchSees == -2)
            s.torch.deviceCount = std::max(torchSees, 0);
        QCOMPARE(stackscope::gpusHiddenByEnvironment(s).has_value(), hidden);
    }

    // ROCR_VISIBLE_DEVICES first, then HIP_VISIBLE_DEVICES / CUDA_VISIBLE_DEVICES index what it left: no GPU list needed.
    void stackedRocmMasks_data()
    {
        QTest::addColumn<QString>("rocr");
        QTest::addColumn<QString>("hip");
        QTest::addColumn<QString>("cuda");
        QTest::addColumn<QString>("gpuVendor"); // "" = no GPU list (a pasted log)
        QTest::addColumn<bool>("hidden");
        QTest::newRow("ROCR 1, HIP 1") << "1" << "1" << "" << "" << true;
        QTest::newRow("ROCR 1, HIP 0") << "1" << "0" << "" << "" << false;
        QTest::newRow("ROCR 0,1, HIP 1") << "0,1" << "1" << "" << "" << false;
        QTest::newRow("ROCR 0,1, HIP 2") << "0,1" << "2" << "" << "" << true;
        QTest::newRow("ROCR 2, CUDA 1") << "2" << "" << "1" << "" << true;
        QTest::newRow("ROCR 2, CUDA 0") << "2" << "" << "0" << "" << false;
        QTest::newRow("ROCR only") << "1" << "" << "" << "" << false;
        QTest::newRow("HIP 1 without ROCR, no GPU list") << "" << "1" << "" << "" << false;
        QTest::newRow("ROCR 1, HIP 1, AMD GPUs") << "1" << "1" << "" << "amd" << true;
        QTest::newRow("ROCR 1, CUDA 1, NVIDIA GPUs only") << "1" << "" << "1" << "nvidia" << false;
    }
    void stackedRocmMasks()
    {
        QFETCH(QString, rocr);
        QFETCH(QString, hip);
        QFETCH(QString, cuda);
        QFETCH(QString, gpuVendor);
        QFETCH(bool, hidden);
        Snapshot s;
        if (!gpuVendor.isEmpty()) {
            for (int i = 0; i < 4; ++i) {
                GpuInfo g;
                g.index = i;
                g.vendor = gpuVendor.toStdString();
                s.gpus.push_back(g);
            }
        }
        if (!rocr.isEmpty())
            s.env["ROCR_VISIBLE_DEVICES"] = rocr.toStdString();
        if (!hip.isEmpty())
            s.env["HIP_VISIBLE_DEVICES"] = hip.toStdString();
        if (!cuda.isEmpty())
            s.env["CUDA_VISIBLE_DEVICES"] = cuda.toStdString();
        QCOMPARE(stackscope::gpusHiddenByEnvironment(s).has_value(), hidden);
    }

    // The built-in vocabulary: every code names a rule (checked at load), no code is listed twice in a catalogue, and
    // every catalogue brings entries.
    void builtInCataloguesAreWhole()
    {
        const auto& rules = DiagnosisRules::builtIn();
        std::set<std::string> catalogues;
        for (const auto& r : rules.rules())
            if (!r.catalogue.empty())
                catalogues.insert(r.catalogue);
        QVERIFY2(catalogues.size() == builtInCatalogues().size(), "a catalogue file without entries");
        std::set<std::pair<std::string, std::string>> seen;
        for (const auto& c : rules.catalogueCodes()) {
            QVERIFY2(seen.insert({c.catalogue, c.code}).second, (c.catalogue + ": " + c.code + " listed twice").c_str());
            QVERIFY(rules.find(c.ruleId));
        }
    }
};

QTEST_GUILESS_MAIN(TestDiagnosisCatalogue)
#include "tst_diagnosis_catalogue.moc"
