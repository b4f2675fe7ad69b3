// The launcher's side of the flight recorder (core/util/flight_ring.h): after a run of several processes failed, it
// reads every rank's ring from its status file (there even when the rank was killed), writes them together as
// <output>/flight_recorder.json, and says which ranks never entered the collective the others wait in.
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace stackscope::training {

struct FlightReport {
    std::vector<std::string> attribution; // "rank 1 never entered collective #k (...); its last: ..."
    std::string path;                     // flight_recorder.json, or empty when not written
    std::string notWritten;               // why not, when path is empty and rings were read
    int ranksRead = 0;
};

// `statusFiles[r]` is rank r's status file. `reason`: what the launcher saw (the first failure).
FlightReport writeFlightReport(const std::vector<std::string>& statusFiles, const std::string& outputDir,
                               const std::string& reason);

// Whether process `pid` is stopped (SIGSTOP, SIGTSTP, a debugger): state T or t in /proc/<pid>/stat.
bool processStopped(pid_t pid);

} // namespace stackscope::training
