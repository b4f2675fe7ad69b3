// Runs stackscope-cli for a test (its path comes from $STACKSCOPE_CLI, which CTest sets): exit code,
// stdout and stderr. Shared by every suite that tests a command through QProcess.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

namespace stackscope::test {

struct CliRun {
    int exitCode = -1; // -1: did not start, did not finish in time, or crashed
    QByteArray out;
    QByteArray err;
};

inline CliRun runCli(const QStringList& args, const QByteArray& stdinData = {},
                     const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(), int timeoutMs = 120000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(qEnvironmentVariable("STACKSCOPE_CLI"), args);
    if (!p.waitForStarted(10000))
        return {};
    if (!stdinData.isEmpty())
        p.write(stdinData);
    p.closeWriteChannel();
    CliRun r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(5000);
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace stackscope::test
