// Streaming, bounded log reading (see log_reader.h).
#include "core/diagnosis/log_reader.h"

#include "core/diagnosis/diagnosis_rules.h"
#include "core/diagnosis/literal_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <deque>
#include <cstring>
#include <optional>

namespace stackscope {

std::string LogReadResult::summary() const
{
    if (linesSkipped == 0 && longLinesCut == 0)
        return {};
    return fmt::format("read {} lines ({} bytes); kept {} lines (the head, the tail and the lines near known "
                       "messages), skipped {} lines and {} bytes{}",
                       linesRead, bytesRead, lineNumbers.size(), linesSkipped, bytesSkipped,
                       longLinesCut ? fmt::format(", cut {} lines longer than the per-line limit", longLinesCut) : "");
}

namespace {

// Collects kept lines in order; the tail is a ring that is flushed at the end.
class Keeper {
public:
    Keeper(const LogReadLimits& l, LogReadResult& r) : m_l(l), m_r(r) {}

    void line(std::string&& s, std::uint64_t number, bool interesting, std::size_t cutBytes)
    {
        m_recent.push_back({std::move(s), number, cutBytes});
        if (number <= m_l.headLines)
            return flushAll();
        if (interesting && m_kept < m_l.maxKeptLines) {
            while (m_recent.size() > m_l.contextLines + 1)
                drop();
            flushAll(); // the window before it, and it
            m_after = m_l.contextLines;
            return;
        }
        if (m_after > 0 && m_kept < m_l.maxKeptLines) {
            --m_after;
            return flushAll();
        }
        while (m_recent.size() > std::max(m_l.contextLines, m_l.tailLines))
            drop();
    }

    void finish() { flushAll(); }

private:
    struct Pending {
        std::string text;
        std::uint64_t number;
        std::size_t cut;
    };

    void keep(Pending& p)
    {
        m_r.text += p.text;
        m_r.text.push_back('\n');
        m_r.lineNumbers.push_back(p.number);
        m_r.bytesSkipped += p.cut;
        ++m_kept;
    }

    void drop()
    {
        auto& p = m_recent.front();
        ++m_r.linesSkipped;
        m_r.bytesSkipped += p.text.size() + 1 + p.cut;
        m_recent.pop_front();
    }

    void flushAll()
    {
        for (auto& p : m_recent)
            keep(p);
        m_recent.clear();
    }

    const LogReadLimits& m_l;
    LogReadResult& m_r;
    std::deque<Pending> m_recent;
    std::size_t m_after = 0;
    std::size_t m_kept = 0;
};

} // namespace

LogReadResult readLogStream(std::istream& in, const LogReadLimits& limits, const LinePredicate& interesting)
{
    LogReadResult r;
    Keeper keeper(limits, r);
    std::string current;
    std::size_t cut = 0;
    std::vector<char> buf(1 << 16);
    auto endLine = [&] {
        ++r.linesRead;
        const bool hit = interesting && interesting(current);
        keeper.line(std::move(current), r.linesRead, hit, cut);
        r.longLinesCut += cut ? 1 : 0;
        current.clear();
        cut = 0;
    };
    while (in) {
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        r.bytesRead += got;
        std::size_t pos = 0;
        while (pos < got) {
            const char* nl = static_cast<const char*>(std::memchr(buf.data() + pos, '\n', got - pos));
            const std::size_t end = nl ? static_cast<std::size_t>(nl - buf.data()) : got;
            const std::size_t room = limits.maxLineBytes > current.size() ? limits.maxLineBytes - current.size() : 0;
            const std::size_t take = std::min(room, end - pos);
            current.append(buf.data() + pos, take);
            cut += end - pos - take;
            pos = end;
            if (nl) {
                endLine();
                ++pos;
            }
        }
    }
    if (!current.empty() || cut)
        endLine();
    keeper.finish();
    return r;
}

const std::vector<std::string>& diagnosisKeywords()
{
    static const std::vector<std::string> words = [] {
        std::vector<std::string> w {"gfx", "radeon", "instinct", "rocm", "hip", "torch", "cuda", "nvidia", "amdgpu",
                                    "dkms", "kfd", "error", "warn", "fault", "exception", "fail", "abort", "export ",
                                    "boot_image", "wsl", "secure", "version", "device", "_visible_devices",
                                    "hsa_", "gpu", "miopen", "rocblas", "hipblas", "nccl", "rccl", "out of memory"};
        for (const auto& rule : DiagnosisRules::builtIn().rules()) {
            for (const auto& s : rule.signatures) {
                std::string key = s.text.empty() ? s.anchor : s.text.substr(0, std::min<std::size_t>(s.text.size(), 24));
                for (auto& c : key)
                    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                if (key.size() >= 4)
                    w.push_back(key);
            }
        }
        std::sort(w.begin(), w.end());
        w.erase(std::unique(w.begin(), w.end()), w.end());
        return w;
    }();
    return words;
}

bool interestingLine(std::string_view line)
{
    if (line.size() < 3)
        return false;
    // One pass per line whatever the number of keywords (the catalogues bring hundreds); case folded like the words.
    static const LiteralSet words(diagnosisKeywords());
    return words.any(line);
}

} // namespace stackscope
