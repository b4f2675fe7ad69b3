// The facts of one snapshot that the diff compares (snapshot_diff.h), each known, absent or unknown with why.
#pragma once

#include "core/snapshot/snapshot.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stackscope::report {

// One compared value in parts: a device node has four (exists, read-write, group, mode), every other fact one. A part
// the snapshot could not tell (not recorded, could not be read, not queried) is nullopt; `text` is what the side
// reads, "unknown: <why>" for what it does not know. Unknown is decided from the snapshot's typed facts, as the System
// page decides it (stack_rows, the GPU card, the access box), never from the text.
struct DiffFact {
    std::vector<std::optional<std::string>> parts;
    std::string text;

    bool hasUnknown() const;
};

using AreaFacts = std::map<std::string, DiffFact>;       // item -> fact, in the item's sort order
using SnapshotFacts = std::map<std::string, AreaFacts>; // area -> its facts

SnapshotFacts diffFacts(const Snapshot& s);
// What a side reads for an item it has no fact for: a library it never loaded is unknown (not queried), coverage it
// never scanned and variables of an environment it never recorded are unknown; anything else is really absent,
// "(none)".
DiffFact absentFact(const Snapshot& s, const std::string& area, const std::string& item);

} // namespace stackscope::report
