// A vendor library opened at run time, with every path tried and the loader's message for each.
#pragma once

#include "core/snapshot/snapshot.h"
#include "core/util/environment.h"

#include <string>
#include <vector>

namespace stackscope {

class DynamicLibrary {
public:
    DynamicLibrary() = default;
    // Tries the candidates in order; the first that loads wins. The handle is never closed:
    // vendor runtimes are not safe to unload.
    static DynamicLibrary open(const std::vector<std::string>& candidates);

    bool isLoaded() const { return m_handle != nullptr; }
    // File actually mapped (resolved by the loader), empty when nothing loaded.
    const std::string& loadedPath() const { return m_loadedPath; }
    const std::vector<LoadAttempt>& attempts() const { return m_attempts; }
    // "path: error" for every failed attempt, joined by "; ".
    std::string failureSummary() const;
    // The status record for the snapshot.
    LibraryStatus status(const std::string& component) const;

    void* rawSymbol(const char* name) const;
    template <typename F>
    F symbol(const char* name) const
    {
        return reinterpret_cast<F>(rawSymbol(name));
    }

private:
    void* m_handle = nullptr;
    std::string m_loadedPath;
    std::vector<LoadAttempt> m_attempts;
};

// Documented search order for a vendor library: the explicit setting (the environment variable `override`,
// docs/environment.md), $ROCM_PATH/lib, /opt/rocm/lib (for ROCm libraries), then the system loader's path for each
// soname.
std::vector<std::string> vendorLibraryCandidates(EnvVar override, const std::vector<std::string>& sonames, bool rocmLibrary);

} // namespace stackscope
