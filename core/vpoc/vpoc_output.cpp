// JSON and CSV renderings of a VpocResult; prices are decimals on the tick grid (5123.25).
#include "core/vpoc/vpoc_output.h"

#include <fmt/format.h>

namespace stackscope::vpoc {

namespace {

std::string priceText(const Tick& t, int64_t ticks) { return fmt::format("{:.{}f}", t.price(ticks), t.decimals); }

} // namespace

nlohmann::json toJson(const VpocResult& r, bool withProfiles)
{
    const auto& o = r.options;
    const Tick& tick = o.read.tick;
    nlohmann::json j;
    j["backend"] = r.backend;
    if (!r.backendNote.empty())
        j["backend_note"] = r.backendNote;
    j["options"] = {
        {"input", o.input},
        {"format", formatName(r.format)},
        {"tick", tick.value},
        {"session", o.session},
        {"session_tz", o.sessionTimeZone},
        {"tz", o.read.timeZone},
        {"distribution", distributionName(o.profile.distribution)},
        {"va", o.profile.vaBasisPoints / 100.0},
        {"va_method", o.profile.method == ValueAreaMethod::Dual ? "dual" : "single"},
        {"vram_budget_mib", o.vramBudgetMiB},
        {"skip_bad", o.read.skipBad},
    };
    j["threads"] = r.threads;
    if (!r.threadsNote.empty())
        j["threads_note"] = r.threadsNote;
    j["rows"] = r.rows;
    j["outside_sessions"] = r.outsideSessions;
    j["skipped"] = {{"count", r.skipped.count}, {"first", r.skipped.first}};
    j["extra_columns"] = r.extraColumns;
    SessionClock clock(SessionRule::parse(o.session, o.sessionTimeZone));
    auto sessions = nlohmann::json::array();
    for (const auto& s : r.sessions) {
        nlohmann::json js = {
            {"date", formatDate(s.day)},
            {"first", formatIso(s.firstUs, clock.clock())},
            {"last", formatIso(s.lastUs, clock.clock())},
            {"bars", s.bars},
            {"volume", s.volume},
            {"low", tick.price(s.lowTick)},
            {"high", tick.price(s.highTick)},
            {"poc", tick.price(s.pocTick)},
            {"vah", tick.price(s.vahTick)},
            {"val", tick.price(s.valTick)},
        };
        if (withProfiles && !s.profile.empty())
            js["profile"] = s.profile;
        sessions.push_back(std::move(js));
    }
    j["sessions"] = std::move(sessions);
    return j;
}

std::string sessionsCsv(const VpocResult& r)
{
    const Tick& tick = r.options.read.tick;
    SessionClock clock(SessionRule::parse(r.options.session, r.options.sessionTimeZone));
    std::string out = "date,first,last,bars,volume,low,high,poc,vah,val\n";
    for (const auto& s : r.sessions)
        out += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", formatDate(s.day), formatIso(s.firstUs, clock.clock()),
                           formatIso(s.lastUs, clock.clock()), s.bars, s.volume, priceText(tick, s.lowTick),
                           priceText(tick, s.highTick), priceText(tick, s.pocTick), priceText(tick, s.vahTick),
                           priceText(tick, s.valTick));
    return out;
}

DevelopingCsv::DevelopingCsv(const VpocOptions& options)
    : m_tick(options.read.tick)
    , m_clock(SessionRule::parse(options.session, options.sessionTimeZone))
{
}

std::string DevelopingCsv::rows(int32_t day, const DevelopingPoint* points, std::size_t count) const
{
    const std::string date = formatDate(day);
    std::string out;
    for (const DevelopingPoint* p = points; p != points + count; ++p)
        out += fmt::format("{},{},{},{},{}\n", date, formatIso(p->timeUs, m_clock.clock()), priceText(m_tick, p->pocTick),
                           priceText(m_tick, p->vahTick), priceText(m_tick, p->valTick));
    return out;
}

std::string developingCsv(const VpocResult& r)
{
    const DevelopingCsv csv(r.options);
    std::string out = DevelopingCsv::header();
    for (size_t i = 0; i < r.developing.size() && i < r.sessions.size(); ++i)
        out += csv.rows(r.sessions[i], r.developing[i]);
    return out;
}

} // namespace stackscope::vpoc
