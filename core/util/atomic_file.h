// Whole-file writes that never leave a partial file behind.
#pragma once

#include <stdexcept>
#include <string>

namespace stackscope {

class FileWriteError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Writes to a temporary file beside `path`, syncs, then renames over `path`.
void writeFileAtomically(const std::string& path, const std::string& content);

} // namespace stackscope
