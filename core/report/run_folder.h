// What the headless job (packaging/run.sh, packaging/headless-job.sh) left in its output folder, for `report` to
// include whatever the person did not name.
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

namespace stackscope::report {

struct RunFolderInputs {
    std::optional<std::filesystem::path> probes;   // probes.json (`probe --json`)
    std::optional<std::filesystem::path> vpoc;     // vpoc.json (`vpoc --json`)
    std::optional<std::filesystem::path> training; // training/model_metadata.json
    std::vector<std::filesystem::path> stepLogs;   // <step>.err of the steps that failed, sorted by name
};

// An empty file is a step that wrote nothing (it failed, or it is still running: the report's own step) and is
// left out. A path that is not a folder gives nothing.
RunFolderInputs findRunFolderInputs(const std::filesystem::path& dir);

} // namespace stackscope::report
