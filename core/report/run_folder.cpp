// The headless job's outputs found in its folder.
#include "core/report/run_folder.h"

#include <algorithm>

namespace stackscope::report {

namespace fs = std::filesystem;

namespace {

std::optional<fs::path> nonEmptyFile(const fs::path& p)
{
    std::error_code ec;
    if (!fs::is_regular_file(p, ec) || fs::file_size(p, ec) == 0 || ec)
        return std::nullopt;
    return p;
}

} // namespace

RunFolderInputs findRunFolderInputs(const fs::path& dir)
{
    RunFolderInputs out;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return out;
    out.probes = nonEmptyFile(dir / "probes.json");
    out.vpoc = nonEmptyFile(dir / "vpoc.json");
    out.training = nonEmptyFile(dir / "training" / "model_metadata.json");
    // run.sh keeps a step's stderr in <output>.err when the step failed: the most useful log there is.
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".err" && nonEmptyFile(it->path()))
            out.stepLogs.push_back(it->path());
    }
    std::sort(out.stepLogs.begin(), out.stepLogs.end());
    return out;
}

} // namespace stackscope::report
