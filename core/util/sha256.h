// SHA-256 of a file (FIPS 180-4), for recording which data a model was trained on.
#pragma once

#include <cstdint>
#include <string>

namespace stackscope {

class Sha256 {
public:
    Sha256();
    void update(const void* data, size_t size);
    std::string hexDigest(); // finishes the hash; call once

private:
    void block(const uint8_t* p);
    uint32_t m_h[8];
    uint8_t m_buffer[64];
    size_t m_used = 0;
    uint64_t m_bytes = 0;
};

// Lower-case hex digest of a whole file; throws std::runtime_error naming the file when it cannot be read.
std::string sha256File(const std::string& path);

} // namespace stackscope
