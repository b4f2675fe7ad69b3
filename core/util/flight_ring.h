// The flight recorder's ring (issue 37): every rank of a training run keeps its last collectives (sequence number,
// op, bytes, state, times) in a fixed layout that lives in a shared file page, so that the launcher can read it
// after the rank hung, crashed or was killed (even SIGKILL leaves it), and the rank itself can write it as JSON.
// The same idea as PyTorch's Flight Recorder (https://pytorch.org/docs/stable/torch_nccl_flight_recorder.html),
// for every backend and for collectives replayed inside a CUDA graph. Header-only: the torch module writes it,
// core/training reads it.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stackscope::flight {

// The file's first bytes: the label of the collective the rank is in, NUL-terminated (what the launcher read
// before the ring existed; training_launch.cpp still reads it so).
constexpr size_t kLabelBytes = 256;
constexpr uint32_t kCapacity = 512;
constexpr char kMagic[8] = {'S', 'S', 'F', 'R', 'I', 'N', 'G', '1'};

enum class State : uint32_t {
    Empty = 0,
    Enqueued = 1,  // handed to the backend (NCCL: queued on the GPU stream; completion is seen at the next sync)
    Started = 2,   // this rank waits on it on the host (Gloo, or a host sync on a graph replay)
    Completed = 3, // finished on this rank
    Failed = 4,    // the backend reported an error or the timeout passed
    Captured = 5,  // recorded into a CUDA graph: it runs at every replay ("graph_replay" entries)
};

inline const char* stateName(uint32_t s)
{
    switch (static_cast<State>(s)) {
    case State::Enqueued: return "enqueued";
    case State::Started: return "started";
    case State::Completed: return "completed";
    case State::Failed: return "failed";
    case State::Captured: return "captured";
    case State::Empty: break;
    }
    return "unknown";
}

struct Record {
    uint64_t seq;    // this rank's collective number, from 1; every rank issues the same sequence
    uint32_t state;  // State
    uint32_t reserved;
    int64_t bytes;   // the buffer's size
    double enqueuedAt, startedAt, completedAt; // seconds since the Unix epoch; 0: not yet
    char op[24];     // "all_reduce", "broadcast", "graph_replay", ...
    char label[104]; // what the rank's messages call it: "all_reduce(gradients, bucket 1 of 3) epoch 2 step 7"
};

struct Header {
    char magic[8];
    uint32_t capacity;
    int32_t rank, worldSize, pid;
    uint64_t next; // records written so far: the newest has seq == next
    char backend[16];
};

struct Layout {
    char label[kLabelBytes];
    Header header;
    Record records[kCapacity];
};
constexpr size_t kFileBytes = sizeof(Layout);

inline void copyText(char* to, size_t size, const std::string& text)
{
    const size_t n = std::min(size - 1, text.size());
    std::memcpy(to, text.data(), n);
    to[n] = '\0';
}

inline std::string fixedText(const char* p, size_t size)
{
    return std::string(p, strnlen(p, size));
}

// One rank's ring as read back, oldest first.
struct RankRing {
    int rank = -1, worldSize = 0, pid = 0;
    std::string backend;
    std::string label;
    std::vector<Record> records;
    uint64_t lastSeq() const { return records.empty() ? 0 : records.back().seq; }
};

// The records of a layout, in sequence order (at most kCapacity, the newest).
inline RankRing ringOf(const Layout& l)
{
    RankRing r;
    r.label = fixedText(l.label, kLabelBytes);
    if (std::memcmp(l.header.magic, kMagic, sizeof kMagic) != 0)
        return r;
    r.rank = l.header.rank;
    r.worldSize = l.header.worldSize;
    r.pid = l.header.pid;
    r.backend = fixedText(l.header.backend, sizeof l.header.backend);
    const uint64_t next = l.header.next;
    const uint64_t first = next > kCapacity ? next - kCapacity + 1 : 1;
    for (uint64_t seq = first; seq <= next; ++seq) {
        const Record& rec = l.records[seq % kCapacity];
        if (rec.seq == seq) // a record being rewritten while the file was read is left out
            r.records.push_back(rec);
    }
    return r;
}

