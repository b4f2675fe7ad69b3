// The rank launcher (child processes of stackscope-cli, supervised) and the rank environment of env:// launchers.
#include "core/training/training_launch.h"
#include "core/util/environment.h"

#include "core/training/flight_report.h"
#include "core/training/training_events.h"
#include "core/training/training_metadata.h"
#include "core/util/atomic_file.h"
#include "core/util/file_read.h"
#include "core/util/program_paths.h"
#include "core/util/sha256.h"
#include "core/util/subprocess.h"
#include "core/util/temp_folder.h"

#include <fmt/format.h>

#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace stackscope::training {

namespace {

using Clock = std::chrono::steady_clock;

std::optional<int> envInt(const char* name)
{
    const char* v = std::getenv(name);
    if (!v || !*v)
        return std::nullopt;
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (*end != '\0' || n < 0 || n > 1 << 20)
        throw ConfigError(fmt::format("{}='{}' is not a whole number; the launcher must set it to the process's number",
                                      name, v));
    return static_cast<int>(n);
}

std::string envText(const char* name)
{
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

// A port nobody listens on now (the kernel picks it); rank 0's TCPStore binds it a moment later.
int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        throw std::runtime_error(fmt::format("cannot open a socket to find a free port ({})", std::strerror(errno)));
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
                    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0;
    ::close(fd);
    if (!ok)
        throw std::runtime_error(fmt::format("cannot find a free port on 127.0.0.1 ({}); set MASTER_PORT to one",
                                             std::strerror(errno)));
    return ntohs(a.sin_port);
}

struct RankProcess {
    int rank = 0;
    pid_t pid = -1;
    int outFd = -1, errFd = -1;
    std::string pendingOut; // rank 0: an unfinished event line
    std::string err;        // the last 16 KiB of what it printed on stderr
    std::string statusFile;
    bool running = true;
    int exitCode = 0;
    int signal = 0;
    bool stopped = false; // it was stopped (SIGSTOP) when the launcher ended it
    bool killedByUs = false; // the launcher sent it SIGKILL (another rank had failed)
};

std::string readStatus(const std::string& path)
{
    // A rank writes one short line here (its phase); 4 KiB holds any of them.
    std::string s = readFileHead(path, 4096).value_or(std::string());
    s = s.substr(0, s.find('\0'));
    return s.empty() ? std::string("before the rendezvous") : s;
}

std::string lastLines(const std::string& text, int n)
{
    size_t at = text.size();
    while (at > 0 && (text[at - 1] == '\n'))
        --at;
    size_t begin = at;
    for (int i = 0; i < n && begin > 0; ++i) {
        begin = text.rfind('\n', begin - 1);
        if (begin == std::string::npos) {
            begin = 0;
            break;
        }
    }
    std::string s = text.substr(begin, at - begin);
    while (!s.empty() && s.front() == '\n')
        s.erase(0, 1);
    return s;
}

// What a rank said last: its program's error line (main prints "stackscope-cli: ..."), else its last lines.
std::string finalMessage(const std::string& err)
{
    const size_t at = err.rfind("stackscope-cli: ");
    std::string s = at == std::string::npos ? lastLines(err, 3) : err.substr(at);
    while (!s.empty() && s.back() == '\n')
        s.pop_back();
    return s.size() > 800 ? s.substr(0, 800) + "..." : s;
}

// The temporary folder for the ranks' configuration and status files, removed with the launch.
class LaunchFolder {
public:
    LaunchFolder()
    {
        // A bad TMPDIR is the user's setting: FileWriteError (exit 2) naming it and what to do.
        constexpr std::string_view purpose = "the rank processes' configuration and status files";
        std::string templ = checkedTemporaryFolder(purpose) + "/stackscope-ranks-XXXXXX";
        if (!::mkdtemp(templ.data()))
            throw FileWriteError(temporaryFolderMessage(purpose, std::strerror(errno)));
        m_path = templ;
    }
    ~LaunchFolder()
    {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    LaunchFolder(const LaunchFolder&) = delete;
    LaunchFolder& operator=(const LaunchFolder&) = delete;
    std::string file(const std::string& name) const { return m_path + "/" + name; }

private:
    std::string m_path;
};

void writeText(const std::string& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush())
        throw std::runtime_error(fmt::format("cannot write {}; check the free space of TMPDIR", path));
}

std::vector<std::string> rankEnv(int rank, int world, int port, const std::string& status, const std::string& backend)
{
    std::vector<std::string> extra {
        fmt::format("RANK={}", rank),         fmt::format("WORLD_SIZE={}", world),
        fmt::format("LOCAL_RANK={}", rank),   fmt::format("LOCAL_WORLD_SIZE={}", world),
        "MASTER_ADDR=127.0.0.1",              fmt::format("MASTER_PORT={}", port),
        "STACKSCOPE_RANK_STATUS=" + status,   fmt::format("STACKSCOPE_LAUNCHER_PID={}", ::getpid()),
        "TORCHELASTIC_USE_AGENT_STORE=False",
    };
    // As torchrun does: ranks sharing the cores each get their share of libtorch's threads, unless set.
    if (envText("OMP_NUM_THREADS").empty()) {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        extra.push_back(fmt::format("OMP_NUM_THREADS={}", std::max(1u, cores / static_cast<unsigned>(world))));
    }
    if (backend == "nccl" && envText("NCCL_DEBUG").empty())
        extra.push_back("NCCL_DEBUG=WARN"); // NCCL's own warnings (P2P, IOMMU) reach the failure message
    return extra;
}

RankProcess spawnRank(int rank, int world, int port, const LaunchFolder& dir, const TrainingConfig& config)
{
    RankProcess p;
    p.rank = rank;
    p.statusFile = dir.file(fmt::format("rank{}.status", rank));
    writeText(p.statusFile, std::string(256, '\0'));
    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
        throw std::runtime_error(fmt::format("cannot create a pipe for rank {} ({})", rank, std::strerror(errno)));
    const std::vector<std::string> argv {cliProgram(), kTrainRankEntry, "--config",
                                         dir.file("config.json")};
    int rc = 0;
    p.pid = spawnInOwnGroup(argv, mergedEnvironment(rankEnv(rank, world, port, p.statusFile, distBackendName(config.distBackend))),
                            out[1], err[1], rc);
    ::close(out[1]);
    ::close(err[1]);
    p.outFd = out[0];
    p.errFd = err[0];
    if (p.pid < 0)
        throw std::runtime_error(fmt::format("cannot start {} for rank {} ({}); reinstall StackScope or put "
                                             "stackscope-cli beside this program",
                                             argv[0], rank, std::strerror(rc)));
    return p;
}

// Reads what a rank printed; rank 0's stdout lines are events for the observer.
void drain(RankProcess& p, int fd, RunObserver& observer)
{
    char buf[8192];
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) {
        if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
            ::close(fd);
            (fd == p.outFd ? p.outFd : p.errFd) = -1;
        }
        return;
    }
    if (fd == p.errFd) {
        p.err.append(buf, static_cast<size_t>(n));
        if (p.err.size() > 16384)
            p.err.erase(0, p.err.size() - 16384);
        return;
    }
    p.pendingOut.append(buf, static_cast<size_t>(n));
    size_t nl;
    while ((nl = p.pendingOut.find('\n')) != std::string::npos) {
        const std::string line = p.pendingOut.substr(0, nl);
        p.pendingOut.erase(0, nl + 1);
        if (p.rank == 0 && !line.empty() && line.front() == '{')
            observer.handle(line);
    }
}

