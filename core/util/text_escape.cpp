// Control-byte and invalid-UTF-8 escaping for messages built from input files.
#include "core/util/text_escape.h"

#include <cstdint>
#include <cstdio>

namespace stackscope {

namespace {

void hex(std::string& out, unsigned char c)
{
    char buf[5];
    std::snprintf(buf, sizeof buf, "\\x%02x", c);
    out += buf;
}

// Length of the valid UTF-8 sequence at `s[i]` (RFC 3629: no overlongs, no surrogates, <= U+10FFFF), or 0.
size_t utf8Length(std::string_view s, size_t i, uint32_t* cp)
{
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned char c = b(0);
    size_t n = 0;
    uint32_t v = 0;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        v = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        v = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        v = c & 0x07;
    } else {
        return 0;
    }
    if (i + n > s.size())
        return 0;
    for (size_t k = 1; k < n; ++k) {
        if ((b(k) & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (b(k) & 0x3f);
    }
    const bool overlong = (n == 3 && v < 0x800) || (n == 4 && v < 0x10000);
    if (overlong || (v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff)
        return 0;
    *cp = v;
    return n;
}

std::string escape(std::string_view s, bool keepNewlines)
{
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '\n' && keepNewlines) {
            out += '\n';
            ++i;
        } else if (c == '\n' || c == '\t' || c == '\r') {
            out += c == '\n' ? "\\n" : c == '\t' ? "\\t" : "\\r";
            ++i;
        } else if (c < 0x20 || c == 0x7f) {
            hex(out, c);
            ++i;
        } else if (c < 0x80) {
            out += static_cast<char>(c);
            ++i;
        } else {
            uint32_t cp = 0;
            const size_t n = utf8Length(s, i, &cp);
            if (n == 0 || (cp >= 0x80 && cp <= 0x9f)) { // invalid, or a C1 control (0xc2 0x9b is CSI)
                for (size_t k = 0; k < (n ? n : 1); ++k)
                    hex(out, static_cast<unsigned char>(s[i + k]));
                i += n ? n : 1;
            } else {
                out.append(s.substr(i, n));
                i += n;
            }
        }
    }
    return out;
}

} // namespace

std::string escapeControl(std::string_view text)
{
    return escape(text, false);
}

std::string escapeMessage(std::string_view text)
{
    return escape(text, true);
}

std::string cutAtWord(std::string_view text, std::size_t max)
{
    if (text.size() <= max)
        return std::string(text);
    std::size_t end = text.rfind(' ', max);
    if (end == std::string_view::npos || end == 0) {
        end = max; // one long word: cut it, but not inside a UTF-8 sequence
        while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
            --end;
    }
    while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == ','))
        --end;
    return std::string(text.substr(0, end)) + " ...";
}

std::string escapeHtml(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

} // namespace stackscope