// A rank's status file (the launcher's STACKSCOPE_RANK_STATUS); nullopt when it holds no ring (a rank that died
// before joining the group, or an older file of 256 bytes).
inline std::optional<RankRing> readRing(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() < kFileBytes)
        return std::nullopt;
    auto layout = std::make_unique<Layout>();
    std::memcpy(static_cast<void*>(layout.get()), bytes.data(), kFileBytes);
    RankRing r = ringOf(*layout);
    if (r.rank < 0)
        return std::nullopt;
    return r;
}

inline nlohmann::ordered_json recordJson(const Record& rec)
{
    nlohmann::ordered_json j = {{"seq", rec.seq},
                        {"op", fixedText(rec.op, sizeof rec.op)},
                        {"label", fixedText(rec.label, sizeof rec.label)},
                        {"bytes", rec.bytes},
                        {"state", stateName(rec.state)}};
    for (const auto& [key, t] : {std::pair {"enqueued_at", rec.enqueuedAt}, std::pair {"started_at", rec.startedAt},
                                 std::pair {"completed_at", rec.completedAt}})
        j[key] = t > 0 ? nlohmann::ordered_json(t) : nlohmann::ordered_json(nullptr);
    return j;
}

inline nlohmann::ordered_json ringJson(const RankRing& r)
{
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& rec : r.records)
        list.push_back(recordJson(rec));
    return {{"rank", r.rank}, {"world_size", r.worldSize}, {"pid", r.pid}, {"backend", r.backend},
            {"current", r.label}, {"last_seq", r.lastSeq()}, {"collectives", list}};
}

inline const Record* findSeq(const RankRing& r, uint64_t seq)
{
    for (const auto& rec : r.records)
        if (rec.seq == seq)
            return &rec;
    return nullptr;
}

inline std::string describe(const Record& rec)
{
    return "#" + std::to_string(rec.seq) + " " + fixedText(rec.label, sizeof rec.label) + " (" + stateName(rec.state) +
           ")";
}

// Which ranks hold the others up, from every rank's ring: the ranks whose last collective is older than the newest
// any rank entered ("rank 1 never entered collective #k (label); its last: #k-1 ..."); else, where every rank
// entered the newest, the ranks still waiting in it while others gave up ("is stuck in"); else the ranks on which it
// did not complete. One line each; empty when nothing is outstanding.
inline std::vector<std::string> attribute(const std::vector<RankRing>& rings)
{
    std::vector<std::string> lines;
    uint64_t newest = 0;
    const RankRing* leader = nullptr;
    for (const auto& r : rings)
        if (r.lastSeq() > newest) {
            newest = r.lastSeq();
            leader = &r;
        }
    if (!leader)
        return lines;
    for (const auto& r : rings) {
        if (r.lastSeq() >= newest)
            continue;
        const uint64_t missing = r.lastSeq() + 1;
        const Record* what = findSeq(*leader, missing);
        std::string line = "rank " + std::to_string(r.rank) + " never entered collective #" + std::to_string(missing);
        if (what)
            line += " (" + fixedText(what->label, sizeof what->label) + ", entered by rank " +
                    std::to_string(leader->rank) + ")";
        line += r.records.empty() ? std::string("; it entered none") : "; its last: " + describe(r.records.back());
        lines.push_back(line);
    }
    if (!lines.empty())
        return lines;
    // Every rank entered the newest. Where some gave up on it (failed) and others still wait in it, those are stuck
    // inside it (stopped, or blocked in the transport): they hold up the ones that gave up.
    std::string gaveUp;
    for (const auto& r : rings)
        if (r.records.back().state == static_cast<uint32_t>(State::Failed))
            gaveUp += (gaveUp.empty() ? "" : ", ") + std::to_string(r.rank);
    for (const auto& r : rings) {
        const Record& last = r.records.back();
        const auto state = static_cast<State>(last.state);
        if (!gaveUp.empty() && (state == State::Enqueued || state == State::Started))
            lines.push_back("rank " + std::to_string(r.rank) + " is stuck in collective " + describe(last) +
                            ", which every rank entered: rank(s) " + gaveUp + " gave up waiting for it");
    }
    if (!lines.empty())
        return lines;
    for (const auto& r : rings) {
        const Record& last = r.records.back();
        if (last.state != static_cast<uint32_t>(State::Completed) && last.state != static_cast<uint32_t>(State::Captured))
            lines.push_back("rank " + std::to_string(r.rank) + " entered collective " + describe(last) +
                            " with every rank and it did not complete");
    }
    return lines;
}

} // namespace stackscope::flight
