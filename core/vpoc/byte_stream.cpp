// Block reads of plain or zstd-compressed files with a check that the file does not change underneath.
#include "core/vpoc/byte_stream.h"

#include "core/vpoc/market_data.h"
#include "core/vpoc/market_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

#ifdef STACKSCOPE_VPOC_ZSTD
#include <zstd.h>
#endif

namespace stackscope::vpoc {

namespace {
constexpr size_t kBlock = 1 << 20;
} // namespace

bool ByteStream::isZstd(const unsigned char* h, size_t n)
{
    return n >= 4 && h[0] == 0x28 && h[1] == 0xB5 && h[2] == 0x2F && h[3] == 0xFD;
}

ByteStream::ByteStream(const std::string& path)
    : m_path(path)
{
    m_file.fd = openMarketFile(path, m_fileSize, m_mtimeNs);
    m_in.resize(kBlock);
    m_inEnd = readFile(m_in.data(), m_in.size());
    if (!isZstd(reinterpret_cast<const unsigned char*>(m_in.data()), m_inEnd))
        return;
#ifdef STACKSCOPE_VPOC_ZSTD
    m_zstd = ZSTD_createDStream();
    ZSTD_initDStream(static_cast<ZSTD_DStream*>(m_zstd));
    m_out.resize(ZSTD_DStreamOutSize());
#else
    throw std::runtime_error(fmt::format("{}: zstd-compressed, but this StackScope was built without libzstd; "
                                         "decompress it (zstd -d) or rebuild with libzstd-dev installed",
                                         path));
#endif
}

ByteStream::~ByteStream()
{
#ifdef STACKSCOPE_VPOC_ZSTD
    if (m_zstd)
        ZSTD_freeDStream(static_cast<ZSTD_DStream*>(m_zstd));
#endif
}

void ByteStream::checkUnchanged()
{
    struct stat st {};
    if (::fstat(m_file.fd, &st) == 0 && static_cast<uint64_t>(st.st_size) == m_fileSize && modificationTimeNs(st) == m_mtimeNs)
        return;
    throw InputError(m_path, BinaryPosition {-1, m_position},
                     fmt::format("the file changed while it was being read (it had {} bytes); results would be "
                                 "incomplete, so nothing is reported: run again once whatever writes the file has "
                                 "finished",
                                 m_fileSize));
}

size_t ByteStream::readFile(char* dst, size_t n)
{
    size_t got = 0;
    while (got < n) {
        const ssize_t r = ::read(m_file.fd, dst + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            throw InputError(m_path, 0, 0, fmt::format("read error after {} bytes ({}); check the disk or the file",
                                                       m_fileRead, std::strerror(errno)));
        if (r == 0)
            break;
        got += static_cast<size_t>(r);
    }
    m_fileRead += got;
    checkUnchanged();
    if (got < n && m_fileRead != m_fileSize)
        checkUnchanged();
    m_fileEnded = got < n || m_fileRead >= m_fileSize;
    return got;
}

// Makes more decompressed bytes available in m_out; false at the end of the data.
bool ByteStream::refill()
{
#ifdef STACKSCOPE_VPOC_ZSTD
    auto* z = static_cast<ZSTD_DStream*>(m_zstd);
    for (;;) {
        bool flushOnly = false; // the input is over: what the decoder still holds, then the frame must be whole
        if (m_inPos == m_inEnd) {
            if (!m_fileEnded) {
                m_inEnd = readFile(m_in.data(), m_in.size());
                m_inPos = 0;
            }
            if (m_inPos == m_inEnd) {
                if (m_frameLeft == 0)
                    return false;
                flushOnly = true;
            }
        }
        ZSTD_inBuffer in {m_in.data(), m_inEnd, m_inPos};
        ZSTD_outBuffer out {m_out.data(), m_out.size(), 0};
        const size_t rc = ZSTD_decompressStream(z, &out, &in);
        m_inPos = in.pos;
        if (ZSTD_isError(rc))
            throw InputError(m_path, BinaryPosition {-1, m_position},
                             fmt::format("the zstd data is damaged ({}); download the file again", ZSTD_getErrorName(rc)));
        m_frameLeft = rc;
        m_outPos = 0;
        m_outEnd = out.pos;
        if (m_outEnd > 0)
            return true;
        if (flushOnly && rc != 0)
            throw InputError(m_path, BinaryPosition {-1, m_position},
                             fmt::format("the zstd file is truncated: it ends after {} bytes, inside a frame that "
                                         "needs {} more (its checksum or data is missing); download or copy the "
                                         "file again, whole",
                                         m_fileRead, rc));
        if (flushOnly)
            return false;
    }
#else
    return false;
#endif
}

size_t ByteStream::read(void* dst, size_t n)
{
    char* d = static_cast<char*>(dst);
    size_t done = 0;
    while (done < n) {
        if (!m_zstd) {
            if (m_inPos == m_inEnd) {
                if (m_fileEnded)
                    break;
                m_inEnd = readFile(m_in.data(), m_in.size());
                m_inPos = 0;
                if (m_inEnd == 0)
                    break;
            }
            const size_t k = std::min(n - done, m_inEnd - m_inPos);
            std::memcpy(d + done, m_in.data() + m_inPos, k);
            m_inPos += k;
            done += k;
            continue;
        }
        if (m_outPos == m_outEnd && !refill())
            break;
        const size_t k = std::min(n - done, m_outEnd - m_outPos);
        std::memcpy(d + done, m_out.data() + m_outPos, k);
        m_outPos += k;
        done += k;
    }
    m_position += done;
    return done;
}

} // namespace stackscope::vpoc
