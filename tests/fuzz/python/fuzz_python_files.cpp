// libFuzzer entry for the files Python discovery reads as text (core/python/python_files.h): the input is cut into
// pyvenv.cfg, torch/version.py, a .pth file and pyenv's version file of a made-up environment in /dev/shm, whose
// interpreter must never be started. Checked: no crash, no hang, and every answer is JSON of the documented types.
#include "core/python/python_files.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

const fs::path& tree()
{
    static const fs::path t = [] {
        const fs::path root = fs::path("/dev/shm") / ("fuzz-python-files-" + std::to_string(::getpid()));
        fs::create_directories(root / "venv/bin");
        fs::create_directories(root / "venv/lib/python3.12/site-packages/torch");
        fs::create_directories(root / "pyenv/shims");
        fs::create_directories(root / "pyenv/versions/3.12.1/bin");
        for (const auto& p : {root / "venv/bin/python3", root / "pyenv/shims/python3", root / "pyenv/versions/3.12.1/bin/python3"}) {
            std::ofstream(p) << "#!/bin/sh\nkill -ABRT $PPID\n"; // started: the fuzzer dies, and says so
            fs::permissions(p, fs::perms::owner_all);
        }
        std::ofstream(root / "venv/lib/python3.12/site-packages/torch/__init__.py");
        return root;
    }();
    return t;
}

void put(const fs::path& p, const std::string& text)
{
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

void checkAnswer(const nlohmann::json& r)
{
    if (!r.is_object() || !r["has_torch"].is_boolean() || !r["python_version"].is_string())
        __builtin_trap();
    (void)r.dump(); // throws (and the fuzzer reports it) on text that is not UTF-8
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace stackscope;
    const std::string in(reinterpret_cast<const char*>(data), size);
    // Four parts separated by a NUL byte: pyvenv.cfg, version.py, a .pth, pyenv's version file.
    std::string parts[4];
    for (std::size_t i = 0, part = 0; i < in.size(); ++i) {
        if (in[i] == '\0' && part < 3)
            ++part;
        else
            parts[part] += in[i];
    }
    if (auto v = parseTorchVersionPy(parts[1])) {
        if (!(*v)["__version__"].is_string())
            __builtin_trap();
        (void)v->dump();
    }
    const fs::path& root = tree();
    const fs::path site = root / "venv/lib/python3.12/site-packages";
    put(root / "venv/pyvenv.cfg", parts[0].empty() ? std::string("version = 3.12.3\n") : parts[0]);
    put(site / "torch/version.py", parts[1]);
    put(site / "x.pth", parts[2]);
    put(root / "pyenv/version", parts[3]);
    PythonFileContext c;
    c.cwd = "/";
    if (auto r = quickLookFromFiles((root / "venv/bin/python3").string(), c))
        checkAnswer(*r);
    c.pyenvRoot = (root / "pyenv").string();
    if (auto target = pyenvShimTarget((root / "pyenv/shims/python3").string(), c)) {
        if (target->find(root.string()) != 0)
            __builtin_trap(); // a version file made it name an interpreter outside the root
    }
    return 0;
}
