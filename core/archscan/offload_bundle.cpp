// Offload bundle walker with header-only decompression (zlib and zstd) and bounded sizes.
#include "core/archscan/offload_bundle.h"

#include "core/archscan/bounded_scan.h"
#include "core/archscan/target_id.h"

#include <fmt/format.h>
#ifdef STACKSCOPE_ARCHSCAN_ZLIB
#include <zlib.h>
#endif
#ifdef STACKSCOPE_ARCHSCAN_ZSTD
#include <zstd.h>
#include <zstd_errors.h>
#endif

#include <algorithm>
#include <cstring>
#include <memory>

namespace stackscope::archscan {

namespace {

constexpr char kBundleMagic[] = "__CLANG_OFFLOAD_BUNDLE__";
constexpr std::size_t kBundleMagicLen = 24;
constexpr char kCompressedMagic[] = "CCOB";
constexpr std::size_t kCompressedMagicLen = 4;
// LLVM llvm::compression::Format order.
constexpr std::uint16_t kMethodZlib = 0;
constexpr std::uint16_t kMethodZstd = 1;

// Size of the entry table when `data` starts with a bundle whose first bytes are known; 0 if more
// bytes are needed to tell. Used to decide how much of a compressed bundle to inflate.
std::uint64_t headerBytesNeeded(ByteView data)
{
    if (data.size < 32)
        return 32;
    const auto count = data.read<std::uint64_t>(24, "bundle entry count");
    if (count > kMaxBundleEntries)
        return 32; // the parser reports it
    std::uint64_t pos = 32;
    for (std::uint64_t i = 0; i < count; ++i) {
        if (!data.contains(pos, 24))
            return pos + 24;
        const auto idLen = data.read<std::uint64_t>(pos + 16, "bundle entry id length");
        if (idLen > kMaxBundleHeaderBytes)
            return kMaxBundleHeaderBytes + 1; // over the cap: reported as such
        pos += 24 + idLen;
    }
    return pos;
}

// Streams `in` through a decompressor until `want(out)` says the header is complete, the stream
// ends, or the cap is reached. Never allocates more than kMaxBundleHeaderBytes.
class HeaderInflater {
public:
    virtual ~HeaderInflater() = default;
    // Appends up to `max` more bytes to out; returns false at the end of the stream.
    virtual bool more(std::string& out, std::size_t max) = 0;
};

#ifdef STACKSCOPE_ARCHSCAN_ZSTD
class ZstdInflater : public HeaderInflater {
public:
    ZstdInflater(ByteView in, std::uint64_t uncompressedSize)
        : m_ctx(ZSTD_createDStream(), &ZSTD_freeDStream), m_in {in.data, in.size, 0}
    {
        if (!m_ctx)
            throw FormatError("zstd: cannot create a decompression context (out of memory)");
        ZSTD_initDStream(m_ctx.get());
        // The frame header chooses the window zstd allocates (up to 128 MiB by default). A window
        // larger than the declared content is never needed, so a tiny damaged bundle cannot make the
        // scanner allocate far more than the file.
        // The declared size can lie, so the window is also held to 1024 times the compressed size
        // (far above what code objects compress to).
        const std::uint64_t plausible = std::min<std::uint64_t>(uncompressedSize, std::uint64_t(in.size) * 1024);
        int windowLog = 10;
        while (windowLog < 27 && (std::uint64_t(1) << windowLog) < plausible)
            ++windowLog;
        ZSTD_DCtx_setParameter(m_ctx.get(), ZSTD_d_windowLogMax, windowLog);
    }
    bool more(std::string& out, std::size_t max) override
    {
        const std::size_t old = out.size();
        out.resize(old + max);
        ZSTD_outBuffer o {out.data() + old, max, 0};
        const std::size_t r = ZSTD_decompressStream(m_ctx.get(), &o, &m_in);
        out.resize(old + o.pos);
        if (ZSTD_isError(r))
            throw FormatError(fmt::format("zstd data does not decompress ({}): the bundle is damaged{}", ZSTD_getErrorName(r),
                                          ZSTD_getErrorCode(r) == ZSTD_error_frameParameter_windowTooLarge
                                              ? " (its window is larger than its declared uncompressed size, or than 1024 times its compressed size)" : ""));
        if (r == 0)
            return false;
        if (o.pos == 0 && m_in.pos == m_in.size)
            throw FormatError("zstd data ends before the bundle header is complete: the bundle is truncated");
        return true;
    }

private:
    std::unique_ptr<ZSTD_DStream, std::size_t (*)(ZSTD_DStream*)> m_ctx;
    ZSTD_inBuffer m_in;
};
#endif

#ifdef STACKSCOPE_ARCHSCAN_ZLIB
class ZlibInflater : public HeaderInflater {
public:
    explicit ZlibInflater(ByteView in)
    {
        std::memset(&m_z, 0, sizeof m_z);
        if (inflateInit(&m_z) != Z_OK)
            throw FormatError("zlib: cannot initialise inflate");
        m_z.next_in = const_cast<Bytef*>(in.data);
        m_z.avail_in = static_cast<uInt>(std::min<std::size_t>(in.size, 0xffffffffu));
    }
    ~ZlibInflater() override { inflateEnd(&m_z); }
    bool more(std::string& out, std::size_t max) override
    {
        const std::size_t old = out.size();
        out.resize(old + max);
        m_z.next_out = reinterpret_cast<Bytef*>(out.data() + old);
        m_z.avail_out = static_cast<uInt>(max);
        const int r = inflate(&m_z, Z_NO_FLUSH);
        out.resize(old + (max - m_z.avail_out));
        if (r == Z_STREAM_END)
            return false;
        if (r == Z_BUF_ERROR && m_z.avail_in == 0)
            throw FormatError("zlib data ends before the bundle header is complete: the bundle is truncated");
        if (r != Z_OK && r != Z_BUF_ERROR)
            throw FormatError(fmt::format("zlib data does not decompress ({}): the bundle is damaged",
                                          m_z.msg ? m_z.msg : std::to_string(r)));
        return true;
    }

private:
    z_stream m_z;
};
#endif

void addTargets(const std::vector<std::string>& ids, bool compressed, BundleScan& out, TargetSet& seen)
{
    for (const auto& id : ids) {
        const BundleEntryId e = parseBundleEntryId(id);
        if (e.kind == "host" || e.targetId.empty())
            continue;
        ScannedTarget t;
        t.bundleId = id;
        t.id = e.targetId;
        t.compressed = compressed;
        t.format = CodeFormat::CodeObject;
        if (const auto amd = parseAmdTargetId(e.targetId)) {
            t.arch = amd->processor;
            t.features = amd->features;
        } else {
            t.arch = e.targetId.substr(0, e.targetId.find(':'));
        }
        seen.add(std::move(t), out.targets, out.targetsNotKept);
    }
}

// Why the bytes at a magic cannot start a bundle, found without throwing: `format` (one {} for `value`) is
// empty when the full parser must decide. A file of repeated magics would otherwise cost one exception per
// four bytes, and a message is formatted only for the errors that are kept.
struct QuickReject {
    const char* format = nullptr;
    std::uint64_t value = 0;
};

QuickReject quickReject(ByteView rest, bool compressed)
{
    if (compressed) {
        if (rest.size < 8)
            return {"CCOB header is truncated ({} bytes)", rest.size};
        const auto version = rest.read<std::uint16_t>(4, "CCOB version");
        const auto method = rest.read<std::uint16_t>(6, "CCOB compression method");
        if (version < 1 || version > 3)
            return {"compressed bundle version {} is unknown (StackScope reads 1, 2 and 3); use roc-obj-ls from a "
                    "newer ROCm to list it", version};
        if (method != kMethodZlib && method != kMethodZstd)
            return {"compressed bundle uses compression method {} (known: 0 zlib, 1 zstd)", method};
        return {};
    }
    if (rest.size < 32)
        return {"bundle header is truncated ({} bytes)", rest.size};
    const auto count = rest.read<std::uint64_t>(24, "bundle entry count");
    if (count > kMaxBundleEntries || count > rest.size / 24)
        return {"bundle claims {} entries, more than fit: the bundle is damaged", count};
    return {};
}

const std::uint8_t* findMagic(const std::uint8_t* from, const std::uint8_t* end, const char* magic, std::size_t n)
{
    if (end - from < static_cast<std::ptrdiff_t>(n))
        return end;
    const void* p = ::memmem(from, static_cast<std::size_t>(end - from), magic, n);
    return p ? static_cast<const std::uint8_t*>(p) : end;
}

} // namespace

std::vector<std::string> readUncompressedBundleIds(ByteView data, std::uint64_t* consumed)
{
    if (!data.startsWith(kBundleMagic, kBundleMagicLen))
        throw FormatError("no __CLANG_OFFLOAD_BUNDLE__ magic");
    const auto count = data.read<std::uint64_t>(24, "bundle entry count");
    if (count > kMaxBundleEntries || count > data.size / 24)
        throw FormatError(fmt::format("bundle claims {} entries in {} bytes: the bundle is damaged", count, data.size));
    std::vector<std::string> ids;
    ids.reserve(static_cast<std::size_t>(count));
    std::uint64_t pos = 32;
    std::uint64_t end = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        const auto offset = data.read<std::uint64_t>(pos, "bundle entry offset");
        const auto size = data.read<std::uint64_t>(pos + 8, "bundle entry size");
        const auto idLen = data.read<std::uint64_t>(pos + 16, "bundle entry id length");
        const ByteView id = data.sub(pos + 24, idLen, "bundle entry id");
        pos += 24 + idLen;
        const std::string name(reinterpret_cast<const char*>(id.data), id.size);
        if (!data.contains(offset, size))
            throw FormatError(fmt::format("bundle entry {} ({}) claims {} bytes at offset {}, past the bundle's {} bytes: "
                                          "the bundle is truncated or damaged", i, name, size, offset, data.size));
        ids.push_back(name);
        end = std::max(end, offset + size);
    }
    if (consumed)
        *consumed = std::max(end, pos);
    return ids;
}

