// Streaming, bounded log reading (see log_reader.h).
#include "core/diagnosis/log_reader.h"

#include "core/diagnosis/diagnosis_rules.h"
#include "core/diagnosis/literal_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <deque>
#include <cerrno>
#include <cstring>
#include <optional>

#include <unistd.h>

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

namespace {

enum class Encoding { Bytes, Utf16Le, Utf16Be };

// Decodes UTF-16 code units to UTF-8 across chunk boundaries (an odd byte or a high surrogate waits for the next
// chunk); an unpaired surrogate becomes U+FFFD.
class Utf16Decoder {
public:
    explicit Utf16Decoder(bool bigEndian) : m_be(bigEndian) {}

    void decode(const char* data, std::size_t size, std::string& out)
    {
        std::size_t i = 0;
        if (m_haveByte && size > 0) {
            unit(pair(m_byte, data[0]), out);
            m_haveByte = false;
            i = 1;
        }
        for (; i + 1 < size; i += 2)
            unit(pair(data[i], data[i + 1]), out);
        if (i < size) {
            m_byte = data[i];
            m_haveByte = true;
        }
    }

    void finish(std::string& out)
    {
        if (m_high)
            append(0xFFFD, out);
        if (m_haveByte)
            append(0xFFFD, out);
        m_high = 0;
        m_haveByte = false;
    }

private:
    std::uint16_t pair(char a, char b) const
    {
        const auto x = static_cast<unsigned char>(a);
        const auto y = static_cast<unsigned char>(b);
        return static_cast<std::uint16_t>(m_be ? (x << 8) | y : (y << 8) | x);
    }

    void unit(std::uint16_t u, std::string& out)
    {
        if (u >= 0xD800 && u <= 0xDBFF) {
            if (m_high)
                append(0xFFFD, out);
            m_high = u;
            return;
        }
        if (u >= 0xDC00 && u <= 0xDFFF) {
            if (!m_high)
                return append(0xFFFD, out);
            const std::uint32_t cp = 0x10000 + ((static_cast<std::uint32_t>(m_high) - 0xD800) << 10) + (u - 0xDC00);
            m_high = 0;
            return append(cp, out);
        }
        if (m_high) {
            append(0xFFFD, out);
            m_high = 0;
        }
        append(u, out);
    }

    static void append(std::uint32_t cp, std::string& out)
    {
        if (cp < 0x80) {
            out.push_back(static_cast<char>(cp));
        } else if (cp < 0x800) {
            out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
            out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        } else if (cp < 0x10000) {
            out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
            out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        } else {
            out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
            out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        }
    }

    bool m_be;
    std::uint16_t m_high = 0;
    char m_byte = 0;
    bool m_haveByte = false;
};

// The encoding of a text from its first bytes; `bomBytes` is how many of them are a byte-order mark.
Encoding detectEncoding(const char* data, std::size_t size, std::size_t& bomBytes, std::string& reason)
{
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(data[k]); };
    bomBytes = 0;
    if (size >= 2 && b(0) == 0xFF && b(1) == 0xFE) {
        bomBytes = 2;
        reason = "byte-order mark FF FE";
        return Encoding::Utf16Le;
    }
    if (size >= 2 && b(0) == 0xFE && b(1) == 0xFF) {
        bomBytes = 2;
        reason = "byte-order mark FE FF";
        return Encoding::Utf16Be;
    }
    if (size >= 3 && b(0) == 0xEF && b(1) == 0xBB && b(2) == 0xBF) {
        bomBytes = 3; // UTF-8's mark: dropped, the text is read as it is
        return Encoding::Bytes;
    }
    // No mark: ASCII-range text in UTF-16 has a NUL in every other byte. Most of the pairs, not a few NULs in a
    // binary blob: at least 3 of 4 units, and at least 8 of them.
    const std::size_t pairs = size / 2;
    if (pairs < 8)
        return Encoding::Bytes;
    std::size_t oddNul = 0;
    std::size_t evenNul = 0;
    for (std::size_t k = 0; k + 1 < size; k += 2) {
        evenNul += b(k) == 0 ? 1 : 0;
        oddNul += b(k + 1) == 0 ? 1 : 0;
    }
    if (oddNul * 4 >= pairs * 3 && evenNul * 10 <= pairs) {
        reason = "NUL bytes at odd offsets, no byte-order mark";
        return Encoding::Utf16Le;
    }
    if (evenNul * 4 >= pairs * 3 && oddNul * 10 <= pairs) {
        reason = "NUL bytes at even offsets, no byte-order mark";
        return Encoding::Utf16Be;
    }
    return Encoding::Bytes;
}

constexpr std::size_t kChunkBytes = std::size_t(1) << 16;

