// The bytes of a market data file, plain or zstd-compressed (recognised by its magic number), read in blocks.
#pragma once

#include "core/vpoc/unique_fd.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace stackscope::vpoc {

// Reads a regular file front to back in 1 MiB blocks, through zstd when the file starts with its frame
// magic. The file's size and modification time are checked at every block: a file that changes while it
// is read throws InputError (its bytes would not be the file's).
class ByteStream {
public:
    explicit ByteStream(const std::string& path);
    ~ByteStream();
    ByteStream(const ByteStream&) = delete;
    ByteStream& operator=(const ByteStream&) = delete;

    // Copies up to n bytes; fewer only at the end of the data.
    size_t read(void* dst, size_t n);
    uint64_t position() const { return m_position; } // offset in the (decompressed) data
    uint64_t fileBytesRead() const { return m_fileRead; }
    uint64_t fileSize() const { return m_fileSize; }
    bool compressed() const { return m_zstd != nullptr; }
    const std::string& path() const { return m_path; }

    static bool isZstd(const unsigned char* head, size_t n);

private:
    size_t readFile(char* dst, size_t n);
    bool refill();
    void checkUnchanged();

    std::string m_path;
    UniqueFd m_file;
    uint64_t m_fileSize = 0;
    int64_t m_mtimeNs = 0;
    uint64_t m_fileRead = 0;
    uint64_t m_position = 0;
    void* m_zstd = nullptr; // ZSTD_DStream
    std::vector<char> m_in;
    size_t m_inPos = 0, m_inEnd = 0;
    std::vector<char> m_out;
    size_t m_outPos = 0, m_outEnd = 0;
    bool m_fileEnded = false;
    // ZSTD_decompressStream's last hint: 0 once a frame is whole (its checksum too, when it has one). Not 0 when the
    // input ends: the file was cut short, and it is refused rather than read as if complete.
    size_t m_frameLeft = 1;
};

} // namespace stackscope::vpoc
