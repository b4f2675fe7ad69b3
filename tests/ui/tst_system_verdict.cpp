// The System page's verdict (blocking problems with a command to copy, or "all good") on recorded
// machines, and machines seen only through the KFD topology (a GPU card each, what is unknown marked).
#include "core/inspect/inspector.h"
#include "ui/main_window.h"
#include "ui/system/fix_command.h"
#include "ui/system/system_page.h"
#include "ui/system/verdict_panel.h"
#include "ui/widgets/gpu_card.h"

#include <QClipboard>
#include <QLabel>
#include <QPushButton>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {
Snapshot inspectRoot(const QString& root)
{
    InspectOptions o;
    o.root = root.toStdString();
    return inspectMachine(o);
}

QString fixtureRoot(const QString& name)
{
    return QStringLiteral(STACKSCOPE_TEST_FIXTURES "/roots/") + name;
}

// Copies a folder tree (only what the KFD-only root needs).
bool copyTree(const QString& from, const QString& to)
{
    QDir().mkpath(to);
    const QDir dir(from);
    for (const auto& info : dir.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString target = to + QLatin1Char('/') + info.fileName();
        if (info.isDir() ? !copyTree(info.filePath(), target) : !QFile::copy(info.filePath(), target))
            return false;
    }
    return true;
}
} // namespace

class TestSystemVerdict : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fixCommand_data()
    {
        QTest::addColumn<QString>("fix");
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("html");
        QTest::newRow("first span") << "`sudo usermod -aG render,video $USER`, then log out" << "sudo usermod -aG render,video $USER"
                                    << "<code>sudo usermod -aG render,video $USER</code>, then log out";
        QTest::newRow("two spans") << "run `rocminfo` or `clinfo`" << "rocminfo" << "run <code>rocminfo</code> or <code>clinfo</code>";
        QTest::newRow("none") << "Load the amdgpu driver." << "" << "Load the amdgpu driver.";
        QTest::newRow("unpaired") << "a ` b" << "" << "a ` b";
        QTest::newRow("escaped") << "`a < b`" << "a < b" << "<code>a &lt; b</code>";
    }
    void fixCommand()
    {
        QFETCH(QString, fix);
        QFETCH(QString, command);
        QFETCH(QString, html);
        QCOMPARE(ui::fixCommand(fix), command);
        QCOMPARE(fixHtml(fix), html);
    }

    // The verdict is the first thing under the title: blocking problems with their command, or all good.
    void verdict_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<int>("blocking");
        QTest::addColumn<QString>("command");
        QTest::newRow("2x7900xt: no /dev/kfd access") << "ubuntu2204-2x7900xt" << 2 << "sudo usermod -aG render,video $USER";
        QTest::newRow("rocm7: healthy") << "ubuntu2404-rocm7" << 0 << "";
        // No GPU at all is not "all good" for GPU work (it said "All good: nothing blocks GPU work here" before).
        QTest::newRow("no GPU") << "debian12-nogpu" << 0 << "";
    }
    void verdict()
    {
        QFETCH(QString, root);
        QFETCH(int, blocking);
        QFETCH(QString, command);
        const auto snapshot = std::make_shared<const Snapshot>(inspectRoot(fixtureRoot(root)));
        MainWindow window;
        window.resize(1280, 720);
        window.snapshots()->setSnapshot(snapshot, QString());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        VerdictPanel* verdict = window.systemPage()->verdict();
        QCOMPARE(verdict->itemCount(), blocking);
        if (blocking == 0) {
            const bool gpus = !snapshot->gpus.empty();
            QVERIFY2(verdict->headline().contains(gpus ? QStringLiteral("All good") : QStringLiteral("No GPU visible")),
                     qPrintable(verdict->headline()));
            QCOMPARE(verdict->headline().contains(QStringLiteral("All good")), gpus);
            QVERIFY(verdict->findChildren<QPushButton*>(QStringLiteral("copyFix")).isEmpty());
        } else {
            QVERIFY(verdict->headline().contains(QStringLiteral("%1 problems block").arg(blocking)));
            QVERIFY(verdict->commands().contains(command));
            // One Copy button per distinct command: both permission problems share the group fix.
            QCOMPARE(verdict->findChildren<QPushButton*>(QStringLiteral("copyFix")).size(), int(verdict->commands().size()));
            QCOMPARE(int(verdict->commands().size()), 1);
            auto* copy = verdict->findChild<QPushButton*>(QStringLiteral("copyFix"));
            QVERIFY(copy && copy->isVisible());
            copy->click();
            QCOMPARE(QApplication::clipboard()->text(), command);
        }
        // Above the fold at 1280x720: the whole verdict inside the window, above the GPU cards.
        const QRect inWindow(verdict->mapTo(&window, QPoint(0, 0)), verdict->size());
        QVERIFY2(window.rect().contains(inWindow), qPrintable(QStringLiteral("verdict at y %1..%2").arg(inWindow.top()).arg(inWindow.bottom())));
        const auto cards = window.systemPage()->findChildren<GpuCard*>();
        for (auto* card : cards)
            QVERIFY(card->mapTo(&window, QPoint(0, 0)).y() > inWindow.bottom());
        QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
        QVERIFY(window.grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/verdict-") + root + QStringLiteral(".png")));
    }

    // A recorded root with KFD topology GPU nodes and no /sys/class/drm: each node is a GPU.
    void kfdOnlyGpusListed()
    {
        QTemporaryDir dir;
        const QString kfd = QStringLiteral("/sys/class/kfd");
        QVERIFY(copyTree(fixtureRoot(QStringLiteral("ubuntu2204-2x7900xt")) + kfd, dir.path() + kfd));
        const Snapshot s = inspectRoot(dir.path());
        QCOMPARE(int(s.gpus.size()), 3);
        QStringList archs;
        for (const auto& g : s.gpus) {
            archs << QString::fromStdString(g.arch.value_or("none"));
            QCOMPARE(QString::fromStdString(g.source), QStringLiteral("kfd"));
            QVERIFY(!g.vramTotalBytes); // only drm says: unknown, not a guess
        }
        archs.sort();
        QCOMPARE(archs, (QStringList {QStringLiteral("gfx1036"), QStringLiteral("gfx1100"), QStringLiteral("gfx1100")}));
        MainWindow window;
        window.snapshots()->setSnapshot(std::make_shared<const Snapshot>(s), QString());
        QCOMPARE(window.systemPage()->gpuCardCount(), 3);
        QVERIFY(!window.systemPage()->findChild<QLabel*>(QStringLiteral("noGpuLabel")));
    }
};

QTEST_MAIN(TestSystemVerdict)
#include "tst_system_verdict.moc"