// The line splitter and keeper over chunks from `readChunk` (returns the bytes read, 0 at the end or on an error).
LogReadResult readLogChunks(const std::function<std::size_t(char*, std::size_t)>& readChunk, const LogReadLimits& limits,
                            const LinePredicate& interesting)
{
    LogReadResult r;
    Keeper keeper(limits, r);
    std::string current;
    std::size_t cut = 0;
    auto endLine = [&] {
        ++r.linesRead;
        const bool hit = interesting && interesting(current);
        keeper.line(std::move(current), r.linesRead, hit, cut);
        r.longLinesCut += cut ? 1 : 0;
        current.clear();
        cut = 0;
    };
    auto feed = [&](const char* data, std::size_t got) {
        std::size_t pos = 0;
        while (pos < got) {
            const char* nl = static_cast<const char*>(std::memchr(data + pos, '\n', got - pos));
            const std::size_t end = nl ? static_cast<std::size_t>(nl - data) : got;
            const std::size_t room = limits.maxLineBytes > current.size() ? limits.maxLineBytes - current.size() : 0;
            const std::size_t take = std::min(room, end - pos);
            current.append(data + pos, take);
            cut += end - pos - take;
            pos = end;
            if (nl) {
                endLine();
                ++pos;
            }
        }
    };
    std::vector<char> buf(kChunkBytes);
    // The first chunk decides the encoding: filled as far as the input gives (a pipe hands out small pieces).
    std::size_t first = 0;
    while (first < buf.size()) {
        const auto got = readChunk(buf.data() + first, buf.size() - first);
        if (got == 0)
            break;
        first += got;
    }
    std::size_t bom = 0;
    const auto encoding = detectEncoding(buf.data(), first, bom, r.encodingReason);
    std::optional<Utf16Decoder> decoder;
    if (encoding != Encoding::Bytes) {
        decoder.emplace(encoding == Encoding::Utf16Be);
        r.decodedFrom = encoding == Encoding::Utf16Be ? "UTF-16BE" : "UTF-16LE";
    }
    std::string decoded;
    auto consume = [&](const char* data, std::size_t got) {
        r.bytesRead += got;
        if (!decoder)
            return feed(data, got);
        decoded.clear();
        decoder->decode(data, got, decoded);
        feed(decoded.data(), decoded.size());
    };
    if (first > 0) {
        r.bytesRead += bom;
        consume(buf.data() + bom, first - bom);
        for (std::size_t got; (got = readChunk(buf.data(), buf.size())) > 0;)
            consume(buf.data(), got);
    }
    if (decoder) {
        decoded.clear();
        decoder->finish(decoded);
        feed(decoded.data(), decoded.size());
    }
    if (!current.empty() || cut)
        endLine();
    keeper.finish();
    return r;
}

} // namespace

std::string LogReadResult::encodingNote() const
{
    if (decodedFrom.empty())
        return {};
    return fmt::format("decoded from {} ({}) to UTF-8 before matching", decodedFrom, encodingReason);
}

LogReadResult readLogStream(std::istream& in, const LogReadLimits& limits, const LinePredicate& interesting)
{
    return readLogChunks(
        [&in](char* data, std::size_t size) -> std::size_t {
            if (!in)
                return 0;
            in.read(data, static_cast<std::streamsize>(size));
            return static_cast<std::size_t>(in.gcount());
        },
        limits, interesting);
}

LogReadResult readLogFd(int fd, const LogReadLimits& limits, const LinePredicate& interesting)
{
    std::string error;
    auto r = readLogChunks(
        [fd, &error](char* data, std::size_t size) -> std::size_t {
            if (!error.empty())
                return 0;
            for (;;) {
                const ssize_t got = ::read(fd, data, size);
                if (got >= 0)
                    return static_cast<std::size_t>(got);
                if (errno == EINTR)
                    continue;
                error = errno == EISDIR ? "is a folder, not a file" : std::strerror(errno);
                return 0;
            }
        },
        limits, interesting);
    r.readError = std::move(error);
    return r;
}

const std::vector<std::string>& diagnosisKeywords()
{
    static const std::vector<std::string> words = [] {
        std::vector<std::string> w {"gfx", "radeon", "instinct", "rocm", "hip", "torch", "cuda", "nvidia", "amdgpu",
                                    "dkms", "kfd", "error", "warn", "fault", "exception", "fail", "abort", "export ",
                                    "boot_image", "wsl", "secure", "version", "device", "_visible_devices",
                                    "hsa_", "gpu", "miopen", "rocblas", "hipblas", "nccl", "rccl", "out of memory"};
        const std::size_t kFixedWords = w.size();
        for (const auto& rule : DiagnosisRules::builtIn().rules()) {
            for (const auto& s : rule.signatures) {
                std::string key = s.text.empty() ? s.anchor : s.text.substr(0, std::min<std::size_t>(s.text.size(), 24));
                for (auto& c : key)
                    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                if (key.size() >= 4)
                    w.push_back(key);
            }
            // Not the symptom words: short everyday words ("ram" in "param") would make most lines interesting and fill
            // maxKeptLines before an error deep in a long log; a description is at the top (the head is kept whole).
        }
        // A word holding one of the fixed words adds nothing (a line holding it holds that word too): dropped, so the
        // automaton built at every start is smaller and `interestingLine` answers the same.
        const LiteralSet fixed(std::vector<std::string>(w.begin(), w.begin() + kFixedWords));
        w.erase(std::remove_if(w.begin() + kFixedWords, w.end(), [&](const std::string& k) { return fixed.any(k); }),
                w.end());
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
