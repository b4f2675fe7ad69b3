// A corpus of real bug reports (tests/fixtures/reports): loading, and scoring a diagnosis against the
// cause each thread established (top-1 / top-3 accuracy, error findings on healthy texts, per family).
#pragma once

#include "core/util/error.h"

#include "core/diagnosis/diagnosis.h"

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace stackscope {

struct CorpusReport {
    std::string name; // the folder name, "01_igpu_rx6600_ryzen3400g"
    std::string text; // report.txt
    std::string url;
    std::string family;
    std::string vendor; // "nvidia" | "amd" | "any"; empty in the folders from before issue 32
    std::optional<std::string> expectedRule; // null: healthy, or a cause no rule should claim; kCauseOutsideRules
    // An OTHER thread's label under ids added to the vocabulary after the folder was frozen (later-labels.tsv),
    // given blind by someone who did not read the rules; expectedRule stays the label of record.
    std::optional<std::string> laterRule;
};

// expected_rule "OTHER": the thread established a cause that no id of tests/fixtures/diagnosis/cause-ids.md names.
// Scored like null (right when nothing is claimed), so a wrong claim counts against the rules.
inline constexpr const char* kCauseOutsideRules = "OTHER";

// A corpus folder that cannot be used; what() names the file (and line:column for JSON).
class CorpusError : public Error {
public:
    explicit CorpusError(const std::string& what)
        : Error(what, ErrorKind::Input)
    {
    }
};

// Every NN_name/{report.txt, expected.json} under `dir`, sorted by name. Throws CorpusError.
std::vector<CorpusReport> loadReportCorpus(const std::string& dir);

// later-labels.tsv: "<corpus folder name>/<thread dir>\t<ID or OTHER>\t<reason>" lines, '#' comments. Sets laterRule
// of the reports of `corpusDir` it names. Throws CorpusError for a malformed line, or a line naming a thread of this
// corpus whose frozen label is not OTHER (the file relabels OTHER threads only).
void applyLaterLabels(std::vector<CorpusReport>& reports, const std::string& corpusDir, const std::string& labelsFile);

struct ReportScore {
    std::string name;
    std::string family;
    std::optional<std::string> expectedRule;
    std::vector<std::string> ranked; // rule ids of all findings, best first
    bool top1 = false;
    bool top3 = false;
    int errorFindings = 0; // findings of severity error
    std::optional<std::string> laterRule;
    bool top1Later = false; // top1 under the later label where one is given, else top1
};

struct FamilyScore {
    int reports = 0;
    int top1 = 0;
    int top3 = 0;
};

struct CorpusScore {
    std::vector<ReportScore> reports;
    std::map<std::string, FamilyScore> families;
    int scored = 0;        // reports with an expected rule or null expectation (all of them)
    int top1 = 0;
    int top3 = 0;
    int top1Later = 0;     // top-1 with later-labels.tsv's labels for the OTHER threads it relabels
    int relabelled = 0;    // reports with a later label other than OTHER
    int healthy = 0;       // family "healthy"
    int healthyErrors = 0; // error findings on healthy texts (goal: 0)
};

// The claims of a diagnosis, best first: findings of severity warning or error. Informational
// findings explain and never count as naming the cause.
std::vector<std::string> rankedClaims(const std::vector<Finding>& findings);

// Scores one report: with an expected rule, top-1 is "the first finding names it" (its id, or a member of that
// family: DiagnosisRules::names), top-3 "among the first three" (findings are ranked errors, warnings, then
// informational); with none expected (or OTHER), both mean "no claim at all" (an honest "no known cause";
// informational findings may remain).
ReportScore scoreReport(const CorpusReport& report, const std::vector<Finding>& findings, const DiagnosisRules& rules);

using ReportDiagnoser = std::function<std::vector<Finding>(const CorpusReport&)>;
CorpusScore scoreCorpus(const std::vector<CorpusReport>& reports, const ReportDiagnoser& diagnoseOne,
                        const DiagnosisRules& rules);

nlohmann::json corpusScoreToJson(const CorpusScore& score);

} // namespace stackscope
