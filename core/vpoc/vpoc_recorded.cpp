// recordedVpocRun: the inverse of toJson (vpoc_output.cpp) for what a report keeps.
#include "core/vpoc/vpoc_recorded.h"

#include "core/vpoc/time_zones.h"

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

DataFormat format(const std::string& name)
{
    return name == "trades" ? DataFormat::Trades : name == "bars" ? DataFormat::Bars : DataFormat::Auto;
}

Distribution distribution(const std::string& name)
{
    return name == "close" ? Distribution::Close : name == "typical" ? Distribution::Typical : Distribution::Uniform;
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
    VpocOptions& opt = r.options;
    opt.input = text(o, "input", "");
    try {
        const auto tick = o.find("tick");
        opt.read.tick = Tick::parse(
            tick != o.end() && tick->is_number() ? fmt::format("{}", tick->get<double>()) : std::string("0.25"));
    } catch (const std::invalid_argument& e) {
        throw RecordedRunError(fmt::format("VPOC run: 'tick': {}", e.what()));
    }
    opt.read.format = format(text(o, "format", "auto"));
    r.format = opt.read.format == DataFormat::Auto ? DataFormat::Bars : opt.read.format;
    opt.read.timeZone = text(o, "tz", opt.read.timeZone);
    opt.read.skipBad = o.value("skip_bad", false);
    opt.session = text(o, "session", opt.session);
    opt.sessionTimeZone = text(o, "session_tz", opt.sessionTimeZone);
    opt.profile.distribution = distribution(text(o, "distribution", "uniform"));
    if (const auto va = o.find("va"); va != o.end() && va->is_number()) {
        try {
            opt.valueAreaPercent = va->get<double>();
            opt.profile.vaBasisPoints = percentToBasisPoints(opt.valueAreaPercent);
        } catch (const std::invalid_argument& e) {
            throw RecordedRunError(fmt::format("VPOC run: 'va': {}", e.what()));
        }
    }
    opt.profile.method = text(o, "va_method", "dual") == "single" ? ValueAreaMethod::Single : ValueAreaMethod::Dual;
    opt.developing = false; // reports keep no developing values
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
        r.sessions.push_back(session(s, opt.read.tick));
    return r;
}

} // namespace stackscope::vpoc