void reap(RankProcess& p)
{
    int status = 0;
    if (!p.running || ::waitpid(p.pid, &status, WNOHANG) != p.pid)
        return;
    p.running = false;
    if (WIFEXITED(status))
        p.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        p.signal = WTERMSIG(status);
}

bool failed(const RankProcess& p)
{
    return !p.running && (p.exitCode != 0 || p.signal != 0);
}

bool refusedConfiguration(const RankProcess& p)
{
    return !p.running && p.signal == 0 && p.exitCode == 2;
}

std::string howItEnded(const RankProcess& p, bool killedByUs)
{
    if (p.stopped)
        return fmt::format("was stopped (SIGSTOP or a debugger: process state T), so it could not go on; the "
                           "launcher ended it with signal {}", p.signal);
    if (p.signal != 0)
        return fmt::format("{} by signal {} ({})", killedByUs ? "was stopped by the launcher" : "was killed", p.signal,
                           strsignal(p.signal));
    return fmt::format("exited with code {}", p.exitCode);
}

// Seconds the other ranks get to end by themselves after one failed: 4x the longest a healthy rank took to see a
// killed peer in tst_train_dist (1.22 s at load 6-8).
constexpr double kGraceAfterFailureS = 5.0;

// Polls the ranks' pipes and exits until all have ended; after the first failure the rest get a short grace.
bool supervise(std::vector<RankProcess>& ranks, RunObserver& observer, const TrainingConfig& config,
               const CancelToken& cancel)
{
    bool cancelSent = false, killed = false;
    std::optional<Clock::time_point> deadline;
    while (std::any_of(ranks.begin(), ranks.end(), [](const auto& p) { return p.running || p.outFd >= 0 || p.errFd >= 0; })) {
        std::vector<pollfd> fds;
        std::vector<RankProcess*> owner;
        for (auto& p : ranks)
            for (int fd : {p.outFd, p.errFd})
                if (fd >= 0) {
                    fds.push_back({fd, POLLIN, 0});
                    owner.push_back(&p);
                }
        if (::poll(fds.data(), fds.size(), 100) > 0)
            for (size_t i = 0; i < fds.size(); ++i)
                if (fds[i].revents & (POLLIN | POLLHUP | POLLERR))
                    drain(*owner[i], fds[i].fd, observer);
        for (auto& p : ranks)
            reap(p);
        if (cancel.isCancelled() && !cancelSent) { // the ranks agree to stop at their next loss report
            for (auto& p : ranks)
                if (p.running)
                    ::kill(p.pid, SIGTERM);
            cancelSent = true;
        }
        if (!deadline && std::any_of(ranks.begin(), ranks.end(), failed)) {
            // A rank refusing the configuration (exit 2: a GPU it cannot see, a full disk) leaves the others
            // waiting at the rendezvous or in a collective: end them now.
            // Any other failure: the rest get a short grace to end with their own message (a peer's closed
            // connection fails Gloo's next collective at once: 0.27-1.22 s after a SIGKILL in tst_train_dist),
            // then they are killed. Waiting the whole --dist-timeout kept ranks blocked where no socket tells
            // them (the TCPStore rendezvous, an NCCL kernel on a dead peer) alive for 300 s by default.
            // A stopped rank (SIGSTOP) can end neither by itself nor by its peers' failure: no grace either.
            const bool refused = std::any_of(ranks.begin(), ranks.end(), refusedConfiguration);
            const bool stoppedPeer =
                std::any_of(ranks.begin(), ranks.end(), [](const auto& p) { return p.running && processStopped(p.pid); });
            const double grace = std::min(config.distTimeoutS, kGraceAfterFailureS);
            deadline = Clock::now() +
                std::chrono::milliseconds(refused || stoppedPeer ? 0 : static_cast<int64_t>(grace * 1000));
        }
        if (deadline && Clock::now() > *deadline && !killed) {
            for (auto& p : ranks)
                if (p.running) {
                    p.stopped = processStopped(p.pid);
                    p.killedByUs = true;
                    ::kill(-p.pid, SIGKILL);
                }
            killed = true;
        }
    }
    return killed;
}