namespace {

// A CCOB header: its size, and the sizes it records (version 1 records no total size).
struct CompressedHeader {
    std::uint16_t version = 0;
    std::uint16_t method = 0;
    std::uint64_t headerSize = 0;
    std::uint64_t totalSize = 0; // 0: not recorded (version 1), the stream's own end decides
    std::uint64_t uncompressedSize = 0;
};

CompressedHeader readCompressedHeader(ByteView data)
{
    if (!data.startsWith(kCompressedMagic, kCompressedMagicLen))
        throw FormatError("no CCOB magic");
    CompressedHeader c;
    c.version = data.read<std::uint16_t>(4, "CCOB version");
    c.method = data.read<std::uint16_t>(6, "CCOB compression method");
    switch (c.version) {
    case 1:
        c.headerSize = 20;
        c.uncompressedSize = data.read<std::uint32_t>(8, "CCOB uncompressed size");
        break;
    case 2:
        c.headerSize = 24;
        c.totalSize = data.read<std::uint32_t>(8, "CCOB total size");
        c.uncompressedSize = data.read<std::uint32_t>(12, "CCOB uncompressed size");
        break;
    case 3:
        c.headerSize = 32;
        c.totalSize = data.read<std::uint64_t>(8, "CCOB total size");
        c.uncompressedSize = data.read<std::uint64_t>(16, "CCOB uncompressed size");
        break;
    default:
        throw FormatError(fmt::format("compressed bundle version {} is unknown (StackScope reads 1, 2 and 3); "
                                      "use roc-obj-ls from a newer ROCm to list it", c.version));
    }
    if (!data.contains(0, c.headerSize))
        throw FormatError(fmt::format("compressed bundle header (version {}) is truncated", c.version));
    if (c.totalSize != 0 && (c.totalSize < c.headerSize || !data.contains(0, c.totalSize)))
        throw FormatError(fmt::format("compressed bundle claims {} bytes but only {} remain: the bundle is truncated",
                                      c.totalSize, data.size));
    return c;
}

std::unique_ptr<HeaderInflater> makeInflater(std::uint16_t method, ByteView payload, std::uint64_t uncompressedSize)
{
    std::unique_ptr<HeaderInflater> inflater;
    if (method == kMethodZstd) {
#ifdef STACKSCOPE_ARCHSCAN_ZSTD
        inflater = std::make_unique<ZstdInflater>(payload, uncompressedSize);
#else
        throw FormatError("zstd-compressed bundle, and this StackScope was built without libzstd: install libzstd-dev and rebuild");
#endif
    } else if (method == kMethodZlib) {
#ifdef STACKSCOPE_ARCHSCAN_ZLIB
        inflater = std::make_unique<ZlibInflater>(payload);
#else
        throw FormatError("zlib-compressed bundle, and this StackScope was built without zlib: install zlib1g-dev and rebuild");
#endif
    } else
        throw FormatError(fmt::format("compressed bundle uses compression method {} (known: 0 zlib, 1 zstd)", method));
    return inflater;
}

// Inflates only as far as the bundle's entry table (capped at 1 MiB and at the declared uncompressed size).
std::string inflateEntryTable(HeaderInflater& inflater, std::uint64_t uncompressedSize)
{
    const std::uint64_t cap = std::min<std::uint64_t>(kMaxBundleHeaderBytes, uncompressedSize);
    std::string header;
    bool open = true;
    for (;;) {
        const ByteView h {reinterpret_cast<const std::uint8_t*>(header.data()), header.size()};
        const std::uint64_t need = headerBytesNeeded(h);
        if (header.size() >= need)
            break;
        if (need > cap)
            throw FormatError(fmt::format("compressed bundle's entry table needs {} bytes, more than {} ({}): "
                                          "the bundle is damaged", need, cap,
                                          cap == uncompressedSize ? "its declared uncompressed size"
                                                                  : "StackScope's 1 MiB cap on bundle headers"));
        if (!open)
            throw FormatError(fmt::format("compressed bundle decompresses to {} bytes, too short for its entry table "
                                          "({} bytes): the bundle is damaged", header.size(), need));
        open = inflater.more(header, static_cast<std::size_t>(std::min<std::uint64_t>(need - header.size(), 64 * 1024)));
    }
    return header;
}

// The entry ids of an inflated entry table. Entry offsets are checked against the declared uncompressed size,
// without inflating it all.
std::vector<std::string> readEntryTableIds(ByteView h, std::uint64_t uncompressedSize)
{
    if (!h.startsWith(kBundleMagic, kBundleMagicLen))
        throw FormatError("compressed bundle does not decompress to an offload bundle (no __CLANG_OFFLOAD_BUNDLE__ magic)");
    const auto count = h.read<std::uint64_t>(24, "bundle entry count");
    if (count > kMaxBundleEntries)
        throw FormatError(fmt::format("bundle claims {} entries: the bundle is damaged", count));
    std::vector<std::string> ids;
    std::uint64_t pos = 32;
    for (std::uint64_t i = 0; i < count; ++i) {
        const auto offset = h.read<std::uint64_t>(pos, "bundle entry offset");
        const auto size = h.read<std::uint64_t>(pos + 8, "bundle entry size");
        const auto idLen = h.read<std::uint64_t>(pos + 16, "bundle entry id length");
        const ByteView id = h.sub(pos + 24, idLen, "bundle entry id");
        const std::string name(reinterpret_cast<const char*>(id.data), id.size);
        if (offset > uncompressedSize || size > uncompressedSize - offset)
            throw FormatError(fmt::format("bundle entry {} ({}) claims {} bytes at offset {}, past the declared "
                                          "uncompressed size {}: the bundle is damaged", i, name, size, offset, uncompressedSize));
        ids.push_back(name);
        pos += 24 + idLen;
    }
    return ids;
}

} // namespace

