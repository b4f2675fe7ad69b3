// cgroupMemoryLeft on made-up /sys/fs/cgroup trees: cgroup v2 and v1 (issue 36 row 11: a 1.5 GB cgroup-v1 limit
// was not read, and `train --hidden 8000,8000` was OOM-killed after 37 s without a word), parents' limits, "no
// limit" in both notations, and a container that sees its own cgroup at the mount's root.
#include "core/training/training_memory.h"

#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace stackscope::training;

namespace {

// "dir/file=value;..." written under root/sys/fs/cgroup.
void writeTree(const std::string& root, const QString& files)
{
    for (const auto& entry : files.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const auto eq = entry.indexOf(QLatin1Char('='));
        const std::filesystem::path p = root + "/sys/fs/cgroup/" + entry.left(eq).toStdString();
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p) << entry.mid(eq + 1).toStdString() << "\n";
    }
}

constexpr double kMiB = 1024.0 * 1024.0;

} // namespace

class TestTrainingMemory : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cgroupLeft_data()
    {
        QTest::addColumn<QString>("procSelfCgroup");
        QTest::addColumn<QString>("files");
        QTest::addColumn<double>("leftMiB"); // -1: no limit
        QTest::newRow("v2 limit") << "0::/user.slice/run" << "user.slice/run/memory.max=1610612736;user.slice/run/memory.current=104857600" << 1436.0;
        QTest::newRow("v2 own max, parent limits")
            << "0::/a/b" << "a/b/memory.max=max;a/b/memory.current=104857600;a/memory.max=1073741824;a/memory.current=524288000" << 524.0;
        QTest::newRow("v2 no limit anywhere") << "0::/a" << "a/memory.max=max;a/memory.current=1000" << -1.0;
        QTest::newRow("v1 1.5 GiB limit (the row's case)")
            << "12:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc"
            << "memory/docker/abc/memory.limit_in_bytes=1610612736;memory/docker/abc/memory.usage_in_bytes=209715200" << 1336.0;
        QTest::newRow("v1 no limit (page counter maximum)")
            << "12:memory:/x" << "memory/x/memory.limit_in_bytes=9223372036854771712;memory/x/memory.usage_in_bytes=10" << -1.0;
        QTest::newRow("v1 controllers listed together") << "4:cpu,memory:/j" << "memory/j/memory.limit_in_bytes=2147483648;memory/j/memory.usage_in_bytes=0" << 2048.0;
        QTest::newRow("container: own cgroup at the mount root")
            << "12:memory:/kubepods/pod1/c1" << "memory/memory.limit_in_bytes=1073741824;memory/memory.usage_in_bytes=0" << 1024.0;
        QTest::newRow("hybrid: v1 memory and v2 line, the least")
            << "0::/s\n9:memory:/s" << "s/memory.max=4294967296;s/memory.current=0;memory/s/memory.limit_in_bytes=1073741824;memory/s/memory.usage_in_bytes=0" << 1024.0;
        QTest::newRow("usage above the limit: nothing left") << "0::/s" << "s/memory.max=1048576;s/memory.current=2097152" << 0.0;
        QTest::newRow("garbage in the files") << "0::/s" << "s/memory.max=lots;s/memory.current=some" << -1.0;
        QTest::newRow("no /proc/self/cgroup text") << "" << "" << -1.0;
    }

    void cgroupLeft()
    {
        QFETCH(QString, procSelfCgroup);
        QFETCH(QString, files);
        QFETCH(double, leftMiB);
        QTemporaryDir dir;
        writeTree(dir.path().toStdString(), files);
        const double left = cgroupMemoryLeft(dir.path().toStdString(), procSelfCgroup.toStdString());
        if (leftMiB < 0)
            QCOMPARE(left, -1.0);
        else
            QCOMPARE(std::round(left / kMiB), leftMiB);
    }
};

QTEST_GUILESS_MAIN(TestTrainingMemory)
#include "tst_training_memory.moc"
