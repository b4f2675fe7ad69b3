// Every rule against recorded texts: tests/fixtures/diagnosis/logs/<RULE>/match-*.log must raise the rule,
// nearmiss-*.log must not; snapshots/<RULE>/ the same for snapshot-only rules; symptoms/<RULE>/guess-*.txt must make
// the rule the first finding as a low-confidence guess from words.
#include "core/diagnosis/diagnosis.h"
#include "core/diagnosis/log_facts.h"
#include "core/snapshot/snapshot_json.h"

#include <QtTest>

using namespace stackscope;

namespace {

const QString kRoot = QStringLiteral(STACKSCOPE_TEST_FIXTURES "/diagnosis");

QStringList fixtureFiles(const QString& kind, const QString& rule, const QString& prefix)
{
    return QDir(kRoot + "/" + kind + "/" + rule).entryList({prefix + "*"}, QDir::Files, QDir::Name);
}

std::string readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

const Finding* findingFor(const std::vector<Finding>& findings, const QString& rule)
{
    for (const auto& f : findings) {
        if (QString::fromStdString(f.id) == rule)
            return &f;
    }
    return nullptr;
}

// Diagnosed as a pasted log is: with the facts the text states as its snapshot (issue 22).
std::vector<Finding> diagnoseAsPasted(const std::string& text, const QString& path)
{
    const LogFacts facts = extractLogFacts(NormalizedText(text));
    DiagnosisInput in;
    in.snapshot = &facts.snapshot;
    in.logs.push_back({path.toStdString(), text});
    return diagnose(in);
}

void addRows(const QString& kind, const QString& matchPrefix = QStringLiteral("match"))
{
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("mustMatch");
    for (const auto& rule : QDir(kRoot + "/" + kind).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        for (const auto& file : fixtureFiles(kind, rule, "")) {
            const QString path = kRoot + "/" + kind + "/" + rule + "/" + file;
            if (file.endsWith(".md"))
                continue;
            QTest::newRow(qPrintable(rule + "/" + file)) << rule << path << file.startsWith(matchPrefix);
        }
    }
}

} // namespace

class TestRuleFixtures : public QObject {
    Q_OBJECT
private:
    // The current row's fixture diagnosed as a pasted log: a near-miss must raise nothing (f stays null), a match
    // must raise its rule (f is that finding).
    void diagnoseRow(std::vector<Finding>& findings, const Finding*& f)
    {
        QFETCH(QString, rule);
        QFETCH(QString, path);
        QFETCH(bool, mustMatch);
        const std::string text = readAll(path);
        QVERIFY2(!text.empty(), qPrintable("cannot read " + path));
        findings = diagnoseAsPasted(text, path);
        const auto* found = findingFor(findings, rule);
        if (!mustMatch) {
            QVERIFY2(!found, qPrintable("near-miss raised " + rule + ": " +
                                        QString::fromStdString(found ? found->evidence[0].text : "")));
            return;
        }
        QVERIFY2(found, qPrintable(rule + " not raised by " + path));
        f = found;
    }

private Q_SLOTS:
    void logs_data() { addRows("logs"); }
    void logs()
    {
        std::vector<Finding> findings;
        const Finding* f = nullptr;
        diagnoseRow(findings, f);
        if (!f)
            return; // a near-miss (checked), or the failure is reported
        QVERIFY(!f->evidence.empty());
        QVERIFY(std::any_of(f->evidence.begin(), f->evidence.end(), [](const auto& e) { return e.source == "log"; }));
        for (const auto& e : f->evidence) {
            if (e.source == "snapshot")
                continue; // a fact the text states (WSL, GPUs ...)
            QCOMPARE(QString::fromStdString(e.source), QString("log"));
            QVERIFY(e.line && *e.line >= 1);
            QVERIFY(!e.text.empty());
            // Evidence shows the text without colour codes.
            QVERIFY(e.text.find('\x1b') == std::string::npos);
        }
    }

    // Catalogue entries (resources/rules/catalogues): each recorded text raises its entry as the first claim (the
    // cause a user reads first), a near-miss never raises it.
    void catalogueLogs_data() { addRows("catalogue-logs"); }
    void catalogueLogs()
    {
        std::vector<Finding> findings;
        const Finding* f = nullptr;
        diagnoseRow(findings, f);
        if (!f)
            return; // a near-miss (checked), or the failure is reported
        // Above it may stand only a hand-written rule (it reads facts a catalogue entry cannot) or an entry whose cause
        // explains this one's message.
        for (const auto* g = &findings.front(); g != f; ++g) {
            const bool handWritten = DiagnosisRules::builtIn().find(g->id)->catalogue.empty();
            const bool explains = std::find(g->explains.begin(), g->explains.end(), f->id) != g->explains.end();
            QVERIFY2(handWritten || explains, qPrintable(QString::fromStdString(f->id) + " raised, but " + QString::fromStdString(g->id) + " ranks above it ("
                                                         + QString::fromStdString(g->rankNote) + ")"));
        }
    }

