// Training memory model (parameters, Adam state, saved files, activations) and available-memory probes.
#include "core/training/training_memory.h"

#include "core/util/file_read.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

namespace stackscope::training {

namespace {

constexpr double kBytesPerParameter = 64;
constexpr double kActivationCopies = 4;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

double meminfoAvailable()
{
    std::ifstream in("/proc/meminfo");
    std::string key;
    double kib = 0;
    std::string unit;
    while (in >> key >> kib >> unit)
        if (key == "MemAvailable:")
            return kib * 1024.0;
    return -1;
}

double mappedBytes()
{
    std::ifstream in("/proc/self/statm");
    double pages = 0;
    if (!(in >> pages))
        return 0;
    return pages * static_cast<double>(::sysconf(_SC_PAGESIZE));
}

double addressSpaceLeft()
{
    rlimit r {};
    if (::getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY)
        return -1;
    const double left = static_cast<double>(r.rlim_cur) - mappedBytes();
    return left > 0 ? left : 0;
}

// A cgroup file's number; -1 for "max", an absent or unreadable file, or text that is no number.
double readNumber(const std::filesystem::path& path)
{
    const auto text = readRegularFile(path, 4096);
    if (!text)
        return -1;
    std::istringstream in(*text);
    std::string word;
    if (!(in >> word) || word == "max")
        return -1;
    try {
        return std::stod(word);
    } catch (const std::exception&) {
        return -1; // not a number: no limit known, the other sources decide
    }
}

// cgroup v1 writes "no limit" as the page counter's maximum rounded to pages: 9223372036854771712 with 4 KiB pages.
// Anything at or above 2^62 bytes is no limit a machine has.
constexpr double kNoLimitV1 = 4611686018427387904.0;

// The least (limit - usage) over `dir` and its parents up to `mount`, where each level may set its own limit;
// -1 when no level has one.
double leastLeft(const std::filesystem::path& mount, std::filesystem::path dir, const char* limitFile, const char* usageFile)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(mount / dir.relative_path(), ec))
        dir = "/"; // a container sees its own cgroup at the mount's root while /proc/self/cgroup names the host's path
    double least = -1;
    for (;;) {
        const auto level = mount / dir.relative_path();
        const double limit = readNumber(level / limitFile);
        const double usage = readNumber(level / usageFile);
        if (limit >= 0 && limit < kNoLimitV1 && usage >= 0) {
            const double left = limit > usage ? limit - usage : 0;
            if (least < 0 || left < least)
                least = left;
        }
        if (dir == dir.root_path() || dir.empty())
            break;
        dir = dir.parent_path();
    }
    return least;
}

} // namespace

double cgroupMemoryLeft(const std::string& sysRoot, const std::string& procSelfCgroup)
{
    const std::filesystem::path root(sysRoot);
    std::istringstream in(procSelfCgroup);
    std::string line;
    double least = -1;
    auto take = [&](double left) {
        if (left >= 0 && (least < 0 || left < least))
            least = left;
    };
    while (std::getline(in, line)) {
        // "0::/path" (v2), or "N:controller[,controller]:/path" (v1)
        const auto first = line.find(':');
        const auto second = first == std::string::npos ? first : line.find(':', first + 1);
        if (second == std::string::npos)
            continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        const std::filesystem::path path = line.substr(second + 1);
        if (line.compare(0, first, "0") == 0 && controllers.empty()) {
            take(leastLeft(root / "sys/fs/cgroup", path, "memory.max", "memory.current"));
            continue;
        }
        std::istringstream names(controllers);
        for (std::string c; std::getline(names, c, ',');) {
            if (c == "memory")
                take(leastLeft(root / "sys/fs/cgroup/memory", path, "memory.limit_in_bytes", "memory.usage_in_bytes"));
        }
    }
    return least;
}

namespace {

double cgroupLeft()
{
    const auto text = readRegularFile("/proc/self/cgroup", 64 * 1024);
    return text ? cgroupMemoryLeft("/", *text) : -1;
}

} // namespace

MemoryNeed trainingMemoryNeed(const TrainingConfig& config, int64_t featureColumns)
{
    MemoryNeed need;
    double width = static_cast<double>(featureColumns);
    double activations = width;
    for (int h : config.hidden) {
        need.parameters += width * h + h;
        width = h;
        activations += h;
    }
    need.parameters += width + 1; // the output layer
    activations += 1;
    need.bytes = need.parameters * kBytesPerParameter +
                 static_cast<double>(config.batchSize) * activations * 4.0 * kActivationCopies;
    return need;
}

MemoryAvailable availableMemory()
{
    MemoryAvailable a;
    const std::pair<double, const char*> sources[] = {{meminfoAvailable(), "MemAvailable in /proc/meminfo"},
                                                      {addressSpaceLeft(), "the address-space limit (ulimit -v)"},
                                                      {cgroupLeft(), "the cgroup's memory limit"}};
    for (const auto& [bytes, source] : sources) {
        if (bytes >= 0 && (a.bytes < 0 || bytes < a.bytes)) {
            a.bytes = bytes;
            a.source = source;
        }
    }
    return a;
}

void checkTrainingMemory(const TrainingConfig& config, int64_t featureColumns)
{
    const MemoryNeed need = trainingMemoryNeed(config, featureColumns);
    const MemoryAvailable have = availableMemory();
    if (have.bytes < 0 || need.bytes <= have.bytes)
        return;
    std::ostringstream hidden;
    for (size_t i = 0; i < config.hidden.size(); ++i)
        hidden << (i ? "," : "") << config.hidden[i];
    throw ConfigError(fmt::format(
        "--hidden {} with --batch-size {}: the model has {:.0f} parameters and training it needs about {:.2f} GiB of "
        "memory (64 bytes a parameter: weights, gradients, Adam's moments, the best weights and the saved files, plus "
        "activations), but {:.2f} GiB is available ({}); use smaller --hidden layers or a machine with more memory",
        hidden.str(), config.batchSize, need.parameters, need.bytes / kGiB, have.bytes / kGiB, have.source));
}

} // namespace stackscope::training
