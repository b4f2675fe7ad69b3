// JSON-lines protocol between the probe runner and the probe worker.
#include "core/probes/probe_protocol.h"

namespace stackscope {

std::optional<WorkerMessage> parseWorkerLine(const std::string& line)
{
    if (line.empty() || line.front() != '{')
        return std::nullopt;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return std::nullopt;
    auto it = j.find("type");
    if (it == j.end() || !it->is_string())
        return std::nullopt;
    return WorkerMessage {it->get<std::string>(), std::move(j)};
}

std::string workerLine(const nlohmann::json& message)
{
    // dump() escapes newlines inside strings, so a message is always one line.
    return message.dump() + "\n";
}

} // namespace stackscope
