// recordedVpocRun: the inverse of toJson (vpoc_output.cpp) for what a report keeps.
#include "core/vpoc/vpoc_recorded.h"

#include "core/vpoc/time_zones.h"
#include "core/vpoc/vpoc_options.h"

#include <fmt/format.h>

#include <cmath>

namespace stackscope::vpoc {

namespace {

using nlohmann::json;

const json& member(const json& j, const char* key, bool (json::*is)() const noexcept, const char* what)
{
    const auto it = j.find(key);
    if (it == j.end() || !((*it).*is)())
        throw RecordedRunError(fmt::format("VPOC run: '{}' should be {}", key, what));
    return *it;
}

std::string text(const json& j, const char* key, const std::string& fallback)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

// An ISO 8601 time with its offset, as toJson writes it, in microseconds since the epoch.
int64_t instant(const std::string& iso, const char* key)
{
    TimestampReader reader("UTC");
    int64_t us = 0;
    if (auto error = reader.read(iso, INT64_MIN, true, us))
        throw RecordedRunError(fmt::format("VPOC run: session '{}' {}: {}", key, iso, *error));
    return us;
}

int32_t ticks(const json& session, const char* key, const Tick& tick)
{
    const double price = member(session, key, &json::is_number, "a price").get<double>();
    return static_cast<int32_t>(std::llround(price / tick.value));
}

SessionResult session(const json& s, const Tick& tick)
{
    if (!s.is_object())
        throw RecordedRunError("VPOC run: each of 'sessions' should be an object");
    SessionResult out;
    const std::string date = member(s, "date", &json::is_string, "a date (YYYY-MM-DD)").get<std::string>();
    out.day = static_cast<int32_t>(instant(date + "T00:00:00Z", "date") / (86400LL * 1000000LL));
    out.firstUs = instant(member(s, "first", &json::is_string, "a time").get<std::string>(), "first");
    out.lastUs = instant(member(s, "last", &json::is_string, "a time").get<std::string>(), "last");
    out.bars = member(s, "bars", &json::is_number_integer, "a count").get<int64_t>();
    out.volume = member(s, "volume", &json::is_number_integer, "a count").get<uint64_t>();
    out.lowTick = ticks(s, "low", tick);
    out.highTick = ticks(s, "high", tick);
    out.pocTick = ticks(s, "poc", tick);
    out.vahTick = ticks(s, "vah", tick);
    out.valTick = ticks(s, "val", tick);
    if (const auto p = s.find("profile");
        p != s.end() && p->is_array() && p->size() == static_cast<size_t>(out.highTick - out.lowTick + 1)) {
        for (const auto& v : *p)
            out.profile.push_back(v.is_number_unsigned() ? v.get<uint64_t>() : 0);
    }
    return out;
}

// A recorded option's JSON value as the text its field's parse reads ("0.25", "70", "true").
std::string optionText(const json& v, const char* key)
{
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_boolean())
        return v.get<bool>() ? "true" : "false";
    if (v.is_number_unsigned())
        return std::to_string(v.get<uint64_t>());
    if (v.is_number())
        return fmt::format("{}", v.get<double>());
    throw RecordedRunError(fmt::format("VPOC run: option '{}' should be a text, a number or true/false", key));
}

// The run's options through the fields' own parse functions; a key it lacks keeps the default.
VpocOptions recordedOptions(const json& o)
{
    VpocRequest request;
    for (const auto& field : vpocFields()) {
        const auto it = field.jsonKey ? o.find(field.jsonKey) : o.end();
        if (it == o.end())
            continue;
        try {
            field.parse(optionText(*it, field.jsonKey), request);
        } catch (const std::invalid_argument& e) {
            throw RecordedRunError(fmt::format("VPOC run: '{}': {}", field.jsonKey, e.what()));
        }
    }
    request.options.read.timeZoneGiven = false; // nothing is read with it
    request.options.developing = false;         // reports keep no developing values
    return request.options;
}

} // namespace

VpocResult recordedVpocRun(const json& run)
{
    if (!run.is_object())
        throw RecordedRunError("VPOC run: should be an object (stackscope-cli vpoc --json, or a report's \"vpoc\")");
    const json& o = member(run, "options", &json::is_object, "an object");
    VpocResult r;
    r.backend = text(run, "backend", "unknown");
    r.backendNote = text(run, "backend_note", "");
    r.options = recordedOptions(o);
    // "format" is the one the file was read as (toJson writes the result's).
    r.format = r.options.read.format == DataFormat::Auto ? DataFormat::Bars : r.options.read.format;
    r.rows = run.value("rows", int64_t { 0 });
    r.outsideSessions = run.value("outside_sessions", int64_t { 0 });
    if (const auto& skipped = run.find("skipped"); skipped != run.end() && skipped->is_object()) {
        r.skipped.count = skipped->value("count", int64_t { 0 });
        if (const auto first = skipped->find("first"); first != skipped->end() && first->is_array())
            for (const auto& line : *first)
                if (line.is_string())
                    r.skipped.first.push_back(line.get<std::string>());
    }
    for (const auto& s : member(run, "sessions", &json::is_array, "a list"))
        r.sessions.push_back(session(s, r.options.read.tick));
    return r;
}

} // namespace stackscope::vpoc
