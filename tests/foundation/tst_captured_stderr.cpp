// CapturedStderr: a call's stderr text kept (write(2), stdio, iostreams), stderr restored after, text not taken printed
// after all; and rocm_smi's rsmi_init on a machine without AMD GPUs: its lines land in the reason (inspection and
// telemetry), none in the terminal.
#include "core/inspect/runtime_sources.h"
#include "core/runtime/captured_stderr.h"
#include "core/telemetry/telemetry_sources.h"

#include <QtTest/QtTest>

#include <cstdio>
#include <fcntl.h>
#include <iostream>
#include <unistd.h>

using namespace stackscope;

namespace {

// Points fd 2 at a file of its own while it lives (the "terminal" the test reads), without CapturedStderr.
class TerminalFile {
public:
    TerminalFile()
    {
        m_path = m_dir.filePath(QStringLiteral("terminal.txt")).toStdString();
        std::fflush(stderr);
        m_saved = ::dup(2);
        const int fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ::dup2(fd, 2);
        ::close(fd);
    }
    ~TerminalFile() { restore(); }
    // Restores fd 2 and returns what reached the "terminal".
    QByteArray restore()
    {
        if (m_saved >= 0) {
            std::fflush(stderr);
            std::cerr.flush();
            ::dup2(m_saved, 2);
            ::close(m_saved);
            m_saved = -1;
        }
        QFile f(QString::fromStdString(m_path));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(unreadable)");
    }

private:
    QTemporaryDir m_dir;
    std::string m_path;
    int m_saved = -1;
};

void print(int how, const char* text)
{
    if (how == 0)
        QVERIFY(::write(2, text, std::strlen(text)) == ssize_t(std::strlen(text)));
    else if (how == 1)
        std::fprintf(stderr, "%s", text);
    else
        std::cerr << text;
}

} // namespace

class TestCapturedStderr : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void capturesAndRestores_data()
    {
        QTest::addColumn<int>("how");
        QTest::newRow("write(2)") << 0;
        QTest::newRow("fprintf(stderr)") << 1;
        QTest::newRow("std::cerr") << 2;
    }
    void capturesAndRestores()
    {
        QFETCH(int, how);
        TerminalFile terminal;
        print(how, "before\n");
        std::string said;
        {
            CapturedStderr capture;
            QVERIFY(capture.capturing());
            print(how, "Failed to open drm root directory /sys/class/drm.\nException caught: rsmi_init.\n");
            said = capture.take();
            QVERIFY(!capture.capturing());
            QCOMPARE(capture.take(), std::string());
        }
        print(how, "after\n");
        QCOMPARE(said, std::string("Failed to open drm root directory /sys/class/drm.\nException caught: rsmi_init.\n"));
        QCOMPARE(terminal.restore(), QByteArray("before\nafter\n"));
    }

    // Text nobody took is printed when the capture ends: never lost.
    void untakenTextIsPrinted()
    {
        TerminalFile terminal;
        {
            CapturedStderr capture;
            print(0, "a real warning\n");
        }
        const auto [rc, said] = callCapturingStderr([] {
            print(1, "from the call\n");
            return 7;
        });
        QCOMPARE(rc, 7);
        QCOMPARE(said, std::string("from the call\n"));
        QCOMPARE(terminal.restore(), QByteArray("a real warning\n"));
    }

    void oneLine_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("max");
        QTest::addColumn<QString>("line");
        QTest::newRow("rsmi") << "Failed to open drm root directory /sys/class/drm.: No such file or directory\n"
                                 "Exception caught: rsmi_init.\n"
                              << 400
                              << "Failed to open drm root directory /sys/class/drm.: No such file or directory / "
                                 "Exception caught: rsmi_init.";
        QTest::newRow("blank lines, CRLF") << "\n  a \r\n\n b\n" << 400 << "  a /  b";
        QTest::newRow("nothing") << "" << 400 << "";
        QTest::newRow("cut") << "abcdefgh" << 4 << "abcd\u2026";
        QTest::newRow("cut inside UTF-8") << "ab\u00e9cd" << 3 << "ab\u2026";
    }
    void oneLine()
    {
        QFETCH(QString, text);
        QFETCH(int, max);
        QFETCH(QString, line);
        QCOMPARE(QString::fromStdString(capturedAsOneLine(text.toStdString(), std::size_t(max))), line);
    }

    // rocm_smi on this machine: when it loads but rsmi_init fails (no /sys/class/drm), what it printed is in the
    // reason the inspection and the Monitor give, and nothing reaches the terminal.
    void rsmiInitSaysNothingToTheTerminal_data()
    {
        QTest::addColumn<bool>("telemetry");
        QTest::newRow("inspection (rocm_smi source)") << false;
        QTest::newRow("Monitor (rocm_smi telemetry)") << true;
    }
    void rsmiInitSaysNothingToTheTerminal()
    {
        QFETCH(bool, telemetry);
        TerminalFile terminal;
        std::string reason;
        if (telemetry) {
            const auto st = telemetry::makeRocmSmiTelemetrySource()->status();
            reason = st.available ? std::string() : st.detail;
        } else {
            Snapshot s;
            makeRocmSmiSource()->collect(s);
            for (const auto& lib : s.libraries)
                if (lib.component == "rocm_smi")
                    reason = lib.error.value_or("");
        }
        const QByteArray printed = terminal.restore();
        if (reason.find("rsmi_init failed") == std::string::npos)
            QSKIP("rsmi_init was not called, or succeeded, here (rocm_smi not installed, or an AMD GPU present)");
        QVERIFY2(printed.isEmpty(), printed.constData());
        // Whatever the library printed is kept in the reason (this version prints about /sys/class/drm).
        if (::access("/sys/class/drm", F_OK) != 0)
            QVERIFY2(reason.find("rocm_smi printed: ") != std::string::npos, reason.c_str());
    }
};

QTEST_MAIN(TestCapturedStderr)
#include "tst_captured_stderr.moc"
