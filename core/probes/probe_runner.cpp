// The probe runner: spawns stackscope-cli probe-worker per (device, variant), reads its JSON lines,
// kills a probe past its timeout, names the signal of a crash and restarts the worker for the rest.
#include "core/probes/probe_runner.h"

#include "core/perf/preflight.h"
#include "core/probes/probe_catalogue.h"
#include "core/probes/probe_protocol.h"
#include "core/probes/worker_process.h"
#include "core/snapshot/stack_environment.h"
#include "core/util/program_paths.h"
#include "core/util/sigpipe_block.h"
#include "core/util/subprocess.h"
#include "core/util/task_runner.h"
#include "core/util/text_escape.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <poll.h>
#include <set>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace stackscope {

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;
using worker::ChildProcess;
using worker::StderrSplitter;
using worker::closeFd;
using worker::drain;
using worker::exitedNow;
using worker::kMaxLineBytes;
using worker::killGroup;
using worker::pollPipes;
using worker::reap;
using worker::spawnWorker;
using worker::tellToGo;

bool hasVariable(const std::vector<std::string>& env, const std::string& name)
{
    return std::any_of(env.begin(), env.end(), [&](const std::string& kv) { return kv.rfind(name + "=", 0) == 0; });
}

std::map<std::string, std::string> gpuEnvironment(const std::vector<std::string>& env)
{
    std::map<std::string, std::string> out;
    for (const auto& kv : env) {
        const auto eq = kv.find('=');
        const auto name = kv.substr(0, eq);
        if (isStackEnvironmentVariable(name))
            out[name] = kv.substr(eq + 1);
    }
    return out;
}

struct CellJob {
    std::string device;
    std::string deviceName;
    const ProbeVariant* variant = nullptr;
    std::vector<std::string> probes;
    bool gpuAlone = false; // a GPU's Alone worker: nothing else on that GPU while it runs
    // A Python GPU column's torch.compile worker: inductor compiles in its own process (TORCHINDUCTOR_COMPILE_THREADS=1
    // unless the variant or the user set it), since the CPU column's compile worker already starts inductor's pool of
    // compile processes; two pools of a process per CPU thread each, all importing torch, slowed every other worker
    // (27.5 s vs 21.0 s for the default grid on the H200 machine, RESULTS.md).
    bool compileInProcess = false;
};

// Who holds each GPU in this process, across variants and environments (libtorch and every Python environment).
// Workers of the Shared, Compile and Distributed groups share a GPU; an Alone worker (bandwidths, memory fills) waits
// until no other worker holds it and keeps it to itself, so copy bandwidths do not depend on what else ran. Alone
// workers go first: one that has started (expectAlone) keeps new shared workers waiting until it has had its turn,
// while every worker is still starting up; left to the end, the Alone turns came after the longest shared worker
// and added their length to the grid's wall time (RESULTS.md, "Default grid"). The CPU column is not gated: its
// copies cross no link (their bandwidth is not a result) and its cells mostly wait on process start-up and compilers.
class GpuGate {
public:
    // An Alone worker of `device` has started and will ask for it: shared workers wait until it has had it.
    void expectAlone(const std::string& device)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        ++m_expected[device];
    }
    // False when cancelled before the GPU could be had. An Alone worker's acquire ends its expectation either way.
    bool acquire(const std::string& device, bool alone, const CancelToken& cancelled)
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        while (m_alone.count(device) || (alone ? m_shared[device] > 0 : m_expected[device] > 0)) {
            if (cancelled.isCancelled()) {
                if (alone)
                    forget(device);
                return false;
            }
            m_freed.wait_for(lock, std::chrono::milliseconds(100));
        }
        if (alone) {
            m_alone.insert(device);
            --m_expected[device];
        } else {
            ++m_shared[device];
        }
        return true;
    }
    // An expected Alone worker that ended before it asked (it could not start, or died while starting up).
    void notExpected(const std::string& device)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        forget(device);
    }
    void release(const std::string& device, bool alone)
    {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (alone)
                m_alone.erase(device);
            else
                --m_shared[device];
        }
        m_freed.notify_all();
    }

