// The redactor's scanners (redaction_patterns.h).
#include "core/report/redaction_patterns.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>

namespace stackscope::report::patterns {

bool isHex(char c)
{
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isWordChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

std::string lower(std::string_view s)
{
    std::string out(s);
    for (auto& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t k = 0; k < a.size(); ++k) {
        if (std::tolower(static_cast<unsigned char>(a[k])) != std::tolower(static_cast<unsigned char>(b[k])))
            return false;
    }
    return true;
}

// Names of at least this many characters are found inside longer words too; shorter ones (a user "al", a
// host "db1") would hit ordinary words, so they are found only as whole words and the report says so.
constexpr std::size_t kMinInWordLength = 4;

bool matchesInsideWords(const std::string& literal, const std::string& kind)
{
    return kind == "home" || literal.size() >= kMinInWordLength;
}

// Names that are not private and would break the report if replaced everywhere.
bool isPublicName(const std::string& name)
{
    // Also words a report is full of: a host called "gpu" must not turn every "GPU" into <host>.
    static const std::array<const char*, 22> kPublic {
        "root", "localhost", "localhost.localdomain", "nobody", "user", "ubuntu", "debian", "admin",
        "gpu", "host", "node", "server", "desktop", "linux", "amd", "nvidia", "rocm", "cuda", "torch",
        "python", "docker", "container"};
    const auto l = lower(name);
    return l.size() < 2 || std::find(kPublic.begin(), kPublic.end(), l) != kPublic.end();
}

void addUnique(std::vector<std::string>& list, const std::string& value)
{
    if (!value.empty() && std::find(list.begin(), list.end(), value) == list.end())
        list.push_back(value);
}

// Counts hex digits from `pos`; at most `max`.
std::size_t hexRun(std::string_view s, std::size_t pos, std::size_t max)
{
    std::size_t n = 0;
    while (pos + n < s.size() && n < max && isHex(s[pos + n]))
        ++n;
    return n;
}

// groups of exactly these hex lengths separated by `sep`; returns the length matched or 0.
std::size_t matchHexGroups(std::string_view s, std::size_t pos, std::initializer_list<std::size_t> lengths, char sep)
{
    std::size_t p = pos;
    bool first = true;
    for (auto len : lengths) {
        if (!first) {
            if (p >= s.size() || s[p] != sep)
                return 0;
            ++p;
        }
        first = false;
        if (hexRun(s, p, len + 1) != len)
            return 0;
        p += len;
    }
    return p - pos;
}

bool boundaryAfter(std::string_view s, std::size_t end)
{
    return end >= s.size() || !isWordChar(s[end]);
}

// A 8-4-4-4-12 UUID (also the tail of GPU-... and MIG-...).
std::size_t matchUuid(std::string_view s, std::size_t pos)
{
    return matchHexGroups(s, pos, {8, 4, 4, 4, 12}, '-');
}

std::size_t matchIpv4(std::string_view s, std::size_t pos, bool* isPublic)
{
    std::size_t p = pos;
    std::array<int, 4> octets {};
    for (int i = 0; i < 4; ++i) {
        if (i > 0) {
            if (p >= s.size() || s[p] != '.')
                return 0;
            ++p;
        }
        std::size_t n = 0;
        int v = 0;
        while (p + n < s.size() && n < 4 && isDigit(s[p + n])) {
            v = v * 10 + (s[p + n] - '0');
            ++n;
        }
        if (n == 0 || n > 3 || v > 255)
            return 0;
        octets[static_cast<std::size_t>(i)] = v;
        p += n;
    }
    // A fifth number (1.2.3.4.5) is a version, not an address.
    if (p < s.size() && (isWordChar(s[p]) || (s[p] == '.' && p + 1 < s.size() && isDigit(s[p + 1]))))
        return 0;
    *isPublic = octets[0] == 0 || octets[0] == 127 || (octets[0] == 255 && octets[3] == 255);
    return p - pos;
}

// Full (8 groups) or compressed with "::" and at least three groups; "c10::add" and times are not addresses.
std::size_t matchIpv6(std::string_view s, std::size_t pos, bool* isPublic)
{
    std::size_t p = pos;
    int groups = 0;
    bool compressed = false;
    std::size_t lastGood = pos;
    int groupsAtLastGood = 0;
    bool compressedAtLastGood = false;
    while (p < s.size()) {
        const auto n = hexRun(s, p, 5);
        if (n > 4)
            return 0;
        if (n > 0) {
            ++groups;
            p += n;
            lastGood = p;
            groupsAtLastGood = groups;
            compressedAtLastGood = compressed;
        }
        if (p < s.size() && s[p] == ':') {
            if (p + 1 < s.size() && s[p + 1] == ':') {
                if (compressed)
                    break;
                compressed = true;
                p += 2;
                lastGood = p;
                groupsAtLastGood = groups;
                compressedAtLastGood = compressed;
                continue;
            }
            if (n == 0)
                break;
            ++p;
            continue;
        }
        break;
    }
    const std::size_t len = lastGood - pos;
    if (len == 0 || !boundaryAfter(s, lastGood))
        return 0;
    // An IPv4 tail (::ffff:1.2.3.4) is left to the IPv4 pattern.
    const bool ok = compressedAtLastGood ? groupsAtLastGood >= 3 : groupsAtLastGood == 8;
    if (!ok)
        return 0;
    const std::string text(s.substr(pos, len));
    *isPublic = text == "::1" || text == "::";
    return len;
}


namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

// The separator between a label and its value: any padding of spaces and tabs (nvidia-smi -q aligns its colons),
// with at most three of ':', '=' and quotes among it. Returns the position after it; `pos` when there is none.
std::size_t skipLabelSeparator(std::string_view s, std::size_t pos)
{
    std::size_t p = pos;
    int marks = 0;
    while (p < s.size()) {
        if (isBlank(s[p])) {
            ++p;
        } else if ((s[p] == ':' || s[p] == '=' || s[p] == '"' || s[p] == '\'') && marks < 3) {
            ++p;
            ++marks;
        } else {
            break;
        }
    }
    return p;
}

} // namespace

// "serial", "serial number", "serial_number", "uuid", "unique_id", then ':', '=' or any padding, then a token of
// letters, digits and dashes with at least one digit (six characters or more). "Device Serial Number xx-..." too.
LabelledSecret matchLabelledSecret(std::string_view s, std::size_t pos)
{
    LabelledSecret out;
    std::size_t p = pos;
    auto startsWithWord = [&](std::string_view word) {
        if (p + word.size() > s.size())
            return false;
        for (std::size_t k = 0; k < word.size(); ++k) {
            if (std::tolower(static_cast<unsigned char>(s[p + k])) != word[k])
                return false;
        }
        return true;
    };
    // Board and product serials as DMI and amd-smi name them ("board_serial", "Product Serial").
    for (const std::string_view prefix : {"baseboard_", "baseboard ", "board_", "board ", "product_", "product ",
                                          "chassis_", "chassis "}) {
        if (startsWithWord(prefix)) {
            p += prefix.size();
            if (!startsWithWord("serial"))
                return out;
            break;
        }
    }
    if (startsWithWord("s/n")) {
        p += 3;
    } else if (startsWithWord("sn") && !(p + 2 < s.size() && isWordChar(s[p + 2]))) {
        p += 2;
    } else if (startsWithWord("serial")) {
        p += 6;
        const auto save = p;
        while (p < s.size() && (s[p] == ' ' || s[p] == '_'))
            ++p;
        if (startsWithWord("number"))
            p += 6;
        else if (startsWithWord("no"))
            p += 2;
        else
            p = save;
    } else if (startsWithWord("uuid")) {
        p += 4;
        out.kind = "gpu-uuid";
    } else if (startsWithWord("unique_id")) {
        p += 9;
    } else {
        return out;
    }
    if (p < s.size() && isWordChar(s[p]))
        return out; // "serialize", "uuids"
    const auto valueAt = skipLabelSeparator(s, p);
    if (valueAt == p)
        return out;
    p = valueAt;
    std::size_t n = 0;
    bool digit = false;
    while (p + n < s.size() && (std::isalnum(static_cast<unsigned char>(s[p + n])) || s[p + n] == '-')) {
        digit = digit || isDigit(s[p + n]);
        ++n;
    }
    if (n < 6 || !digit)
        return out;
    out.valueStart = p;
    out.valueLength = n;
    return out;
}

// 12 hex digits after a MAC label ("mac", "hwaddr", "ether", "bssid", "mac address"): a MAC written without
// separators, which unlabelled would be indistinguishable from other hex. Returns the value's start and length.
std::pair<std::size_t, std::size_t> matchLabelledMac(std::string_view s, std::size_t pos)
{
    std::size_t p = pos;
    bool labelled = false;
    for (const std::string_view label : {"mac address", "mac_address", "macaddr", "mac", "hwaddr", "ether", "bssid"}) {
        if (p + label.size() <= s.size() && equalsIgnoringCase(s.substr(p, label.size()), label)) {
            p += label.size();
            labelled = true;
            break;
        }
    }
    if (!labelled || (p < s.size() && isWordChar(s[p])))
        return {0, 0};
    const auto valueAt = skipLabelSeparator(s, p);
    if (valueAt == p)
        return {0, 0};
    p = valueAt;
    if (hexRun(s, p, 13) != 12 || !boundaryAfter(s, p + 12))
        return {0, 0};
    return {p, 12};
}

namespace {

// Longer names are no variable or header anyone writes; the bound keeps the scan linear on "a-a-a-a-...".
constexpr std::size_t kMaxCredentialName = 64;
// A quoted value ends at its closing quote within this many bytes, else it is read as unquoted.
constexpr std::size_t kMaxQuotedValue = 4096;

bool endsWithIgnoringCase(std::string_view s, std::string_view tail)
{
    return s.size() >= tail.size() && equalsIgnoringCase(s.substr(s.size() - tail.size()), tail);
}

bool containsIgnoringCase(std::string_view s, std::string_view part)
{
    for (std::size_t k = 0; k + part.size() <= s.size(); ++k) {
        if (equalsIgnoringCase(s.substr(k, part.size()), part))
            return true;
    }
    return false;
}

// Query parameters that carry a credential in URLs (OAuth, Hugging Face, Google API keys, S3/GCS/Azure signed URLs).
bool isCredentialQueryName(std::string_view name)
{
    for (const std::string_view known : {"token", "access_token", "refresh_token", "id_token", "auth", "key", "apikey",
                                         "api_key", "sig", "signature", "password", "secret", "client_secret",
                                         "x-amz-signature", "x-amz-credential", "x-amz-security-token",
                                         "x-goog-signature", "x-goog-credential"}) {
        if (equalsIgnoringCase(name, known))
            return true;
    }
    return false;
}

bool isNameChar(char c)
{
    return isWordChar(c) || c == '-';
}

bool endsValue(char c)
{
    return std::isspace(static_cast<unsigned char>(c)) != 0 || c == '"' || c == '\'' || c == '`' || c == '&' || c == ','
           || c == ';' || c == '<' || c == '>' || c == ')' || c == ']' || c == '}';
}

// The value at `p`: quoted (to its closing quote on the same line) or up to a character that ends a value.
std::pair<std::size_t, std::size_t> valueAt(std::string_view s, std::size_t p, bool allowQuote)
{
    if (allowQuote && p < s.size() && (s[p] == '"' || s[p] == '\'')) {
        const char quote = s[p];
        std::size_t n = 0;
        while (p + 1 + n < s.size() && n < kMaxQuotedValue && s[p + 1 + n] != quote && s[p + 1 + n] != '\n')
            ++n;
        if (p + 1 + n < s.size() && s[p + 1 + n] == quote) {
            if (n == 0 || s[p + 1] == '<')
                return {0, 0};
            return {p + 1, n};
        }
        ++p; // no closing quote: the value runs as if unquoted
    }
    std::size_t n = 0;
    while (p + n < s.size() && !endsValue(s[p + n]))
        ++n;
    return n > 0 ? std::make_pair(p, n) : std::make_pair(std::size_t(0), std::size_t(0));
}

} // namespace

bool isCredentialName(std::string_view name)
{
    for (const std::string_view tail : {"_token", "-token", "_secret", "-secret", "_key", "-key"}) {
        if (name.size() > tail.size() && endsWithIgnoringCase(name, tail))
            return true;
    }
    return containsIgnoringCase(name, "password") || containsIgnoringCase(name, "passwd");
}

std::pair<std::size_t, std::size_t> matchCredential(std::string_view s, std::size_t pos, char before)
{
    if (pos >= s.size() || !std::isalpha(static_cast<unsigned char>(s[pos])))
        return {0, 0};
    std::size_t n = 0;
    while (pos + n < s.size() && n <= kMaxCredentialName && isNameChar(s[pos + n]))
        ++n;
    if (n > kMaxCredentialName)
        return {0, 0};
    const auto name = s.substr(pos, n);
    std::size_t p = pos + n;
    // ?token=..., &sig=...: only '=' right after the name, and the value ends where the parameter does.
    if ((before == '?' || before == '&') && p < s.size() && s[p] == '=' && (isCredentialQueryName(name) || isCredentialName(name)))
        return valueAt(s, p + 1, false);
    const bool authorization = equalsIgnoringCase(name, "authorization") || equalsIgnoringCase(name, "proxy-authorization");
    if (!authorization && !isCredentialName(name))
        return {0, 0};
    // NAME=value (shell), NAME: value (YAML, headers), "NAME": "value" (JSON in a log).
    if (p < s.size() && (s[p] == '"' || s[p] == '\''))
        ++p;
    while (p < s.size() && isBlank(s[p]))
        ++p;
    if (p >= s.size() || (s[p] != '=' && s[p] != ':'))
        return {0, 0};
    const char mark = s[p++];
    if (p < s.size() && (s[p] == ':' || s[p] == '='))
        return {0, 0}; // "PASSWORD::x", "A_KEY==": no assignment
    if (mark == ':' || authorization) // "A_KEY= B" is an empty shell assignment, "A_KEY: B" a value
        while (p < s.size() && isBlank(s[p]))
            ++p;
    if (!authorization)
        return valueAt(s, p, true);
    // Authorization: <scheme> <credentials>, or a bare credential.
    const bool quoted = p < s.size() && (s[p] == '"' || s[p] == '\'');
    if (quoted)
        ++p;
    std::size_t w = 0;
    while (p + w < s.size() && std::isalpha(static_cast<unsigned char>(s[p + w])))
        ++w;
    if (w > 0 && p + w < s.size() && isBlank(s[p + w])) {
        std::size_t q = p + w;
        while (q < s.size() && isBlank(s[q]))
            ++q;
        return valueAt(s, q, false);
    }
    const auto bare = valueAt(s, p, false);
    return bare.second >= 8 ? bare : std::make_pair(std::size_t(0), std::size_t(0));
}

// Cisco's aabb.ccdd.eeff; at least one letter a-f, so a dotted version of three four-digit numbers is no MAC.
std::size_t matchDottedMac(std::string_view s, std::size_t pos)
{
    const std::size_t len = matchHexGroups(s, pos, {4, 4, 4}, '.');
    if (len == 0 || !boundaryAfter(s, pos + len) || (pos + len < s.size() && s[pos + len] == '.'))
        return 0;
    const auto text = s.substr(pos, len);
    const bool letter = std::any_of(text.begin(), text.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
    return letter ? len : 0;
}

std::size_t matchHomeUser(std::string_view s, std::size_t i)
{
    if (s.compare(i, 6, "/home/") != 0)
        return 0;
    std::size_t n = 0;
    while (i + 6 + n < s.size() && s[i + 6 + n] != '/' && s[i + 6 + n] != '"' && s[i + 6 + n] != '\''
           && !std::isspace(static_cast<unsigned char>(s[i + 6 + n])) && s[i + 6 + n] != ':')
        ++n;
    return n > 0 && s[i + 6] != '<' ? n : 0;
}

namespace {

// The hex-shaped tokens: UUIDs, serials, MACs, long hex runs.
UnlabelledMatch matchHexToken(std::string_view s, std::size_t i)
{
    std::size_t len = 0;
    if ((s[i] == 'G' || s[i] == 'M') && (s.compare(i, 4, "GPU-") == 0 || s.compare(i, 4, "MIG-") == 0)
        && (len = matchUuid(s, i + 4)) > 0 && boundaryAfter(s, i + 4 + len))
        return {len + 4, "gpu-uuid"};
    if ((len = matchUuid(s, i)) > 0 && boundaryAfter(s, i + len))
        return {len, "gpu-uuid"};
    if (((len = matchHexGroups(s, i, {2, 2, 2, 2, 2, 2, 2, 2}, '-')) > 0
         || (len = matchHexGroups(s, i, {2, 2, 2, 2, 2, 2, 2, 2}, ':')) > 0)
        && boundaryAfter(s, i + len))
        return {len, "serial"}; // PCI device serial number (lspci "Device Serial Number"), dashes or colons
    if ((len = matchDottedMac(s, i)) > 0)
        return {len, "mac"};
    if (((len = matchHexGroups(s, i, {2, 2, 2, 2, 2, 2}, ':')) > 0 || (len = matchHexGroups(s, i, {2, 2, 2, 2, 2, 2}, '-')) > 0)
        && boundaryAfter(s, i + len) && (i + len >= s.size() || s[i + len] != ':'))
        return {len, "mac", s.compare(i, len, "00:00:00:00:00:00") == 0};
    if (hexRun(s, i, 33) == 32 && boundaryAfter(s, i + 32))
        return {32, "gpu-uuid"};
    if (hexRun(s, i, 17) == 16 && boundaryAfter(s, i + 16)) {
        const auto t = s.substr(i, 16);
        const bool letters = std::any_of(t.begin(), t.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
        const bool digits = std::any_of(t.begin(), t.end(), [](char c) { return isDigit(c); });
        if (letters && digits)
            return {16, "serial"};
    }
    return {};
}

} // namespace

UnlabelledMatch matchUnlabelled(std::string_view s, std::size_t i, char before)
{
    if (auto hex = matchHexToken(s, i); hex.length > 0)
        return hex;
    bool isPublic = false;
    if (isDigit(s[i]) && before != '.') {
        if (const auto len = matchIpv4(s, i, &isPublic); len > 0)
            return {len, "ip", isPublic};
    }
    if ((isHex(s[i]) || s[i] == ':') && before != ':') {
        if (const auto len = matchIpv6(s, i, &isPublic); len > 0)
            return {len, "ip", isPublic};
    }
    return {};
}

} // namespace stackscope::report::patterns