    // Descriptions with no message of the stack (symptom words): the guess is the first finding, a warning at most,
    // of low confidence, and says it is a guess from words; a near-miss never raises the rule.
    void symptoms_data() { addRows("symptoms", "guess"); }
    void symptoms()
    {
        std::vector<Finding> findings;
        const Finding* f = nullptr;
        diagnoseRow(findings, f);
        if (!f)
            return;
        QCOMPARE(QString::fromStdString(findings.front().id), QString::fromStdString(f->id));
        QVERIFY(f->severity <= Severity::Warning);
        QCOMPARE(f->confidence, Confidence::Low);
        QVERIFY2(f->rankNote.find("a guess from the words of line") != std::string::npos, f->rankNote.c_str());
        QVERIFY(QString::fromStdString(f->evidence.at(0).signature).startsWith("words: "));
    }

    // Every rule that has symptom words has a real description that shows them working.
    void symptomsCovered()
    {
        for (const auto& rule : DiagnosisRules::builtIn().rules()) {
            if (rule.symptoms.empty())
                continue;
            const QString id = QString::fromStdString(rule.id);
            QVERIFY2(!fixtureFiles("symptoms", id, "guess").isEmpty(),
                     qPrintable(id + " has symptom words but no tests/fixtures/diagnosis/symptoms/" + id + "/guess-*.txt"));
        }
    }

    void snapshots_data() { addRows("snapshots"); }
    void snapshots()
    {
        QFETCH(QString, rule);
        QFETCH(QString, path);
        QFETCH(bool, mustMatch);
        const Snapshot s = loadSnapshotFile(path.toStdString());
        DiagnosisInput in;
        in.snapshot = &s;
        const auto findings = diagnose(in);
        const auto* f = findingFor(findings, rule);
        QCOMPARE(f != nullptr, mustMatch);
        if (f) {
            QCOMPARE(QString::fromStdString(f->evidence.at(0).source), QString("snapshot"));
            QVERIFY(!f->evidence[0].text.empty());
        }
    }

    // Each detectable rule has at least two recorded texts that must match and one near-miss.
    void everyRuleHasFixtures()
    {
        for (const auto& r : DiagnosisRules::builtIn().rules()) {
            const QString id = QString::fromStdString(r.id);
            if (r.manualOnly) {
                QVERIFY2(fixtureFiles("logs", id, "match").isEmpty(), qPrintable(id + " is manual but has match fixtures"));
                continue;
            }
            if (!r.catalogue.empty()) {
                QVERIFY2(fixtureFiles("catalogue-logs", id, "match").size() >= 1,
                         qPrintable(id + " (catalogue " + QString::fromStdString(r.catalogue) + "): no text that must match"));
                continue;
            }
            const QString kind = r.signatures.empty() ? "snapshots" : "logs";
            QVERIFY2(fixtureFiles(kind, id, "match").size() >= 2, qPrintable(id + ": fewer than two " + kind + " that must match"));
            QVERIFY2(fixtureFiles(kind, id, "nearmiss").size() >= 1, qPrintable(id + ": no near-miss " + kind));
        }
    }

    void fixtureFoldersNameRules()
    {
        for (const QString kind : {"logs", "snapshots", "catalogue-logs"}) {
            for (const auto& dir : QDir(kRoot + "/" + kind).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
                QVERIFY2(DiagnosisRules::builtIn().find(dir.toStdString()), qPrintable(kind + "/" + dir + " names no rule"));
        }
    }

    void skewNotRaisedFromVersionsAlone()
    {
        // KMD_USERSPACE_SKEW is raised by the runtime's own message only, never by version numbers alone.
        DiagnosisInput in;
        in.logs.push_back({"x", "amdgpu version 6.8.5 ROCm 6.0.0 mismatched amdgpu driver /opt/rocm/.info/version"});
        for (const auto& f : diagnose(in))
            QVERIFY(f.id != "KMD_USERSPACE_SKEW");
    }
};

QTEST_GUILESS_MAIN(TestRuleFixtures)
#include "tst_rule_fixtures.moc"