private:
    // With m_mutex held: the shared workers waiting on this expectation look again.
    void forget(const std::string& device)
    {
        --m_expected[device];
        m_freed.notify_all();
    }

    std::mutex m_mutex;
    std::condition_variable m_freed;
    std::set<std::string> m_alone;
    std::map<std::string, int> m_shared;
    std::map<std::string, int> m_expected;
};

GpuGate& gpuGate()
{
    static GpuGate gate;
    return gate;
}

// A worker's hold on its GPU, taken when the worker has started up and released when it says it is done (or has
// ended without saying so).
class GpuHold {
public:
    // `gated`: the worker will take its GPU after its hello (an Alone one is expected from now on).
    GpuHold(std::string device, bool alone, bool gated)
        : m_device(std::move(device))
        , m_alone(alone && gated)
        , m_expected(m_alone)
    {
        if (m_expected)
            gpuGate().expectAlone(m_device);
    }
    ~GpuHold() { release(); }
    GpuHold(const GpuHold&) = delete;
    GpuHold& operator=(const GpuHold&) = delete;
    // Gives the GPU (or the expectation of an Alone turn) back; later calls do nothing.
    void release()
    {
        if (m_taken)
            gpuGate().release(m_device, m_alone);
        else if (m_expected)
            gpuGate().notExpected(m_device);
        m_taken = m_expected = false;
    }
    // False when cancelled before the GPU could be had.
    bool take(const CancelToken& cancelled)
    {
        m_taken = gpuGate().acquire(m_device, m_alone, cancelled);
        m_expected = false; // acquire ended the expectation
        return m_taken;
    }

private:
    std::string m_device;
    bool m_alone;
    bool m_expected;
    bool m_taken = false;
};

// The workers of a run: first each GPU's Alone worker (short, it has its GPU while the others start up: GpuGate);
// then longest first so the slowest start at once (longest-processing-time-first order): the CPU column's
// torch.compile probes in a worker of their own (runsApartOnCpu); one worker per group of each GPU column (compile,
// distributed, the shared rest); the CPU cells; last a worker per probe that starts rank processes
// (startsRankProcesses): each waits mostly on its ranks' start-up, and queued before the GPU's shared worker they
// kept that longest worker waiting for a free slot (`--jobs`).
std::vector<CellJob> scheduleJobs(const std::vector<ProbeVariant>& variants, const std::vector<ProbeDevice>& devices,
                                  const std::vector<std::string>& probeIds, bool python)
{
    using G = GpuWorkerGroup;
    std::vector<CellJob> apart, ranks, gpu, cpu, alone;
    auto keep = [](std::vector<CellJob>& into, CellJob job) {
        if (!job.probes.empty())
            into.push_back(std::move(job));
    };
    for (const auto& v : variants) {
        for (const auto& d : devices) {
            const CellJob empty {d.id, d.name, &v, {}};
            std::vector<std::string> probes;
            for (const auto& p : probesForDevice(d.id, probeIds, python)) {
                if (!startsRankProcesses(p)) {
                    probes.push_back(p);
                    continue;
                }
                CellJob own = empty;
                own.probes = {p};
                keep(ranks, std::move(own));
            }
            if (d.id == "cpu") {
                CellJob slow = empty, rest = empty;
                for (const auto& p : probes)
                    (runsApartOnCpu(p) ? slow : rest).probes.push_back(p);
                keep(apart, std::move(slow));
                keep(cpu, std::move(rest));
                continue;
            }
            std::map<G, CellJob> groups;
            for (const auto& p : probes)
                groups.try_emplace(gpuWorkerGroup(p), empty).first->second.probes.push_back(p);
            groups.try_emplace(G::Compile, empty).first->second.compileInProcess = python;
            groups.try_emplace(G::Alone, empty).first->second.gpuAlone = true;
            for (G g : {G::Compile, G::Distributed, G::Shared})
                keep(gpu, std::move(groups[g]));
            keep(alone, std::move(groups[G::Alone]));
        }
    }
    for (auto* part : {&apart, &gpu, &cpu, &ranks})
        alone.insert(alone.end(), std::make_move_iterator(part->begin()), std::make_move_iterator(part->end()));
    return alone;
}

