// libtorch facts through StackScope's torch module, opened at run time so a broken libtorch is a finding.
#include "core/runtime/dynamic_library.h"
#include "core/runtime/torch_module.h"
#include "core/inspect/runtime_sources.h"
#include "core/runtime/torch_module_api.h"
#include "core/util/program_paths.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>

namespace stackscope {

namespace {

class TorchModuleSource : public RuntimeSource {
public:
    explicit TorchModuleSource(std::string path)
        : m_path(std::move(path))
    {
    }

    void collect(Snapshot& s) override
    {
        std::string error;
        auto lib = openTorchModule("stackscope_torch_abi", STACKSCOPE_TORCH_MODULE_ABI, "the module's facts", error,
                                   m_path.empty() ? std::vector<std::string> {} : std::vector<std::string> {m_path});
        auto status = lib.status("libtorch module");
        if (!lib.isLoaded()) {
            s.libraries.push_back(std::move(status));
            return;
        }
        s.torch.modulePath = lib.loadedPath();
        auto info = lib.symbol<char* (*)()>("stackscope_torch_info_json");
        auto release = lib.symbol<void (*)(char*)>("stackscope_torch_free");
        if (!error.empty()) {
            status.error = error;
        } else if (!info || !release) {
            status.error = "the file is not a StackScope torch module (entry points missing); rebuild StackScope";
        } else {
            char* text = info();
            const std::string body = text ? text : "";
            release(text);
            apply(body, s, status);
        }
        s.libraries.push_back(std::move(status));
    }

private:
    static void apply(const std::string& body, Snapshot& s, LibraryStatus& status)
    {
        const auto j = nlohmann::json::parse(body, nullptr, false);
        if (j.is_discarded() || !j.is_object()) {
            status.error = "the torch module returned unreadable data; rebuild StackScope against this libtorch";
            return;
        }
        if (j.contains("error")) {
            status.error = j.value("error", std::string());
            return;
        }
        auto str = [&](const char* key) -> std::optional<std::string> {
            auto it = j.find(key);
            return it != j.end() && it->is_string() ? std::optional<std::string>(it->get<std::string>()) : std::nullopt;
        };
        s.torch.version = str("version");
        s.torch.backend = str("backend");
        s.torch.builtWith = str("built_with");
        s.torch.blasBackend = str("blas_backend");
        s.torch.libraryPath = str("library_path");
        if (auto it = j.find("arch_list"); it != j.end() && it->is_array())
            s.torch.archList = it->get<std::vector<std::string>>();
        if (auto it = j.find("device_count"); it != j.end() && it->is_number_integer())
            s.torch.deviceCount = it->get<int>();
    }

    std::string m_path;
};

} // namespace

std::unique_ptr<RuntimeSource> makeTorchModuleSource(std::string modulePath)
{
    return std::make_unique<TorchModuleSource>(std::move(modulePath));
}

std::vector<std::unique_ptr<RuntimeSource>> defaultRuntimeSources()
{
    std::vector<std::unique_ptr<RuntimeSource>> out;
    out.push_back(makeHipRuntimeSource());
    out.push_back(makeRocmSmiSource());
    out.push_back(makeNvmlSource());
    out.push_back(makeCudaRuntimeSource());
    out.push_back(makeTorchModuleSource());
    return out;
}

} // namespace stackscope
