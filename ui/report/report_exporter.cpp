// Export: the report document from the window's data, pages redrawn from the report's own (redacted) data, then written.
#include "ui/report/report_exporter.h"

#include "core/report/report.h"
#include "core/report/telemetry_summary.h"
#include "core/snapshot/snapshot_json.h"
#include "ui/probes/probes_page.h"
#include "core/probes/probe_document.h"
#include "ui/report/summary_card.h"
#include "ui/report/text_scrub.h"
#include "ui/system/system_page.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QLayout>
#include <QTimer>

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

// Lets layouts and chart scenes settle (they lay out on the event loop) before a grab.
void settle(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

report::ReportInputs inputsOf(const ReportRequest& request)
{
    if (!request.snapshot)
        throw report::ReportError("No snapshot to report yet: wait for the System page to finish inspecting (or open a "
                                  "snapshot), then export again.");
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
    return in;
}

} // namespace

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

QImage ReportExporter::grabPage(const QString& name, QWidget* page, report::Redactor* redactor)
{
    std::unique_ptr<TextScrub> scrub;
    if (redactor) {
        scrub = std::make_unique<TextScrub>(page, [redactor](const QString& text) {
            return QString::fromStdString(redactor->redact(text.toStdString()));
        });
    }
    QCoreApplication::processEvents();
    if (m_observer)
        m_observer(name, page);
    return page->grab().toImage();
}

ReportResult ReportExporter::write(const ReportRequest& request, const QString& parentDir)
{
    if (parentDir.isEmpty())
        throw report::ReportError("No folder given for the report: choose a folder you can write to.");
    std::optional<report::Redactor> redactor;
    ReportRequest withTelemetry = request;
    if (withTelemetry.telemetry.is_null() && withTelemetry.sampleTelemetry)
        withTelemetry.telemetry = report::sampleTelemetrySummary();
    json doc = buildDocument(withTelemetry, &redactor);
    report::Redactor* red = redactor ? &*redactor : nullptr;

    // The pages are redrawn from the report's own data, so a screenshot shows exactly what the
    // report holds, redacted when the report is.
    Snapshot shown;
    std::vector<ProbeRecord> records;
    try {
        shown = snapshotFromJson(doc.at("snapshot"));
        records = probeRecordsFromDocument(doc.value("probes", json()));
    } catch (const std::exception& e) {
        throw report::ReportError(fmt::format("The report just built cannot be drawn ({}); this is a bug in StackScope: "
                                              "please report it with report.json from `stackscope-cli report`.",
                                              e.what()));
    }

    struct Shot {
        QString name, title;
        QImage image;
    };
    std::vector<Shot> shots;
    {
        SnapshotController controller;
        controller.setSnapshot(std::make_shared<const Snapshot>(shown), QObject::tr("report"));

        SystemPage system;
        system.setAttribute(Qt::WA_DontShowOnScreen);
        system.resize(m_pageSize);
        system.show();
        system.showSnapshot(controller.snapshot(), QObject::tr("report"));
        settle(250);
        shots.push_back({QStringLiteral("system.png"), QObject::tr("System"), grabPage(QStringLiteral("system"), &system, red)});

        ProbesPage probes(&controller);
        probes.setAttribute(Qt::WA_DontShowOnScreen);
        probes.resize(m_pageSize);
        probes.show();
        probes.showRecords(records, records.empty() ? QObject::tr("Probes were not run before this report was made.")
                                                    : QObject::tr("%n result(s) from the report.", nullptr,
                                                                  static_cast<int>(records.size())));
        settle(250);
        shots.push_back({QStringLiteral("probes.png"), QObject::tr("Probes"), grabPage(QStringLiteral("probes"), &probes, red)});
    }
    for (const auto& [title, page] : request.livePages) {
        if (!page)
            continue;
        const QString name = title.toLower().remove(QLatin1Char(' '));
        // A page behind another in the window's stack may never have been shown or laid out: give it
        // the page size for the grab; the stack sets its geometry again when it is shown.
        const bool hidden = !page->isVisible();
        if (hidden)
            page->resize(m_pageSize);
        page->ensurePolished();
        for (auto* child : page->findChildren<QWidget*>())
            child->ensurePolished();
        if (page->layout())
            page->layout()->activate();
        settle(100);
        shots.push_back({name + QStringLiteral(".png"), title, grabPage(name, page, red)});
    }
    {
        SummaryCard card;
        card.setReport(doc);
        card.render(); // lays the card out at its own size
        shots.push_back({QStringLiteral("summary-card.png"), QObject::tr("Summary card"),
                         grabPage(QStringLiteral("summary-card"), &card, red)});
    }
    // Scrubbing the live pages may have found more to replace: list everything in the report.
    if (red) {
        doc["redaction"]["replaced"] = red->replacedJson();
        doc["redaction"]["uncertain"] = red->uncertainties();
    }

    std::vector<report::ReportImage> images;
    ReportResult result;
    for (const auto& s : shots) {
        if (s.image.isNull())
            continue;
        const QByteArray png = pngBytes(s.image);
        images.push_back({s.name.toStdString(), s.title.toStdString(), std::string(png.constData(), static_cast<std::size_t>(png.size()))});
        result.screenshots.push_back(s.name);
    }
    const auto written = report::writeReport(QDir(parentDir).absolutePath().toStdString(), doc, images,
                                             std::chrono::system_clock::now());
    result.folder = QString::fromStdString(written.folder);
    result.zip = QString::fromStdString(written.zip);
    result.report = std::move(doc);
    if (red) {
        result.redacted = red->replaced();
        result.uncertain = red->uncertainties();
    }
    return result;
}

} // namespace stackscope::ui
