// Whether a text is a public http(s) URL a user can open: every source StackScope shows must be one.
#pragma once

#include <string>

namespace stackscope {

inline bool isPublicUrl(const std::string& s)
{
    const bool scheme = s.rfind("https://", 0) == 0 || s.rfind("http://", 0) == 0;
    if (!scheme || s.find_first_of(" \t\r\n") != std::string::npos)
        return false;
    const auto host = s.substr(s.find("://") + 3);
    return host.find('.') != std::string::npos && host.find('.') < host.find('/');
}

} // namespace stackscope
