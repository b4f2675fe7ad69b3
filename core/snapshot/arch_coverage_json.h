// The coverage scan's JSON both ways: the snapshot's `arch_coverage` section (the scan itself is core/archscan).
#pragma once

#include "core/util/error.h"

#include "core/snapshot/arch_coverage.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace stackscope::archscan {

inline constexpr const char* kArchCoverageSchema = "stackscope.archscan/1";

// JSON of the result: {"schema", "libraries": [{"path", "kind", "targets": [{"id", "arch", "features",
// "format", "compressed"}], "covers": {device: "yes|no|ptx|generic"}, "explain": {device: text},
// "errors": [...], "errors_not_kept": N, "targets_not_kept": N, "unreadable": bool}], "devices": [...],
// "overrides": [...], "notes": [...]}. "unreadable": the file could not be read whole, so its coverage is unknown.
nlohmann::json toJson(const ArchCoverage& coverage);

// Thrown by coverageFromJson; what() names the field ("arch_coverage.libraries[2].covers.gfx1100") and what is wrong.
class CoverageJsonError : public Error {
public:
    explicit CoverageJsonError(const std::string& what)
        : Error(what, ErrorKind::Input)
    {
    }
};
// The reverse of toJson. Lenient where older files differ: a missing key keeps its default (snapshots written
// before "unreadable", "errors_not_kept" and "targets_not_kept" existed load as fully read), "schema" may be
// absent, "note" of an override is derived and not read. A wrong type or an unknown name is an error.
ArchCoverage coverageFromJson(const nlohmann::json& j, const std::string& field = "arch_coverage");

} // namespace stackscope::archscan
