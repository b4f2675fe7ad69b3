// Lenient reads of a report document's JSON for the builder and the renderers: a missing or null key is the
// fallback (or null), a non-string value its JSON text. Reports come from files of other versions too.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace stackscope::report::doc {

inline std::string str(const nlohmann::json& j, const char* key, const std::string& fallback = "")
{
    if (!j.is_object())
        return fallback;
    auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return fallback;
    if (it->is_string())
        return it->get<std::string>();
    return it->dump();
}

inline const nlohmann::json& at(const nlohmann::json& j, const char* key)
{
    static const nlohmann::json null;
    if (!j.is_object())
        return null;
    auto it = j.find(key);
    return it == j.end() ? null : *it;
}

} // namespace stackscope::report::doc
