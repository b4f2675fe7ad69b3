// Replaces private facts (user and host names, home paths, IP and MAC addresses, GPU UUIDs, serials and credentials)
// with stable placeholders.
#pragma once

#include "core/snapshot/snapshot.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stackscope::report {

// One kind of replacement as the report lists it; the original is never kept here.
struct RedactionEntry {
    std::string kind;        // "user", "host", "home", "ip", "mac", "gpu-uuid", "serial", "secret"
    std::string placeholder; // "<user>", "<ip-1>", ...
    std::size_t count = 0;   // how many times it was replaced, over every redact() call so far
};

// The facts of the machine a redactor hides, besides what it finds by pattern.
struct PrivateFacts {
    std::vector<std::string> userNames; // the first one becomes <user>, others <user-2>, ...
    std::vector<std::string> hostNames; // the first one becomes <host>, others <host-2>, ...
    std::vector<std::string> homeDirs;  // the first one becomes <home>, others <home-2>, ...
};

// What this process can see: getpwuid(getuid()) name, $USER, $LOGNAME, $HOME, the passwd home,
// gethostname() (and its short form), plus the snapshot's host.hostname and access.user.
PrivateFacts privateFactsOf(const Snapshot* snapshot);

// Stable: the same original gives the same placeholder in every string, key and file redacted by
// one Redactor. Not thread-safe (it records what it replaced); use one per report.
//
// Names (user, host, home) in any letter case, inside longer words too when 4 characters or longer.
// By pattern: /home/NAME (NAME becomes a user placeholder), IPv4 (loopback and 0.x kept), IPv6 (full
// or compressed with three or more groups; ::1 kept), MAC (aa:bb:cc:dd:ee:ff, with dashes, Cisco's
// aabb.ccdd.eeff, or 12 hex digits after "mac", "hwaddr", "ether", "bssid"), GPU
// UUIDs (GPU-..., MIG-..., 8-4-4-4-12, 32 hex digits), serial-like values (PCI device serial numbers
// xx-xx-xx-xx-xx-xx-xx-xx or with colons, 16 hex digits with letters and digits, the token after "serial",
// "serial number", "serial_no", "S/N", "SN", "board_serial", "product_serial", "uuid" or "unique_id" in
// text, with any padding before the colon as nvidia-smi -q writes it), credentials (the value of NAME_TOKEN=,
// NAME_SECRET=, NAME_KEY=, ...PASSWORD= assignments, of token=/access_token=/key=/sig=... URL query parameters and
// of "Authorization: Bearer|Basic ..." headers), and the whole value of any JSON key or environment
// variable whose name contains "serial", "uuid" or "unique_id" or names a credential (then everywhere else too).
// Not redacted: PCI bus addresses (0000:03:00.0), gfx targets, versions, times.
class Redactor {
public:
    // Patterns only (no names known).
    Redactor() = default;
    explicit Redactor(PrivateFacts facts);
    // privateFactsOf(&snapshot) in one call: what the report of this machine needs.
    static Redactor forMachine(const Snapshot& snapshot);

    std::string redact(std::string_view text);
    // Exact overloads, so a std::string or a literal does not also match the json overload.
    std::string redact(const std::string& text) { return redact(std::string_view(text)); }
    std::string redact(const char* text) { return redact(std::string_view(text)); }
    // Strings, and keys (an env map's keys, a path-keyed map); numbers and booleans are kept.
    nlohmann::json redact(const nlohmann::json& document);
    // Through the JSON form, so the GUI can draw redacted pages for the screenshots.
    Snapshot redact(const Snapshot& snapshot);

    // Finds secrets held under serial/uuid keys in `document` before anything is redacted, so the
    // same value in a log line read earlier is replaced too. buildReport calls it on every input.
    void learn(const nlohmann::json& document);

    // What could not be redacted with certainty (short or common names, forms no pattern knows), for the
    // report's "redaction" section; never the private values themselves.
    std::vector<std::string> uncertainties() const;

    // Every placeholder handed out so far, in the order first used.
    std::vector<RedactionEntry> replaced() const;
    nlohmann::json replacedJson() const; // [{"kind","placeholder","count"}]

private:
    std::string placeholderFor(const std::string& kind, const std::string& original);
    void addUncertainty(const std::string& note);
    std::string redactLiterals(std::string_view text);
    std::string redactPatterns(const std::string& text);
    static const char* secretKindOfKey(const std::string& keyName, const std::string& value);
    void addSecretLiteral(const std::string& value, const std::string& kind);
    void learnValue(const nlohmann::json& value, const std::string& keyName, int depth);
    std::string redactWholeValue(const std::string& keyName, const std::string& value);
    nlohmann::json redactValue(const nlohmann::json& value, const std::string& keyName, int depth);

    // Longest first, so /home/alice is replaced before alice.
    std::vector<std::pair<std::string, std::string>> m_literals; // original -> kind
    std::map<std::pair<std::string, std::string>, std::size_t> m_index; // (kind, normalised original) -> m_entries
    std::vector<RedactionEntry> m_entries;
    std::map<std::string, int> m_nextNumber; // kind -> next number
    std::vector<std::string> m_uncertain;
};

} // namespace stackscope::report
