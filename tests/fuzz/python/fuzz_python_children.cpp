// libFuzzer entry for the child-process protocol of Python discovery and the Python probe worker: the input is
// what a fake interpreter prints (stdout, then stderr after a NUL byte), run as a real child through
// queryPythonEnvs, and the same bytes fed to the probe worker's line parser and stderr splitter. Checked: every
// answer is JSON of the documented types and can be written (no text that is not UTF-8), nothing grows past its cap.
#include "core/probes/probe_protocol.h"
#include "core/probes/worker_process.h"
#include "core/python/python_envs.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

const fs::path& folder()
{
    static const fs::path f = [] {
        const fs::path root = fs::path("/dev/shm") / ("fuzz-python-children-" + std::to_string(::getpid()));
        fs::create_directories(root / "bin");
        std::ofstream(root / "bin/python3") << "#!/bin/sh\nd=$(dirname \"$0\")\ncat \"$d/out\"\ncat \"$d/err\" >&2\n";
        fs::permissions(root / "bin/python3", fs::perms::owner_all);
        return root;
    }();
    return f;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace stackscope;
    const std::string in(reinterpret_cast<const char*>(data), size);
    const auto nul = in.find('\0');
    const std::string out = in.substr(0, nul);
    const std::string err = nul == std::string::npos ? std::string() : in.substr(nul + 1);

    worker::StderrSplitter split;
    split.append(out);
    split.append(err);
    split.finish();
    if (split.tail(1u << 30).size() > worker::kStderrKeepBytes + 128)
        __builtin_trap();
    for (std::size_t start = 0; start <= out.size();) {
        const auto end = out.find('\n', start);
        const auto line = out.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (auto msg = parseWorkerLine(line))
            (void)msg->body.dump();
        if (end == std::string::npos)
            break;
        start = end + 1;
    }

    const fs::path& f = folder();
    std::ofstream(f / "out", std::ios::binary | std::ios::trunc) << out;
    std::ofstream(f / "err", std::ios::binary | std::ios::trunc) << err;
    PythonQueryOptions o;
    o.quickTimeout = std::chrono::seconds(5);
    o.readFiles = false;
    const auto envs = queryPythonEnvs({{(f / "bin/python3").string(), "added", {}}}, o);
    const auto& e = envs.at(0);
    if (!e["has_torch"].is_null() && !e["has_torch"].is_boolean())
        __builtin_trap();
    for (const char* k : {"python_version", "torch_version", "error", "torch_dir"}) {
        if (e.contains(k) && !e[k].is_string() && !e[k].is_null())
            __builtin_trap();
    }
    (void)envs.dump(); // throws on text that is not UTF-8
    return 0;
}
