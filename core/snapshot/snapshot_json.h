// Snapshot <-> JSON ("stackscope.snapshot/1"); reading tolerates unknown keys.
#pragma once

#include "core/util/error.h"

#include "core/snapshot/snapshot.h"

#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace stackscope {

// Thrown for a snapshot that cannot be read; what() says where and what to do.
class SnapshotError : public Error {
public:
    explicit SnapshotError(const std::string& what)
        : Error(what, ErrorKind::Input)
    {
    }
};

// Findings (finding_json.cpp): one shape for system checks and diagnosis rules. Reading is lenient where older
// files differ: a diagnosis finding's "rule" and "cause" (before issue 19) stand for "id" and "detail", keys a
// file lacks keep their defaults. `field` names the finding in errors ("findings[3]").
nlohmann::json toJson(const Evidence& e);
nlohmann::json toJson(const Finding& f);
Finding findingFromJson(const nlohmann::json& j, const std::string& field = "findings[]");
// A list of findings; throws SnapshotError naming `field` and the index.
std::vector<Finding> findingsFromJson(const nlohmann::json& list, const std::string& field);
// `{"findings": [...]}`: what stackscope-cli diagnose --json prints.
nlohmann::json findingsToJson(const std::vector<Finding>& findings);
nlohmann::json toJson(const Snapshot& s);
Snapshot snapshotFromJson(const nlohmann::json& j);

// Parses text; errors name the origin (file path) and the position.
Snapshot parseSnapshot(const std::string& text, const std::string& origin);
Snapshot loadSnapshotFile(const std::string& path);
void saveSnapshotFile(const Snapshot& s, const std::string& path);

} // namespace stackscope
