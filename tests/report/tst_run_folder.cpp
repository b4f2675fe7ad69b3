// The headless job's folder as `report` reads it: non-empty outputs only, failed steps' .err logs sorted by name,
// nothing from a path that is no folder.
#include "core/report/run_folder.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using stackscope::report::findRunFolderInputs;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& text)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

} // namespace

class TestRunFolder : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void findsWhatTheJobLeft()
    {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        write(d / "probes.json", "{\"results\":[]}");
        write(d / "vpoc.json", ""); // the step wrote nothing: it failed
        write(d / "training" / "model_metadata.json", "{}");
        write(d / "vpoc.err", "error: cannot read bars.csv\n");
        write(d / "probes.err", "");        // a step that printed nothing (or this report's own, still running)
        write(d / "a-train.err", "Killed\n");
        write(d / "notes.txt", "not a log\n");
        const auto found = findRunFolderInputs(d);
        QVERIFY(found.probes && *found.probes == d / "probes.json");
        QVERIFY(!found.vpoc);
        QVERIFY(found.training && *found.training == d / "training" / "model_metadata.json");
        QCOMPARE(found.stepLogs.size(), std::size_t(2));
        QCOMPARE(found.stepLogs[0], d / "a-train.err");
        QCOMPARE(found.stepLogs[1], d / "vpoc.err");
    }

    void noFolderGivesNothing()
    {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "probes.json";
        write(file, "{}");
        for (const fs::path& p : {file, fs::path(dir.path().toStdString()) / "missing"}) {
            const auto found = findRunFolderInputs(p);
            QVERIFY(!found.probes && !found.vpoc && !found.training && found.stepLogs.empty());
        }
    }
};

QTEST_GUILESS_MAIN(TestRunFolder)
#include "tst_run_folder.moc"
