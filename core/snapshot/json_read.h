// Reading snapshot JSON (snapshot_json.cpp, finding_json.cpp): a value or its absence, wrong types refused with the
// key's path, as SnapshotError.
#pragma once

#include "core/snapshot/snapshot_json.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <type_traits>

namespace stackscope::jsonread {

using nlohmann::json;

// Reading: `path` names the key for error messages ("gpus[1].vram_total_bytes").
template <typename T>
std::optional<T> readOpt(const json& obj, const char* key, const std::string& path)
{
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        return std::nullopt;
    // nlohmann converts -5 to a huge unsigned and 2.7 to 2: refuse both.
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        const bool ok = std::is_unsigned_v<T> ? it->is_number_unsigned() : it->is_number_integer();
        if (!ok)
            throw SnapshotError(fmt::format("'{}.{}' must be a{} integer, found {}", path, key,
                                            std::is_unsigned_v<T> ? " non-negative" : "n", it->dump()));
    }
    try {
        return it->get<T>();
    } catch (const json::exception&) {
        throw SnapshotError(fmt::format("'{}.{}' has the wrong type ({}); fix or remove that value",
                                        path, key, it->type_name()));
    }
}

template <typename T>
T readOr(const json& obj, const char* key, const std::string& path, T fallback)
{
    auto v = readOpt<T>(obj, key, path);
    return v ? *v : fallback;
}

} // namespace stackscope::jsonread