class CellRunner {
public:
    CellRunner(const ProbeRunOptions& options, const std::string& program, const CancelToken& cancelled,
               const std::function<void(ProbeRecord)>& emit)
        : m_options(options)
        , m_program(program)
        , m_cancelled(cancelled)
        , m_emit(emit)
    {
    }

    void run(const CellJob& job)
    {
        m_job = &job;
        m_env = worker::workerEnvironment(job.variant->env);
        if (job.compileInProcess && !hasVariable(m_env, "TORCHINDUCTOR_COMPILE_THREADS"))
            m_env.insert(m_env.end(), {"TORCHINDUCTOR_COMPILE_THREADS=1", "STACKSCOPE_COMPILE_IN_PROCESS=1"});
        m_gpuEnv = gpuEnvironment(m_env);
        std::vector<std::string> remaining = job.probes;
        skipWithoutRoom(remaining);
        while (!remaining.empty() && !m_cancelled.isCancelled())
            runWorker(remaining);
    }

private:
    ProbeRecord record(const std::string& probe, ProbeResult result, std::string message) const
    {
        ProbeRecord r;
        r.outcome.probeId = probe;
        r.outcome.device = m_job->device;
        r.outcome.variant = m_job->variant->name;
        r.outcome.environment = environmentLabel(m_options);
        r.outcome.env = m_gpuEnv;
        r.outcome.outcome = result;
        r.outcome.message = std::move(message);
        return r;
    }

    void finish(std::vector<std::string>& remaining, const std::string& probe, ProbeRecord r)
    {
        remaining.erase(std::remove(remaining.begin(), remaining.end(), probe), remaining.end());
        m_emit(std::move(r));
    }

    // The pre-flight: a GPU without room ends its cells at once; probes needing every GPU end on the others too.
    void skipWithoutRoom(std::vector<std::string>& remaining)
    {
        const auto& full = *m_options.gpusWithoutRoom;
        if (full.empty() || m_job->device == "cpu")
            return;
        const auto own = full.find(m_job->device);
        for (auto p : std::vector<std::string>(remaining)) {
            const auto* spec = findProbe(p);
            const bool everyGpu = (spec && spec->scope == ProbeScope::MultiGpu) || gpuWorkerGroup(p) == GpuWorkerGroup::Distributed;
            if (own != full.end())
                finish(remaining, p, record(p, ProbeResult::Unsupported, own->second));
            else if (everyGpu)
                finish(remaining, p, record(p, ProbeResult::Unsupported, "skipped: needs every GPU, and " +
                                                                             full.begin()->second.substr(9)));
        }
    }

    // Every probe still to run gets the same error (a worker that cannot start or speaks another protocol).
    void failAll(std::vector<std::string>& remaining, const std::string& message)
    {
        for (auto p : std::vector<std::string>(remaining))
            finish(remaining, p, record(p, ProbeResult::Error, message));
    }

    std::vector<std::string> workerArguments(const std::vector<std::string>& remaining, bool python, bool gated) const
    {
        std::vector<std::string> args {kProbeWorkerEntry, "--device", m_job->device};
        if (python)
            args = {m_options.pythonScript, "--device", m_job->device, "--timeout",
                    std::to_string(m_options.timeout.count() / 1000.0)};
        for (const auto& p : remaining) {
            args.push_back("--probe");
            args.push_back(p);
        }
        if (!m_options.inject.empty()) {
            args.insert(args.end(), {"--inject", m_options.inject});
            if (!m_options.injectProbe.empty())
                args.insert(args.end(), {"--inject-probe", m_options.injectProbe});
        }
        if (gated)
            args.push_back(kWaitGoFlag);
        return args;
    }

