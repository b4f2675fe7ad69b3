// Builds the training rows: developing and previous-session VPOC levels, past returns, volume z-score,
// minutes into the session, the input's extra columns; the target is the forward return in ticks.
#include "core/training/features.h"

#include "core/util/sha256.h"
#include "core/vpoc/market_source.h"
#include "core/vpoc/sessions.h"
#include "core/vpoc/time_zones.h"
#include "core/vpoc/volume_profile.h"

#include <fmt/format.h>

#include <cmath>

namespace stackscope::training {

namespace {

struct Bar {
    vpoc::MarketRecord rec;
    int32_t day = 0;
};

struct Levels {
    int32_t poc = 0, vah = 0, val = 0;
};

// The VPOC parsers' messages name the option already ("--session 9-5: write ..."); one that does not gets it in front.
std::string namingOption(const std::string& option, const std::string& message)
{
    const bool named = message.rfind(option, 0) == 0 && message.size() > option.size() &&
                       (message[option.size()] == ' ' || message[option.size()] == ':');
    return named ? message : option + ": " + message;
}

void checkCancel(const CancelToken& cancel)
{
    if (cancel.isCancelled())
        throw DatasetCancelled();
}

// The bars of the input that fall in a session (the daily halt's are counted and dropped), with the input's extra
// columns, row-major.
struct SessionBars {
    std::vector<Bar> bars;
    std::vector<double> extras;
    std::vector<std::string> extraNames;
};

SessionBars readSessionBars(const TrainingConfig& config, Dataset& out, const CancelToken& cancel)
{
    vpoc::ReadOptions read;
    try {
        read.tick = vpoc::Tick::parse(config.tick);
    } catch (const std::invalid_argument& e) {
        throw ConfigError(namingOption("--tick", e.what()));
    }
    try {
        vpoc::findTimeZone(config.timeZone); // before the session, whose rule needs the zone
    } catch (const std::invalid_argument& e) {
        throw ConfigError(namingOption("--tz", e.what()));
    }
    read.timeZone = config.timeZone;
    vpoc::SessionRule rule;
    try {
        rule = vpoc::SessionRule::parse(config.session, config.timeZone);
    } catch (const std::invalid_argument& e) {
        throw ConfigError(namingOption("--session", e.what()));
    }
    const auto source = vpoc::openMarketFile(config.input, read); // CSV, DBN, SCID, NinjaTrader: by content
    vpoc::SessionClock clock(rule);
    // The whole file in memory: training data are minutes bars (a year of ES is ~350k bars, 20 MB).
    SessionBars in;
    std::vector<vpoc::MarketRecord> block;
    std::vector<double> blockExtras;
    while (source->read(block, 1 << 16, &blockExtras)) {
        checkCancel(cancel);
        in.extraNames = source->extraColumns(); // decided on the first data row
        const size_t n = in.extraNames.size();
        for (size_t i = 0; i < block.size(); ++i) {
            const auto day = clock.sessionDay(block[i].timeUs);
            if (!day) {
                ++out.barsOutsideSessions;
                continue;
            }
            in.bars.push_back({block[i], *day});
            in.extras.insert(in.extras.end(), blockExtras.begin() + static_cast<long>(i * n),
                             blockExtras.begin() + static_cast<long>((i + 1) * n));
        }
        block.clear();
        blockExtras.clear();
    }
    return in;
}

// What one bar's features are computed from.
struct BarInputs {
    int32_t close = 0;
    Levels developing;     // the session so far, this bar included
    Levels previous;       // the previous session's final levels
    const int32_t* pastCloses = nullptr; // close of the bar `returnHorizons[i]` bars back, per horizon
    double volumeZ = 0;
    double minutesIntoSession = 0;
    const double* extras = nullptr; // the input's extra columns of this bar
};

// Every feature column of a bar, each named where it is computed: put(name, value) in column order. The name is a
// callable, evaluated only where the names are wanted (featureNames), not per row.
template <class Put>
void featureColumns(const TrainingConfig& config, const std::vector<std::string>& extraNames, const BarInputs& b, Put put)
{
    auto fixed = [](const char* name) { return [name] { return std::string(name); }; };
    put(fixed("close_minus_dev_poc"), b.close - b.developing.poc);
    put(fixed("close_minus_dev_vah"), b.close - b.developing.vah);
    put(fixed("close_minus_dev_val"), b.close - b.developing.val);
    put(fixed("close_minus_prev_poc"), b.close - b.previous.poc);
    put(fixed("close_minus_prev_vah"), b.close - b.previous.vah);
    put(fixed("close_minus_prev_val"), b.close - b.previous.val);
    for (size_t i = 0; i < config.returnHorizons.size(); ++i)
        put([&] { return fmt::format("return_{}_bars", config.returnHorizons[i]); },
            b.pastCloses ? b.close - b.pastCloses[i] : 0);
    put([&] { return fmt::format("volume_z_{}", config.volumeWindow); }, b.volumeZ);
    put(fixed("minutes_into_session"), b.minutesIntoSession);
    for (size_t e = 0; e < extraNames.size(); ++e)
        put([&] { return extraNames[e]; }, b.extras ? b.extras[e] : 0.0);
}

std::vector<std::string> featureNames(const TrainingConfig& config, const std::vector<std::string>& extraNames)
{
    std::vector<std::string> names;
    featureColumns(config, extraNames, BarInputs {}, [&](auto name, auto) { names.push_back(name()); });
    return names;
}

// Trailing sums of volume over `window` bars for the z-score (doubles: exact for sums of 32-bit volumes).
class VolumeWindow {
public:
    explicit VolumeWindow(size_t window)
        : m_window(window)
    {
    }
    // Adds bar g (all bars before it were added) and returns its z-score against the window, rounded to float as
    // the feature row stores it (the rows stay bit-identical to the code before this class).
    double add(const std::vector<Bar>& bars, size_t g)
    {
        const double v = bars[g].rec.volume;
        m_sum += v;
        m_sq += v * v;
        if (g >= m_window) {
            const double old = bars[g - m_window].rec.volume;
            m_sum -= old;
            m_sq -= old * old;
        }
        const double mean = m_sum / static_cast<double>(m_window);
        const double var = std::max(0.0, m_sq / static_cast<double>(m_window) - mean * mean);
        return var > 0 ? static_cast<float>((v - mean) / std::sqrt(var)) : 0.0f;
    }

private:
    size_t m_window;
    double m_sum = 0, m_sq = 0;
};

// The rows of one session [begin, end) of `in.bars`; returns the session's final levels.
Levels addSessionRows(const TrainingConfig& config, const SessionBars& in, size_t begin, size_t end,
                      const std::optional<Levels>& previous, VolumeWindow& volume, Dataset& out)
{
    const auto& bars = in.bars;
    std::vector<vpoc::MarketRecord> records;
    for (size_t i = begin; i < end; ++i)
        records.push_back(bars[i].rec);
    const auto developing = vpoc::developingValues(records.data(), records.size(), vpoc::ProfileOptions {});
    const size_t window = static_cast<size_t>(config.volumeWindow);
    int maxReturn = 0;
    for (int h : config.returnHorizons)
        maxReturn = std::max(maxReturn, h);
    std::vector<int32_t> pastCloses(config.returnHorizons.size());
    const size_t extras = in.extraNames.size();
    for (size_t g = begin; g < end; ++g) {
        const double volumeZ = volume.add(bars, g);
        const size_t t = g - begin;
        if (!previous || g < window - 1 || g < static_cast<size_t>(maxReturn)) {
            ++out.rowsWithoutHistory;
            continue;
        }
        if (t + static_cast<size_t>(config.horizon) >= end - begin) {
            ++out.rowsWithoutTarget;
            continue;
        }
        for (size_t i = 0; i < pastCloses.size(); ++i)
            pastCloses[i] = bars[g - static_cast<size_t>(config.returnHorizons[i])].rec.close;
        const auto& d = developing[t];
        BarInputs b;
        b.close = bars[g].rec.close;
        b.developing = {d.pocTick, d.vahTick, d.valTick};
        b.previous = *previous;
        b.pastCloses = pastCloses.data();
        b.volumeZ = volumeZ;
        b.minutesIntoSession = static_cast<double>(bars[g].rec.timeUs - bars[begin].rec.timeUs) / 60e6;
        b.extras = extras ? in.extras.data() + g * extras : nullptr;
        featureColumns(config, in.extraNames, b, [&](auto, auto value) { out.x.push_back(static_cast<float>(value)); });
        out.y.push_back(static_cast<float>(bars[g + static_cast<size_t>(config.horizon)].rec.close - b.close));
        out.timeUs.push_back(bars[g].rec.timeUs);
    }
    const auto& last = developing.back();
    return {last.pocTick, last.vahTick, last.valTick};
}

void checkFinite(const TrainingConfig& config, const Dataset& out)
{
    for (size_t i = 0; i < out.x.size(); ++i) {
        if (!std::isfinite(out.x[i])) {
            const auto r = static_cast<int64_t>(i) / out.cols;
            throw ConfigError(fmt::format("{}: column '{}' of the bar at row {} of the features is not a finite number; "
                                          "remove or fill the NaN/inf values in the input",
                                          config.input, out.names[i % static_cast<size_t>(out.cols)], r));
        }
    }
}

} // namespace

Dataset buildDataset(const TrainingConfig& config, const CancelToken& cancel)
{
    Dataset out;
    out.inputSha256 = sha256File(config.input);
    const SessionBars in = readSessionBars(config, out, cancel);
    out.barsRead = static_cast<int64_t>(in.bars.size());
    out.names = featureNames(config, in.extraNames);
    out.cols = static_cast<int64_t>(out.names.size());
    out.targetName = fmt::format("forward_return_{}_bars_ticks", config.horizon);
    std::optional<Levels> previous;
    VolumeWindow volume(static_cast<size_t>(config.volumeWindow));
    for (size_t begin = 0, end = 0; begin < in.bars.size(); begin = end) {
        checkCancel(cancel);
        while (end < in.bars.size() && in.bars[end].day == in.bars[begin].day)
            ++end;
        ++out.sessions;
        previous = addSessionRows(config, in, begin, end, previous, volume, out);
    }
    out.rows = static_cast<int64_t>(out.y.size());
    checkFinite(config, out);
    return out;
}

int64_t trainingRows(int64_t rows, double validationFraction)
{
    return rows - static_cast<int64_t>(std::ceil(static_cast<double>(rows) * validationFraction));
}

Normalisation fitNormalisation(const Dataset& data, int64_t trainRows)
{
    Normalisation n;
    const auto cols = static_cast<size_t>(data.cols);
    n.mean.assign(cols, 0.0);
    n.std.assign(cols, 0.0);
    double ySum = 0;
    for (int64_t r = 0; r < trainRows; ++r) {
        for (size_t c = 0; c < cols; ++c)
            n.mean[c] += data.x[static_cast<size_t>(r) * cols + c];
        ySum += data.y[static_cast<size_t>(r)];
    }
    const double count = static_cast<double>(std::max<int64_t>(trainRows, 1));
    for (auto& m : n.mean)
        m /= count;
    n.targetMean = ySum / count;
    double yVar = 0;
    for (int64_t r = 0; r < trainRows; ++r) {
        for (size_t c = 0; c < cols; ++c) {
            const double d = data.x[static_cast<size_t>(r) * cols + c] - n.mean[c];
            n.std[c] += d * d;
        }
        const double d = data.y[static_cast<size_t>(r)] - n.targetMean;
        yVar += d * d;
    }
    for (auto& s : n.std) {
        s = std::sqrt(s / count);
        if (!(s > 1e-12))
            s = 1.0; // a constant column stays constant (0 after centring)
    }
    n.targetStd = std::sqrt(yVar / count);
    if (!(n.targetStd > 1e-12))
        n.targetStd = 1.0;
    return n;
}

void normalise(Dataset& data, const Normalisation& n)
{
    const auto cols = static_cast<size_t>(data.cols);
    for (size_t i = 0; i < data.x.size(); ++i)
        data.x[i] = static_cast<float>((data.x[i] - n.mean[i % cols]) / n.std[i % cols]);
    for (auto& y : data.y)
        y = static_cast<float>((y - n.targetMean) / n.targetStd);
}

} // namespace stackscope::training
