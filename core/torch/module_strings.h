// Strings handed across the torch module's C interface: malloc'd copies the caller frees with
// stackscope_torch_free.
#pragma once

#include <cstdlib>
#include <cstring>
#include <string>

namespace stackscope::torchmodule {

inline char* mallocCopy(const std::string& s)
{
    char* p = static_cast<char*>(std::malloc(s.size() + 1));
    if (p)
        std::memcpy(p, s.c_str(), s.size() + 1);
    return p;
}

} // namespace stackscope::torchmodule
