// JSON and CSV renderings of a VpocResult; prices are decimals on the tick grid (5123.25).
#include "core/vpoc/vpoc_output.h"

#include "core/vpoc/vpoc_options.h"

#include <fmt/format.h>

namespace stackscope::vpoc {

namespace {

std::string priceText(const Tick& t, int64_t ticks) { return fmt::format("{:.{}f}", t.price(ticks), t.decimals); }

// The fields the table writes to a run's JSON, each as its value's type; "format" is the one the file was read as.
nlohmann::json optionsJson(const VpocResult& r)
{
    const VpocRequest request {r.options, {}};
    nlohmann::json j = nlohmann::json::object();
    for (const auto& field : vpocFields())
        if (field.jsonKey)
            std::visit([&](const auto& v) { j[field.jsonKey] = v; }, field.value(request));
    j["format"] = formatName(r.format);
    return j;
}

} // namespace

nlohmann::json toJson(const VpocResult& r, bool withProfiles)
{
    const auto& o = r.options;
    const Tick& tick = o.read.tick;
    nlohmann::json j;
    j["backend"] = r.backend;
    if (!r.backendNote.empty())
        j["backend_note"] = r.backendNote;
    j["options"] = optionsJson(r);
    j["threads"] = r.threads;
    if (!r.threadsNote.empty())
        j["threads_note"] = r.threadsNote;
    j["rows"] = r.rows;
    j["outside_sessions"] = r.outsideSessions;
    j["skipped"] = {{"count", r.skipped.count}, {"first", r.skipped.first}};
    j["extra_columns"] = r.extraColumns;
    SessionClock clock(o.session);
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
    SessionClock clock(r.options.session);
    std::string out = "date,first,last,bars,volume,low,high,poc,vah,val\n";
    for (const auto& s : r.sessions)
        out += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", formatDate(s.day), formatIso(s.firstUs, clock.clock()),
                           formatIso(s.lastUs, clock.clock()), s.bars, s.volume, priceText(tick, s.lowTick),
                           priceText(tick, s.highTick), priceText(tick, s.pocTick), priceText(tick, s.vahTick),
                           priceText(tick, s.valTick));
    return out;
}

std::string profileCsv(const VpocResult& r, std::size_t session)
{
    const SessionResult& s = r.sessions.at(session);
    std::string out = "\n# profile of session " + formatDate(s.day) + "\nprice,volume,in_value_area\n";
    for (std::size_t i = 0; i < s.profile.size(); ++i) {
        const int32_t t = s.lowTick + static_cast<int32_t>(i);
        out += fmt::format("{},{},{}\n", priceText(r.options.read.tick, t), s.profile[i],
                           t >= s.valTick && t <= s.vahTick ? 1 : 0);
    }
    return out;
}

DevelopingCsv::DevelopingCsv(const VpocOptions& options)
    : m_tick(options.read.tick)
    , m_clock(options.session)
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