    // A worker's "result" message as a record; `elapsed` is used when the worker sent no "seconds".
    ProbeRecord recordFromResult(const json& body, double elapsed) const
    {
        const auto result = probeResultFromName(body.value("outcome", std::string())).value_or(ProbeResult::Error);
        auto r = record(body.value("probe", std::string()), result, body.value("message", std::string()));
        r.seconds = body.value("seconds", elapsed);
        auto number = [&](const char* key) -> std::optional<double> {
            auto it = body.find(key);
            return it != body.end() && it->is_number() ? std::optional<double>(it->get<double>()) : std::nullopt;
        };
        r.maxError = number("max_error");
        r.tolerance = number("tolerance");
        r.errorRatio = number("error_ratio");
        if (auto it = body.find("details"); it != body.end() && it->is_object())
            r.details = *it;
        return r;
    }

    // How a worker ended, for reportEnd.
    struct WorkerEnd {
        int status = 0;
        std::string current; // the probe it had started and not reported
        std::size_t reported = 0;
        bool killedForTimeout = false;
        double elapsed = 0; // since the last start (or the go)
        std::string stray;  // stdout lines that were not protocol messages
    };

    // After a worker ended without reporting everything: the probe it was in (or, if it died before its first
    // probe, the first) is a hang, crash or error; a clean exit without any report fails the rest.
    void reportEnd(std::vector<std::string>& remaining, const WorkerEnd& end, StderrSplitter& stderrText)
    {
        const int status = end.status;
        std::string victim = end.current;
        if (victim.empty() && end.reported == 0 && !remaining.empty() &&
            (end.killedForTimeout || !WIFEXITED(status) || WEXITSTATUS(status) != 0))
            victim = remaining.front(); // died or hung before its first probe started
        if (!victim.empty()) {
            ProbeRecord r;
            if (end.killedForTimeout) {
                r = record(victim, ProbeResult::Hang,
                           fmt::format("no result after {:.1f} s: the worker was killed (timeout {:.1f} s; raise it "
                                       "with --timeout if the op is only slow)",
                                       end.elapsed, probeTimeout(victim, m_options.timeout).count() / 1000.0));
            } else if (WIFSIGNALED(status)) {
                const int sig = WTERMSIG(status);
                r = record(victim, ProbeResult::Crash,
                           fmt::format("the worker died of {} (signal {}){}", signalName(sig), sig,
                                       sig == SIGKILL ? ": killed from outside, often the kernel's out-of-memory killer"
                                                      : ""));
            } else {
                r = record(victim, ProbeResult::Error,
                           fmt::format("the worker exited with code {} during the probe{}", WEXITSTATUS(status),
                                       end.stray.empty() ? "" : ": " + end.stray));
            }
            r.seconds = end.elapsed;
            r.outcome.capturedStderr = stderrText.take(victim);
            finish(remaining, victim, std::move(r));
            return;
        }
        if (!remaining.empty() && end.reported == 0) // exited cleanly without a report: a retry changes nothing
            failAll(remaining, fmt::format("the worker exited (status {}) without reporting the probe{}", status,
                                           end.stray.empty() ? "" : ": " + end.stray));
    }

    // One worker process while it runs.
    struct Worker {
        ChildProcess child;
        bool python = false;
        bool gated = false; // a GPU worker: it takes its GPU (GpuHold) after its hello
        StderrSplitter stderrText;
        std::string outBuf;
        WorkerEnd end;
        Clock::time_point started;
        Clock::time_point deadline;
        bool killedForCancel = false, outOpen = true, errOpen = true;
        std::string protocolError; // it speaks another protocol: every probe of the cell says so
        // Reading stops here even if the pipes stay open: kEofGrace after the worker exited or was killed.
        Clock::time_point stopReading = Clock::time_point::max();
    };

