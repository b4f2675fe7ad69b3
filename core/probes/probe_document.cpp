// The probe run document shared by `probe --json`, `report` and the Probes page's export.
#include "core/probes/probe_document.h"

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

} // namespace stackscope
