// The recorded 2x H200 bandwidth runs (tests/fixtures/bandwidth/h200x2-20261127: its README says how they were
// made): a file of it as JSON, and the machine they ran on.
#pragma once

#include "core/snapshot/snapshot_json.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

namespace stackscope::test {

inline const std::string kBandwidthFixtures = std::string(STACKSCOPE_TEST_FIXTURES) + "/bandwidth/h200x2-20261127/";

// `name` of that folder ("bw-healthy.json", "inspect.json") parsed; throws when it is missing or not JSON.
inline nlohmann::json bandwidthFixture(const std::string& name)
{
    std::ifstream in(kBandwidthFixtures + name);
    return nlohmann::json::parse(in);
}

// The snapshot of the machine the runs were recorded on.
inline Snapshot bandwidthMachine()
{
    return snapshotFromJson(bandwidthFixture("inspect.json"));
}

} // namespace stackscope::test
