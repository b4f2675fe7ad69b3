// `stackscope-cli bench vpoc-e2e`: the whole vpoc job (read, sessions, profiles) per thread count and backend, and DuckDB's.
#include "app/cli/command.h"
#include "app/cli/vpoc_flags.h"

#include "core/util/atomic_file.h"
#include "core/util/temp_folder.h"
#include "core/vpoc/duckdb_baseline.h"
#include "core/vpoc/sample_data.h"
#include "core/vpoc/sessions.h"
#include "core/vpoc/vpoc_engine.h"
#include "core/util/task_runner.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <thread>
#include <unistd.h>

namespace stackscope::cli {

namespace {

struct E2eOptions {
    std::string input;
    int days = 0;
    std::string threads = "1,2,all";
    std::string backends = "cpu,gpu";
    int repeats = 3;
    vpoc::SessionRule session; // --session, as vpoc reads it
    std::string duckdb;
    bool noDuckdb = false;
    bool json = false;
};

std::vector<std::string> splitList(const std::string& s)
{
    std::vector<std::string> out;
    size_t pos = 0;
    while (pos <= s.size()) {
        const size_t comma = std::min(s.find(',', pos), s.size());
        out.push_back(s.substr(pos, comma - pos));
        pos = comma + 1;
    }
    return out;
}

std::vector<unsigned> threadCounts(const std::string& list)
{
    const unsigned hw = usableThreads();
    std::vector<unsigned> out;
    for (const auto& item : splitList(list)) {
        unsigned v = 0;
        const bool digits = !item.empty() && item.find_first_not_of("0123456789") == std::string::npos;
        const size_t lead = item.find_first_not_of('0');
        if (item == "all")
            v = hw;
        else if (digits && lead != std::string::npos && (item.size() - lead > 9 || std::stoul(item.substr(lead)) > hw)) {
            // More than the machine runs at once would only queue (and tens of thousands abort): capped, and said.
            std::cerr << fmt::format("note: --threads {}: capped at {}, the hardware threads of this machine; give "
                                     "at most {}, or all\n",
                                     item, hw, hw);
            v = hw;
        } else if (digits && lead != std::string::npos)
            v = static_cast<unsigned>(std::stoul(item.substr(lead)));
        if (v == 0)
            throw UsageError(fmt::format("--threads: '{}' is not a thread count; give a list such as 1,2,all", item));
        if (std::find(out.begin(), out.end(), v) == out.end())
            out.push_back(v);
    }
    return out;
}

// The --backends list: cpu and gpu, each once, in the order given.
std::vector<std::string> backendList(const std::string& list)
{
    std::vector<std::string> out;
    for (const auto& item : splitList(list)) {
        if (item != "cpu" && item != "gpu")
            throw UsageError(fmt::format("--backends: '{}' is not a backend; give cpu, gpu or cpu,gpu", item));
        if (std::find(out.begin(), out.end(), item) == out.end())
            out.push_back(item);
    }
    return out;
}

double seconds(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Sessions, POCs and volumes of two runs agree.
bool sameSessions(const vpoc::VpocResult& a, const vpoc::VpocResult& b)
{
    if (a.sessions.size() != b.sessions.size() || a.rows != b.rows)
        return false;
    for (size_t i = 0; i < a.sessions.size(); ++i) {
        const auto &x = a.sessions[i], &y = b.sessions[i];
        if (x.day != y.day || x.pocTick != y.pocTick || x.vahTick != y.vahTick || x.valTick != y.valTick
            || x.volume != y.volume || x.lowTick != y.lowTick || x.highTick != y.highTick)
            return false;
    }
    return true;
}

bool sameAsDuck(const vpoc::VpocResult& a, const std::vector<vpoc::DuckSession>& d)
{
    if (a.sessions.size() != d.size())
        return false;
    for (size_t i = 0; i < d.size(); ++i)
        if (a.sessions[i].day != d[i].day || a.sessions[i].pocTick != d[i].pocTick || a.sessions[i].volume != d[i].volume)
            return false;
    return true;
}

// The input: the given file, or sample trades for --days written to a temporary file removed at the end.
struct BenchInput {
    std::string path;
    bool temporary = false;
    ~BenchInput()
    {
        if (temporary)
            std::remove(path.c_str());
    }
};

void makeInput(const E2eOptions& o, BenchInput& in)
{
    if (!o.input.empty()) {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(o.input, ec))
            throw UsageError(fmt::format("--input {}: no such file (or not a regular file); give a CSV of trades or "
                                         "bars, or --days N",
                                         o.input));
        in.path = o.input;
        return;
    }
    if (o.days <= 0)
        throw UsageError("give --input FILE or --days N (sample trades of N trading days)");
    vpoc::SampleDataOptions so;
    so.days = o.days;
    so.trades = true;
    // std::filesystem::temp_directory_path() would throw a bare filesystem_error (exit 1) on a bad TMPDIR.
    in.path = checkedTemporaryFolder("the benchmark's sample trades") + fmt::format("/stackscope-e2e-{}.csv", ::getpid());
    in.temporary = true;
    writeFileAtomically(in.path, vpoc::generateSampleData(so));
}

// StackScope on every backend x thread count, best of --repeats, taking turns so drift hits each alike.
nlohmann::json timeStackscope(const E2eOptions& o, const std::string& path, double bytes,
                              std::shared_ptr<const vpoc::VpocResult>& reference, CommandContext& ctx)
{
    const auto threads = threadCounts(o.threads);
    const auto backends = backendList(o.backends);
    std::map<std::pair<std::string, unsigned>, double> best;
    std::map<std::string, std::string> failed;
    for (int r = 0; r < o.repeats; ++r)
        for (const auto& backend : backends)
            for (unsigned t : threads) {
                if (failed.count(backend))
                    continue;
                vpoc::VpocOptions v;
                v.input = path;
                v.threads = t;
                v.session = o.session;
                v.backend = backend == "gpu" ? vpoc::Backend::Gpu : vpoc::Backend::Cpu;
                const auto t0 = std::chrono::steady_clock::now();
                std::shared_ptr<const vpoc::VpocResult> res;
                try {
                    res = vpoc::runVpoc(v);
                } catch (const vpoc::InputError&) {
                    throw; // bad input is the user's to fix on every backend
                } catch (const std::runtime_error& e) {
                    if (backend != "gpu")
                        throw;
                    failed[backend] = e.what(); // no GPU here: said in the output, the CPU figures stand
                    continue;
                }
                const double s = seconds(t0);
                auto key = std::make_pair(backend, t);
                best[key] = best.count(key) ? std::min(best[key], s) : s;
                if (!reference)
                    reference = res;
                else if (!sameSessions(*reference, *res))
                    ctx.exitCode = ExitCheckFailed;
            }
    if (!reference) // every backend asked for failed: only the GPU can (bad input throws above)
        throw std::runtime_error(fmt::format("the GPU backend could not run ({}); to time the CPU backend here, run "
                                             "with --backends cpu",
                                             failed.begin()->second));
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& [key, s] : best)
        runs.push_back({{"backend", key.first}, {"threads", key.second}, {"seconds", s}, {"gb_per_s", bytes / s / 1e9}});
    nlohmann::json j = {{"runs", runs}, {"all_match", ctx.exitCode == ExitOk}};
    for (const auto& [backend, why] : failed)
        j["errors"][backend] = why;
    return j;
}

nlohmann::json timeDuckdb(const E2eOptions& o, const std::string& path, double bytes, const vpoc::VpocResult& reference,
                          CommandContext& ctx)
{
    if (reference.format != vpoc::DataFormat::Trades)
        return {{"error", "the DuckDB baseline reads trades (timestamp,price,size); give a trades file"}};
    if (o.session.name != "globex")
        return {{"error", "the DuckDB baseline assigns Globex sessions; run without --session to compare with it"}};
    std::string why;
    auto duck = vpoc::DuckDbBaseline::open(o.duckdb, why);
    if (!duck)
        return {{"error", why}};
    nlohmann::json runs = nlohmann::json::array();
    bool same = true;
    for (unsigned t : threadCounts(o.threads)) {
        double best = 1e300;
        for (int r = 0; r < o.repeats; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            const auto sessions = duck->tradesPoc(path, reference.options.read.tick.value, t);
            best = std::min(best, seconds(t0));
            same = same && sameAsDuck(reference, sessions);
        }
        runs.push_back({{"threads", t}, {"seconds", best}, {"gb_per_s", bytes / best / 1e9}});
    }
    if (!same)
        ctx.exitCode = ExitCheckFailed;
    return {{"version", duck->version()}, {"runs", runs}, {"matches_stackscope", same}};
}

void printText(const nlohmann::json& j)
{
    std::cout << fmt::format("VPOC end to end: {} ({:.3f} GB, {} rows, {} sessions) on {} hardware threads\n",
                             j["input"].get<std::string>(), j["bytes"].get<double>() / 1e9, j["rows"].get<int64_t>(),
                             j["sessions"].get<size_t>(), j["hardware_threads"].get<unsigned>());
    for (const auto& r : j["stackscope"]["runs"])
        std::cout << fmt::format("  stackscope {:<4} {:>3} threads  {:7.3f} s  {:6.3f} GB/s\n",
                                 r["backend"].get<std::string>(), r["threads"].get<unsigned>(),
                                 r["seconds"].get<double>(), r["gb_per_s"].get<double>());
    if (j["stackscope"].contains("errors"))
        std::cout << "  not measured: " << j["stackscope"]["errors"].dump() << "\n";
    if (j["duckdb"].contains("error"))
        std::cout << "  DuckDB not measured: " << j["duckdb"]["error"].get<std::string>() << "\n";
    else
        for (const auto& r : j["duckdb"]["runs"])
            std::cout << fmt::format("  duckdb {:<8} {:>3} threads  {:7.3f} s  {:6.3f} GB/s\n",
                                     j["duckdb"]["version"].get<std::string>(), r["threads"].get<unsigned>(),
                                     r["seconds"].get<double>(), r["gb_per_s"].get<double>());
    std::cout << fmt::format("  results identical across runs: {}; DuckDB's POCs and volumes the same: {}\n",
                             j["stackscope"]["all_match"].get<bool>() ? "yes" : "NO",
                             j["duckdb"].value("matches_stackscope", false) ? "yes" : "no or not measured");
}

void addBenchVpocE2e(CLI::App& bench, CommandContext& ctx)
{
    auto* cmd = bench.add_subcommand("vpoc-e2e", "The whole vpoc job from a file per thread count and backend, and "
                                                 "the same job in DuckDB when libduckdb.so is there");
    auto o = std::make_shared<E2eOptions>();
    cmd->add_option("--input", o->input, "CSV of trades or bars to run on");
    cmd->add_option("--days", o->days, "Or: generate sample trades of this many trading days (60 = 352 MB)")
        ->check(CLI::Range(1, 5000));
    cmd->add_option("--threads", o->threads, "Thread counts, comma-separated ('all' = every hardware thread)");
    cmd->add_option("--backends", o->backends, "cpu, gpu or cpu,gpu");
    auto flags = std::make_shared<VpocFlags>();
    flags->add(cmd, {"session"}); // vpoc's own flag
    cmd->add_option("--repeats", o->repeats, "Timed runs per case (the best is kept)")->check(CLI::Range(1, 100));
    cmd->add_option("--duckdb", o->duckdb, "libduckdb.so to compare with (default $STACKSCOPE_DUCKDB_LIBRARY)");
    cmd->add_flag("--no-duckdb", o->noDuckdb, "No DuckDB baseline");
    cmd->add_flag("--json", o->json, "Print the figures as JSON");
    cmd->callback([o, flags, &ctx] {
        o->session = flags->request().options.session; // before --days writes data
        BenchInput in;
        makeInput(*o, in);
        const double bytes = static_cast<double>(std::filesystem::file_size(in.path));
        std::shared_ptr<const vpoc::VpocResult> reference;
        nlohmann::json j;
        try {
            j["stackscope"] = timeStackscope(*o, in.path, bytes, reference, ctx);
        } catch (const vpoc::InputError& e) {
            throw UsageError(e.what());
        }
        j["input"] = o->input.empty() ? fmt::format("sample-data --days {} --trades", o->days) : o->input;
        j["bytes"] = bytes;
        j["rows"] = reference->rows;
        j["sessions"] = reference->sessions.size();
        j["hardware_threads"] = std::max(1u, std::thread::hardware_concurrency());
        j["duckdb"] = o->noDuckdb ? nlohmann::json {{"error", "--no-duckdb"}} : timeDuckdb(*o, in.path, bytes, *reference, ctx);
        if (o->json)
            std::cout << j.dump(2) << "\n";
        else
            printText(j);
    });
}

const BenchRegistration registration {"vpoc-e2e", 25, &addBenchVpocE2e};

} // namespace

} // namespace stackscope::cli
