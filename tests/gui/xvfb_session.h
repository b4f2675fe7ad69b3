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
        // Another X server (another test run, a second CI job) may take a number between the look and the start:
        // Xvfb then exits at once ("server already active"), and the next free number is tried.
        for (int n = 60 + static_cast<int>(getpid() % 40), tries = 0; tries < 40 && m_xvfb <= 0; ++tries, ++n) {
            if (n >= 100)
                n = 60;
            if (startXvfb(n))
                break;
        }
        if (m_xvfb <= 0) {
            m_error = QStringLiteral("no X display of :60..:99 could be started (stale /tmp/.X*-lock files, or Xvfb "
                                     "fails: run `Xvfb :60` to see why)");
            return;
        }
        // The socket can be there before the server answers; a window manager started then cannot connect and
        // exits. So: wait until the server answers, then start openbox, again whenever it exits, until it announces
        // itself on the root window. 30 s: it took under 1 s alone, a few seconds with the suite on two cores.
        const std::string xprop = "DISPLAY=" + m_display.toStdString() + " xprop -root";
        for (int i = 0; i < 300; ++i) {
            if (std::system((xprop + " _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id'").c_str()) == 0)
                return;
            const bool answers = std::system((xprop + " >/dev/null 2>&1").c_str()) == 0;
            if (answers && (m_wm <= 0 || waitpid(m_wm, nullptr, WNOHANG) == m_wm))
                m_wm = spawn({ "openbox" }, true);
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        m_error = QStringLiteral("openbox did not announce itself on %1 within 30 s (run `DISPLAY=%1 openbox` to see "
                                 "why)").arg(m_display);
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
    // Starts Xvfb on :n when the number looks free; true once its socket is there and it is still running.
    bool startXvfb(int n)
    {
        struct stat st { };
        const std::string lock = "/tmp/.X" + std::to_string(n) + "-lock";
        const std::string socket = "/tmp/.X11-unix/X" + std::to_string(n);
        if (stat(lock.c_str(), &st) == 0 || stat(socket.c_str(), &st) == 0)
            return false;
        m_display = QStringLiteral(":%1").arg(n);
        const std::string screen = std::to_string(m_size.width()) + "x" + std::to_string(m_size.height()) + "x24";
        const pid_t pid = spawn({ "Xvfb", m_display.toStdString(), "-screen", "0", screen, "-nolisten", "tcp" }, false);
        for (int i = 0; pid > 0 && i < 100; ++i) {
            if (waitpid(pid, nullptr, WNOHANG) == pid)
                return false; // it exited: the number was taken after all
            if (stat(socket.c_str(), &st) == 0) {
                // The socket may be another server's that won the number: ours then exits within moments.
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
                if (waitpid(pid, nullptr, WNOHANG) == pid)
                    return false;
                m_xvfb = pid;
                return true;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        if (pid > 0) {
            kill(pid, SIGTERM);
            waitpid(pid, nullptr, 0);
        }
        return false;
    }

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