std::string failureReport(const std::vector<RankProcess>& ranks, bool killed, const TrainingConfig& config)
{
    std::string lines;
    for (const auto& p : ranks) {
        if (!failed(p))
            continue;
        const bool ours = p.killedByUs && p.signal == SIGKILL;
        lines += fmt::format("\n  rank {} (pid {}) {}; last collective: {}", p.rank, p.pid, howItEnded(p, ours),
                             readStatus(p.statusFile));
        const std::string said = finalMessage(p.err);
        if (!said.empty())
            lines += "\n    it said: " + said;
    }
    // Every rank's last collectives (the flight recorder): who never entered the one the others wait in.
    std::vector<std::string> statusFiles;
    for (const auto& p : ranks)
        statusFiles.push_back(p.statusFile);
    const FlightReport flight = writeFlightReport(statusFiles, config.output, "training with " +
                                                  std::to_string(ranks.size()) + " processes failed");
    for (const auto& line : flight.attribution)
        lines += "\n  flight recorder: " + line;
    if (!flight.path.empty())
        lines += "\n  every rank's last collectives: " + flight.path + " (stackscope-cli diagnose --log reads it)";
    else if (!flight.notWritten.empty())
        lines += "\n  the flight recorder could not be written: " + flight.notWritten;
    // --resume only where there is something to resume: a checkpoint of a finished epoch.
    std::error_code ec;
    const bool checkpoint = std::filesystem::exists(config.output + "/checkpoint.pt", ec);
    const std::string then = checkpoint
        ? fmt::format("continue with the same command and --resume: {} keeps the last finished epoch", config.output)
        : std::string("run the same command again (no epoch finished, so there is no checkpoint to --resume from)");
    return fmt::format("training with {} processes failed:{}\nWhat to do: fix what the first failing rank reports (a "
                       "killed rank: memory, the job's time limit, a GPU reset; a timeout: a rank that hangs), then {}",
                       ranks.size(), lines, then);
}

