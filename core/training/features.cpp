// Builds the training rows: developing and previous-session VPOC levels, past returns, volume z-score,
// minutes into the session, the input's extra columns; the target is the forward return in ticks.
#include "core/training/features.h"

#include "core/util/sha256.h"
#include "core/vpoc/market_source.h"
#include "core/vpoc/sessions.h"
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

void checkCancel(const std::atomic<bool>* cancel)
{
    if (cancel && cancel->load(std::memory_order_relaxed))
        throw DatasetCancelled();
}

} // namespace

Dataset buildDataset(const TrainingConfig& config, const std::atomic<bool>* cancel)
{
    vpoc::ReadOptions read;
    try {
        read.tick = vpoc::Tick::parse(config.tick);
    } catch (const std::invalid_argument& e) {
        throw ConfigError(fmt::format("--tick: {}", e.what()));
    }
    read.timeZone = config.timeZone;
    vpoc::SessionRule rule;
    try {
        rule = vpoc::SessionRule::parse(config.session, config.timeZone);
    } catch (const std::invalid_argument& e) {
        throw ConfigError(fmt::format("--session: {}", e.what()));
    }

    Dataset out;
    out.inputSha256 = sha256File(config.input);
    const auto source = vpoc::openMarketFile(config.input, read); // CSV, DBN, SCID, NinjaTrader: by content
    auto& reader = *source;
    vpoc::SessionClock clock(rule);

    // The whole file in memory: training data are minutes bars (a year of ES is ~350k bars, 20 MB).
    std::vector<Bar> bars;
    std::vector<double> extras;
    std::vector<vpoc::MarketRecord> block;
    std::vector<double> blockExtras;
    std::vector<std::string> extraNames;
    while (reader.read(block, 1 << 16, &blockExtras)) {
        checkCancel(cancel);
        extraNames = reader.extraColumns(); // decided on the first data row
        for (size_t i = 0; i < block.size(); ++i) {
            const auto day = clock.sessionDay(block[i].timeUs);
            if (!day) {
                ++out.barsOutsideSessions;
                continue;
            }
            bars.push_back({block[i], *day});
            extras.insert(extras.end(), blockExtras.begin() + static_cast<long>(i * extraNames.size()),
                          blockExtras.begin() + static_cast<long>((i + 1) * extraNames.size()));
        }
        block.clear();
        blockExtras.clear();
    }
    out.barsRead = static_cast<int64_t>(bars.size());

    out.names = {"close_minus_dev_poc", "close_minus_dev_vah", "close_minus_dev_val",
                 "close_minus_prev_poc", "close_minus_prev_vah", "close_minus_prev_val"};
    for (int h : config.returnHorizons)
        out.names.push_back(fmt::format("return_{}_bars", h));
    out.names.push_back(fmt::format("volume_z_{}", config.volumeWindow));
    out.names.push_back("minutes_into_session");
    for (const auto& e : extraNames)
        out.names.push_back(e);
    out.cols = static_cast<int64_t>(out.names.size());
    out.targetName = fmt::format("forward_return_{}_bars_ticks", config.horizon);

    vpoc::ProfileOptions profile; // the product's default convention (uniform, 70 %, dual)
    std::vector<vpoc::MarketRecord> sessionRecords;
    std::optional<Levels> previous;
    // Trailing volume sums for the z-score (doubles: exact for sums of 32-bit volumes over any real window).
    double volSum = 0, volSq = 0;
    const size_t window = static_cast<size_t>(config.volumeWindow);
    int maxReturn = 0;
    for (int h : config.returnHorizons)
        maxReturn = std::max(maxReturn, h);

    size_t begin = 0;
    std::vector<float> row(static_cast<size_t>(out.cols));
    while (begin < bars.size()) {
        checkCancel(cancel);
        size_t end = begin;
        while (end < bars.size() && bars[end].day == bars[begin].day)
            ++end;
        ++out.sessions;
        sessionRecords.clear();
        for (size_t i = begin; i < end; ++i)
            sessionRecords.push_back(bars[i].rec);
        const auto developing = vpoc::developingValues(sessionRecords.data(), sessionRecords.size(), profile);
        const int64_t sessionStart = bars[begin].rec.timeUs;
        for (size_t g = begin; g < end; ++g) {
            const double v = bars[g].rec.volume;
            volSum += v;
            volSq += v * v;
            if (g >= window) {
                const double old = bars[g - window].rec.volume;
                volSum -= old;
                volSq -= old * old;
            }
            const size_t t = g - begin;
            if (!previous || g < window - 1 || g < static_cast<size_t>(maxReturn)) {
                ++out.rowsWithoutHistory;
                continue;
            }
            if (t + static_cast<size_t>(config.horizon) >= end - begin) {
                ++out.rowsWithoutTarget;
                continue;
            }
            const int32_t close = bars[g].rec.close;
            const auto& d = developing[t];
            size_t c = 0;
            row[c++] = static_cast<float>(close - d.pocTick);
            row[c++] = static_cast<float>(close - d.vahTick);
            row[c++] = static_cast<float>(close - d.valTick);
            row[c++] = static_cast<float>(close - previous->poc);
            row[c++] = static_cast<float>(close - previous->vah);
            row[c++] = static_cast<float>(close - previous->val);
            for (int h : config.returnHorizons)
                row[c++] = static_cast<float>(close - bars[g - static_cast<size_t>(h)].rec.close);
            const double mean = volSum / static_cast<double>(window);
            const double var = std::max(0.0, volSq / static_cast<double>(window) - mean * mean);
            row[c++] = var > 0 ? static_cast<float>((v - mean) / std::sqrt(var)) : 0.0f;
            row[c++] = static_cast<float>(static_cast<double>(bars[g].rec.timeUs - sessionStart) / 60e6);
            for (size_t e = 0; e < extraNames.size(); ++e)
                row[c++] = static_cast<float>(extras[g * extraNames.size() + e]);
            out.x.insert(out.x.end(), row.begin(), row.end());
            out.y.push_back(static_cast<float>(bars[g + static_cast<size_t>(config.horizon)].rec.close - close));
            out.timeUs.push_back(bars[g].rec.timeUs);
        }
        const auto& last = developing.back();
        previous = Levels {last.pocTick, last.vahTick, last.valTick};
        begin = end;
    }
    out.rows = static_cast<int64_t>(out.y.size());
    for (size_t i = 0; i < out.x.size(); ++i) {
        if (!std::isfinite(out.x[i])) {
            const auto r = static_cast<int64_t>(i) / out.cols;
            throw ConfigError(fmt::format("{}: column '{}' of the bar at row {} of the features is not a finite number; "
                                          "remove or fill the NaN/inf values in the input",
                                          config.input, out.names[i % static_cast<size_t>(out.cols)], r));
        }
    }
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
