// The rank's flight recorder: a ring in a shared file page (or in memory), its JSON dump, and the watch thread.
#include "core/torch/flight_recorder.h"

#include "core/util/atomic_file.h"

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace stackscope::trainer {

namespace {

double now()
{
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

bool outstanding(uint32_t state)
{
    return state == static_cast<uint32_t>(flight::State::Enqueued) ||
           state == static_cast<uint32_t>(flight::State::Started);
}

} // namespace

FlightRecorder::FlightRecorder(const std::string& statusFile, int rank, int worldSize, const std::string& backend)
{
    if (!statusFile.empty()) {
        const int fd = ::open(statusFile.c_str(), O_RDWR | O_CLOEXEC);
        if (fd >= 0) { // the launcher's file is a convenience: without it the ring lives in memory
            if (::ftruncate(fd, static_cast<off_t>(flight::kFileBytes)) == 0) {
                void* p = ::mmap(nullptr, flight::kFileBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
                if (p != MAP_FAILED) {
                    m_layout = static_cast<flight::Layout*>(p);
                    m_mapped = true;
                }
            }
            ::close(fd);
        }
    }
    if (!m_layout) {
        m_own = std::make_unique<flight::Layout>();
        m_layout = m_own.get();
    }
    std::memset(static_cast<void*>(&m_layout->header), 0, sizeof m_layout->header);
    std::memset(static_cast<void*>(m_layout->records), 0, sizeof m_layout->records);
    auto& h = m_layout->header;
    h.capacity = flight::kCapacity;
    h.rank = rank;
    h.worldSize = worldSize;
    h.pid = static_cast<int32_t>(::getpid());
    flight::copyText(h.backend, sizeof h.backend, backend);
    std::memcpy(h.magic, flight::kMagic, sizeof flight::kMagic); // last: a reader sees a whole header or none
}

FlightRecorder::~FlightRecorder()
{
    if (m_mapped)
        ::munmap(m_layout, flight::kFileBytes);
}

void FlightRecorder::setLabel(const std::string& label)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    flight::copyText(m_layout->label, flight::kLabelBytes, label);
}

std::string FlightRecorder::label() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return flight::fixedText(m_layout->label, flight::kLabelBytes);
}

uint64_t FlightRecorder::enqueue(const std::string& op, const std::string& label, int64_t bytes)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    const uint64_t seq = m_layout->header.next + 1;
    flight::Record& r = m_layout->records[seq % flight::kCapacity];
    r.seq = 0; // a reader skips the slot while it is rewritten
    std::atomic_thread_fence(std::memory_order_release);
    r.state = static_cast<uint32_t>(m_capturing ? flight::State::Captured : flight::State::Enqueued);
    r.bytes = bytes;
    r.enqueuedAt = now();
    r.startedAt = r.completedAt = 0;
    flight::copyText(r.op, sizeof r.op, op);
    flight::copyText(r.label, sizeof r.label, label);
    std::atomic_thread_fence(std::memory_order_release);
    r.seq = seq;
    m_layout->header.next = seq;
    flight::copyText(m_layout->label, flight::kLabelBytes, label);
    return seq;
}

void FlightRecorder::mark(uint64_t seq, flight::State state)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    flight::Record& r = m_layout->records[seq % flight::kCapacity];
    if (r.seq != seq || r.state == static_cast<uint32_t>(flight::State::Captured))
        return;
    const double t = now();
    if (state == flight::State::Started)
        r.startedAt = t;
    else if (state == flight::State::Completed || state == flight::State::Failed)
        r.completedAt = t;
    r.state = static_cast<uint32_t>(state);
}

void FlightRecorder::completeAll()
{
    std::lock_guard<std::mutex> lock(m_mutex);
    const double t = now();
    for (auto& r : m_layout->records)
        if (r.seq != 0 && outstanding(r.state)) {
            r.state = static_cast<uint32_t>(flight::State::Completed);
            r.completedAt = t;
        }
}

void FlightRecorder::setCapturing(bool on)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_capturing = on;
}

flight::RankRing FlightRecorder::snapshot() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return flight::ringOf(*m_layout);
}

