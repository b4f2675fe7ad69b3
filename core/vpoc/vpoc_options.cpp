// The VPOC fields: the table, and the one parse function of each (the text a person gave to the typed option).
#include "core/vpoc/vpoc_options.h"

#include "core/util/task_runner.h"
#include "core/util/text_escape.h"
#include "core/vpoc/time_zones.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace stackscope::vpoc {

namespace {

template <typename E, std::size_t N> const char* nameOf(const Named<E> (&table)[N], E value)
{
    for (const auto& n : table)
        if (n.value == value)
            return n.name;
    return table[0].name; // every enumerator is in its table; the first is the default
}

// "a, b or c" from a table's names, for the messages.
template <typename E, std::size_t N> std::string spelledChoices(const Named<E> (&table)[N])
{
    std::string out;
    for (std::size_t i = 0; i < N; ++i)
        out += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(table[i].name);
    return out;
}

template <typename E, std::size_t N> E parseNamed(const Named<E> (&table)[N], const std::string& text, const char* flag)
{
    for (const auto& n : table)
        if (text == n.name)
            return n.value;
    throw std::invalid_argument(fmt::format("{} {}: give {}", flag, escapeControl(text), spelledChoices(table)));
}

template <typename E, std::size_t N> std::vector<const char*> names(const Named<E> (&table)[N])
{
    std::vector<const char*> out;
    for (const auto& n : table)
        out.push_back(n.name);
    return out;
}

// Digits only (no sign, no space): a whole number, or nullopt past 2^64 - 1 or for anything else.
bool wholeNumber(const std::string& text, uint64_t& out)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
        return false;
    out = 0;
    for (char c : text) {
        const uint64_t digit = static_cast<uint64_t>(c - '0');
        if (out > (UINT64_MAX - digit) / 10)
            return false;
        out = out * 10 + digit;
    }
    return true;
}

const char* kSessionHelp = "globex (18:00-17:00), rth (09:30-16:00) or HH:MM-HH:MM";

