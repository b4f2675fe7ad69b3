// `stackscope-cli probe-worker`: the child the probe runner starts; runs probes through the torch
// module and speaks JSON lines on stdout (core/probes/probe_protocol.h). Not meant to be typed.
#include "app/cli/command.h"
#include "core/vpoc/gpu_self_check.h"

#include "core/snapshot/probe_outcome.h"
#include "core/runtime/dynamic_library.h"
#include "core/inspect/runtime_sources.h"
#include "core/runtime/torch_module.h"
#include "core/probes/probe_catalogue.h"
#include "core/probes/probe_protocol.h"
#include "core/runtime/probe_module_api.h"
#include "core/runtime/torch_module_api.h"
#include "core/util/program_paths.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>
#include <unistd.h>

namespace stackscope::cli {

namespace {

using nlohmann::json;

// The protocol gets its own descriptor; fd 1 then points at stderr, so whatever a library prints
// on stdout is captured with the warnings instead of breaking a JSON line.
class ProtocolOut {
public:
    ProtocolOut()
    {
        std::fflush(stdout);
        m_fd = ::dup(1);
        ::dup2(2, 1);
    }
    void send(const json& message)
    {
        const std::string line = workerLine(message);
        std::size_t done = 0;
        while (done < line.size()) {
            const ssize_t n = ::write(m_fd, line.data() + done, line.size() - done);
            if (n <= 0)
                return; // the runner is gone: nothing left to tell
            done += static_cast<std::size_t>(n);
        }
    }

private:
    int m_fd = 1;
};

void stderrMarker(const std::string& probe)
{
    std::fflush(stdout);
    std::fprintf(stderr, "%s%s\n", kStderrMarker, probe.c_str());
    std::fflush(stderr);
}

struct TorchModule {
    DynamicLibrary lib;
    char* (*run)(const char*) = nullptr;
    void (*release)(char*) = nullptr;
    std::string error;
};

TorchModule openModule()
{
    TorchModule m;
    m.lib = openTorchModule("stackscope_torch_abi", STACKSCOPE_TORCH_MODULE_ABI, "probes", m.error);
    if (!m.error.empty())
        return m;
    m.run = m.lib.symbol<char* (*)(const char*)>("stackscope_torch_run_probe");
    m.release = m.lib.symbol<void (*)(char*)>("stackscope_torch_free");
    if (!m.run || !m.release)
        m.error = fmt::format("{} has no probes (stackscope_torch_run_probe missing); rebuild StackScope",
                              m.lib.loadedPath());
    return m;
}

json call(const TorchModule& m, const json& request)
{
    char* text = m.run(request.dump().c_str());
    const std::string body = text ? text : "";
    m.release(text);
    auto j = json::parse(body, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return {{"outcome", probeResultName(ProbeResult::Error)},
                {"message", "the torch module returned unreadable data; rebuild StackScope"}};
    return j;
}

// Fault injection for the runner's tests: what a broken GPU stack does to a process.
[[noreturn]] void injectProcessFault(const std::string& kind)
{
    if (kind == "crash") {
        std::fprintf(stderr, "stackscope: injected crash (SIGSEGV)\n");
        std::fflush(stderr);
        std::raise(SIGSEGV);
    } else if (kind == "abort") {
        std::fprintf(stderr, "stackscope: injected abort\n");
        std::fflush(stderr);
        std::abort();
    }
    for (;;) // hang: a kernel that never returns
        std::this_thread::sleep_for(std::chrono::seconds(1));
}

// Fault injection for the runner's tests: the error result of an allocation no device can satisfy, made here before
// the torch module is used, so a worker without libtorch answers it too. The message names memory as an allocator's
// does (PyTorch: "... out of memory. Tried to allocate ..."); the runner reports it as an error.
json injectedOutOfMemory(const std::string& device)
{
    return {{"outcome", probeResultName(ProbeResult::Error)},
            {"message", fmt::format("out of memory (injected for tests): tried to allocate {} bytes on {}",
                                    int64_t(1) << 50, device == "cpu" ? std::string("the CPU") : "GPU " + device)}};
}

void addProbeWorkerCommand(CLI::App& app, CommandContext& ctx)
{
    auto* cmd = app.add_subcommand(kProbeWorkerEntry, "Internal: the child process of `probe` (JSON lines on stdout)");
    cmd->group(""); // hidden from --help: people use `probe`
    struct Options {
        std::string device = "cpu";
        std::vector<std::string> probes;
        std::string inject;
        std::string injectProbe;
        bool listDevices = false;
        bool waitGo = false;
    };
    auto opts = std::make_shared<Options>();
    cmd->add_option("--device", opts->device, "cpu or a GPU index");
    cmd->add_option("--probe", opts->probes, "Probe ids to run in order (default: all for the device)");
    cmd->add_option("--inject", opts->inject, "Tests only: crash|abort|hang|wrong|perturb|oom")
        ->check(CLI::IsMember({"crash", "abort", "hang", "wrong", "perturb", "oom"}));
    cmd->add_option("--inject-probe", opts->injectProbe, "Tests only: the probe that gets the fault (default: the first)");
    cmd->add_flag("--list-devices", opts->listDevices, "Print the devices libtorch sees and exit");
    cmd->add_flag(kWaitGoFlag, opts->waitGo, "After the hello, run the probes only when stdin says 'go'");
    cmd->callback([opts, &ctx] {
        ProtocolOut out;
        const auto module = openModule();
        json hello {{"type", "hello"}, {"protocol", kProbeProtocolVersion}, {"pid", static_cast<long>(::getpid())}};
        if (!module.error.empty())
            hello["error"] = module.error;
        out.send(hello);
        if (opts->listDevices) {
            if (module.error.empty()) {
                auto devices = call(module, {{"op", "devices"}});
                devices["type"] = "devices";
                out.send(devices);
            } else {
                out.send({{"type", "devices"}, {"backend", nullptr}, {"devices", json::array({{{"id", "cpu"}, {"name", "CPU"}}})},
                          {"error", module.error}});
            }
            out.send({{"type", "done"}});
            return;
        }
        if (opts->waitGo) {
            std::string line;
            if (!std::getline(std::cin, line) || line != "go")
                return; // the runner stopped before this worker's turn
        }
        auto probes = opts->probes.empty() ? probesForDevice(opts->device) : opts->probes;
        const std::string injectProbe = opts->injectProbe.empty() && !probes.empty() ? probes.front() : opts->injectProbe;
        for (const auto& id : probes) {
            stderrMarker(id);
            out.send({{"type", "start"}, {"probe", id}});
            const bool inject = !opts->inject.empty() && id == injectProbe;
            if (inject && (opts->inject == "crash" || opts->inject == "abort" || opts->inject == "hang"))
                injectProcessFault(opts->inject);
            const auto t0 = std::chrono::steady_clock::now();
            json result;
            if (!findProbe(id)) {
                result = {{"outcome", probeResultName(ProbeResult::Unsupported)},
                          {"message", fmt::format("no probe '{}' in the catalogue", id)}};
            } else if (inject && opts->inject == "oom") {
                result = injectedOutOfMemory(opts->device);
            } else if (id == "stackscope_kernel") {
                // StackScope's own kernel runs from its GPU module, not through libtorch.
                const auto check = vpoc::runKernelSelfCheck(opts->device);
                result = {{"outcome", probeResultName(check.outcome)}, {"message", check.message}};
            } else if (!module.error.empty()) {
                result = {{"outcome", probeResultName(ProbeResult::Error)}, {"message", module.error}};
            } else {
                result = call(module, {{"probe", id}, {"device", opts->device}, {"inject", inject ? opts->inject : ""}});
            }
            std::fflush(stdout);
            std::fflush(stderr);
            result["type"] = "result";
            result["probe"] = id;
            result["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            out.send(result);
        }
        out.send({{"type", "done"}});
        ctx.exitCode = ExitOk;
    });
}

const CommandRegistration registration {kProbeWorkerEntry, 31, &addProbeWorkerCommand};

} // namespace

} // namespace stackscope::cli
