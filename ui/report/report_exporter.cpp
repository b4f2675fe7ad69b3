// Export: the document built in a job, pages redrawn from the report's own (redacted) data step by step, then written in a job.
#include "ui/report/report_exporter.h"

#include "core/report/report.h"
#include "core/report/telemetry_summary.h"
#include "core/snapshot/snapshot_json.h"
#include "ui/probes/probes_page.h"
#include "core/probes/probe_document.h"
#include "ui/report/summary_card.h"
#include "ui/report/redacted_render.h"
#include "ui/report/text_scrub.h"
#include "core/report/report_bandwidth.h"
#include "ui/system/links_panel.h"
#include "ui/system/system_page.h"
#include "ui/system/topology_view.h"

#include <QBuffer>
#include <QDir>
#include <QLayout>
#include <QPointer>
#include <QScrollArea>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

#include <fmt/format.h>

#include <memory>

namespace stackscope::ui {

using nlohmann::json;

QByteArray pngBytes(const QImage& image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

namespace {

void requireSnapshot(const ReportRequest& request)
{
    if (!request.snapshot)
        throw report::ReportError("No snapshot to report yet: wait for the System page to finish inspecting (or open a "
                                  "snapshot), then export again.");
}

report::ReportInputs inputsOf(const ReportRequest& request)
{
    requireSnapshot(request);
    report::ReportInputs in;
    in.snapshot = *request.snapshot;
    if (!request.probes.empty())
        in.probes = probeDocument(request.probes);
    else
        in.probesNote = !request.probesNote.empty()
                            ? request.probesNote
                            : "not run in this session: run them on the Probes page, then export again";
    in.vpocRun = request.vpocRun;
    in.trainingRun = request.trainingRun;
    in.telemetry = request.telemetry;
    in.logLines = request.logLines;
    in.bandwidth = request.bandwidth;
    in.bandwidthNote = request.bandwidthNote;
    return in;
}

// A page behind another in the window's stack may never have been shown or laid out: it gets the page size
// for the drawing (the stack sets its geometry again when it is shown) and its layouts are run; the event
// loop lays out the nested ones before the page is drawn.
QWidget* prepareLivePage(const QPointer<QWidget>& page, QSize size)
{
    if (!page)
        return nullptr;
    if (!page->isVisible())
        page->resize(size);
    // A page in the window scrolls inside a QScrollArea of the page stack. The stack sizes only the page in view,
    // so a page never opened keeps the scroll area's first size (a few hundred pixels: the Training form drew
    // cramped, with a sideways scroll bar). It gets the size of the page in view, the size it would have on screen.
    if (auto* scroll = qobject_cast<QScrollArea*>(page->parentWidget() ? page->parentWidget()->parentWidget() : nullptr);
        scroll && !scroll->isVisible() && scroll->parentWidget())
        scroll->resize(scroll->parentWidget()->size());
    page->ensurePolished();
    for (auto* child : page->findChildren<QWidget*>())
        child->ensurePolished();
    if (page->layout())
        page->layout()->activate();
    // Qt sends a hidden widget's pending resize events at its first render: a page in a resizable scroll area
    // is sized back to the viewport there. A one-pixel grab does that now, so the event loop lays the page out
    // at its final size before it is drawn (else the drawing had the new layout in the old, larger frame).
    (void)page->grab(QRect(0, 0, 1, 1));
    return page;
}

} // namespace

// The first job's result: the document, the redactor that made it (it redacts the pages' texts next, then lists
// everything it replaced), and the report's own data the pages are redrawn from.
struct ReportExporter::Prepared {
    json doc;
    std::shared_ptr<report::Redactor> redactor; // null when the report is not redacted
    Snapshot shown;
    std::vector<ProbeRecord> records;
    std::optional<perf::SuiteRun> bandwidth; // the report's run (redacted, judged), drawn as the System page shows it
};

struct ReportExporter::Shot {
    QString name, title;
    QImage image;
};

// One screenshot: `show` shows (or builds) the page and returns it, or null to leave it out; the page is drawn
// `settleMs` later, once the event loop has laid it out (chart scenes lay out on the loop too).
struct ReportExporter::PageStep {
    QString name, title;
    int settleMs;
    std::function<QWidget*(Run&)> show;
};

// The GUI thread's side of one export; nothing in it crosses to the jobs.
struct ReportExporter::Run {
    quint64 id = 0;
    QString parentDir;
    Done done;
    Fail fail;
    std::vector<PageStep> steps;
    std::size_t next = 0;
    Prepared prepared;
    std::vector<Shot> shots;
    std::unique_ptr<SnapshotController> controller; // feeds the pages built from the report
    std::unique_ptr<QWidget> built;                 // the page built for the current step (after controller: goes first)
};

ReportExporter::ReportExporter(QObject* parent)
    : QObject(parent)
{
}

ReportExporter::~ReportExporter() = default;

json ReportExporter::buildDocument(const ReportRequest& request, std::optional<report::Redactor>* redactor)
{
    const auto in = inputsOf(request);
    std::optional<report::Redactor> local;
    auto& red = redactor ? *redactor : local;
    red.reset();
    if (request.redact)
        red = report::Redactor::forMachine(in.snapshot);
    return report::buildReport(in, red ? &*red : nullptr);
}

ReportExporter::Prepared ReportExporter::prepare(ReportRequest request, const QString& parentDir)
{
    if (parentDir.isEmpty())
        throw report::ReportError("No folder given for the report: choose a folder you can write to.");
    requireSnapshot(request); // before the telemetry sample: say it at once
    if (request.telemetry.is_null() && request.sampleTelemetry)
        request.telemetry = report::sampleTelemetrySummary();
    std::optional<report::Redactor> redactor;
    Prepared out;
    out.doc = buildDocument(request, &redactor);
    if (redactor)
        out.redactor = std::make_shared<report::Redactor>(std::move(*redactor));
    // The pages are redrawn from the report's own data, so a screenshot shows exactly what the
    // report holds, redacted when the report is.
    try {
        out.shown = snapshotFromJson(out.doc.at("snapshot"));
        out.records = probeRecordsFromDocument(out.doc.value("probes", json()));
        out.bandwidth = report::reportBandwidth(out.doc, "the report just built");
    } catch (const std::exception& e) {
        throw report::ReportError(fmt::format("The report just built cannot be drawn ({}); this is a bug in StackScope: "
                                              "please report it with report.json from `stackscope-cli report`.",
                                              e.what()));
    }
    return out;
}

ReportResult ReportExporter::writeFiles(json doc, const std::shared_ptr<report::Redactor>& redactor,
                                        const std::vector<Shot>& shots, const QString& parentDir)
{
    // Redacting the live pages' texts may have found more to replace: list everything in the report.
    if (redactor) {
        doc["redaction"]["replaced"] = redactor->replacedJson();
        doc["redaction"]["uncertain"] = redactor->uncertainties();
    }
    std::vector<report::ReportImage> images;
    ReportResult result;
    for (const auto& s : shots) {
        if (s.image.isNull())
            continue;
        const QByteArray png = pngBytes(s.image);
        images.push_back({s.name.toStdString(), s.title.toStdString(),
                          std::string(png.constData(), static_cast<std::size_t>(png.size()))});
        result.screenshots.push_back(s.name);
    }
    const auto written = report::writeReport(QDir(parentDir).absolutePath().toStdString(), doc, images,
                                             std::chrono::system_clock::now());
    result.folder = QString::fromStdString(written.folder);
    result.zip = QString::fromStdString(written.zip);
    result.report = std::move(doc);
    if (redactor) {
        result.redacted = redactor->replaced();
        result.uncertain = redactor->uncertainties();
    }
    return result;
}

void ReportExporter::start(const ReportRequest& request, const QString& parentDir, Done done, Fail fail)
{
    Q_ASSERT(QThread::currentThread() == thread());
    cancel();
    m_run = std::make_unique<Run>();
    m_run->id = ++m_lastId;
    m_run->parentDir = parentDir;
    m_run->done = std::move(done);
    m_run->fail = std::move(fail);
    m_run->steps = pageSteps(request);
    ReportRequest data = request;
    data.livePages.clear(); // widgets stay on this thread
    const quint64 id = m_run->id;
    m_jobs.run([data = std::move(data), parentDir](const JobControl&) { return prepare(data, parentDir); },
               [this, id](Prepared prepared) { onPrepared(id, std::move(prepared)); },
               [this, id](const QString& message) { failWith(id, message); });
}

void ReportExporter::cancel()
{
    m_jobs.cancel();
    m_run.reset();
}

bool ReportExporter::isCurrent(quint64 id) const
{
    return m_run && m_run->id == id;
}

void ReportExporter::onPrepared(quint64 id, Prepared prepared)
{
    if (!isCurrent(id))
        return;
    m_run->prepared = std::move(prepared);
    showNextPage(id);
}

std::vector<ReportExporter::PageStep> ReportExporter::pageSteps(const ReportRequest& request) const
{
    const QSize size = m_pageSize;
    std::vector<PageStep> steps;
    steps.push_back({QStringLiteral("system"), tr("System"), 250, [size](Run& run) -> QWidget* {
                         run.controller = std::make_unique<SnapshotController>();
                         run.controller->setSnapshot(std::make_shared<const Snapshot>(run.prepared.shown), tr("report"));
                         auto page = std::make_unique<SystemPage>();
                         page->setAttribute(Qt::WA_DontShowOnScreen);
                         page->resize(size);
                         page->show();
                         page->showSnapshot(run.controller->snapshot(), tr("report"));
                         page->links()->showNote(run.prepared.bandwidth
                                                     ? tr("Measured: the next picture, system-links.png, shows the run.")
                                                     : tr("Links not measured for this report (Measure links on the System "
                                                          "page, or stackscope-cli bench bandwidth, before exporting)."));
                         // Every box readable: the page as tall as its tables' rows and texts need.
                         page->fitForPicture(size.width());
                         run.built = std::move(page);
                         return run.built.get();
                     }});
    if (request.bandwidth)
        steps.push_back({QStringLiteral("system-links"), tr("System: links and bandwidth"), 250, [size](Run& run) -> QWidget* {
                             if (!run.prepared.bandwidth)
                                 return nullptr;
                             auto page = std::make_unique<QWidget>();
                             page->setAttribute(Qt::WA_DontShowOnScreen);
                             page->setAutoFillBackground(true);
                             auto* view = new TopologyView(page.get());
                             (new QVBoxLayout(page.get()))->addWidget(view, 0, Qt::AlignTop);
                             page->resize(size);
                             page->show();
                             auto shown = std::make_shared<ShownRun>();
                             shown->judged.run = *run.prepared.bandwidth;
                             shown->judged.note = run.prepared.doc.value("bandwidth_note", std::string());
                             shown->origin = tr("this report");
                             // The report judged it against its snapshot where that is the machine that ran it.
                             shown->judged.rejudged = perf::whyNotItsMachine(shown->judged.run, run.prepared.shown).empty();
                             shown->machine = machineText(shown->judged, &run.prepared.shown);
                             view->showRun(std::move(shown));
                             run.built = std::move(page);
                             return run.built.get();
                         }});
    steps.push_back({QStringLiteral("probes"), tr("Probes"), 250, [size](Run& run) -> QWidget* {
                         const auto& records = run.prepared.records;
                         auto page = std::make_unique<ProbesPage>(run.controller.get());
                         page->setAttribute(Qt::WA_DontShowOnScreen);
                         page->resize(size);
                         page->show();
                         page->showRecords(records, records.empty() ? tr("Probes were not run before this report was made.")
                                                                    : tr("%n result(s) from the report.", nullptr,
                                                                         static_cast<int>(records.size())));
                         run.built = std::move(page);
                         return run.built.get();
                     }});
    for (const auto& [title, live] : request.livePages)
        steps.push_back({title.toLower().remove(QLatin1Char(' ')), title, 100, [size, page = live](Run&) -> QWidget* {
                             return prepareLivePage(page, size);
                         }});
    steps.push_back({QStringLiteral("summary-card"), tr("Summary card"), 0, [](Run& run) -> QWidget* {
                         auto card = std::make_unique<SummaryCard>();
                         card->setReport(report::reportSummary(run.prepared.doc));
                         card->render(); // lays the card out at its own size
                         run.built = std::move(card);
                         return run.built.get();
                     }});
    return steps;
}

void ReportExporter::showNextPage(quint64 id)
{
    if (!isCurrent(id))
        return;
    if (m_run->next == m_run->steps.size()) {
        startWriting();
        return;
    }
    try {
        QPointer<QWidget> page = m_run->steps[m_run->next].show(*m_run);
        if (!page) { // a live page closed meanwhile: left out
            ++m_run->next;
            QTimer::singleShot(0, this, [this, id] { showNextPage(id); });
            return;
        }
        QTimer::singleShot(m_run->steps[m_run->next].settleMs, this, [this, id, page] { grabPage(id, page); });
    } catch (const std::exception& e) {
        failWith(id, tr("A page could not be drawn for the report (%1); export again, or report this with the "
                        "steps that led to it.").arg(QString::fromUtf8(e.what())));
    }
}

void ReportExporter::grabPage(quint64 id, const QPointer<QWidget>& page)
{
    if (!isCurrent(id))
        return;
    const PageStep& step = m_run->steps[m_run->next];
    if (page) {
        m_run->shots.push_back({step.name + QStringLiteral(".png"), step.title,
                                draw(step.name, page, m_run->prepared.redactor.get())});
    }
    m_run->built.reset();
    ++m_run->next;
    QTimer::singleShot(0, this, [this, id] { showNextPage(id); });
}

QImage ReportExporter::draw(const QString& name, QWidget* page, report::Redactor* redactor)
{
    RedactedImage drawn;
    if (redactor) {
        drawn = renderRedacted(page, [redactor](const QString& text) {
            return QString::fromStdString(redactor->redact(text.toStdString()));
        });
    } else {
        drawn = {page->grab().toImage(), widgetTexts(page)};
    }
    if (m_observer)
        m_observer(name, drawn.drawnTexts);
    return drawn.image;
}

void ReportExporter::startWriting()
{
    Run& run = *m_run;
    const quint64 id = run.id;
    run.controller.reset();
    m_jobs.run(
        [doc = run.prepared.doc, redactor = run.prepared.redactor, shots = std::move(run.shots),
         dir = run.parentDir](const JobControl&) { return writeFiles(doc, redactor, shots, dir); },
        [this, id](ReportResult result) { succeed(id, std::move(result)); },
        [this, id](const QString& message) { failWith(id, message); });
}

void ReportExporter::succeed(quint64 id, ReportResult result)
{
    if (!isCurrent(id))
        return;
    const auto run = std::move(m_run); // done() may start the next export
    run->done(std::move(result));
}

void ReportExporter::failWith(quint64 id, const QString& message)
{
    if (!isCurrent(id))
        return;
    const auto run = std::move(m_run);
    run->fail(message);
}

} // namespace stackscope::ui
