// Market data files the VPOC tests compare paths on (tst_vpoc_threads, tst_vpoc_batched): shapes built to put every
// check at the edges of windows, chunks and pieces, written once into a temporary folder, and a run's result as text.
#pragma once

#include "core/vpoc/sample_data.h"
#include "core/vpoc/vpoc_engine.h"
#include "core/vpoc/vpoc_output.h"

#include <QString>
#include <QTemporaryDir>

#include <fmt/format.h>

#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>

namespace stackscope::vpoc::testing {

// What a kind of file holds; each row of the tests is one of these with options.
enum class Shape {
    SampleTrades,  // two sessions of synthetic trades: sessions span windows, chunks and pieces
    SampleBars,    // ten sessions of 1-minute bars
    DstTrades,     // naive New York times every 0.25 s through the repeated hour of 2024-11-03
    DstBars,       // 1-second bars through the same hour
    BackInTime,    // single rows that go back, and once the clock going back an hour (thousands of rows)
    BadRows,       // bad numbers, bad extras, comments, blank lines; a numeric and a text extra column
    NumericSymbol, // the first row's symbol is a number: the column is kept and most later rows are bad
    WideRow,       // one trade far from the others: one piece's run spans more than kMaxSessionLevels
    WideMerge,     // two far trades in different pieces: each piece fits, their session does not
    UnevenBars,    // SampleBars with a fifth of the rows dropped, except in every third session (1,380 and 1,104 rows)
    PointBars,     // 10-second bars over 4 days, in turn 2,600 at one price (high = low), 1,300 not
};

// 2024-11-02/03 only: New York wall time (naive; EDT before 06:00 UTC on the 3rd, EST after) or UTC with Z.
inline std::string timeText(int64_t utcMs, bool naive)
{
    const int64_t utcS = utcMs / 1000;
    const int64_t t = naive ? utcS - (utcS < 1730613600 ? 4 * 3600 : 5 * 3600) : utcS;
    const int64_t sec = t % 86400, day = 2 + (t / 86400 - 20029);
    return fmt::format("2024-11-{:02}{}{:02}:{:02}:{:02}.{:03}{}", day, naive ? ' ' : 'T', sec / 3600, (sec / 60) % 60,
                       sec % 60, utcMs % 1000, naive ? "" : "Z");
}

// Trades or bars from 2024-11-02 22:00 New York time on, a random walk of prices; `step` ms between rows.
inline std::string walk(bool bars, int rows, int stepMs, uint32_t seed, const std::function<void(int, std::string&)>& edit)
{
    std::mt19937 rng(seed);
    std::string s = bars ? "timestamp,open,high,low,close,volume,vix,sym\n" : "timestamp,price,size,vix,sym\n";
    int64_t ms = int64_t(1730599200) * 1000; // 2024-11-02 22:00 EDT
    int price = 20000;
    for (int i = 0; i < rows; ++i) {
        ms += stepMs;
        price += static_cast<int>(rng() % 5) - 2;
        const std::string ts = timeText(ms, true);
        std::string row = bars ? fmt::format("{},{},{},{},{},{},15.5,ES", ts, price * 0.25, (price + 2) * 0.25,
                                             (price - 1) * 0.25, price * 0.25, 1 + i % 9)
                               : fmt::format("{},{},{},15.5,ES", ts, price * 0.25, 1 + i % 9);
        edit(i, row);
        s += row + "\n";
    }
    return s;
}

inline void setPrice(std::string& row, double price)
{
    const auto a = row.find(','), b = row.find(',', a + 1);
    row.replace(a + 1, b - a - 1, fmt::format("{:.2f}", price));
}

inline std::string makeFile(Shape shape, bool bars)
{
    auto none = [](int, std::string&) {};
    switch (shape) {
    case Shape::SampleTrades:
    case Shape::SampleBars: {
        SampleDataOptions so;
        so.trades = shape == Shape::SampleTrades;
        so.days = so.trades ? 2 : 10;
        return generateSampleData(so);
    }
    case Shape::UnevenBars: {
        SampleDataOptions so;
        so.days = 10;
        std::istringstream in(generateSampleData(so));
        std::string text, line;
        for (int row = 0; std::getline(in, line);) {
            const bool data = !line.empty() && line[0] >= '0' && line[0] <= '9'; // not the comment or the header
            if (!data || (row / 1380) % 3 == 1 || row % 5 != 0)
                text += line + "\n";
            row += data;
        }
        return text;
    }
    case Shape::DstTrades:
    case Shape::DstBars:
        return walk(bars, 6 * 3600 * (bars ? 1 : 4), bars ? 1000 : 250, 3, none); // 22:00 to 03:00 EST
    case Shape::BackInTime:
        return walk(bars, 120000, bars ? 1000 : 150, 5, [bars](int i, std::string& row) {
            const int step = bars ? 1000 : 150;
            const int64_t ms = int64_t(1730599200) * 1000 + int64_t(i + 1) * step;
            // Now and then a row at the time of the one before (bad for bars, good for trades) or 2 s back.
            if (i > 30000 && i % 4999 == 77)
                row.replace(0, row.find(','), timeText(ms - step - (i % 2 ? 0 : 2000), false));
            if (i >= 60000 && i < 60000 + (bars ? 3000 : 20000)) // the clock goes back an hour for a while
                row.replace(0, row.find(','), timeText(ms - 3600 * 1000, false));
        });
    case Shape::BadRows:
        return walk(bars, 80000, 200, 7, [](int i, std::string& row) {
            if (i < 20000)
                return;
            if (i % 997 == 5)
                row.replace(row.find(','), 1, ",x");
            else if (i % 1499 == 9)
                row.replace(row.rfind(",15.5,"), 6, ",abc,");
            else if (i % 2003 == 11)
                row = i % 2 ? "# a comment" : "";
            else if (i % 3001 == 13)
                row.replace(row.rfind(",15.5,"), 6, ",,"); // an empty extra is NaN, not an error
        });
    case Shape::NumericSymbol:
        return walk(bars, 60000, 200, 9, [](int i, std::string& row) {
            if (i == 0 || i % 1000 == 1)
                row.replace(row.rfind(',') + 1, std::string::npos, "7");
        });
    case Shape::WideRow:
        return walk(false, 150000, 100, 11, [](int i, std::string& row) {
            if (i == 90001)
                setPrice(row, 5000 + 300000); // 1.2 M ticks above the others
        });
    case Shape::PointBars:
        return walk(true, 36000, 10000, 17, [](int i, std::string& row) {
            if ((i / 1300) % 3 == 2)
                return;
            std::vector<std::string> f;
            std::istringstream in(row);
            for (std::string x; std::getline(in, x, ',');)
                f.push_back(x);
            f[2] = f[3] = f[4] = f[1]; // high, low and close at the open
            row.clear();
            for (const auto& x : f)
                row += (row.empty() ? "" : ",") + x;
        });
    case Shape::WideMerge:
        return walk(false, 150000, 100, 13, [](int i, std::string& row) {
            setPrice(row, 200000 + (i % 7) * 0.25); // 800,000 ticks and a little
            if (i == 40003)
                setPrice(row, 400000); // the session's high: 1.6 M ticks, 800 K above the rest
            if (i == 110005)
                setPrice(row, 50000); // its low: 600 K below the rest, 1.4 M below the high
        });
    }
    return {};
}

// Each shape's file written once, on first use, into a folder removed with the object.
class ShapeFiles {
public:
    bool valid() const { return m_dir.isValid(); }
    const std::string& path(Shape shape, bool bars)
    {
        auto& path = m_paths[{int(shape), bars}];
        if (path.empty()) {
            path = m_dir.filePath(QString("f%1%2.csv").arg(int(shape)).arg(bars)).toStdString();
            std::ofstream(path, std::ios::binary) << makeFile(shape, bars);
        }
        return path;
    }

private:
    QTemporaryDir m_dir;
    std::map<std::pair<int, bool>, std::string> m_paths;
};

using VpocRunner = std::function<std::shared_ptr<const VpocResult>(const VpocOptions&)>;

// The whole result of `run` (runVpoc when not given) as the CLI prints it with --profiles, then its developing values
// (CSV) when asked for, or the error; less the backend note, which says which path ran.
inline std::string resultText(const VpocOptions& vo, const VpocRunner& run = {})
{
    try {
        const auto result = run ? run(vo) : runVpoc(vo);
        auto json = toJson(*result, true);
        json.erase("backend_note");
        json.erase("threads"); // the threads used: the rest must not depend on them
        json.erase("threads_note");
        return json.dump(1) + (vo.developing ? developingCsv(*result) : std::string());
    } catch (const InputError& e) {
        return std::string("error: ") + e.what();
    }
}

} // namespace stackscope::vpoc::testing
