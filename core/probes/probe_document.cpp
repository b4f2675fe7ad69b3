// The probe run document shared by `probe --json`, `report` and the Probes page's export.
#include "core/probes/probe_document.h"

#include "core/snapshot/probe_outcome.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>
#include <stdexcept>

namespace stackscope {

nlohmann::json probeRunDocument(const std::vector<ProbeRecord>& records, const std::vector<ProbeDevice>& devices,
                                const std::vector<ProbeVariant>& variants, const std::string& deviceListError)
{
    nlohmann::json doc = nlohmann::json::object();
    doc["devices"] = nlohmann::json::array();
    for (const auto& d : devices)
        doc["devices"].push_back({{"id", d.id}, {"name", d.name}});
    if (!deviceListError.empty())
        doc["device_list_error"] = deviceListError;
    doc["variants"] = nlohmann::json::array();
    for (const auto& v : variants)
        doc["variants"].push_back(toJson(v));
    doc["results"] = nlohmann::json::array();
    std::size_t failures = 0;
    for (const auto& r : records) {
        doc["results"].push_back(toJson(r));
        failures += isFailure(r.outcome.outcome) ? 1 : 0;
    }
    doc["failures"] = failures;
    return doc;
}

nlohmann::json probeDocument(const std::vector<ProbeRecord>& records, const std::vector<ProbeDevice>& devices)
{
    // Devices the page listed, then any a record names that the list lacks.
    std::vector<ProbeDevice> allDevices = devices;
    std::set<std::string> seenDevices;
    for (const auto& d : devices)
        seenDevices.insert(d.id);
    for (const auto& r : records) {
        if (seenDevices.insert(r.outcome.device).second) {
            ProbeDevice d;
            d.id = r.outcome.device;
            d.name = r.outcome.device == "cpu" ? "CPU" : "";
            allDevices.push_back(d);
        }
    }
    // The baseline environment per device, to tell what each variant changed.
    std::map<std::string, const std::map<std::string, std::string>*> baseline;
    for (const auto& r : records) {
        if (r.outcome.variant == "baseline" && !baseline.count(r.outcome.device))
            baseline[r.outcome.device] = &r.outcome.env;
    }
    std::vector<ProbeVariant> variants;
    std::set<std::string> seenVariants;
    for (const auto& r : records) {
        if (!seenVariants.insert(r.outcome.variant).second)
            continue;
        ProbeVariant v;
        v.name = r.outcome.variant;
        if (auto it = baseline.find(r.outcome.device); it != baseline.end() && v.name != "baseline") {
            const auto& base = *it->second;
            for (const auto& [k, val] : r.outcome.env) {
                auto b = base.find(k);
                if (b == base.end() || b->second != val)
                    v.env[k] = val;
            }
            for (const auto& [k, val] : base) {
                if (!r.outcome.env.count(k))
                    v.env[k] = std::nullopt;
            }
        }
        variants.push_back(std::move(v));
    }
    return probeRunDocument(records, allDevices, variants);
}

std::vector<ProbeRecord> probeRecordsFromDocument(const nlohmann::json& document)
{
    std::vector<ProbeRecord> out;
    if (document.is_null())
        return out;
    if (!document.is_object())
        throw std::runtime_error("probes: expected the object `stackscope-cli probe --json` prints");
    auto it = document.find("results");
    if (it == document.end() || it->is_null())
        return out;
    if (!it->is_array())
        throw std::runtime_error("probes.results: expected an array of probe results");
    std::size_t i = 0;
    for (const auto& j : *it) {
        try {
            ProbeRecord r;
            r.outcome = probeOutcomeFromJson(j);
            auto number = [&](const char* key) -> std::optional<double> {
                auto k = j.find(key);
                if (k == j.end() || k->is_null())
                    return std::nullopt;
                if (!k->is_number())
                    throw std::runtime_error(fmt::format("key '{}' must be a number", key));
                return k->get<double>();
            };
            r.seconds = number("seconds").value_or(0.0);
            r.endedAt = number("ended_s").value_or(0.0);
            r.maxError = number("max_error");
            r.tolerance = number("tolerance");
            r.errorRatio = number("error_ratio");
            if (auto d = j.find("details"); d != j.end() && d->is_object())
                r.details = *d;
            out.push_back(std::move(r));
        } catch (const std::exception& e) {
            throw std::runtime_error(fmt::format("probes.results[{}]: {}", i, e.what()));
        }
        ++i;
    }
    return out;
}

} // namespace stackscope
