// The redactor's hand-written scanners (no std::regex: libstdc++'s recurses per character and overflows on long
// log lines): character classes, case-insensitive literals, and the patterns of addresses, UUIDs, MACs and
// labelled serials, each returning the length matched at a position (0: none).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stackscope::report::patterns {

struct LabelledSecret {
    const char* kind = "serial";
    std::size_t valueStart = 0;
    std::size_t valueLength = 0;
};

bool isHex(char c);
bool isDigit(char c);
bool isWordChar(char c);
std::string lower(std::string_view s);
bool equalsIgnoringCase(std::string_view a, std::string_view b);
bool matchesInsideWords(const std::string& literal, const std::string& kind);
// Names that are not private and would break the report if replaced everywhere.
bool isPublicName(const std::string& name);
void addUnique(std::vector<std::string>& list, const std::string& value);
// Counts hex digits from `pos`; at most `max`.
std::size_t hexRun(std::string_view s, std::size_t pos, std::size_t max = std::string_view::npos);
// groups of exactly these hex lengths separated by `sep`; returns the length matched or 0.
std::size_t matchHexGroups(std::string_view s, std::size_t pos, std::initializer_list<std::size_t> lengths, char sep);
bool boundaryAfter(std::string_view s, std::size_t end);
// A 8-4-4-4-12 UUID (also the tail of GPU-... and MIG-...).
std::size_t matchUuid(std::string_view s, std::size_t pos);
std::size_t matchIpv4(std::string_view s, std::size_t pos, bool* isPublic);
// Full (8 groups) or compressed with "::" and at least three groups; "c10::add" and times are not addresses.
std::size_t matchIpv6(std::string_view s, std::size_t pos, bool* isPublic);
// "serial", "serial number", "serial_number", "uuid", "unique_id", then ':', '=' or any padding of spaces and tabs
// (nvidia-smi -q's "Serial Number                         : 1320..."), then a token of
// letters, digits and dashes with at least one digit (six characters or more). "Device Serial Number xx-..." too.
LabelledSecret matchLabelledSecret(std::string_view s, std::size_t pos);
// 12 hex digits after a MAC label ("mac", "hwaddr", "ether", "bssid", "mac address"): a MAC written without
// separators, which unlabelled would be indistinguishable from other hex. Returns the value's start and length.
std::pair<std::size_t, std::size_t> matchLabelledMac(std::string_view s, std::size_t pos);
// A credential in text: the value of an assignment whose name ends in _TOKEN, _SECRET or _KEY (also -TOKEN ...),
// or holds PASSWORD/PASSWD ("HF_TOKEN=hf_...", "export GITHUB_TOKEN=\"...\"", "DB_PASSWORD: x", "X-Api-Key: x");
// a URL query parameter that carries one after '?' or '&' (token, access_token, key, sig, ...); the value after
// "Authorization:" and its scheme (Bearer, Basic, ...). `before` is the byte written before `pos`. Returns the
// value's start and length; a value that is already a placeholder ('<') is no match.
std::pair<std::size_t, std::size_t> matchCredential(std::string_view s, std::size_t pos, char before);
// Whether a variable, header or JSON key of this name holds a credential (the names matchCredential knows).
bool isCredentialName(std::string_view name);

// Cisco's aabb.ccdd.eeff; at least one letter a-f, so a dotted version of three four-digit numbers is no MAC.
std::size_t matchDottedMac(std::string_view s, std::size_t pos);

// /home/NAME at `pos`: the length of NAME (up to '/', a quote, a space or ':'), 0 when none or already a placeholder.
std::size_t matchHomeUser(std::string_view s, std::size_t pos);

// A private token written without a label at `pos`: GPU-/MIG- and plain UUIDs, PCI device serials (8 hex pairs),
// MACs (colon, dash or Cisco dotted), 32 hex digits (a GPU UUID without dashes), 16 hex digits with letters and
// digits (a serial), IPv4 and IPv6 addresses. `keep` for what is not private (public addresses, the all-zero MAC).
struct UnlabelledMatch {
    std::size_t length = 0;
    const char* kind = "";
    bool keep = false;
};
// `before` is the byte written just before `pos` ('\0' at the start): after a placeholder the text is judged as a
// second redaction of the output will judge it, so redacting twice changes nothing.
UnlabelledMatch matchUnlabelled(std::string_view s, std::size_t pos, char before);

} // namespace stackscope::report::patterns
