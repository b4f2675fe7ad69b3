// stackscope: the desktop console. Options: --snapshot FILE, --root DIR, --bandwidth FILE, --screenshot FILE (headless
// capture), --size WxH, --monitor.
#include "core/snapshot/snapshot_json.h"
#include "core/util/build_info.h"
#include "ui/main_window.h"
#include "ui/settings/settings.h"
#include "ui/window_session.h"
#include "ui/monitor/monitor_dock.h"
#include "ui/report/report_controller.h"
#include "ui/report/report_page.h"
#include "ui/report/report_replay.h"
#include "ui/system/bandwidth_controller.h"
#include "ui/system/system_page.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QScreen>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

void chooseOffscreenPlatform(int argc, char** argv)
{
    // --version and --help must answer on a machine without a display (a server, a container, the
    // package test): QApplication aborts there unless it is given a platform that needs none.
    const bool noDisplay = !std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") && !std::getenv("QT_QPA_PLATFORM");
    for (int i = 1; noDisplay && i < argc; ++i)
        for (const char* flag : {"--version", "-v", "--help", "-h", "--help-all"})
            if (std::strcmp(argv[i], flag) == 0)
                setenv("QT_QPA_PLATFORM", "offscreen", 0);
    // --report DIR draws its pages off screen whether or not there is a display (no window flashes up).
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--report") == 0 || std::strncmp(argv[i], "--report=", 9) == 0)
            setenv("QT_QPA_PLATFORM", "offscreen", 0);
}

// The command line's options; addTo adds them in the order --help lists them.
struct Options {
    QCommandLineOption snapshot{QStringLiteral("snapshot"), QStringLiteral("Open this snapshot instead of inspecting this machine."), QStringLiteral("FILE")};
    QCommandLineOption root{QStringLiteral("root"),
                            QStringLiteral("Inspect the recorded machine under DIR instead of this one (file-based facts, as "
                                           "stackscope-cli inspect --root DIR)."),
                            QStringLiteral("DIR")};
    QCommandLineOption bandwidth{QStringLiteral("bandwidth"),
                                 QStringLiteral("Show this bandwidth run (stackscope-cli bench bandwidth --json) on the System "
                                                "page's links view; with --root DIR, DIR/bandwidth.json is shown when there."),
                                 QStringLiteral("FILE")};
    QCommandLineOption openReport{QStringLiteral("open-report"),
                                  QStringLiteral("Open this report (report.json, its folder or .zip) as File > Open report does: "
                                                 "every page it has a run for shows it."),
                                  QStringLiteral("PATH")};
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  QStringLiteral("Write a PNG of the window once the snapshot is shown and the page is ready (the Report page: its "
                                                 "preview; at most 10 s), then quit (works with QT_QPA_PLATFORM=offscreen)."),
                                  QStringLiteral("FILE")};
    QCommandLineOption page{QStringLiteral("page"), QStringLiteral("Start on this page (System, Probes, VPOC, Training, Report)."), QStringLiteral("NAME")};
    QCommandLineOption report{QStringLiteral("report"),
                              QStringLiteral("Inspect (or open --snapshot or --root), write a redacted support report with screenshots of every page "
                                             "into DIR, print the folder and zip, then quit (works with QT_QPA_PLATFORM=offscreen)."),
                              QStringLiteral("DIR")};
    QCommandLineOption size{QStringLiteral("size"), QStringLiteral("Window size, such as 1280x720 (for --screenshot and --report; --report: 1280x720 by default)."), QStringLiteral("WxH")};
    QCommandLineOption monitor{QStringLiteral("monitor"), QStringLiteral("Open the Monitor dock at start.")};

    void addTo(QCommandLineParser& parser) const
    {
        parser.setApplicationDescription(QStringLiteral("StackScope: a console for PyTorch on ROCm and CUDA GPUs"));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOption(size);
        parser.addOption(monitor);
        parser.addOption(report);
        parser.addOption(page);
        parser.addOption(snapshot);
        parser.addOption(root);
        parser.addOption(openReport);
        parser.addOption(bandwidth);
        parser.addOption(screenshot);
    }
};

// --size, 1280x720 for --report, or on a real screen the screen's size; false (with a message) for a size that is not WIDTHxHEIGHT.
bool sizeWindow(stackscope::ui::MainWindow& window, const QCommandLineParser& parser, const Options& options)
{
    if (parser.isSet(options.size)) {
        const QStringList wh = parser.value(options.size).split(QLatin1Char('x'));
        const int w = wh.size() == 2 ? wh[0].toInt() : 0, h = wh.size() == 2 ? wh[1].toInt() : 0;
        if (w < 320 || h < 240) {
            std::fprintf(stderr, "stackscope: --size %s: give the window size as WIDTHxHEIGHT, such as 1280x720\n",
                         qPrintable(parser.value(options.size)));
            return false;
        }
        window.resize(w, h);
    } else if (parser.isSet(options.report)) {
        // Off screen (--report always is) the window would keep the offscreen screen's 800x600: pages drawn at the
        // size of a common laptop screen read better in a report.
        window.resize(1280, 720);
    } else if (const QScreen* screen = window.screen();
               screen && !parser.isSet(options.screenshot)) {
        // On a real screen only: an offscreen grab keeps the default size (the offscreen screen is 800x600).
        window.fitInto(screen->availableGeometry());
    }
    return true;
}

