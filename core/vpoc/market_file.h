// Opening a market-data file for reading: a regular file, with the size and modification time the readers compare
// against later to tell that the file changed underneath them.
#pragma once

#include <cstdint>
#include <string>
#include <sys/stat.h>

namespace stackscope::vpoc {

// Opens `path` read-only and returns the descriptor (the caller owns it: a UniqueFd); sets its size and
// modification time. Throws InputError saying what to do when it cannot be opened or is not a regular file.
int openMarketFile(const std::string& path, uint64_t& size, int64_t& mtimeNs);

// st_mtim in nanoseconds.
int64_t modificationTimeNs(const struct stat& st);

} // namespace stackscope::vpoc