    void handleHello(Worker& w, GpuHold& hold, const json& body)
    {
        w.protocolError = protocolMismatch(body, w.python ? m_options.python : m_program);
        if (!w.protocolError.empty()) {
            killGroup(w.child.pid);
        } else if (w.gated) {
            // Waiting for the GPU is not the worker's time: its limit starts again when it may go. A worker that
            // cannot be told has died; its end is read like any other.
            if (!hold.take(m_cancelled)) {
                killGroup(w.child.pid);
                w.killedForCancel = true;
            } else {
                tellToGo(w.child);
            }
            w.started = Clock::now();
            w.deadline = w.started + m_options.timeout;
        }
    }

    void handleResult(std::vector<std::string>& remaining, Worker& w, const json& body)
    {
        auto r = recordFromResult(body, std::chrono::duration<double>(Clock::now() - w.started).count());
        // The stderr written before the result line has arrived or is in the pipe; read it first.
        if (w.errOpen)
            w.errOpen = drain(w.child.err, m_errChunk);
        w.stderrText.append(m_errChunk);
        m_errChunk.clear();
        const std::string probe = r.outcome.probeId;
        r.outcome.capturedStderr = w.stderrText.take(probe);
        w.end.current.clear();
        ++w.end.reported;
        w.deadline = Clock::now() + m_options.timeout; // until the next start (a worker ending cleanly)
        finish(remaining, probe, std::move(r));
    }

    void handleLine(std::vector<std::string>& remaining, Worker& w, GpuHold& hold, const std::string& line)
    {
        auto msg = parseWorkerLine(line);
        if (!msg) {
            if (w.end.stray.size() < 4096)
                w.end.stray += escapeControl(line.substr(0, 4096 - w.end.stray.size())) + "\n";
        } else if (msg->type == "hello") {
            handleHello(w, hold, msg->body);
        } else if (msg->type == "start") {
            w.end.current = msg->body.value("probe", std::string());
            w.started = Clock::now();
            w.deadline = w.started + probeTimeout(w.end.current, m_options.timeout);
        } else if (msg->type == "result") {
            handleResult(remaining, w, msg->body);
        } else if (msg->type == "done") {
            // Its probes are over: the next worker may have the GPU while this one exits (a Python worker's exit,
            // torch's teardown, took 0.5-1 s of the grid's critical path after the Alone worker).
            hold.release();
        }
    }

    // Reads the worker's output until both pipes close, killing it on cancel or past its deadline; never longer
    // than kEofGrace after it ended (a child that left its group, with setsid, may hold the pipes for ever).
    void pump(std::vector<std::string>& remaining, Worker& w, GpuHold& hold)
    {
        auto kill = [&](bool& flag) {
            killGroup(w.child.pid);
            flag = true;
            w.stopReading = std::min(w.stopReading, Clock::now() + kEofGrace);
        };
        while (w.outOpen || w.errOpen) {
            if (m_cancelled.isCancelled() && !w.killedForCancel)
                kill(w.killedForCancel);
            const auto now = Clock::now();
            if (now >= w.deadline && !w.end.killedForTimeout && !w.killedForCancel)
                kill(w.end.killedForTimeout);
            if (!w.child.exited && exitedNow(w.child))
                w.stopReading = std::min(w.stopReading, now + kEofGrace);
            if (now >= w.stopReading)
                break;
            const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(std::min(w.deadline, w.stopReading) - now).count();
            const int timeoutMs = static_cast<int>(std::clamp<long long>(wait, 1, 100));
            if (!pollPipes(w.child, w.outOpen, w.errOpen, timeoutMs, w.outBuf, m_errChunk))
                break;
            if (!m_errChunk.empty()) {
                w.stderrText.append(m_errChunk);
                m_errChunk.clear();
            }
            for (std::size_t nl; (nl = w.outBuf.find('\n')) != std::string::npos; w.outBuf.erase(0, nl + 1))
                handleLine(remaining, w, hold, w.outBuf.substr(0, nl));
            if (w.outBuf.size() > kMaxLineBytes) {
                if (w.protocolError.empty()) {
                    w.protocolError = fmt::format(
                        "{} printed more than {} MiB without a line end: that is not a StackScope probe worker "
                        "speaking (its messages are single lines of a few KiB); check that --python names a Python "
                        "interpreter and that nothing in its start-up (sitecustomize, .pth files) writes to stdout",
                        w.python ? m_options.python : m_program, kMaxLineBytes >> 20);
                    killGroup(w.child.pid);
                    w.stopReading = std::min(w.stopReading, Clock::now() + kEofGrace);
                }
                w.outBuf.clear();
            }
        }
        w.stderrText.finish();
    }