std::pair<uint64_t, double> FlightRecorder::oldestOutstanding() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    uint64_t seq = 0;
    double at = 0;
    for (const auto& r : m_layout->records)
        if (r.seq != 0 && outstanding(r.state) && (seq == 0 || r.seq < seq)) {
            seq = r.seq;
            at = r.enqueuedAt;
        }
    return {seq, seq ? now() - at : 0.0};
}

std::string FlightRecorder::writeJson(const std::string& dir, const std::string& reason, std::string& why) const
{
    const flight::RankRing ring = snapshot();
    nlohmann::ordered_json doc = {{"schema", "stackscope.flight-recorder/1"},
                          {"reason", reason},
                          {"written_at", now()},
                          {"source", "https://pytorch.org/docs/stable/torch_nccl_flight_recorder.html"},
                          {"ranks", nlohmann::ordered_json::array({flight::ringJson(ring)})}};
    const std::string path = dir + "/flight_recorder_rank" + std::to_string(ring.rank) + ".json";
    try {
        std::error_code ec;
        std::filesystem::create_directories(dir, ec); // a rank on another node may have no output folder yet
        writeFileAtomically(path, doc.dump(1) + "\n");
    } catch (const std::exception& e) {
        why = e.what();
        return {};
    }
    return path;
}

struct FlightWatch::State {
    const FlightRecorder& recorder;
    std::string dir;
    std::chrono::milliseconds timeout;
    std::function<bool()> stopRequested;
    std::string who;
    std::mutex mutex;
    std::condition_variable wake;
    bool done = false;
    // A thread of its own, not a task of the task runner: the watchdog outlives every collective it watches (it must
    // fire while the rank's own threads are stuck in one), from the watch's start to its end.
    std::thread thread;

    void loop()
    {
        bool stopWritten = false;
        // The backends time out first (Gloo raises, NCCL's watchdog aborts); this catches what they cannot see. The
        // grace keeps the backend's own message first where it has one; the whole must stay within the timeout + 5 s
        // (issue 37: on 2x H200 a SIGSTOPped peer of a graphed rank was named 14.1 s after the stop with a 2 s grace
        // and a 10 s timeout, the ring's oldest entry being enqueued before the stop).
        const double limit = std::chrono::duration<double>(timeout).count() + 1.0;
        std::unique_lock<std::mutex> lock(mutex);
        while (!wake.wait_for(lock, std::chrono::milliseconds(200), [this] { return done; })) {
            if (!stopWritten && stopRequested && stopRequested()) {
                std::string why;
                recorder.writeJson(dir, "stop requested (SIGTERM or SIGINT)", why);
                stopWritten = true;
            }
            const auto [seq, waited] = recorder.oldestOutstanding();
            if (seq == 0 || waited < limit)
                continue;
            const auto ring = recorder.snapshot();
            const flight::Record* rec = flight::findSeq(ring, seq);
            const std::string what = rec ? flight::describe(*rec) : "#" + std::to_string(seq);
            std::string why;
            const std::string path = recorder.writeJson(dir, "timeout: collective " + what + " outstanding for " +
                                                                 std::to_string(static_cast<int>(waited)) + " s", why);
            std::fprintf(stderr,
                         "stackscope-cli: %s: collective %s did not complete within the timeout (%.0f s, waited %.0f s); "
                         "another rank died or hangs: look for its own message (the launcher names the ranks that "
                         "never entered it), fix that, then rerun with --resume; flight recorder: %s\n",
                         who.c_str(), what.c_str(), std::chrono::duration<double>(timeout).count(), waited,
                         path.empty() ? ("not written: " + why).c_str() : path.c_str());
            std::fflush(stderr);
            std::_Exit(3);
        }
    }
};

FlightWatch::FlightWatch(const FlightRecorder& recorder, std::string dir, std::chrono::milliseconds timeout,
                         std::function<bool()> stopRequested, std::string who)
    : m_state(new State {recorder, std::move(dir), timeout, std::move(stopRequested), std::move(who), {}, {}, false, {}})
{
    m_state->thread = std::thread([s = m_state.get()] { s->loop(); });
}

FlightWatch::~FlightWatch()
{
    {
        std::lock_guard<std::mutex> lock(m_state->mutex);
        m_state->done = true;
    }
    m_state->wake.notify_all();
    m_state->thread.join();
}

} // namespace stackscope::trainer
