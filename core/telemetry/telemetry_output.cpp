// JSON lines and CSV for telemetry samples and the stored timeline.
#include "core/telemetry/telemetry_output.h"

#include "core/util/atomic_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <tuple>

namespace stackscope::telemetry {

std::string isoTimeUtc(TimeMs t)
{
    const std::time_t secs = static_cast<std::time_t>(t >= 0 ? t / 1000 : (t - 999) / 1000);
    const int ms = static_cast<int>(t - static_cast<TimeMs>(secs) * 1000);
    std::tm tm {};
    gmtime_r(&secs, &tm);
    char buf[32] = {};
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    return fmt::format("{}.{:03d}Z", buf, ms);
}

nlohmann::json sampleToJson(const TelemetrySample& sample)
{
    nlohmann::json j;
    j["time_ms"] = sample.timeMs;
    j["time"] = isoTimeUtc(sample.timeMs);
    auto gpus = nlohmann::json::array();
    for (const auto& g : sample.gpus) {
        nlohmann::json jg;
        jg["index"] = g.index;
        jg["vendor"] = g.vendor;
        jg["name"] = g.name;
        nlohmann::json readings = nlohmann::json::object();
        for (Quantity q : kAllQuantities) {
            const Reading& r = g.at(q);
            nlohmann::json jr;
            if (r.present()) {
                jr["value"] = *r.value;
                jr["unit"] = quantityUnit(q);
                jr["source"] = r.source;
            } else {
                jr["value"] = nullptr;
                jr["missing"] = missingReasonKey(r.reason);
                jr["source"] = r.source;
                jr["detail"] = r.detail;
            }
            readings[quantityKey(q)] = std::move(jr);
        }
        jg["readings"] = std::move(readings);
        gpus.push_back(std::move(jg));
    }
    j["gpus"] = std::move(gpus);
    auto sources = nlohmann::json::array();
    for (const auto& s : sample.sources) {
        sources.push_back({{"name", s.source},
                           {"available", s.available},
                           {"reason", missingReasonKey(s.reason)},
                           {"detail", s.detail}});
    }
    j["sources"] = std::move(sources);
    return j;
}

std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\r\n") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

std::string timelineCsv(const TelemetryStore& store)
{
    struct Row {
        TimeMs t;
        std::string gpu;
        std::string quantity;
        std::string unit;
        std::string value;
        std::string text;
    };
    std::vector<Row> rows;
    for (const auto& key : store.keys()) {
        for (const auto& p : store.points(key)) {
            rows.push_back({p.t, key.gpu, quantityKey(key.quantity), quantityUnit(key.quantity),
                            fmt::format("{}", p.v), {}});
        }
    }
    for (const auto& e : store.allEvents())
        rows.push_back({e.timeMs, {}, std::string("event:") + eventKindKey(e.kind), {}, {}, e.text});
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return std::tie(a.t, a.gpu, a.quantity) < std::tie(b.t, b.gpu, b.quantity);
    });
    std::string out = "time_ms,time_utc,gpu,quantity,unit,value,text\n";
    out.reserve(rows.size() * 64);
    for (const auto& r : rows) {
        out += fmt::format("{},{},{},{},{},{},{}\n", r.t, isoTimeUtc(r.t), csvField(r.gpu), r.quantity, r.unit, r.value,
                           csvField(r.text));
    }
    return out;
}

void exportTimelineCsv(const TelemetryStore& store, const std::string& path)
{
    writeFileAtomically(path, timelineCsv(store));
}

} // namespace stackscope::telemetry