    // One worker process; returns after it ended, with `remaining` reduced by what it reported.
    void runWorker(std::vector<std::string>& remaining)
    {
        Worker w;
        w.python = !m_options.python.empty();
        // A GPU worker starts up (python, `import torch`, the module) at once and takes its GPU after its hello.
        w.gated = m_job->device != "cpu";
        if (w.python && m_options.pythonScript.empty())
            return failAll(remaining, "the Python probe worker (stackscope_probe_worker.py) was not found next to "
                                      "StackScope; reinstall it or set STACKSCOPE_PYTHON_WORKER");
        GpuHold hold {m_job->device, m_job->gpuAlone, w.gated};
        try {
            w.child = spawnWorker(w.python ? m_options.python : m_program, workerArguments(remaining, w.python, w.gated),
                                  m_env, w.gated);
        } catch (const std::runtime_error& e) {
            return failAll(remaining, e.what());
        }
        ::fcntl(w.child.out, F_SETFL, O_NONBLOCK);
        ::fcntl(w.child.err, F_SETFL, O_NONBLOCK);
        w.started = Clock::now();
        // Startup counts as the first probe's time (a Python worker's `import torch` gets kPythonStartupTimeout).
        w.deadline = w.started + std::max(probeTimeout(remaining.front(), m_options.timeout),
                                          w.python ? kPythonStartupTimeout : m_options.timeout);
        pump(remaining, w, hold);
        w.end.status = reap(w.child);
        w.end.elapsed = std::chrono::duration<double>(Clock::now() - w.started).count();
        if (w.killedForCancel)
            return;
        if (!w.protocolError.empty()) // a retry would meet the same worker
            return failAll(remaining, w.protocolError);
        reportEnd(remaining, w.end, w.stderrText);
    }

    const ProbeRunOptions& m_options;
    std::string m_program;
    const CancelToken& m_cancelled;
    std::function<void(ProbeRecord)> m_emit;
    const CellJob* m_job = nullptr;
    std::vector<std::string> m_env;
    std::map<std::string, std::string> m_gpuEnv;
    std::string m_errChunk;
};

} // namespace

ProbePreflight probePreflight()
{
    ProbePreflight p;
    const auto headroom = perf::liveGpuHeadroom();
    std::string note;
    p.gpusWithoutRoom = perf::gpusWithoutRoom(headroom, &note);
    for (const auto& h : headroom)
        p.lines.push_back(perf::describeHeadroom(h));
    if (!note.empty())
        p.lines.push_back(note);
    return p;
}

std::vector<ProbeCellPlan> planProbeCells(const std::vector<ProbeVariant>& variants, const std::vector<ProbeDevice>& devices,
                                          const std::vector<std::string>& probeIds, bool python)
{
    std::vector<ProbeCellPlan> out;
    for (auto& job : scheduleJobs(variants, devices, probeIds, python))
        out.push_back({job.device, job.variant->name, std::move(job.probes), job.gpuAlone, job.compileInProcess});
    return out;
}

std::string environmentLabel(const ProbeRunOptions& options)
{
    return options.python.empty() ? std::string("libtorch") : "python:" + options.python;
}

