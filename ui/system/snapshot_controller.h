// Owns the current snapshot: inspects this machine in the background, opens and saves snapshot files.
#pragma once

#include "core/inspect/inspector.h"
#include "core/snapshot/snapshot.h"
#include "ui/jobs/job_tracker.h"

#include <QObject>
#include <QString>

#include <memory>

namespace stackscope::ui {

using SnapshotPtr = std::shared_ptr<const Snapshot>;

class SnapshotController : public QObject {
    Q_OBJECT
public:
    explicit SnapshotController(QObject* parent = nullptr);

    SnapshotPtr snapshot() const { return m_snapshot; }
    // Empty for this machine, else the file the snapshot came from.
    QString origin() const { return m_origin; }
    // True when the snapshot is an inspection of this machine (not a file, a report or a recorded root):
    // only then may it be shown beside results measured here.
    bool isThisMachine() const { return m_snapshot && m_origin.isEmpty() && !m_snapshot->root; }
    // "this machine", the file or report it came from, or the recorded root.
    QString originText() const;
    // What the running (or last started) inspection looks at: "this machine" or "the recorded root DIR".
    QString inspectingText() const;

public Q_SLOTS:
    // Inspects this machine in a worker thread; snapshotChanged() follows.
    void refresh();
    // Inspects the recorded machine under `dir` (file-based facts only, as `stackscope-cli inspect --root DIR`) in a
    // worker thread; snapshotChanged() follows. Returns false and emits errorOccurred() when `dir` is not a folder.
    bool inspectRoot(const QString& dir);
    // Returns false and emits errorOccurred() with a message that says what to do.
    bool openFile(const QString& path);
    bool saveFile(const QString& path);
    // Shows a snapshot made elsewhere (a test, a replayed root).
    void setSnapshot(SnapshotPtr snapshot, const QString& origin);

Q_SIGNALS:
    void snapshotChanged(stackscope::ui::SnapshotPtr snapshot, const QString& origin);
    void busyChanged(bool busy);
    void errorOccurred(const QString& message);

private:
    void inspect(InspectOptions options);

    JobTracker m_jobs;
    QString m_inspecting; // the root being inspected, empty for this machine
    SnapshotPtr m_snapshot;
    QString m_origin;
};

} // namespace stackscope::ui
