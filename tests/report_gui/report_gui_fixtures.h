// Shared by the report GUI suites (tst_report_gui, tst_report_replay): planted private data, a snapshot and
// probe results that carry it, and small helpers (zip entries, screenshots, an export that is waited for).
#pragma once

#include "core/report/report_loader.h"
#include "core/snapshot/snapshot_json.h"
#include "tests/common/cli_process.h"
#include "tests/common/open_report.h"
#include "ui/main_window.h"
#include "ui/probes/probe_grid_model.h"
#include "ui/models/findings_model.h"
#include "ui/probes/probes_page.h"
#include "ui/report/compare_dialog.h"
#include "ui/report/diff_model.h"
#include "core/probes/probe_document.h"
#include "ui/report/probe_side_by_side.h"
#include "ui/report/replay_banner.h"
#include "ui/report/report_page.h"
#include "ui/report/report_replay.h"
#include "ui/report/redacted_render.h"
#include "ui/report/summary_card.h"
#include "ui/report/text_scrub.h"
#include "ui/system/snapshot_controller.h"
#include "ui/system/system_page.h"
#include "ui/vpoc/vpoc_page.h"

#include <archive.h>
#include <archive_entry.h>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QDeadlineTimer>
#include <QGroupBox>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QClipboard>
#include <QMimeData>
#include <QDirIterator>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <set>

using namespace stackscope;
using namespace stackscope::ui;

namespace stackscope::test::report_gui {

// Private facts planted in a snapshot and in the probe results; none may survive a redacted export.
inline const QStringList kPlanted {
    QStringLiteral("zorgblatt"),                                    // user name
    QStringLiteral("quuxhost-7731"),                                // host name
    QStringLiteral("/home/zorgblatt"),                              // home path
    QStringLiteral("10.23.45.67"),                                  // IPv4
    QStringLiteral("fd12:3456:789a:1::42"),                         // IPv6
    QStringLiteral("3c:ec:ef:12:34:56"),                            // MAC
    QStringLiteral("GPU-1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d"),     // NVIDIA GPU UUID
};

inline Snapshot plantedSnapshot()
{
    Snapshot s;
    s.capturedAt = "2026-11-21T19:00:00Z";
    s.host.hostname = "quuxhost-7731";
    s.host.os = "Ubuntu 24.04.1 LTS";
    s.host.kernel = "6.8.0-45-generic";
    GpuInfo g;
    g.index = 0;
    g.vendor = "nvidia";
    g.name = "NVIDIA H100 80GB HBM3";
    g.arch = "sm_90";
    g.vramTotalBytes = 85520809984ull;
    g.pciBus = "0000:19:00.0";
    g.driverVersion = "580.95.05";
    g.source = "nvml";
    s.gpus.push_back(g);
    s.cuda.driverVersion = "580.95.05";
    s.cuda.cudaDriverVersion = "13.0";
    s.cuda.runtimeVersion = "13.0";
    s.cuda.runtimePath = "/home/zorgblatt/venv/lib/python3.12/site-packages/nvidia/cuda_runtime/lib/libcudart.so.13";
    s.torch.version = "2.11.0+cu130";
    s.torch.backend = "cuda";
    s.torch.builtWith = "13.0";
    s.torch.archList = std::vector<std::string> {"sm_80", "sm_90", "sm_100"};
    s.torch.libraryPath = "/home/zorgblatt/venv/lib/python3.12/site-packages/torch/lib/libtorch.so";
    s.access.user = "zorgblatt";
    s.access.userGroups = {"zorgblatt", "video", "render"};
    s.env["CUDA_VISIBLE_DEVICES"] = "GPU-1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d";
    s.env["LD_LIBRARY_PATH"] = "/home/zorgblatt/venv/lib:/usr/local/cuda/lib64";
    s.env["SSH_CONNECTION"] = "10.23.45.67 52144 fd12:3456:789a:1::42 22";
    s.env["STACKSCOPE_NIC"] = "3c:ec:ef:12:34:56";
    LibraryStatus lib;
    lib.component = "libtorch module";
    lib.loaded = false;
    lib.tried.push_back({"/home/zorgblatt/stackscope/lib/libstackscope_torch.so", "cannot open shared object file"});
    lib.error = "module at /home/zorgblatt/stackscope/lib not loadable on quuxhost-7731";
    s.libraries.push_back(lib);
    Finding f;
    f.id = "TORCH_MODULE_MISSING";
    f.severity = Severity::Warning;
    f.title = "StackScope's libtorch module did not load from /home/zorgblatt/stackscope/lib";
    f.detail = "tried on quuxhost-7731";
    s.findings.push_back(f);
    return s;
}

inline std::vector<ProbeRecord> plantedRecords()
{
    std::vector<ProbeRecord> out;
    auto add = [&](const char* probe, const char* device, ProbeResult r, const std::string& message) {
        ProbeRecord rec;
        rec.outcome.probeId = probe;
        rec.outcome.device = device;
        rec.outcome.outcome = r;
        rec.outcome.message = message;
        rec.outcome.env = {{"CUDA_VISIBLE_DEVICES", "GPU-1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d"}};
        rec.seconds = 0.01;
        out.push_back(rec);
    };
    add("randn", "cpu", ProbeResult::Ok, "");
    add("matmul_fp32", "cpu", ProbeResult::Ok, "");
    add("matmul_fp32", "0", ProbeResult::Error,
        "CUDA error: no kernel image is available for execution on the device (cache /home/zorgblatt/.cache, peer 10.23.45.67)");
    add("matmul_fp16", "0", ProbeResult::Crash, "SIGSEGV on quuxhost-7731");
    add("softmax", "0", ProbeResult::Ok, "");
    return out;
}

inline QStringList plantedIn(const QString& text)
{
    QStringList found;
    for (const auto& p : kPlanted) {
        if (text.contains(p, Qt::CaseInsensitive))
            found << p;
    }
    return found;
}

// Every entry of a zip, read back with libarchive: name -> bytes.
inline std::map<QString, QByteArray> zipEntries(const QString& path)
{
    std::map<QString, QByteArray> out;
    archive* a = archive_read_new();
    archive_read_support_format_zip(a);
    if (archive_read_open_filename(a, path.toLocal8Bit().constData(), 1 << 16) != ARCHIVE_OK) {
        archive_read_free(a);
        return out;
    }
    archive_entry* e = nullptr;
    while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
        QByteArray data;
        char buf[1 << 16];
        la_ssize_t n;
        while ((n = archive_read_data(a, buf, sizeof buf)) > 0)
            data.append(buf, static_cast<int>(n));
        if (archive_entry_filetype(e) == AE_IFREG)
            out[QString::fromUtf8(archive_entry_pathname(e))] = data;
    }
    archive_read_free(a);
    return out;
}

