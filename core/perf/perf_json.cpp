#include "core/perf/perf_json.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <type_traits>

namespace stackscope::perf {

using nlohmann::json;

namespace {

json optJson(const std::optional<std::string>& v)
{
    return v ? json(*v) : json(nullptr);
}

template <typename T>
T need(const json& j, const char* key, const std::string& where, T fallback)
{
    const auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return fallback;
    // A whole number written as a float ("bytes": 1e300 in a damaged or hostile file) must fit the integer: nlohmann
    // converts it with a plain cast, undefined behaviour outside the range.
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        if (it->is_number_float()) {
            const double v = it->get<double>();
            if (!(v >= double(std::numeric_limits<T>::lowest()) && v < std::ldexp(1.0, std::numeric_limits<T>::digits)) ||
                v != std::floor(v))
                throw PerfJsonError(fmt::format("'{}.{}' is {}, not a whole number in range", where, key, it->dump()));
            return static_cast<T>(v);
        }
    }
    try {
        return it->get<T>();
    } catch (const json::exception&) {
        throw PerfJsonError(fmt::format("'{}.{}' has the wrong type ({})", where, key, it->type_name()));
    }
}

std::optional<std::string> optString(const json& j, const char* key, const std::string& where)
{
    const auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return std::nullopt;
    if (!it->is_string())
        throw PerfJsonError(fmt::format("'{}.{}' must be a string or null", where, key));
    return it->get<std::string>();
}

} // namespace

json toJson(const Figure& f)
{
    json sweep = json::array();
    for (const auto& p : f.sweep)
        sweep.push_back({{"bytes", p.bytes}, {"value", p.value}});
    json out {{"test", info(f.test).id}, {"where", figureWhere(f)}, {"gpu", f.gpu}, {"peer", f.peer}, {"ranks", f.ranks},
              {"dtype", f.dtype}, {"unit", info(f.test).unit}, {"bytes", f.bytes}, {"value", f.value}, {"low", f.low},
              {"high", f.high}, {"trials", f.trials}, {"sweep", sweep}, {"error", optJson(f.error)},
              {"skipped", optJson(f.skipped)}, {"start_s", f.startSeconds}, {"end_s", f.endSeconds},
              {"clock_event_reasons", f.clockEventReasons}, {"verdict", verdictId(f.verdict)}, {"rule", f.rule},
              {"ratio", f.ratio ? json(*f.ratio) : json(nullptr)}};
    out["expected"] = f.expected ? json {{"value", f.expected->value}, {"basis", f.expected->basis},
                                         {"sources", f.expected->sources}}
                                 : json(nullptr);
    return out;
}

Figure figureFromJson(const json& j, const std::string& where)
{
    if (!j.is_object())
        throw PerfJsonError(fmt::format("'{}' must be an object", where));
    Figure f;
    const auto id = need<std::string>(j, "test", where, "");
    const auto test = testFromId(id);
    if (!test)
        throw PerfJsonError(fmt::format("'{}.test' is '{}', not a test of this StackScope", where, id));
    f.test = *test;
    f.gpu = need<int>(j, "gpu", where, -1);
    f.peer = need<int>(j, "peer", where, -1);
    f.ranks = need<int>(j, "ranks", where, 0);
    f.dtype = need<std::string>(j, "dtype", where, "");
    f.bytes = need<std::uint64_t>(j, "bytes", where, 0);
    f.value = need<double>(j, "value", where, 0);
    f.low = need<double>(j, "low", where, f.value);
    f.high = need<double>(j, "high", where, f.value);
    f.trials = need<int>(j, "trials", where, 0);
    if (const auto it = j.find("sweep"); it != j.end() && it->is_array())
        for (std::size_t k = 0; k < it->size(); ++k) {
            const auto w = fmt::format("{}.sweep[{}]", where, k);
            if (!(*it)[k].is_object())
                throw PerfJsonError(fmt::format("'{}' must be an object", w));
            f.sweep.push_back({need<std::uint64_t>((*it)[k], "bytes", w, 0), need<double>((*it)[k], "value", w, 0)});
        }
    f.error = optString(j, "error", where);
    f.skipped = optString(j, "skipped", where);
    f.startSeconds = need<double>(j, "start_s", where, 0);
    f.endSeconds = need<double>(j, "end_s", where, 0);
    f.clockEventReasons = need<std::vector<std::string>>(j, "clock_event_reasons", where, {});
    if (const auto v = optString(j, "verdict", where)) {
        const auto verdict = verdictFromId(*v);
        if (!verdict)
            throw PerfJsonError(fmt::format("'{}.verdict' is '{}', not a verdict", where, *v));
        f.verdict = *verdict;
    }
    f.rule = need<std::string>(j, "rule", where, "");
    if (const auto it = j.find("ratio"); it != j.end() && it->is_number())
        f.ratio = it->get<double>();
    if (const auto it = j.find("expected"); it != j.end() && it->is_object()) {
        const auto w = where + ".expected";
        f.expected = Expected {need<double>(*it, "value", w, 0), need<std::string>(*it, "basis", w, ""),
                               need<std::vector<std::string>>(*it, "sources", w, {})};
    }
    return f;
}

std::vector<Figure> figuresFromJson(const json& figures)
{
    if (!figures.is_array())
        throw PerfJsonError("'figures' must be an array");
    std::vector<Figure> out;
    for (std::size_t k = 0; k < figures.size(); ++k)
        out.push_back(figureFromJson(figures[k], fmt::format("figures[{}]", k)));
    return out;
}

} // namespace stackscope::perf
