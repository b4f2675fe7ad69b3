// dlopen with a record of each attempt; the documented vendor-library search order.
#include "core/runtime/dynamic_library.h"

#include <cstdlib>
#include <dlfcn.h>
#include <link.h>

namespace stackscope {

DynamicLibrary DynamicLibrary::open(const std::vector<std::string>& candidates)
{
    DynamicLibrary lib;
    for (const auto& path : candidates) {
        dlerror();
        void* h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char* err = dlerror();
            lib.m_attempts.push_back({path, err ? err : "unknown loader error"});
            continue;
        }
        lib.m_handle = h;
        lib.m_attempts.push_back({path, {}});
        link_map* map = nullptr;
        if (::dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name)
            lib.m_loadedPath = map->l_name;
        else
            lib.m_loadedPath = path;
        break;
    }
    return lib;
}

std::string DynamicLibrary::failureSummary() const
{
    std::string out;
    for (const auto& a : m_attempts) {
        if (a.error.empty())
            continue;
        if (!out.empty())
            out += "; ";
        out += a.error.find(a.path) == std::string::npos ? a.path + ": " + a.error : a.error;
    }
    return out;
}

LibraryStatus DynamicLibrary::status(const std::string& component) const
{
    LibraryStatus st;
    st.component = component;
    st.loaded = isLoaded();
    if (st.loaded)
        st.path = m_loadedPath;
    st.tried = m_attempts;
    return st;
}

void* DynamicLibrary::rawSymbol(const char* name) const
{
    return m_handle ? ::dlsym(m_handle, name) : nullptr;
}

std::vector<std::string> vendorLibraryCandidates(EnvVar override, const std::vector<std::string>& sonames, bool rocmLibrary)
{
    std::vector<std::string> out;
    if (std::string explicitPath = envValue(override); !explicitPath.empty())
        out.push_back(std::move(explicitPath));
    if (rocmLibrary) {
        if (const char* rocm = std::getenv("ROCM_PATH"); rocm && *rocm) {
            for (const auto& so : sonames)
                out.push_back(std::string(rocm) + "/lib/" + so);
        }
        for (const auto& so : sonames)
            out.push_back("/opt/rocm/lib/" + so);
    }
    for (const auto& so : sonames)
        out.push_back(so);
    return out;
}

} // namespace stackscope
