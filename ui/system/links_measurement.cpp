#include "ui/system/links_measurement.h"

#include "core/perf/perf_json.h"
#include "core/probes/worker_process.h"
#include "core/util/program_paths.h"
#include "core/util/text_escape.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

namespace stackscope::ui {

namespace {

constexpr std::size_t kKeptBytes = 16u << 20; // a run's JSON is about 40 KiB

// The last line the child wrote to stderr (its "bench bandwidth: ..." message says what to do).
std::string lastLine(const std::string& text)
{
    auto end = text.find_last_not_of("\n\r ");
    if (end == std::string::npos)
        return {};
    const auto start = text.rfind('\n', end);
    return escapeControl(text.substr(start == std::string::npos ? 0 : start + 1, end + 1 - (start == std::string::npos ? 0 : start + 1)));
}

} // namespace

LinksMeasurement measureLinks(const CancelToken& cancel, const std::string& programIn, std::chrono::milliseconds limit)
{
    const std::string program = programIn.empty() ? cliProgram() : programIn;
    worker::ChildProcess child;
    try {
        child = worker::spawnWorker(program, {"bench", "bandwidth", "--json"}, worker::workerEnvironment({}));
    } catch (const std::runtime_error& e) {
        throw MeasureError(fmt::format("the bandwidth suite could not start ({}); build stackscope-cli next to this "
                                       "program or run `stackscope-cli bench bandwidth` yourself",
                                       e.what()));
    }
    const auto t0 = std::chrono::steady_clock::now();
    std::string out, err;
    bool outOpen = true, errOpen = true;
    LinksMeasurement m;
    while (outOpen || errOpen || !worker::exitedNow(child)) {
        if (cancel.isCancelled()) {
            worker::killGroup(child.pid);
            worker::reap(child);
            m.stopped = true;
            return m;
        }
        if (std::chrono::steady_clock::now() - t0 > limit) {
            worker::killGroup(child.pid);
            worker::reap(child);
            throw MeasureError(fmt::format("the bandwidth suite ran past {} minutes and was ended; run `stackscope-cli "
                                           "bench bandwidth` in a terminal to see where it stops",
                                           std::chrono::duration_cast<std::chrono::minutes>(limit).count()));
        }
        if (outOpen || errOpen)
            worker::pollPipes(child, outOpen, errOpen, 100, out, err);
        else
            ::usleep(20000);
        if (out.size() > kKeptBytes || err.size() > kKeptBytes) {
            worker::killGroup(child.pid);
            worker::reap(child);
            throw MeasureError("the bandwidth suite wrote more than 16 MiB, which no run does; run `stackscope-cli "
                               "bench bandwidth --json` in a terminal and report what it prints");
        }
    }
    const int status = worker::reap(child);
    m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto doc = nlohmann::json::parse(out, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        const std::string how = WIFSIGNALED(status) ? fmt::format("ended by signal {}", WTERMSIG(status))
                                                    : fmt::format("exit code {}", WEXITSTATUS(status));
        const std::string said = lastLine(err);
        throw MeasureError(fmt::format("the bandwidth suite gave no run ({}){}", how,
                                       said.empty() ? std::string("; run `stackscope-cli bench bandwidth` to see why")
                                                    : ": " + said));
    }
    try {
        m.run = perf::suiteRunFromJson(doc);
    } catch (const perf::PerfJsonError& e) {
        throw MeasureError(fmt::format("the bandwidth suite's answer could not be read ({}); stackscope-cli and this "
                                       "program are from different builds: reinstall StackScope",
                                       e.what()));
    }
    return m;
}

} // namespace stackscope::ui
