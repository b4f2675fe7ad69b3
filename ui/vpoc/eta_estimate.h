// The VPOC run's time left: from the rate of bytes parsed since the first progress report, and the final phase said as such.
#pragma once

#include <QString>

#include <cstdint>
#include <optional>

namespace stackscope::ui {

// One progress report as the page sees it: seconds since Run was pressed and the engine's figures.
struct EtaSample {
    double elapsedS = 0;
    uint64_t bytesDone = 0; // parsed and handed to the profiles (VpocProgress::bytesDone)
    uint64_t bytesTotal = 0;
    bool finishing = false; // every byte read; the profiles and values are being finished
};

// The rate is measured from the first report on, not from the click: opening the file, loading a GPU module
// and reading the header take a second or more before the first byte is parsed and do not repeat. Time left
// is the bytes still to parse at that rate. Once every byte is read the work left (the last GPU batch,
// developing values) is not proportional to bytes, so no number of seconds is given for it.
class EtaEstimate {
public:
    void reset();
    void add(const EtaSample& sample);

    // Seconds of parsing left; none before 0.5 s and 1 % of the file were measured, or while finishing.
    std::optional<double> secondsLeft() const;
    bool finishing() const { return m_last && m_last->finishing; }
    double fractionRead() const;
    // "about 8 s left", "estimating time left…", "all read, finishing the profiles…"
    QString text() const;

private:
    std::optional<EtaSample> m_first;
    std::optional<EtaSample> m_last;
};

} // namespace stackscope::ui
