// Which devices a probe worker can use: a worker started with --list-devices, read within a time limit and its caps.
#include "core/probes/probe_runner.h"

#include "core/probes/probe_protocol.h"
#include "core/probes/worker_process.h"
#include "core/util/program_paths.h"
#include "core/util/subprocess.h"
#include "core/util/text_escape.h"

#include <fmt/format.h>

#include <chrono>
#include <fcntl.h>
#include <stdexcept>
#include <sys/wait.h>

namespace stackscope {

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;
using worker::ChildProcess;
using worker::exitedNow;
using worker::kMaxLineBytes;
using worker::killGroup;
using worker::pollPipes;
using worker::reap;
using worker::spawnWorker;

// Runs a worker with --list-devices and returns its "devices" message.
std::optional<json> queryDevices(const std::string& program, const std::vector<std::string>& args,
                                 std::chrono::milliseconds timeout, std::string* error)
{
    ChildProcess child;
    try {
        child = spawnWorker(program, args, worker::workerEnvironment({}));
    } catch (const std::runtime_error& e) {
        if (error)
            *error = e.what();
        return std::nullopt;
    }
    std::string out, err;
    bool outOpen = true, errOpen = true;
    ::fcntl(child.out, F_SETFL, O_NONBLOCK);
    ::fcntl(child.err, F_SETFL, O_NONBLOCK);
    const auto deadline = Clock::now() + timeout;
    bool timedOut = false;
    auto stopReading = Clock::time_point::max();
    while ((outOpen || errOpen) && Clock::now() < stopReading) {
        const auto now = Clock::now();
        if (now >= deadline && !timedOut) {
            killGroup(child.pid);
            timedOut = true;
            stopReading = std::min(stopReading, now + kEofGrace);
        }
        if (exitedNow(child))
            stopReading = std::min(stopReading, now + kEofGrace);
        if (!pollPipes(child, outOpen, errOpen, 100, out, err))
            break;
        if (out.size() > kMaxLineBytes || err.size() > kMaxLineBytes) { // --list-devices prints one short line
            killGroup(child.pid);
            break;
        }
    }
    const int status = reap(child);
    std::size_t pos = 0, nl;
    while ((nl = out.find('\n', pos)) != std::string::npos) {
        auto msg = parseWorkerLine(out.substr(pos, nl - pos));
        pos = nl + 1;
        if (msg && msg->type == "devices")
            return msg->body;
        if (msg && msg->type == "hello" && error) {
            if (auto mismatch = protocolMismatch(msg->body, program); !mismatch.empty()) {
                *error = mismatch;
                return std::nullopt;
            }
            if (msg->body.contains("error"))
                *error = msg->body.value("error", std::string());
        }
    }
    if (error && error->empty()) {
        if (timedOut)
            *error = fmt::format("listing devices took longer than {:.0f} s; the GPU stack may hang at start "
                                 "(try `stackscope-cli probe --device cpu`)", timeout.count() / 1000.0);
        else if (WIFSIGNALED(status))
            *error = fmt::format("listing devices crashed the worker ({}); {}", signalName(WTERMSIG(status)),
                                 escapeMessage(err.substr(err.size() > 400 ? err.size() - 400 : 0)));
        else
            *error = fmt::format("the worker listed no devices (exit {}); {}", WEXITSTATUS(status),
                                 escapeMessage(err.substr(err.size() > 2000 ? err.size() - 2000 : 0)));
    }
    return std::nullopt;
}

// The devices of a worker's "devices" message; {cpu} and *error set when there are none.
std::vector<ProbeDevice> devicesFrom(const std::optional<json>& body, const std::string& why, std::string* error,
                                     std::string* backend)
{
    std::vector<ProbeDevice> out;
    if (body) {
        // A worker without a usable torch module answers {cpu} with "backend": null and the module's "error".
        if (auto it = body->find("backend"); backend && it != body->end() && it->is_string())
            *backend = it->get<std::string>();
        for (const auto& d : body->value("devices", json::array()))
            out.push_back({d.value("id", std::string()), d.value("name", std::string())});
        if (auto it = body->find("error"); error && it != body->end() && it->is_string() && !it->get<std::string>().empty())
            *error = it->get<std::string>();
    }
    if (out.empty()) {
        out.push_back({"cpu", "CPU"});
        if (error)
            *error = why.empty() ? "the worker reported no devices" : why;
    }
    return out;
}

} // namespace

std::vector<ProbeDevice> listProbeDevices(const std::string& workerProgram, std::chrono::milliseconds timeout,
                                          std::string* error, std::string* backend)
{
    std::string why;
    auto body = queryDevices(workerProgram.empty() ? cliProgram() : workerProgram,
                             {kProbeWorkerEntry, "--list-devices"}, timeout, &why);
    return devicesFrom(body, why, error, backend);
}

std::vector<ProbeDevice> listPythonProbeDevices(const std::string& python, const std::string& script,
                                                std::chrono::milliseconds timeout, std::string* error, std::string* backend)
{
    std::string why;
    if (script.empty()) {
        why = "the Python probe worker (stackscope_probe_worker.py) was not found next to StackScope; reinstall it or "
              "set STACKSCOPE_PYTHON_WORKER";
        return devicesFrom(std::nullopt, why, error, backend);
    }
    auto body = queryDevices(python, {script, "--list-devices"}, timeout, &why);
    return devicesFrom(body, why, error, backend);
}

} // namespace stackscope