// The most --screenshot waits, from the snapshot shown, for the page to be ready.
constexpr int kScreenshotWaitMs = 10000;

// Writes the window's picture to `file` and quits: exit 0, or 2 with what to do when it cannot be written.
void grabAndQuit(stackscope::ui::MainWindow& window, const QString& file, int status = 0)
{
    if (!window.grab().save(file)) {
        std::fprintf(stderr, "stackscope: cannot write %s; choose a writable path ending in .png\n", qPrintable(file));
        QApplication::exit(2);
        return;
    }
    QApplication::exit(status);
}

// --screenshot FILE: grabs the window once the snapshot is shown and the page shown is ready, then quits. The Report
// page is ready when its preview (the summary card, the redactions) is built: ReportController::previewDue, 200 ms
// after the last change, rebuilds it before this listener runs (the page connected first); the grab comes on the next
// turn of the event loop, once the columns are laid out again. Other pages draw the snapshot as it arrives; they get
// 200 ms to settle. Past kScreenshotWaitMs the picture is written as it is, exit 2, saying what did not come.
void screenshotWhenShown(stackscope::ui::MainWindow& window, const QString& screenshot)
{
    auto* timeout = new QTimer(&window);
    timeout->setSingleShot(true);
    timeout->setInterval(kScreenshotWaitMs);
    const auto grabOnce = [&window, screenshot, timeout](int delayMs) {
        QTimer::singleShot(delayMs, &window, [&window, screenshot, timeout] {
            if (!timeout->isActive())
                return; // the timeout wrote it already
            timeout->stop();
            grabAndQuit(window, screenshot);
        });
    };
    QObject::connect(window.snapshots(), &stackscope::ui::SnapshotController::snapshotChanged, &window,
                     [&window, screenshot, timeout, grabOnce] {
        const bool report = window.currentPageTitle() == QStringLiteral("Report");
        QObject::connect(timeout, &QTimer::timeout, &window, [&window, screenshot, report] {
            std::fprintf(stderr, "stackscope: --screenshot: waited %d s for %s; wrote %s without it. Take it again, or "
                                 "from the window (the page may need longer on this machine)\n",
                         kScreenshotWaitMs / 1000,
                         report ? "the Report page's preview (its summary card and redactions)" : "the page to settle",
                         qPrintable(screenshot));
            grabAndQuit(window, screenshot, 2);
        });
        timeout->start();
        if (!report) {
            grabOnce(200);
            return;
        }
        QObject::connect(window.reportPage()->controller(), &stackscope::ui::ReportController::previewDue, &window,
                         [grabOnce] { grabOnce(0); }, Qt::SingleShotConnection);
    }, Qt::SingleShotConnection);
}

// --report DIR: writes the redacted support report once the snapshot is shown, through the page's background
// export like a click on Export, then quits; a failure goes to stderr with exit 2, not to a modal box offscreen.
void writeReportWhenShown(stackscope::ui::MainWindow& window, const QString& dir)
{
    // Headless: an inspection error goes to stderr with exit 2, not to a modal box nobody can close.
    QObject::disconnect(window.snapshots(), &stackscope::ui::SnapshotController::errorOccurred, &window, nullptr);
    QObject::connect(window.snapshots(), &stackscope::ui::SnapshotController::errorOccurred, &window, [](const QString& message) {
        std::fprintf(stderr, "stackscope: no report: %s\n", qPrintable(message));
        QApplication::exit(2);
    });
    QObject::connect(window.snapshots(), &stackscope::ui::SnapshotController::snapshotChanged, &window, [&window, dir] {
        QTimer::singleShot(0, &window, [&window, dir] {
            auto* page = window.reportPage();
            page->setRedactionEnabled(true);
            page->exportTo(dir);
        });
    });
    auto* page = window.reportPage();
    QObject::disconnect(page, &stackscope::ui::ReportPage::errorOccurred, &window, nullptr);
    QObject::connect(page, &stackscope::ui::ReportPage::exported, &window, [](const QString& folder, const QString& zip) {
        std::printf("%s\n%s\n", qPrintable(folder), qPrintable(zip));
        QApplication::exit(0);
    });
    QObject::connect(page, &stackscope::ui::ReportPage::errorOccurred, &window, [](const QString& message) {
        std::fprintf(stderr, "stackscope: %s\n", qPrintable(message));
        QApplication::exit(2);
    });
}

// --snapshot FILE: shows the window with that snapshot; false (with the loader's message) where it cannot be read.
bool showSnapshotFile(stackscope::ui::MainWindow& window, const QString& path)
{
    try {
        auto s = std::make_shared<const stackscope::Snapshot>(stackscope::loadSnapshotFile(path.toStdString()));
        window.show();
        window.snapshots()->setSnapshot(std::move(s), path);
    } catch (const stackscope::SnapshotError& e) {
        std::fprintf(stderr, "stackscope: %s\n", e.what());
        return false;
    }
    return true;
}