ProbeRunner::ProbeRunner(ProbeRunOptions options)
    : m_options(std::move(options))
    , m_askDriver(!m_options.gpusWithoutRoom)
{
    if (m_options.workerProgram.empty())
        m_options.workerProgram = cliProgram();
    if (m_options.variants.empty())
        m_options.variants.push_back(ProbeVariant {});
    if (m_options.parallelCells < 1)
        m_options.parallelCells = static_cast<int>(std::clamp(std::thread::hardware_concurrency() / 2, 2u, 8u));
    if (!m_options.python.empty() && m_options.pythonScript.empty())
        m_options.pythonScript = pythonWorkerScript();
    // A fault goes into one probe, so the restart after it runs the rest normally.
    if (!m_options.inject.empty() && m_options.injectProbe.empty())
        m_options.injectProbe = m_options.probeIds.empty() ? "alloc_zeros" : m_options.probeIds.front();
}

std::vector<ProbeRecord> ProbeRunner::run(const ProbeResultCallback& onResult)
{
    const auto runStart = Clock::now();
    m_devices.clear();
    m_listError.clear();
    if (m_options.devices.empty()) {
        m_devices = m_options.python.empty()
            ? listProbeDevices(m_options.workerProgram, std::max(m_options.timeout, std::chrono::milliseconds(5000)),
                               &m_listError)
            : listPythonProbeDevices(m_options.python, m_options.pythonScript,
                                     std::max(m_options.timeout, kPythonStartupTimeout), &m_listError);
    } else {
        for (const auto& d : m_options.devices)
            m_devices.push_back({d, d == "cpu" ? "CPU" : "GPU " + d});
    }

    const auto jobs = scheduleJobs(m_options.variants, m_devices, m_options.probeIds, !m_options.python.empty());
    m_preflight.clear();
    if (m_askDriver) {
        const bool gpu = std::any_of(m_devices.begin(), m_devices.end(), [](const ProbeDevice& d) { return d.id != "cpu"; });
        auto pre = gpu ? probePreflight() : ProbePreflight {};
        m_preflight = std::move(pre.lines);
        m_options.gpusWithoutRoom = std::move(pre.gpusWithoutRoom);
    }

    std::mutex mutex;
    std::vector<ProbeRecord> records;
    auto emit = [&](ProbeRecord r) {
        r.endedAt = std::chrono::duration<double>(Clock::now() - runStart).count();
        std::lock_guard<std::mutex> lock(mutex);
        records.push_back(r);
        if (onResult)
            onResult(records.back());
    };

    // parallelCells workers side by side, each taking the next cell as it comes free; they mostly wait for their
    // children, so they run together on threads of their own, not on the CPU lane.
    std::atomic<std::size_t> next {0};
    const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(m_options.parallelCells), jobs.size());
    TaskRunner::shared().together(n, [&](std::size_t) {
        for (;;) {
            const std::size_t i = next.fetch_add(1);
            if (i >= jobs.size() || m_cancel.isCancelled())
                return;
            CellRunner(m_options, m_options.workerProgram, m_cancel, emit).run(jobs[i]);
        }
    });

    // Grid order: variant, device, catalogue.
    auto rank = [&](const ProbeRecord& r) {
        std::size_t v = 0, d = 0, p = 0;
        for (; v < m_options.variants.size() && m_options.variants[v].name != r.outcome.variant; ++v) {
        }
        for (; d < m_devices.size() && m_devices[d].id != r.outcome.device; ++d) {
        }
        const auto& c = probeCatalogue();
        for (; p < c.size() && c[p].id != r.outcome.probeId; ++p) {
        }
        return std::make_tuple(v, d, p);
    };
    std::stable_sort(records.begin(), records.end(),
                     [&](const ProbeRecord& a, const ProbeRecord& b) { return rank(a) < rank(b); });
    return records;
}

} // namespace stackscope
