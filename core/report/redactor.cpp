// Redaction: literal names (user, host, home) and patterns (addresses, UUIDs, serials) scanned by hand, not
// with std::regex, whose libstdc++ implementation recurses per character and overflows on long log lines.
#include "core/report/redactor.h"

#include "core/report/redaction_patterns.h"

#include "core/snapshot/snapshot_json.h"

#include <fmt/format.h>

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>

namespace stackscope::report {

using namespace patterns;

namespace {
// Serial and UUID values under their keys are at least 6 characters (secretKindOfKey); credentials can be shorter.
constexpr std::size_t kMinSecretLiteral = 6;
} // namespace

PrivateFacts privateFactsOf(const Snapshot* snapshot)
{
    PrivateFacts f;
    // The snapshot's names first: they are the machine the report is about, so they read <user>, <host>.
    if (snapshot) {
        if (snapshot->host.hostname) {
            addUnique(f.hostNames, *snapshot->host.hostname);
            if (const auto dot = snapshot->host.hostname->find('.'); dot != std::string::npos)
                addUnique(f.hostNames, snapshot->host.hostname->substr(0, dot));
        }
        if (snapshot->access.user)
            addUnique(f.userNames, *snapshot->access.user);
        for (const char* var : {"HOME", "USER", "LOGNAME"}) {
            if (auto it = snapshot->env.find(var); it != snapshot->env.end())
                addUnique(std::string(var) == "HOME" ? f.homeDirs : f.userNames, it->second);
        }
    }
    if (const passwd* pw = getpwuid(getuid())) {
        if (pw->pw_name)
            addUnique(f.userNames, pw->pw_name);
        if (pw->pw_dir)
            addUnique(f.homeDirs, pw->pw_dir);
    }
    for (const char* var : {"USER", "LOGNAME"}) {
        if (const char* v = std::getenv(var))
            addUnique(f.userNames, v);
    }
    if (const char* home = std::getenv("HOME"))
        addUnique(f.homeDirs, home);
    std::array<char, 256> host {};
    if (gethostname(host.data(), host.size() - 1) == 0) {
        const std::string h(host.data());
        addUnique(f.hostNames, h);
        if (const auto dot = h.find('.'); dot != std::string::npos)
            addUnique(f.hostNames, h.substr(0, dot));
    }
    return f;
}

Redactor::Redactor(PrivateFacts facts)
{
    // Placeholders in the order given: the first user is <user>, the first host <host>.
    auto add = [this](const std::vector<std::string>& list, const char* kind) {
        for (const auto& v : list) {
            std::string value = v;
            while (value.size() > 1 && value.back() == '/')
                value.pop_back();
            if (std::string(kind) == "home" ? (value.size() < 2 || value == "/root") : isPublicName(value)) {
                if (std::string(kind) != "home" && value.size() >= 2)
                    addUncertainty(fmt::format("a {} name that is a common word (root, gpu, node ...) was left as it "
                                               "is, so it can still be read where it appears",
                                               std::string(kind) == "user" ? "user" : "host"));
                continue;
            }
            if (!matchesInsideWords(value, kind))
                addUncertainty(fmt::format("a {} name of only {} characters is replaced only where it stands as a "
                                           "whole word; inside longer words or paths it may remain",
                                           kind, value.size()));
            const auto before = m_entries.size();
            placeholderFor(kind, value);
            if (m_entries.size() > before)
                m_entries.back().count = 0; // numbered now, listed once something is replaced
            if (std::none_of(m_literals.begin(), m_literals.end(), [&](const auto& l) { return l.first == value; }))
                m_literals.emplace_back(value, kind);
        }
    };
    add(facts.homeDirs, "home");
    add(facts.userNames, "user");
    add(facts.hostNames, "host");
    std::stable_sort(m_literals.begin(), m_literals.end(),
                     [](const auto& x, const auto& y) { return x.first.size() > y.first.size(); });
}

void Redactor::addUncertainty(const std::string& note)
{
    if (std::find(m_uncertain.begin(), m_uncertain.end(), note) == m_uncertain.end())
        m_uncertain.push_back(note);
}

std::vector<std::string> Redactor::uncertainties() const
{
    std::vector<std::string> out = m_uncertain;
    // What no pattern can know, said every time.
    out.push_back("names are found in any letter case, but not spelled otherwise (abbreviated, transliterated); "
                  "serial numbers are found after a label (serial, S/N, SN, board_serial ...), as PCI serials or as "
                  "16 or 32 hex digits, MAC addresses in the aa:bb:cc:dd:ee:ff, aa-bb-..., aabb.ccdd.eeff forms and "
                  "as 12 hex digits after a MAC label; credentials as the values of NAME_TOKEN/_SECRET/_KEY/PASSWORD "
                  "assignments, of token/key/sig URL parameters and of Authorization headers: an identifier or "
                  "credential in another form, without a label, can remain");
    return out;
}

Redactor Redactor::forMachine(const Snapshot& snapshot)
{
    return Redactor(privateFactsOf(&snapshot));
}

std::string Redactor::placeholderFor(const std::string& kind, const std::string& original)
{
    const auto key = std::make_pair(kind, kind == "host" || kind == "mac" || kind == "ip" || kind == "gpu-uuid"
                                              ? lower(original)
                                              : original);
    if (auto it = m_index.find(key); it != m_index.end()) {
        ++m_entries[it->second].count;
        return m_entries[it->second].placeholder;
    }
    const int n = ++m_nextNumber[kind];
    // The machine's own user, host and home read as <user>, <host>, <home>; numbered kinds always count.
    const bool unnumbered = n == 1 && (kind == "user" || kind == "host" || kind == "home");
    RedactionEntry e {kind, unnumbered ? fmt::format("<{}>", kind) : fmt::format("<{}-{}>", kind, n), 1};
    m_index.emplace(key, m_entries.size());
    m_entries.push_back(e);
    return e.placeholder;
}

std::string Redactor::redactLiterals(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    // Most characters start no literal: one table look-up skips them (the loop below compares strings).
    std::array<bool, 256> firstChar {};
    firstChar[static_cast<unsigned char>('<')] = true;
    for (const auto& [literal, kind] : m_literals) {
        const auto c = static_cast<unsigned char>(literal.front());
        firstChar[c] = true;
        firstChar[static_cast<unsigned char>(std::tolower(c))] = true;
        firstChar[static_cast<unsigned char>(std::toupper(c))] = true;
    }
    std::size_t i = 0;
    while (i < text.size()) {
        if (!firstChar[static_cast<unsigned char>(text[i])]) {
            out += text[i];
            ++i;
            continue;
        }
        // A placeholder from an earlier pass stays as it is (redacting twice changes nothing).
        if (text[i] == '<') {
            if (const auto close = text.find('>', i); close != std::string_view::npos && close - i < 32) {
                const auto candidate = text.substr(i, close - i + 1);
                if (std::any_of(m_entries.begin(), m_entries.end(),
                                [&](const RedactionEntry& e) { return e.placeholder == candidate; })) {
                    out += candidate;
                    i = close + 1;
                    continue;
                }
            }
        }
        bool replaced = false;
        for (const auto& [literal, kind] : m_literals) {
            if (literal.size() > text.size() - i)
                continue;
            // Every name in any letter case (ZorbUser, ZORB-WORKSTATION-7), also inside longer words and
            // paths built from it (/mnt/zorbuser-data, zorbuser_runs), once it is long enough not to be a
            // piece of ordinary words; a shorter one only as a whole word ("al" must not eat "always").
            if (!equalsIgnoringCase(text.substr(i, literal.size()), literal))
                continue;
            const std::size_t end = i + literal.size();
            if (!matchesInsideWords(literal, kind)) {
                const bool startOk = i == 0 || !isWordChar(text[i - 1]);
                const bool endOk = end == text.size() || !isWordChar(text[end]);
                if (!startOk || !endOk)
                    continue;
            }
            out += placeholderFor(kind, std::string(literal));
            i = end;
            replaced = true;
            break;
        }
        if (!replaced) {
            out += text[i];
            ++i;
        }
    }
    return out;
}

std::string Redactor::redactPatterns(const std::string& s)
{
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    const std::string_view v(s);
    while (i < s.size()) {
        // The character before is the one already written: after a placeholder ('>') a label or /home/ starts a
        // new token, as it will when the redacted text is redacted again (redacting twice changes nothing).
        if (!out.empty() && isWordChar(out.back())) {
            out += s[i++];
            continue;
        }
        // "HF_TOKEN=...", "?token=...", "Authorization: Bearer ...": the value is a credential.
        if (const auto [at, n] = matchCredential(v, i, out.empty() ? '\0' : out.back()); n > 0) {
            out += s.substr(i, at - i);
            out += placeholderFor("secret", s.substr(at, n));
            i = at + n;
        // "serial 6923...", "Serial Number: AB12...", "uuid=...": the token after the label is a secret.
        } else if (const auto labelled = matchLabelledSecret(v, i); labelled.valueLength > 0) {
            out += s.substr(i, labelled.valueStart - i);
            out += placeholderFor(labelled.kind, s.substr(labelled.valueStart, labelled.valueLength));
            i = labelled.valueStart + labelled.valueLength;
        } else if (const auto [at, n] = matchLabelledMac(v, i); n > 0) {
            out += s.substr(i, at - i);
            out += placeholderFor("mac", s.substr(at, n));
            i = at + n;
        } else if (const auto user = matchHomeUser(v, i); user > 0) { // /home/NAME: NAME is a user
            out += "/home/";
            out += placeholderFor("user", s.substr(i + 6, user));
            i += 6 + user;
        } else if (const auto token = matchUnlabelled(v, i, out.empty() ? '\0' : out.back()); token.length > 0) {
            const auto original = s.substr(i, token.length);
            out += token.keep ? original : placeholderFor(token.kind, original);
            i += token.length;
        } else {
            out += s[i++];
        }
    }
    return out;
}

// One pass decides a token by its neighbours, and a neighbour may itself become a placeholder in that pass (an
// IPv6 prefix followed by a 32-hex UUID reads as an address only once the UUID is "<gpu-uuid-1>": fuzz_report_loader
// found such texts). So a pass that replaced something is followed by another, until one changes nothing: a redacted
// text redacts to itself. A text with nothing private (most of a report) takes one pass; the cap bounds the cost.
std::string Redactor::redact(std::string_view text)
{
    constexpr int kMaxPasses = 4;
    std::string current(text);
    for (int pass = 0; pass < kMaxPasses; ++pass) {
        std::string next = redactPatterns(redactLiterals(current));
        if (next == current)
            break;
        current = std::move(next);
    }
    return current;
}

const char* Redactor::secretKindOfKey(const std::string& keyName, const std::string& value)
{
    if (value.empty() || value.front() == '<')
        return nullptr;
    // HF_TOKEN, DB_PASSWORD, "X-Api-Key": any value is a credential (the snapshot keeps none; other documents may).
    if (isCredentialName(keyName))
        return "secret";
    // "N/A", "unknown" or "0" under a serial key are not secrets; real ones are long and carry digits.
    if (value.size() < 6 || std::none_of(value.begin(), value.end(), isDigit))
        return nullptr;
    const auto k = lower(keyName);
    if (k.find("uuid") != std::string::npos)
        return "gpu-uuid";
    if (k.find("serial") != std::string::npos || k.find("unique_id") != std::string::npos)
        return "serial";
    return nullptr;
}

void Redactor::addSecretLiteral(const std::string& value, const std::string& kind)
{
    // A short credential ("x", "1234") replaced everywhere would eat ordinary text; it is replaced under its key only.
    if (value.size() < kMinSecretLiteral)
        return;
    if (std::any_of(m_literals.begin(), m_literals.end(), [&](const auto& l) { return l.first == value; }))
        return;
    m_literals.emplace_back(value, kind);
    std::stable_sort(m_literals.begin(), m_literals.end(),
                     [](const auto& x, const auto& y) { return x.first.size() > y.first.size(); });
}

void Redactor::learn(const nlohmann::json& document)
{
    learnValue(document, "", 0);
}

void Redactor::learnValue(const nlohmann::json& value, const std::string& keyName, int depth)
{
    if (depth > 256)
        return;
    if (value.is_string()) {
        if (const char* kind = secretKindOfKey(keyName, value.get_ref<const std::string&>()))
            addSecretLiteral(value.get<std::string>(), kind);
    } else if (value.is_array()) {
        for (const auto& item : value)
            learnValue(item, keyName, depth + 1);
    } else if (value.is_object()) {
        for (auto it = value.begin(); it != value.end(); ++it)
            learnValue(it.value(), it.key(), depth + 1);
    }
}

std::string Redactor::redactWholeValue(const std::string& keyName, const std::string& value)
{
    if (const char* kind = secretKindOfKey(keyName, value)) {
        // Wherever else it appears (a log line, a message) it is the same secret.
        addSecretLiteral(value, kind);
        return placeholderFor(kind, value);
    }
    return redact(value);
}

nlohmann::json Redactor::redactValue(const nlohmann::json& value, const std::string& keyName, int depth)
{
    // The loader caps depth at 64; a document built in memory can be deeper, so recursion stops here too.
    if (depth > 256)
        return "<redacted: nested too deep>";
    if (value.is_string())
        return redactWholeValue(keyName, value.get<std::string>());
    if (value.is_array()) {
        auto out = nlohmann::json::array();
        for (const auto& item : value)
            out.push_back(redactValue(item, keyName, depth + 1));
        return out;
    }
    if (value.is_object()) {
        auto out = nlohmann::json::object();
        for (auto it = value.begin(); it != value.end(); ++it)
            out[redact(it.key())] = redactValue(it.value(), it.key(), depth + 1);
        return out;
    }
    return value;
}

nlohmann::json Redactor::redact(const nlohmann::json& document)
{
    learn(document); // a serial under a key is known before the first string that repeats it
    return redactValue(document, "", 0);
}

Snapshot Redactor::redact(const Snapshot& snapshot)
{
    return snapshotFromJson(redact(toJson(snapshot)));
}

std::vector<RedactionEntry> Redactor::replaced() const
{
    std::vector<RedactionEntry> out;
    for (const auto& e : m_entries) {
        if (e.count > 0)
            out.push_back(e);
    }
    return out;
}

nlohmann::json Redactor::replacedJson() const
{
    auto out = nlohmann::json::array();
    for (const auto& e : replaced())
        out.push_back({{"kind", e.kind}, {"placeholder", e.placeholder}, {"count", e.count}});
    return out;
}

} // namespace stackscope::report