// --bandwidth FILE (or a recorded root's bandwidth.json): the links view shows that run; false (with what to give) where
// the file is not one.
bool showBandwidthFile(stackscope::ui::MainWindow& window, const QString& path)
{
    QString problem;
    QObject listener; // the message goes to stderr here, not only to the (maybe off screen) window
    QObject::connect(window.bandwidth(), &stackscope::ui::BandwidthController::errorOccurred, &listener,
                     [&problem](const QString& message) { problem = message; });
    if (window.bandwidth()->openFile(path))
        return true;
    std::fprintf(stderr, "stackscope: --bandwidth: %s\n", qPrintable(problem));
    return false;
}

// --root DIR: shows the window and inspects the recorded machine under DIR; false (with what to give) where DIR is
// not a folder.
bool showRecordedRoot(stackscope::ui::MainWindow& window, const QString& dir)
{
    if (!QFileInfo(dir).isDir()) {
        std::fprintf(stderr, "stackscope: --root %s: not a folder; give the folder of a recorded machine (see "
                             "packaging/record-root.sh)\n", qPrintable(dir));
        return false;
    }
    window.show();
    return window.snapshots()->inspectRoot(dir);
}

} // namespace

int main(int argc, char** argv)
{
    chooseOffscreenPlatform(argc, argv);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("StackScope"));
    QApplication::setApplicationVersion(QString::fromStdString(stackscope::buildDescription()));
    QApplication::setOrganizationName(QStringLiteral("StackScope"));

    QCommandLineParser parser;
    const Options options;
    options.addTo(parser);
    parser.process(app);

    if (parser.isSet(options.snapshot) && parser.isSet(options.root)) {
        std::fprintf(stderr, "stackscope: --snapshot and --root both name the machine to show; give one of them\n");
        return 2;
    }
    if (parser.isSet(options.openReport) && (parser.isSet(options.snapshot) || parser.isSet(options.root))) {
        std::fprintf(stderr, "stackscope: --open-report names the machine to show, as --snapshot and --root do; give one of them\n");
        return 2;
    }
    stackscope::ui::MainWindow window;
    // A session as the person left it, unless a size, a page or an output was asked for (screenshots, reports and
    // scripted runs start from the defaults and keep nothing).
    const bool interactive = !parser.isSet(options.screenshot) && !parser.isSet(options.report) &&
                             !parser.isSet(options.size) && !parser.isSet(options.page);
    stackscope::ui::Settings settings;
    if (interactive)
        stackscope::ui::restoreWindowSession(window, settings);
    if (parser.isSet(options.page) && !window.showPage(parser.value(options.page))) {
        std::fprintf(stderr, "stackscope: no page named '%s'; use System, Probes, VPOC, Training or Report\n", qPrintable(parser.value(options.page)));
        return 2;
    }
    if (!sizeWindow(window, parser, options))
        return 2;
    if (parser.isSet(options.monitor) && window.monitorDock())
        window.monitorDock()->show();
    if (const QString screenshot = parser.value(options.screenshot); !screenshot.isEmpty())
        screenshotWhenShown(window, screenshot);
    if (parser.isSet(options.report))
        writeReportWhenShown(window, parser.value(options.report));
    if (parser.isSet(options.bandwidth) && !showBandwidthFile(window, parser.value(options.bandwidth)))
        return 2;
    if (!parser.isSet(options.bandwidth) && parser.isSet(options.root)) {
        if (const QString recorded = QDir(parser.value(options.root)).filePath(QStringLiteral("bandwidth.json"));
            QFileInfo(recorded).isFile() && !showBandwidthFile(window, recorded))
            return 2;
    }
    if (parser.isSet(options.openReport)) {
        // Read in the background; the window shows once the report is on its pages. A report that cannot be read
        // ends the program with the reason on stderr, as before: there is nothing to show.
        QObject::connect(window.replay(), &stackscope::ui::ReportReplay::opened, &window, [&window] { window.show(); });
        QObject::connect(window.replay(), &stackscope::ui::ReportReplay::errorOccurred, &window, [&window](const QString& message) {
            if (window.isVisible())
                return; // a later report, opened from the window: its message box says it
            std::fprintf(stderr, "stackscope: --open-report: %s\n", qPrintable(message));
            QApplication::exit(2);
        });
        window.replay()->open(parser.value(options.openReport));
    } else if (parser.isSet(options.snapshot)) {
        if (!showSnapshotFile(window, parser.value(options.snapshot)))
            return 2;
    } else if (parser.isSet(options.root)) {
        if (!showRecordedRoot(window, parser.value(options.root)))
            return 2;
    } else {
        window.show();
        window.snapshots()->refresh();
    }
    const int status = app.exec();
    if (interactive)
        stackscope::ui::saveWindowSession(window, settings);
    return status;
}
