// Compare's sides read and diagnosed as an opened report is on the System page (ReportReplay, SessionLogModel).
#include "ui/report/compare_sides.h"

#include "core/inspect/system_checks.h"
#include "core/probes/probe_document.h"
#include "core/probes/probe_variants.h"
#include "core/report/report_loader.h"

#include <new>
#include <tuple>

namespace stackscope::ui {

namespace {

// The report's logs as the Report page lists them once it is opened: each non-empty one, under its origin.
std::vector<ReadLogText> logsOf(const report::LoadedReport& loaded)
{
    std::vector<ReadLogText> out;
    for (const auto& log : loaded.logs) {
        std::string text;
        for (const auto& line : log.lines)
            text += line + '\n';
        if (text.find_first_not_of(" \t\r\n") != std::string::npos)
            out.push_back(readLogText(text, log.origin));
    }
    return out;
}

SideInputs inputsOf(const CompareInput& in)
{
    if (in.machine)
        return {*in.machine, {}, {}};
    return readSideInputs(in.path.toStdString());
}

} // namespace

SideInputs readSideInputs(const std::string& path)
{
    auto loaded = report::loadReport(path);
    SideInputs in;
    in.probes = probeOutcomes(probeRecordsFromDocument(loaded.report.value("probes", nlohmann::json())));
    in.logs = logsOf(loaded);
    in.snapshot = std::move(loaded.snapshot);
    return in;
}

// The snapshot's checks made again by this version (a file's were made by the version that wrote it), then the one
// diagnosis with the logs and probe results.
CompareSide diagnoseSide(SideInputs inputs)
{
    CompareSide side;
    side.snapshot = std::move(inputs.snapshot);
    side.snapshot.findings.clear();
    addSystemFindings(side.snapshot);
    MachineDiagnosisInput input;
    input.snapshot = &side.snapshot;
    input.logs = std::move(inputs.logs);
    input.probes = std::move(inputs.probes);
    side.diagnosis = diagnoseMachine(input);
    return side;
}

CompareResult compareSides(const CompareInput& a, const CompareInput& b, const CancelToken& cancel)
{
    CompareResult result;
    for (auto [name, in, out] : {std::tuple {"A", &a, &result.a}, std::tuple {"B", &b, &result.b}}) {
        if (cancel.isCancelled()) {
            result.cancelled = true;
            return result;
        }
        SideInputs inputs;
        try {
            inputs = inputsOf(*in);
        } catch (const Error& e) {
            result.errorKind = e.kind();
            result.error = QString::fromUtf8(e.what());
        } catch (const std::bad_alloc& e) {
            result.errorKind = ErrorKind::Failed;
            result.error = QString::fromUtf8(e.what());
        } catch (const std::exception& e) {
            // The probe records' reader and the like throw plain exceptions for a damaged document: the file's fault.
            result.errorKind = ErrorKind::Input;
            result.error = QString::fromUtf8(e.what());
        }
        if (result.error.isEmpty()) {
            try {
                *out = diagnoseSide(std::move(inputs));
            } catch (const std::exception& e) {
                // The file was read: a failure here is StackScope's (a built-in rule or check that does not load).
                result.errorKind = ErrorKind::Failed;
                result.failedDiagnosing = true;
                result.error = QString::fromUtf8(e.what());
            }
        }
        if (!result.error.isEmpty()) {
            result.failedSide = QString::fromLatin1(name);
            result.failedPath = in->path;
            return result;
        }
    }
    result.rows = report::diffSnapshots(result.a.snapshot, result.b.snapshot);
    return result;
}

} // namespace stackscope::ui
