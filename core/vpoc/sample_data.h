// Synthetic ES futures data (bars or trades) for demos and tests: deterministic per seed, marked synthetic.
#pragma once

#include <cstdint>
#include <string>

namespace stackscope::vpoc {

struct SampleDataOptions {
    int days = 20;          // trading days (Monday to Friday), starting with the Globex session of 2024-03-04
    uint64_t seed = 1;
    bool trades = false;    // trades (timestamp,price,size) instead of 1-minute bars
    std::string startDate = "2024-03-04"; // covers the March DST change in the default 20 days
};

// The whole file as text; its first line is a `#` comment saying the data are synthetic. Throws
// std::invalid_argument on bad options.
std::string generateSampleData(const SampleDataOptions& options);

} // namespace stackscope::vpoc
