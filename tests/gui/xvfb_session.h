// A private X display for the walkthrough: Xvfb of a given size with the openbox window manager, started before
// QApplication (which connects to it) and stopped at the end; xdotool scripts run against it in the background.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSize>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <spawn.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace stackscope::test {

// The programs the walkthrough needs; empty when all are there, else what to install.
inline QString missingXvfbTools()
{
    QStringList missing;
    for (const char* tool : { "Xvfb", "openbox", "xdotool", "import", "xwininfo", "xprop" }) {
        if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty())
            missing << QString::fromLatin1(tool);
    }
    return missing.isEmpty()
        ? QString()
        : QStringLiteral("%1 not found: install them (apt-get install xvfb openbox xdotool imagemagick x11-utils) "
                         "to run the walkthrough under a window manager")
              .arg(missing.join(QStringLiteral(", ")));
}

class XvfbSession {
public:
    // Starts Xvfb on a free display with one screen of `size`, then openbox; `error()` says why not.
    explicit XvfbSession(QSize size)
        : m_size(size)
    {
        for (int n = 60; n < 100 && m_display.isEmpty(); ++n) {
            struct stat st { };
            const std::string lock = "/tmp/.X" + std::to_string(n) + "-lock";
            const std::string socket = "/tmp/.X11-unix/X" + std::to_string(n);
            if (stat(lock.c_str(), &st) != 0 && stat(socket.c_str(), &st) != 0)
                m_display = QStringLiteral(":%1").arg(n);
        }
        if (m_display.isEmpty()) {
            m_error = QStringLiteral("no free X display number in :60..:99 (stale /tmp/.X*-lock files?)");
            return;
        }
        const std::string screen = std::to_string(size.width()) + "x" + std::to_string(size.height()) + "x24";
        m_xvfb = spawn({ "Xvfb", m_display.toStdString(), "-screen", "0", screen, "-nolisten", "tcp" }, false);
        const std::string socket = "/tmp/.X11-unix/X" + m_display.mid(1).toStdString();
        struct stat st { };
        for (int i = 0; i < 100 && stat(socket.c_str(), &st) != 0; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (m_xvfb <= 0 || stat(socket.c_str(), &st) != 0) {
            m_error = QStringLiteral("Xvfb %1 did not start in 10 s").arg(m_display);
            return;
        }
        m_wm = spawn({ "openbox" }, true);
        // openbox announces itself on the root window; xprop says when (up to 5 s).
        for (int i = 0; i < 50; ++i) {
            const std::string cmd = "DISPLAY=" + m_display.toStdString()
                + " xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id'";
            if (std::system(cmd.c_str()) == 0)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }
    ~XvfbSession()
    {
        for (pid_t pid : { m_wm, m_xvfb }) {
            if (pid > 0) {
                kill(pid, SIGTERM);
                waitpid(pid, nullptr, 0);
            }
        }
    }
    XvfbSession(const XvfbSession&) = delete;
    XvfbSession& operator=(const XvfbSession&) = delete;

    QString error() const { return m_error; }
    QString display() const { return m_display; }
    QSize size() const { return m_size; }

    // Runs `script` (xdotool and sleep lines, one command a line) with DISPLAY set, in the background: the caller
    // keeps its event loop turning (a modal dialog the script answers runs inside it).
    QProcess* startScript(const QString& script, QObject* parent) const
    {
        auto* p = new QProcess(parent);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DISPLAY"), m_display);
        p->setProcessEnvironment(env);
        p->setProcessChannelMode(QProcess::MergedChannels);
        p->start(QStringLiteral("sh"), { QStringLiteral("-ec"), script });
        return p;
    }

private:
    pid_t spawn(const std::vector<std::string>& argv, bool withDisplay)
    {
        std::vector<std::string> envStrings;
        for (char** e = environ; *e; ++e) {
            if (std::string(*e).rfind("DISPLAY=", 0) != 0)
                envStrings.emplace_back(*e);
        }
        if (withDisplay)
            envStrings.push_back("DISPLAY=" + m_display.toStdString());
        std::vector<char*> envp, args;
        for (auto& s : envStrings)
            envp.push_back(s.data());
        envp.push_back(nullptr);
        std::vector<std::string> copy = argv;
        for (auto& a : copy)
            args.push_back(a.data());
        args.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
        pid_t pid = 0;
        const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
        posix_spawn_file_actions_destroy(&actions);
        return rc == 0 ? pid : -1;
    }

    QSize m_size;
    QString m_display;
    QString m_error;
    pid_t m_xvfb = -1;
    pid_t m_wm = -1;
};

} // namespace stackscope::test
