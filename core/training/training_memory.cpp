// Training memory model (parameters, Adam state, saved files, activations) and available-memory probes.
#include "core/training/training_memory.h"

#include <fmt/format.h>

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

double readNumber(const std::string& path)
{
    std::ifstream in(path);
    std::string text;
    if (!(in >> text) || text == "max")
        return -1;
    try {
        return std::stod(text);
    } catch (const std::exception&) {
        return -1; // not a number: no limit known, the other sources decide
    }
}

double cgroupLeft()
{
    std::ifstream in("/proc/self/cgroup");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("0::", 0) != 0)
            continue;
        const std::string dir = "/sys/fs/cgroup" + line.substr(3);
        const double max = readNumber(dir + "/memory.max");
        const double current = readNumber(dir + "/memory.current");
        if (max < 0 || current < 0)
            return -1;
        return max > current ? max - current : 0;
    }
    return -1;
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
                                                      {cgroupLeft(), "the cgroup's memory.max"}};
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
