// The VPOC run's time left from the parse rate since the first progress report.
#include "ui/vpoc/eta_estimate.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace stackscope::ui {

namespace {
// Below these the rate is noise: progress comes every 100 ms and a reader hands out rows in blocks.
constexpr double kMinSpanS = 0.5;
constexpr double kMinSpanFraction = 0.01;
} // namespace

void EtaEstimate::reset()
{
    m_first.reset();
    m_last.reset();
}

void EtaEstimate::add(const EtaSample& sample)
{
    if (!m_first)
        m_first = sample;
    m_last = sample;
}

double EtaEstimate::fractionRead() const
{
    if (!m_last || m_last->bytesTotal == 0)
        return 0;
    return static_cast<double>(m_last->bytesDone) / static_cast<double>(m_last->bytesTotal);
}

std::optional<double> EtaEstimate::secondsLeft() const
{
    if (!m_first || !m_last || m_last->finishing || m_last->bytesTotal == 0)
        return std::nullopt;
    const double span = m_last->elapsedS - m_first->elapsedS;
    const double bytes = static_cast<double>(m_last->bytesDone) - static_cast<double>(m_first->bytesDone);
    if (span < kMinSpanS || bytes < kMinSpanFraction * static_cast<double>(m_last->bytesTotal))
        return std::nullopt;
    const double left = static_cast<double>(m_last->bytesTotal - std::min(m_last->bytesDone, m_last->bytesTotal));
    return left / (bytes / span);
}

QString EtaEstimate::text() const
{
    if (finishing())
        return QCoreApplication::translate("EtaEstimate", "all read, finishing the profiles and values…");
    const auto left = secondsLeft();
    if (!left)
        return QCoreApplication::translate("EtaEstimate", "estimating time left…");
    return QCoreApplication::translate("EtaEstimate", "about %1 s left").arg(std::max(1.0, std::round(*left)), 0, 'f', 0);
}

} // namespace stackscope::ui