void stopAll(std::vector<RankProcess>& ranks)
{
    for (auto& p : ranks) {
        if (p.running)
            ::kill(-p.pid, SIGKILL);
        for (int fd : {p.outFd, p.errFd})
            if (fd >= 0)
                ::close(fd);
        if (p.running)
            ::waitpid(p.pid, nullptr, 0);
    }
}

} // namespace

std::optional<RankEnvironment> rankEnvironment()
{
    struct Names {
        const char *rank, *world, *local;
    };
    for (const Names& n : {Names {"RANK", "WORLD_SIZE", "LOCAL_RANK"},
                           Names {"SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
                           Names {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"}}) {
        const auto rank = envInt(n.rank);
        if (!rank)
            continue;
        RankEnvironment e;
        e.rank = *rank;
        const auto world = envInt(n.world);
        if (!world || *world < 1 || e.rank >= *world)
            throw ConfigError(fmt::format("{}={} but {} is {}; the launcher must set both, with the rank below the "
                                          "number of processes",
                                          n.rank, e.rank, n.world, world ? std::to_string(*world) : "not set"));
        e.worldSize = *world;
        e.localRank = envInt(n.local).value_or(0);
        e.masterAddr = envText("MASTER_ADDR");
        const auto port = envInt("MASTER_PORT");
        if (e.masterAddr.empty() || !port || *port < 1 || *port > 65535)
            throw ConfigError(fmt::format("{} is set (rank {} of {}) but MASTER_ADDR/MASTER_PORT are not: export "
                                          "MASTER_ADDR=<rank 0's host> MASTER_PORT=<a free port> on every node "
                                          "(torchrun sets them itself)",
                                          n.rank, e.rank, e.worldSize));
        e.masterPort = *port;
        const std::string agent = envText("TORCHELASTIC_USE_AGENT_STORE");
        e.agentStore = agent == "True" || agent == "true" || agent == "1";
        e.statusFile = envValue(EnvVar::RankStatus);
        return e;
    }
    return std::nullopt;
}

int processesFor(const TrainingConfig& config)
{
    if (config.processes > 0)
        return config.processes;
    return std::max<int>(1, static_cast<int>(config.device.gpus.size()));
}

std::vector<int> rankDevices(const TrainingConfig& config, const RankEnvironment& env, bool& fallback)
{
    fallback = config.deviceFallback;
    if (config.device.isAuto()) {
        fallback = true;
        return {env.localRank};
    }
    const auto& gpus = config.device.gpus;
    if (gpus.size() <= 1)
        return gpus; // the CPU, or one GPU every rank shares
    if (env.localRank >= static_cast<int>(gpus.size()))
        throw ConfigError(fmt::format("LOCAL_RANK {} but --device {} names {} GPUs; name one GPU per process on this "
                                      "node (or one GPU for all)",
                                      env.localRank, config.device.toString(), gpus.size()));
    return {gpus[static_cast<size_t>(env.localRank)]};
}

nlohmann::json agreementJson(const TrainingConfig& config, const Dataset& data, int64_t trainRows)
{
    nlohmann::json a = toJson(config);
    for (const char* perRank : {"input", "output", "device", "device_fallback", "processes", "dist_timeout_s",
                                "step_interval", "notes"})
        a.erase(perRank);
    Sha256 x, y;
    x.update(data.x.data(), data.x.size() * sizeof(float));
    y.update(data.y.data(), data.y.size() * sizeof(float));
    a["data_rows"] = data.rows;
    a["data_columns"] = data.cols;
    a["training_rows"] = trainRows;
    a["data_sha256"] = x.hexDigest() + "/" + y.hexDigest();
    return a;
}

void checkWorldFits(const TrainingConfig& config, const RankEnvironment& env)
{
    const bool hostsStore = env.rank == 0 && !env.agentStore;
    const bool mesh = config.distBackend != DistBackend::Nccl; // auto may be Gloo
    rlimit r {};
    if ((!hostsStore && !mesh) || ::getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur == RLIM_INFINITY)
        return;
    std::error_code ec;
    long open = 0;
    for (std::filesystem::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end; it.increment(ec))
        ++open;
    constexpr long kReserve = 64; // the data file, the output files, libraries' own descriptors
    const long peers = env.worldSize - 1L;
    const long need = peers * ((hostsStore ? 1 : 0) + (mesh ? 1 : 0)) + open + kReserve;
    if (need <= static_cast<long>(r.rlim_cur))
        return;
    throw ConfigError(fmt::format(
        "WORLD_SIZE={}: this rank would hold {} connections ({}{}) but may open {} files (ulimit -n), {} of them "
        "in use; check WORLD_SIZE (the launcher sets it to the number of processes it started), or raise the "
        "limit with `ulimit -n` before starting the ranks",
        env.worldSize, need - open - kReserve, hostsStore ? "the rendezvous store on rank 0: one per rank" : "",
        mesh ? std::string(hostsStore ? "; " : "") + "Gloo's full mesh: one per peer" : "", r.rlim_cur, open));
}

nlohmann::json distJson(const TrainingConfig& config, const RankEnvironment& env, const nlohmann::json& agreement)
{
    return {{"agree", agreement},
            {"rank", env.rank},
            {"world_size", env.worldSize},
            {"local_rank", env.localRank},
            {"master_addr", env.masterAddr},
            {"master_port", env.masterPort},
            {"backend", distBackendName(config.distBackend)},
            {"timeout_s", config.distTimeoutS},
            {"bucket_bytes", static_cast<int64_t>(config.distBucketMb * 1e6)},
            {"status_file", env.statusFile},
            {"store_server", env.rank == 0 && !env.agentStore}};
}

std::shared_ptr<const TrainingResult> launchRanks(const TrainingConfig& config, const TrainingProgressCallback& progress,
                                                  const CancelToken& cancel)
{
    const int world = processesFor(config);
    LaunchFolder dir;
    nlohmann::json child = toJson(config);
    child["notes"] = nlohmann::json::array(); // the launcher reports them once
    child["resume"] = config.resume;
    writeText(dir.file("config.json"), child.dump());
    RunObserver observer(nullptr, progress, config.epochs, cancel);
    std::vector<RankProcess> ranks;
    bool killed = false;
    try {
        const int port = freePort();
        for (int r = 0; r < world; ++r)
            ranks.push_back(spawnRank(r, world, port, dir, config));
        killed = supervise(ranks, observer, config, cancel);
    } catch (...) { // a rank could not start, or rank 0 printed a broken event: no rank outlives the launcher
        stopAll(ranks);
        throw;
    }
    if (const auto it = std::find_if(ranks.begin(), ranks.end(), refusedConfiguration); it != ranks.end()) {
        // A rank refused the configuration: its message, as if this process had found it.
        std::string m = finalMessage(it->err);
        m = m.rfind("stackscope-cli: ", 0) == 0 ? m.substr(16) : m;
        throw ConfigError(it->rank == 0 ? m : fmt::format("rank {}: {}", it->rank, m));
    }
    if (std::any_of(ranks.begin(), ranks.end(), failed))
        throw std::runtime_error(failureReport(ranks, killed, config));
    auto result = std::make_shared<TrainingResult>(std::move(observer.result()));
    result->outputDir = config.output;
    result->notes.insert(result->notes.begin(), config.notes.begin(), config.notes.end());
    result->metadata = readMetadata(config.output + "/model_metadata.json");
    return result;
}

} // namespace stackscope::training
