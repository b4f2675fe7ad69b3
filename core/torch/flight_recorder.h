// This rank's flight recorder (core/util/flight_ring.h): the ring of its last collectives, kept in the launcher's
// status file when there is one (so a killed rank leaves it behind), else in memory; written as JSON to the run's
// output folder on a failure, a timeout or a stop request.
#pragma once

#include "core/util/flight_ring.h"

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace stackscope::trainer {

class FlightRecorder {
public:
    // `statusFile` may be empty or unopenable: the ring then lives in memory only.
    FlightRecorder(const std::string& statusFile, int rank, int worldSize, const std::string& backend);
    ~FlightRecorder();
    FlightRecorder(const FlightRecorder&) = delete;
    FlightRecorder& operator=(const FlightRecorder&) = delete;

    // The label of where the rank is (the rendezvous, a collective), without a ring entry.
    void setLabel(const std::string& label);
    std::string label() const;
    // A new collective: its sequence number. While capturing, its state is Captured.
    uint64_t enqueue(const std::string& op, const std::string& label, int64_t bytes);
    void mark(uint64_t seq, flight::State state);
    // After a host synchronisation that orders after every collective issued so far: all of them completed.
    void completeAll();
    void setCapturing(bool on);
    flight::RankRing snapshot() const;
    // The oldest collective not completed: its sequence number and seconds since it was enqueued (0, 0: none).
    std::pair<uint64_t, double> oldestOutstanding() const;
    // Writes <dir>/flight_recorder_rank<R>.json (reason, this rank's ring, what it waits on); returns the path, or
    // an empty string when it could not be written (the reason is in `why`).
    std::string writeJson(const std::string& dir, const std::string& reason, std::string& why) const;

private:
    mutable std::mutex m_mutex;
    flight::Layout* m_layout = nullptr;
    std::unique_ptr<flight::Layout> m_own; // when no status file is mapped
    bool m_mapped = false;
    bool m_capturing = false;
};

// Watches a recorder from a thread of its own: on a stop request (SIGTERM) it writes the JSON once; when a
// collective stays outstanding longer than `timeout` plus 1 s of grace (a hang the backend does not see, such as a
// collective replayed inside a CUDA graph) it writes the JSON, prints which collective on stderr and ends the
// process with exit code 3, as NCCL's own watchdog ends it on its timeouts.
class FlightWatch {
public:
    FlightWatch(const FlightRecorder& recorder, std::string dir, std::chrono::milliseconds timeout,
                std::function<bool()> stopRequested, std::string who);
    ~FlightWatch();
    FlightWatch(const FlightWatch&) = delete;
    FlightWatch& operator=(const FlightWatch&) = delete;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace stackscope::trainer
