// JSON-lines protocol between the probe runner and the probe worker.
#include "core/probes/probe_protocol.h"

#include <fmt/format.h>

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

std::string protocolMismatch(const nlohmann::json& hello, const std::string& program)
{
    const auto it = hello.find("protocol");
    if (it != hello.end() && it->is_number_integer() && it->get<int>() == kProbeProtocolVersion)
        return {};
    return fmt::format("the probe worker ({}) speaks protocol {}, this StackScope expects {}: the worker and "
                       "stackscope-cli come from different builds; reinstall or rebuild StackScope so both are "
                       "from one build",
                       program, it != hello.end() ? it->dump() : std::string("(none)"), kProbeProtocolVersion);
}

} // namespace stackscope