std::vector<std::string> readCompressedBundleIds(ByteView data, std::uint64_t* consumed)
{
    const CompressedHeader c = readCompressedHeader(data);
    const ByteView payload = data.sub(c.headerSize, (c.totalSize ? c.totalSize : data.size) - c.headerSize, "CCOB payload");
    const auto inflater = makeInflater(c.method, payload, c.uncompressedSize);
    const std::string header = inflateEntryTable(*inflater, c.uncompressedSize);
    auto ids = readEntryTableIds({reinterpret_cast<const std::uint8_t*>(header.data()), header.size()}, c.uncompressedSize);
    if (consumed)
        *consumed = c.totalSize ? c.totalSize : c.headerSize; // version 1 records no size: search on after the header
    return ids;
}

BundleScan scanOffloadBundles(ByteView section)
{
    BundleScan out;
    const std::uint8_t* const end = section.data + section.size;
    const std::uint8_t* p = section.data;
    // Each magic's next position is remembered: searching both from every bundle would rescan the
    // whole section for the absent one each time (quadratic on a gigabyte libtorch_hip.so).
    const std::uint8_t* a = nullptr;
    const std::uint8_t* c = nullptr;
    TargetSet seen;
    while (p < end) {
        if (!a || a < p)
            a = findMagic(p, end, kBundleMagic, kBundleMagicLen);
        if (!c || c < p)
            c = findMagic(p, end, kCompressedMagic, kCompressedMagicLen);
        const std::uint8_t* at = std::min(a, c);
        if (at == end)
            break;
        const bool compressed = at == c;
        const std::uint64_t offset = static_cast<std::uint64_t>(at - section.data);
        const ByteView rest {at, static_cast<std::size_t>(end - at)};
        std::uint64_t consumed = 0;
        auto fail = [&](auto&& why) {
            addBoundedError(out.errors, out.errorsNotKept, [&] {
                return fmt::format("{} bundle at offset {} of the section: {}",
                                   compressed ? "compressed" : "uncompressed", offset, why());
            });
            consumed = compressed ? kCompressedMagicLen : kBundleMagicLen; // look for the next one after it
        };
        if (const QuickReject r = quickReject(rest, compressed); r.format) {
            fail([&] { return fmt::format(fmt::runtime(r.format), r.value); });
        } else {
            try {
                const auto ids =
                    compressed ? readCompressedBundleIds(rest, &consumed) : readUncompressedBundleIds(rest, &consumed);
                ++out.bundles;
                addTargets(ids, compressed, out, seen);
            } catch (const FormatError& e) {
                fail([&] { return std::string(e.what()); });
            }
        }
        p = at + std::max<std::uint64_t>(consumed, 1);
    }
    return out;
}

} // namespace stackscope::archscan
