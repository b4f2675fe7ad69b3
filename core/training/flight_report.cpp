// Reads the ranks' flight recorder rings, attributes a hang and writes flight_recorder.json.
#include "core/training/flight_report.h"

#include "core/util/atomic_file.h"
#include "core/util/flight_ring.h"

#include <chrono>
#include <filesystem>
#include <fstream>

namespace stackscope::training {

FlightReport writeFlightReport(const std::vector<std::string>& statusFiles, const std::string& outputDir,
                               const std::string& reason)
{
    FlightReport out;
    std::vector<flight::RankRing> rings;
    nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
    for (const auto& file : statusFiles) {
        if (auto ring = flight::readRing(file)) {
            ranks.push_back(flight::ringJson(*ring));
            rings.push_back(std::move(*ring));
        }
    }
    out.ranksRead = static_cast<int>(rings.size());
    if (rings.empty())
        return out; // no rank got as far as its process group: nothing to attribute
    out.attribution = flight::attribute(rings);
    const double now =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    const nlohmann::ordered_json doc = {{"schema", "stackscope.flight-recorder/1"},
                                {"reason", reason},
                                {"written_at", now},
                                {"source", "https://pytorch.org/docs/stable/torch_nccl_flight_recorder.html"},
                                {"verdict", out.attribution},
                                {"ranks", ranks}};
    const std::string path = outputDir + "/flight_recorder.json";
    try {
        std::error_code ec;
        std::filesystem::create_directories(outputDir, ec);
        writeFileAtomically(path, doc.dump(1) + "\n");
        out.path = path;
    } catch (const std::exception& e) {
        out.notWritten = e.what();
    }
    return out;
}

bool processStopped(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t close = stat.rfind(')'); // the command name may hold spaces and parentheses
    if (close == std::string::npos || close + 2 >= stat.size())
        return false;
    const char state = stat[close + 2];
    return state == 'T' || state == 't';
}

} // namespace stackscope::training
