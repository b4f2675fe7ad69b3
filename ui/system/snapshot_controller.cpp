// Snapshot controller: background inspection and snapshot files.
#include "ui/system/snapshot_controller.h"

#include "core/archscan/snapshot_coverage.h"
#include "core/snapshot/snapshot_json.h"
#include "core/util/atomic_file.h"

#include <QFileInfo>
#include <QThread>

namespace stackscope::ui {

SnapshotController::SnapshotController(QObject* parent)
    : QObject(parent)
    , m_jobs(this)
{
    qRegisterMetaType<stackscope::ui::SnapshotPtr>("stackscope::ui::SnapshotPtr");
}

void SnapshotController::refresh()
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_inspecting.clear();
    inspect(InspectOptions {});
}

bool SnapshotController::inspectRoot(const QString& dir)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!QFileInfo(dir).isDir()) {
        Q_EMIT errorOccurred(tr("%1 is not a folder: give the folder of a recorded machine (packaging/record-root.sh "
                                "makes one), or open a snapshot with File > Open.").arg(dir));
        return false;
    }
    m_inspecting = dir;
    InspectOptions o;
    o.root = dir.toStdString();
    inspect(std::move(o));
    return true;
}

// The same core calls as `stackscope-cli inspect [--root DIR]`: inspectMachine, then the kernel coverage scan.
void SnapshotController::inspect(InspectOptions options)
{
    Q_EMIT busyChanged(true);
    m_jobs.run(
        [options = std::move(options)](const JobControl&) {
            // A few seconds (loading libtorch, mapping GPU libraries); not split for cancel: a newer
            // refresh simply drops this result.
            Snapshot s = inspectMachine(options);
            archscan::addArchCoverage(s);
            return std::make_shared<const Snapshot>(std::move(s));
        },
        [this](SnapshotPtr s) {
            Q_EMIT busyChanged(false);
            setSnapshot(std::move(s), QString());
        },
        [this, root = m_inspecting](const QString& error) {
            Q_EMIT busyChanged(false);
            Q_EMIT errorOccurred(root.isEmpty()
                                     ? tr("Inspecting this machine failed: %1. Try View > Refresh again, or open a saved "
                                          "snapshot with File > Open.").arg(error)
                                     : tr("Inspecting the recorded root %1 failed: %2. Check that the folder was made by "
                                          "packaging/record-root.sh, or open a saved snapshot with File > Open.")
                                           .arg(root, error));
        });
}

bool SnapshotController::openFile(const QString& path)
{
    Q_ASSERT(QThread::currentThread() == thread());
    try {
        auto s = std::make_shared<const Snapshot>(loadSnapshotFile(path.toStdString()));
        m_jobs.cancel(); // a running inspection must not replace what the user opened
        Q_EMIT busyChanged(false);
        setSnapshot(std::move(s), path);
        return true;
    } catch (const SnapshotError& e) {
        Q_EMIT errorOccurred(QString::fromStdString(e.what()));
        return false;
    }
}

bool SnapshotController::saveFile(const QString& path)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_snapshot) {
        Q_EMIT errorOccurred(tr("There is no snapshot to save yet; wait for the inspection to finish or use View > Refresh."));
        return false;
    }
    try {
        saveSnapshotFile(*m_snapshot, path.toStdString());
        return true;
    } catch (const FileWriteError& e) {
        Q_EMIT errorOccurred(QString::fromStdString(e.what()));
        return false;
    }
}

void SnapshotController::setSnapshot(SnapshotPtr snapshot, const QString& origin)
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_snapshot = std::move(snapshot);
    m_origin = origin;
    Q_EMIT snapshotChanged(m_snapshot, m_origin);
}

QString SnapshotController::inspectingText() const
{
    return m_inspecting.isEmpty() ? tr("this machine") : tr("the recorded root %1").arg(m_inspecting);
}

QString SnapshotController::originText() const
{
    if (!m_origin.isEmpty())
        return m_origin;
    if (m_snapshot && m_snapshot->root)
        return tr("the recorded root %1").arg(QString::fromStdString(*m_snapshot->root));
    return tr("this machine");
}

} // namespace stackscope::ui
