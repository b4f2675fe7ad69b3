// Report replay reads in the background (ui::JobTracker): a test opens a report and waits for opened() or
// errorOccurred(), as a person waits for the "Loading …" banner to give way.
#pragma once

#include "ui/report/report_replay.h"

#include <QDeadlineTimer>
#include <QSignalSpy>
#include <QTest>

namespace stackscope::test {

// True when the report opened; false when errorOccurred() came (its message in `error` when given) or nothing came in
// time.
inline bool openReportAndWait(ui::ReportReplay* replay, const QString& path, QString* error = nullptr, int timeoutMs = 120000)
{
    QSignalSpy opened(replay, &ui::ReportReplay::opened);
    QSignalSpy failed(replay, &ui::ReportReplay::errorOccurred);
    replay->open(path);
    const QDeadlineTimer deadline(timeoutMs);
    while (opened.isEmpty() && failed.isEmpty() && !deadline.hasExpired())
        QTest::qWait(5);
    if (error && !failed.isEmpty())
        *error = failed.front().front().toString();
    return !opened.isEmpty();
}

} // namespace stackscope::test