std::vector<VpocField> makeFields()
{
    using K = FieldKind;
    using R = VpocRequest;
    std::vector<VpocField> f;
    f.push_back({ "input", K::Path,
        "Bars or trades: CSV (timestamp,open,high,low,close,volume or timestamp,price,size), NinjaTrader text, "
        "Databento DBN (.zst too) or Sierra Chart .scid, recognised by content",
        "TEXT", nullptr, "input", nullptr, {}, {}, true, nullptr,
        [](const std::string& t, R& r) { r.options.input = t; },
        [](const R& r) -> FieldValue { return r.options.input; } });
    f.push_back({ "format", K::Choice, "auto, bars or trades", "TEXT", nullptr, "format", "Format", names(kFormats), {},
        false, nullptr, [](const std::string& t, R& r) { r.options.read.format = parseFormat(t); },
        [](const R& r) -> FieldValue { return std::string(formatName(r.options.read.format)); } });
    f.push_back(
        { "tick", K::Decimal, "Price step (ES: 0.25)", "TEXT", nullptr, "tick", "Tick", {}, { 0.0001, 10000, 4, "" },
            false, nullptr, [](const std::string& t, R& r) { r.options.read.tick = Tick::parse(t); },
            [](const R& r) -> FieldValue { return r.options.read.tick.value; } });
    // The session's window is read here; its zone by session-tz, in either order.
    f.push_back({ "session", K::Editable, kSessionHelp, "TEXT", nullptr, "session", "Session",
        { "globex", "rth", "09:30-16:00" }, {}, false, nullptr,
        [](const std::string& t, R& r) { r.options.session = SessionRule::parse(t, r.options.session.zoneName); },
        [](const R& r) -> FieldValue { return r.options.session.name; } });
    f.push_back({ "session-tz", K::Text, "Time zone of the session window (tz database name)", "TEXT", nullptr,
        "session_tz", "Session zone", {}, {}, false, nullptr,
        [](const std::string& t, R& r) { r.options.session.zoneName = parseTimeZone(t); },
        [](const R& r) -> FieldValue { return r.options.session.zoneName; } });
    f.push_back({ "tz", K::Text, "Time zone of timestamps written without an offset", "TEXT", nullptr, "tz",
        "Data zone", {}, {}, false, nullptr,
        [](const std::string& t, R& r) {
            r.options.read.timeZone = parseTimeZone(t);
            r.options.read.timeZoneGiven = true; // NinjaTrader files are read as UTC unless a zone is given
        },
        [](const R& r) -> FieldValue { return r.options.read.timeZone; } });
    f.push_back({ "distribution", K::Choice, "How a bar's volume goes to ticks: uniform, close, typical", "TEXT",
        nullptr, "distribution", "Distribution", names(kDistributions), {}, false, nullptr,
        [](const std::string& t, R& r) { r.options.profile.distribution = parseDistribution(t); },
        [](const R& r) -> FieldValue { return std::string(distributionName(r.options.profile.distribution)); } });
    f.push_back(
        { "va", K::Decimal, "Value area percentage", "FLOAT", nullptr, "va", "Value area", {}, { 1, 100, 2, " %" },
            false, nullptr, [](const std::string& t, R& r) { r.options.profile.vaBasisPoints = parseValueArea(t); },
            [](const R& r) -> FieldValue { return r.options.profile.vaBasisPoints / 100.0; } });
    f.push_back({ "va-method", K::Choice, "dual (two levels a side) or single", "TEXT", nullptr, "va_method",
        "VA method", names(kValueAreaMethods), {}, false, nullptr,
        [](const std::string& t, R& r) { r.options.profile.method = parseValueAreaMethod(t); },
        [](const R& r) -> FieldValue { return std::string(valueAreaMethodName(r.options.profile.method)); } });
    f.push_back({ "backend", K::Choice, "auto (the CPU: faster end to end from a file, as measured), cpu or gpu",
        "TEXT", nullptr, nullptr, "Backend", names(kBackends), {}, false, nullptr,
        [](const std::string& t, R& r) { r.options.backend = parseBackend(t); },
        [](const R& r) -> FieldValue { return std::string(backendName(r.options.backend)); } });
    f.push_back({ "vram-budget", K::Whole, "GPU memory to use in MiB, allocated once", "UINT", nullptr,
        "vram_budget_mib", "VRAM budget", {}, { 16, 1 << 20, 0, " MiB" }, false, nullptr,
        [](const std::string& t, R& r) { r.options.vramBudgetMiB = parseVramBudget(t); },
        [](const R& r) -> FieldValue { return r.options.vramBudgetMiB; } });
    // On the form only: the command line asks for the developing values by naming their file (--developing).
    f.push_back({ "developing-values", K::Switch, "Developing POC/VAH/VAL after each bar: the price chart's lines",
        nullptr, nullptr, nullptr, "Developing POC/VAH/VAL (price chart)", {}, {}, false, nullptr,
        [](const std::string& t, R& r) { r.options.developing = parseSwitch(t, "developing values"); },
        [](const R& r) -> FieldValue { return r.options.developing; } });
    f.push_back({ "gpu-session-rows", K::Whole,
        "With the GPU: a session of more rows is profiled on the CPU (memory: its price range, not its rows; "
        "32 B a row on the GPU path)",
        "INT", "INT in [1 - 1099511627776]", nullptr, nullptr, {}, {}, false, nullptr,
        [](const std::string& t, R& r) { r.options.maxGpuSessionRows = parseGpuSessionRows(t); },
        [](const R& r) -> FieldValue { return static_cast<uint64_t>(r.options.maxGpuSessionRows); } });
    f.push_back({ "developing", K::Path, "Write POC/VAH/VAL after each bar to this CSV file", "TEXT", nullptr, nullptr,
        nullptr, {}, {}, false, nullptr,
        [](const std::string& t, R& r) {
            r.outputs.developingCsv = t;
            r.options.developing = !t.empty();
        },
        [](const R& r) -> FieldValue { return r.outputs.developingCsv; } });
    f.push_back({ "json", K::Switch, "Print the results as JSON", "", nullptr, nullptr, nullptr, {}, {}, false, nullptr,
        [](const std::string& t, R& r) { r.outputs.json = parseSwitch(t, "--json"); },
        [](const R& r) -> FieldValue { return r.outputs.json; } });
    f.push_back({ "csv", K::Path, "Write the session table to this CSV file", "TEXT", nullptr, nullptr, nullptr, {}, {},
        false, "json", [](const std::string& t, R& r) { r.outputs.sessionsCsv = t; },
        [](const R& r) -> FieldValue { return r.outputs.sessionsCsv; } });
    f.push_back({ "skip-bad", K::Switch, "Skip bad rows (reported) instead of stopping at the first", "", nullptr,
        "skip_bad", "Skip bad rows (report them)", {}, {}, false, nullptr,
        [](const std::string& t, R& r) { r.options.read.skipBad = parseSwitch(t, "--skip-bad"); },
        [](const R& r) -> FieldValue { return r.options.read.skipBad; } });
    f.push_back({ "profiles", K::Switch, "Include each session's dense profile in the JSON", "", nullptr, nullptr,
        nullptr, {}, {}, false, nullptr,
        [](const std::string& t, R& r) { r.options.profile.keepProfiles = parseSwitch(t, "--profiles"); },
        [](const R& r) -> FieldValue { return r.options.profile.keepProfiles; } });
    f.push_back({ "threads", K::Whole,
        "CPU threads for reading and profiles (0 = all; more than the machine's hardware threads are capped "
        "at them, with a note)",
        "TEXT", nullptr, nullptr, nullptr, {}, {}, false, nullptr,
        [](const std::string& t, R& r) { r.options.threads = parseThreadCount(t); },
        [](const R& r) -> FieldValue { return static_cast<uint64_t>(r.options.threads); } });
    return f;
}

} // namespace

