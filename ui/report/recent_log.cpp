// A bounded ring of Qt messages, chained in front of the previous message handler.
#include "ui/report/recent_log.h"

#include <QDateTime>
#include <QString>
#include <QtGlobal>

#include <cstdio>
#include <deque>
#include <mutex>

namespace stackscope::ui {

namespace {

std::mutex g_mutex;
std::deque<std::string> g_lines;
QtMessageHandler g_previous = nullptr;
bool g_installed = false;

const char* typeName(QtMsgType t)
{
    switch (t) {
    case QtDebugMsg: return "debug";
    case QtInfoMsg: return "info";
    case QtWarningMsg: return "warning";
    case QtCriticalMsg: return "critical";
    case QtFatalMsg: return "fatal";
    }
    return "message";
}

void handler(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    {
        // Messages come from any thread.
        std::lock_guard<std::mutex> lock(g_mutex);
        g_lines.push_back(QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString() + ' ' + typeName(type) + ": " +
                          message.toStdString());
        while (g_lines.size() > kMaxRecentLogLines)
            g_lines.pop_front();
    }
    if (g_previous)
        g_previous(type, context, message);
    else
        std::fprintf(stderr, "%s\n", qPrintable(message)); // (Qt returns its default handler, so this is a fallback)
}

} // namespace

void installRecentLog()
{
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_installed)
        return;
    g_installed = true;
    g_previous = qInstallMessageHandler(handler);
}

std::vector<std::string> recentLogLines()
{
    std::lock_guard<std::mutex> lock(g_mutex);
    return {g_lines.begin(), g_lines.end()};
}

} // namespace stackscope::ui