inline QString screenshotDir()
{
    const QString dir = QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    return dir;
}

inline void save(QWidget& w, const QString& name)
{
    QTest::qWait(300);
    QVERIFY(w.grab().save(screenshotDir() + QLatin1Char('/') + name + QStringLiteral(".png")));
}

// Starts an export and waits for its end (it runs in the background); false when it failed (the reason is the
// page's status) or could not start.
inline bool exportAndWait(ReportPage& page, const QString& dir, int timeoutMs = 180000)
{
    QSignalSpy done(&page, &ReportPage::exported);
    QSignalSpy failed(&page, &ReportPage::errorOccurred);
    if (!page.exportTo(dir))
        return false;
    QDeadlineTimer deadline(timeoutMs);
    while (done.isEmpty() && failed.isEmpty() && !deadline.hasExpired())
        QTest::qWait(20);
    return !done.isEmpty() && !page.isExporting();
}

// The widgets a test page is made of, by name (renderRedacted is checked against QWidget::grab on each).
inline std::unique_ptr<QWidget> testPage(const QString& kind)
{
    auto page = std::make_unique<QWidget>();
    auto* layout = new QVBoxLayout(page.get());
    if (kind == QStringLiteral("labels and fields")) {
        layout->addWidget(new QLabel(QStringLiteral("Input file /home/zorgblatt/data.csv")));
        layout->addWidget(new QLabel(QStringLiteral("<b>Host</b> quuxhost-7731")));
        layout->addWidget(new QLineEdit(QStringLiteral("/home/zorgblatt/data/es-1m.csv")));
        layout->addWidget(new QPushButton(QStringLiteral("Open /home/zorgblatt")));
    } else if (kind == QStringLiteral("group box")) {
        auto* box = new QGroupBox(QStringLiteral("Run on quuxhost-7731"));
        auto* inner = new QVBoxLayout(box);
        inner->addWidget(new QCheckBox(QStringLiteral("Use /home/zorgblatt/cache")));
        inner->addWidget(new QLabel(QStringLiteral("nothing private here")));
        layout->addWidget(box);
    } else { // a scroll area: its content is cut by the viewport
        auto* area = new QScrollArea;
        auto* content = new QLabel(QStringLiteral("peer 10.23.45.67\n").repeated(40));
        area->setWidget(content);
        layout->addWidget(area);
    }
    page->resize(420, 260);
    return page;
}

inline QString runCliToFile(const QStringList& args, const QString& file)
{
    const auto r = stackscope::test::runCli(args);
    if (r.exitCode != 0)
        return QString::fromUtf8(r.err);
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write ") + file;
    f.write(r.out);
    return {};
}

} // namespace stackscope::test::report_gui

using namespace stackscope::test::report_gui;