const char* formatName(DataFormat format)
{
    return nameOf(kFormats, format);
}
const char* distributionName(Distribution distribution)
{
    return nameOf(kDistributions, distribution);
}
const char* valueAreaMethodName(ValueAreaMethod method)
{
    return nameOf(kValueAreaMethods, method);
}
const char* backendName(Backend backend)
{
    return nameOf(kBackends, backend);
}

DataFormat parseFormat(const std::string& text)
{
    return parseNamed(kFormats, text, "--format");
}
Distribution parseDistribution(const std::string& text)
{
    return parseNamed(kDistributions, text, "--distribution");
}
ValueAreaMethod parseValueAreaMethod(const std::string& text)
{
    return parseNamed(kValueAreaMethods, text, "--va-method");
}
Backend parseBackend(const std::string& text)
{
    return parseNamed(kBackends, text, "--backend");
}

uint32_t parseValueArea(const std::string& text)
{
    // Read as a number first, so the messages show it as one (--va 1e3 says 1000).
    char* end = nullptr;
    errno = 0;
    const double percent = text.empty() ? NAN : std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE)
        throw std::invalid_argument(
            fmt::format("--va {}: give a percentage above 0 and at most 100, such as 70", escapeControl(text)));
    if (!(percent > 0) || percent > 100 || !std::isfinite(percent))
        throw std::invalid_argument(
            fmt::format("--va {}: give a percentage above 0 and at most 100, such as 70", percent));
    const double bp = percent * 100.0;
    if (std::fabs(bp - std::round(bp)) > 1e-6)
        throw std::invalid_argument(fmt::format("--va {}: at most two decimals (basis points) are supported", percent));
    return static_cast<uint32_t>(std::lround(bp));
}

std::string parseTimeZone(const std::string& text)
{
    findTimeZone(text); // throws std::invalid_argument naming the zone and what to give
    return text;
}

uint64_t parseVramBudget(const std::string& text)
{
    uint64_t mib = 0;
    // Shifted to bytes by the GPU module's open: more than 2^44 MiB would wrap.
    if (!wholeNumber(text, mib) || mib > (uint64_t(1) << 44))
        throw std::invalid_argument(fmt::format("--vram-budget {}: give the GPU memory to use in MiB as a whole "
                                                "number, such as 1024",
            escapeControl(text)));
    return mib;
}

int64_t parseGpuSessionRows(const std::string& text)
{
    uint64_t rows = 0;
    if (!wholeNumber(text, rows) || rows < 1 || rows > (uint64_t(1) << 40))
        throw std::invalid_argument(fmt::format("--gpu-session-rows {}: give a whole number from 1 to 1099511627776, "
                                                "such as 4194304",
            escapeControl(text)));
    return static_cast<int64_t>(rows);
}

unsigned parseThreadCount(const std::string& text)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
        throw std::invalid_argument(fmt::format("--threads {}: not a thread count; give a whole number such as 4, or 0 "
                                                "for every hardware thread ({} here)",
            escapeControl(text), usableThreads()));
    uint64_t threads = 0;
    if (!wholeNumber(text, threads) || threads > UINT32_MAX)
        return UINT32_MAX; // a number all the same: capped at the machine's threads by runVpoc, with a note
    return static_cast<unsigned>(threads);
}

bool parseSwitch(const std::string& text, const char* flag)
{
    if (text == "true")
        return true;
    if (text == "false")
        return false;
    throw std::invalid_argument(fmt::format("{} {}: give true or false", flag, escapeControl(text)));
}

std::string fieldText(const FieldValue& value)
{
    struct Text {
        std::string operator()(const std::string& s) const { return s; }
        std::string operator()(double d) const { return fmt::format("{}", d); }
        std::string operator()(uint64_t n) const { return std::to_string(n); }
        std::string operator()(bool b) const { return b ? "true" : "false"; }
    };
    return std::visit(Text {}, value);
}

const std::vector<VpocField>& vpocFields()
{
    static const std::vector<VpocField> fields = makeFields();
    return fields;
}

const VpocField& vpocField(std::string_view name)
{
    for (const auto& f : vpocFields())
        if (name == f.name)
            return f;
    throw std::logic_error(fmt::format("no VPOC field named '{}'", name));
}

} // namespace stackscope::vpoc
