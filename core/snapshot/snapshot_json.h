// Snapshot <-> JSON ("stackscope.snapshot/1"); reading tolerates unknown keys.
#pragma once

#include "core/snapshot/snapshot.h"

#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>

namespace stackscope {

// Thrown for a snapshot that cannot be read; what() says where and what to do.
class SnapshotError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

nlohmann::json toJson(const Finding& f);
Finding findingFromJson(const nlohmann::json& j);
nlohmann::json toJson(const Snapshot& s);
Snapshot snapshotFromJson(const nlohmann::json& j);

// Parses text; errors name the origin (file path) and the position.
Snapshot parseSnapshot(const std::string& text, const std::string& origin);
Snapshot loadSnapshotFile(const std::string& path);
void saveSnapshotFile(const Snapshot& s, const std::string& path);

} // namespace stackscope
