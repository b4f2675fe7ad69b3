// Builds the summary card from a report document and lays it out dark and compact, like a GPU-Z window.
#include "ui/report/summary_card.h"

#include "core/snapshot/stack_rows.h"
#include "ui/models/findings_model.h"
#include "ui/widgets/status_colors.h"

#include <QBuffer>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLayoutItem>
#include <QVBoxLayout>

#include <algorithm>

namespace stackscope::ui {

namespace {

// A severity chip as wide as its text in its bold small font (known once polished), at least 70 px so that a column
// of chips lines up ("UNKNOWN" read "JNKNOWN" in a fixed 70 px).
void fitChip(QLabel* chip)
{
    chip->ensurePolished();
    chip->setFixedWidth(std::max(70, chip->sizeHint().width()));
    chip->setAlignment(Qt::AlignCenter);
}

QString qs(const std::string& s) { return QString::fromStdString(s); }

// "2026-11-21T19:03:12Z" -> "2026-11-21 19:03 UTC"
QString shortTime(const QString& iso)
{
    if (iso.size() >= 16 && iso[10] == QLatin1Char('T'))
        return iso.left(10) + QLatin1Char(' ') + iso.mid(11, 5) + QStringLiteral(" UTC");
    return iso;
}

void addStack(SummaryCardData& d, const Snapshot& s)
{
    if (!s.rocm.installs.empty()) {
        const auto& i = s.rocm.installs.front();
        QString v = qs(i.version.value_or("version unknown"));
        if (s.rocm.installs.size() > 1)
            v += QObject::tr(" (+%1 more)").arg(s.rocm.installs.size() - 1);
        d.stack.emplace_back(QObject::tr("ROCm"), v);
    }
    if (s.rocm.hipRuntimeVersion)
        d.stack.emplace_back(QObject::tr("HIP runtime"), qs(*s.rocm.hipRuntimeVersion));
    if (s.rocm.amdgpuDriverVersion)
        d.stack.emplace_back(QObject::tr("amdgpu driver"), qs(*s.rocm.amdgpuDriverVersion));
    if (s.cuda.driverVersion || s.cuda.cudaDriverVersion)
        d.stack.emplace_back(QObject::tr("NVIDIA driver"),
                             qs(s.cuda.driverVersion.value_or("?")) +
                                 (s.cuda.cudaDriverVersion ? QObject::tr(" (CUDA %1)").arg(qs(*s.cuda.cudaDriverVersion)) : QString()));
    if (s.cuda.runtimeVersion)
        d.stack.emplace_back(QObject::tr("CUDA runtime"), qs(*s.cuda.runtimeVersion));
    if (s.rocm.installs.empty() && !s.rocm.hipRuntimeVersion && !s.cuda.driverVersion && !s.cuda.runtimeVersion)
        d.stack.emplace_back(QObject::tr("ROCm / CUDA"), QObject::tr("not found"));
    if (s.torch.version) {
        QString t = qs(*s.torch.version);
        QStringList extra;
        if (s.torch.backend)
            extra << qs(*s.torch.backend);
        if (s.torch.builtWith)
            extra << QObject::tr("built with %1").arg(qs(*s.torch.builtWith));
        if (!extra.isEmpty())
            t += QStringLiteral(" (") + extra.join(QStringLiteral(", ")) + QLatin1Char(')');
        d.stack.emplace_back(QObject::tr("PyTorch"), t);
        if (s.torch.archList && !s.torch.archList->empty()) {
            QStringList archs;
            for (const auto& a : *s.torch.archList)
                archs << qs(a);
            d.stack.emplace_back(QObject::tr("torch archs"), archs.join(QLatin1Char(' ')));
        }
    } else if (s.root && s.libraries.empty()) {
        // A recorded machine's libraries are not loaded here: unknown, as the status bar and `diagnose` say.
        d.stack.emplace_back(QObject::tr("PyTorch"), QObject::tr("not queried (recorded machine)"));
    } else {
        d.stack.emplace_back(QObject::tr("PyTorch"), QObject::tr("not loaded"));
    }
}

} // namespace

namespace {

// Host, GPUs and stack from the report's snapshot; false (and the host line says why) when there is none to read.
bool addMachine(SummaryCardData& d, const report::ReportSummary& report)
{
    if (!report.snapshot) {
        if (!report.snapshotError.empty())
            d.host = QObject::tr("snapshot unreadable: %1").arg(qs(report.snapshotError));
        return false;
    }
    const Snapshot& s = *report.snapshot;
    d.capturedAt = shortTime(qs(s.capturedAt));
    QStringList host;
    host << qs(s.host.hostname.value_or("host unknown"));
    if (s.host.os)
        host << qs(*s.host.os);
    if (s.host.kernel)
        host << QObject::tr("Linux %1").arg(qs(*s.host.kernel));
    d.host = host.join(QStringLiteral(" · "));
    for (const auto& g : s.gpus) {
        if (d.gpus.size() == SummaryCardData::kMaxGpus)
            break;
        SummaryCardData::Gpu gpu;
        gpu.name = QStringLiteral("%1: %2").arg(g.index).arg(qs(g.name));
        gpu.arch = qs(g.arch.value_or("unknown"));
        gpu.vram = g.vramTotalBytes ? qs(formatBytes(*g.vramTotalBytes)) : QStringLiteral("unknown");
        gpu.driver = qs(g.driverVersion.value_or(g.vendor == "nvidia" ? s.cuda.driverVersion.value_or("unknown")
                                                                         : s.rocm.amdgpuDriverVersion.value_or("unknown")));
        d.gpus.push_back(gpu);
    }
    addStack(d, s);
    return true;
}

// One count per outcome, from the probe run document's records (core/probes/probe_document.h).
void addProbeCounts(SummaryCardData& d, const report::ReportSummary& report)
{
    static_assert(static_cast<std::size_t>(ProbeResult::Unsupported) + 1 == std::tuple_size_v<decltype(d.probeCounts)>,
                  "one count per ProbeResult");
    if (!report.probesError.empty()) {
        d.probesNote = QObject::tr("results unreadable: %1").arg(qs(report.probesError));
        return;
    }
    d.probesRun = !report.probes.empty();
    for (const auto& r : report.probes)
        ++d.probeCounts[static_cast<std::size_t>(r.outcome.outcome)];
    if (!d.probesRun) {
        d.probesNote = qs(report.probesNote);
        if (d.probesNote.isEmpty())
            d.probesNote = QObject::tr("not run");
    }
}

// The most severe findings first: the diagnosis's (the report's "findings") and the system checks (its snapshot's),
// the one finding type both.
void addFindings(SummaryCardData& d, const report::ReportSummary& report)
{
    if (!report.findingsError.empty())
        d.findings.push_back({Severity::Warning, QObject::tr("Findings unreadable: %1").arg(qs(report.findingsError))});
    std::vector<Finding> all = report.findings;
    // A report written since the one diagnosis (diagnoseMachine) holds the checks in its findings already.
    if (report.snapshot) {
        for (const auto& check : report.snapshot->findings) {
            if (std::none_of(all.begin(), all.end(), [&](const Finding& f) { return f.id == check.id; }))
                all.push_back(check);
        }
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const auto& a, const auto& b) { return static_cast<int>(a.severity) > static_cast<int>(b.severity); });
    for (const auto& f : all) {
        if (d.findings.size() < SummaryCardData::kMaxFindings)
            d.findings.push_back({f.severity, findingTitle(f)}); // a guess says so: the card is posted alone
        else
            ++d.moreFindings;
    }
}

void addRedaction(SummaryCardData& d, const report::ReportSummary& report)
{
    d.redacted = report.redacted;
    if (!d.redacted) {
        d.redaction = QObject::tr("NOT redacted: contains names, paths and addresses");
        return;
    }
    QStringList kinds;
    for (const auto& k : report.redactedKinds)
        kinds << qs(k);
    d.redaction = kinds.isEmpty() ? QObject::tr("Private data redacted (none found)")
                                  : QObject::tr("Private data redacted: %1").arg(kinds.join(QStringLiteral(", ")));
}

} // namespace

SummaryCardData summaryCardData(const report::ReportSummary& report)
{
    SummaryCardData d;
    d.version = qs(report.version);
    addMachine(d, report);
    addProbeCounts(d, report);
    addFindings(d, report);
    for (const auto& [what, why] : report.notChecked)
        d.notChecked.push_back(QObject::tr("%1 (%2)").arg(qs(what), qs(why)));
    addRedaction(d, report);
    return d;
}

namespace {

const char* kCardStyle = R"(
QFrame#summaryCard { background: #1b1d21; border: 1px solid #3a3e46; border-radius: 6px; }
QLabel { color: #e6e8eb; font-size: 13px; background: transparent; }
QLabel[role="title"] { font-size: 17px; font-weight: 600; color: #ffffff; }
QLabel[role="meta"] { color: #9aa3ad; font-size: 12px; }
QLabel[role="section"] { color: #6cb6ff; font-size: 11px; font-weight: 700; letter-spacing: 1px; padding-top: 6px; }
QLabel[role="key"] { color: #9aa3ad; font-size: 12px; }
QLabel[role="value"] { background: #262a30; border: 1px solid #383d45; border-radius: 3px; padding: 2px 6px; font-weight: 600; }
QLabel[role="gpu"] { color: #ffffff; font-size: 14px; font-weight: 600; }
QLabel[role="chip"] { border-radius: 3px; padding: 2px 8px; font-weight: 700; color: #ffffff; }
QLabel[role="footer"] { color: #9aa3ad; font-size: 11px; }
)";

QLabel* label(const QString& text, const char* role, QWidget* parent)
{
    auto* l = new QLabel(text, parent);
    l->setProperty("role", QString::fromLatin1(role));
    l->setTextFormat(Qt::PlainText);
    return l;
}

QString hexColor(const QColor& c) { return c.name(); }

void clearLayout(QLayout* layout)
{
    while (QLayoutItem* item = layout->takeAt(0)) {
        if (QLayout* sub = item->layout()) {
            clearLayout(sub);
            delete sub; // the item is the layout itself
            continue;
        }
        delete item->widget();
        delete item;
    }
}

} // namespace

SummaryCard::SummaryCard(QWidget* parent)
    : QFrame(parent)
    , m_layout(new QVBoxLayout(this))
{
    setObjectName(QStringLiteral("summaryCard"));
    setAttribute(Qt::WA_StyledBackground);
    setStyleSheet(QString::fromLatin1(kCardStyle));
    setFixedWidth(kWidth);
    m_layout->setContentsMargins(16, 12, 16, 10);
    m_layout->setSpacing(4);
    rebuild();
}

void SummaryCard::setData(const SummaryCardData& data)
{
    m_data = data;
    rebuild();
}

void SummaryCard::rebuild()
{
    clearLayout(m_layout);
    addHeader();
    addGpus();
    addStack();
    addProbes();
    addFindings();
    addFooter();
    // Children added to a card that was already shown stay hidden unless shown explicitly.
    for (auto* child : findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
        child->show();
    m_layout->activate();
    adjustSize();
}

void SummaryCard::addHeader()
{
    auto* head = new QHBoxLayout;
    head->addWidget(label(tr("StackScope · stack summary"), "title", this));
    head->addStretch(1);
    head->addWidget(label(m_data.capturedAt, "meta", this));
    m_layout->addLayout(head);
    m_layout->addWidget(label(m_data.host.isEmpty() ? tr("no snapshot") : m_data.host, "meta", this));
}

void SummaryCard::addGpus()
{
    m_layout->addWidget(label(tr("GPUS"), "section", this));
    auto* gpus = new QGridLayout;
    gpus->setHorizontalSpacing(6);
    gpus->setVerticalSpacing(3);
    if (m_data.gpus.empty())
        gpus->addWidget(label(tr("No GPU visible"), "gpu", this), 0, 0, 1, 6);
    int row = 0;
    for (const auto& g : m_data.gpus) {
        gpus->addWidget(label(g.name, "gpu", this), row++, 0, 1, 6);
        const std::pair<QString, QString> cells[] = {{tr("Arch"), g.arch}, {tr("VRAM"), g.vram}, {tr("Driver"), g.driver}};
        int col = 0;
        for (const auto& [k, v] : cells) {
            gpus->addWidget(label(k, "key", this), row, col++);
            gpus->addWidget(label(v, "value", this), row, col++);
        }
        ++row;
    }
    gpus->setColumnStretch(1, 1);
    gpus->setColumnStretch(3, 1);
    gpus->setColumnStretch(5, 1);
    m_layout->addLayout(gpus);
}

void SummaryCard::addStack()
{
    m_layout->addWidget(label(tr("STACK"), "section", this));
    auto* stack = new QGridLayout;
    stack->setHorizontalSpacing(6);
    stack->setVerticalSpacing(3);
    int row = 0;
    for (const auto& [k, v] : m_data.stack) {
        auto* key = label(k, "key", this);
        key->setFixedWidth(100);
        stack->addWidget(key, row, 0);
        auto* value = label(v, "value", this);
        value->setWordWrap(true);
        stack->addWidget(value, row++, 1);
    }
    stack->setColumnStretch(1, 1);
    m_layout->addLayout(stack);
}

// One chip per outcome, grey when none had it; or why there are no results.
void SummaryCard::addProbes()
{
    m_layout->addWidget(label(tr("PROBES"), "section", this));
    auto* probes = new QHBoxLayout;
    probes->setSpacing(6);
    if (!m_data.probesRun) {
        auto* none = label(tr("Probes: %1").arg(m_data.probesNote), "meta", this);
        none->setWordWrap(true);
        probes->addWidget(none, 1);
        m_layout->addLayout(probes);
        return;
    }
    for (std::size_t i = 0; i < m_data.probeCounts.size(); ++i) {
        const auto outcome = static_cast<ProbeResult>(i);
        const int count = m_data.probeCounts[i];
        auto* chip = label(QStringLiteral("%1 %2").arg(count).arg(QLatin1String(probeResultName(outcome))), "chip", this);
        chip->setStyleSheet(QStringLiteral("background: %1; color: %2;")
                                .arg(count == 0 ? QStringLiteral("#2b2f36") : hexColor(outcomeColor(outcome)),
                                     count == 0 ? QStringLiteral("#7d858f") : QStringLiteral("#ffffff")));
        probes->addWidget(chip);
    }
    probes->addStretch(1);
    m_layout->addLayout(probes);
}

void SummaryCard::addFindings()
{
    m_layout->addWidget(label(tr("TOP FINDINGS"), "section", this));
    if (m_data.findings.empty() && m_data.notChecked.empty())
        m_layout->addWidget(label(tr("✓ No rule matched"), "meta", this));
    else if (m_data.findings.empty())
        m_layout->addWidget(label(tr("No rule matched, but not everything could be checked:"), "meta", this));
    for (const auto& f : m_data.findings) {
        auto* line = new QHBoxLayout;
        line->setSpacing(6);
        auto* tag = label(QString::fromLatin1(severityName(f.severity)).toUpper(), "chip", this);
        tag->setStyleSheet(QStringLiteral("background: %1; font-size: 10px;").arg(hexColor(severityColor(f.severity))));
        fitChip(tag);
        line->addWidget(tag, 0, Qt::AlignTop);
        auto* text = label(f.text, "", this);
        text->setWordWrap(true);
        line->addWidget(text, 1);
        m_layout->addLayout(line);
    }
    if (m_data.moreFindings > 0)
        m_layout->addWidget(label(tr("+ %n more in the report", nullptr, m_data.moreFindings), "meta", this));
    for (const auto& n : m_data.notChecked) {
        auto* line = new QHBoxLayout;
        line->setSpacing(6);
        auto* tag = label(tr("UNKNOWN"), "chip", this);
        tag->setStyleSheet(QStringLiteral("background: %1; font-size: 10px;").arg(hexColor(unknownColor())));
        fitChip(tag);
        line->addWidget(tag, 0, Qt::AlignTop);
        auto* text = label(tr("Not checked: %1").arg(n), "", this);
        text->setWordWrap(true);
        line->addWidget(text, 1);
        m_layout->addLayout(line);
    }
}

void SummaryCard::addFooter()
{
    m_layout->addSpacing(6);
    auto* foot = new QHBoxLayout;
    auto* redaction = label(m_data.redaction, "footer", this);
    if (!m_data.redacted && !m_data.version.isEmpty())
        redaction->setStyleSheet(QStringLiteral("color: #ff8a80;"));
    foot->addWidget(redaction, 1);
    foot->addWidget(label(m_data.version.isEmpty() ? QString() : tr("StackScope %1").arg(m_data.version), "footer", this));
    m_layout->addLayout(foot);
}

QImage SummaryCard::render()
{
    // A card made only for the export has no window: show it off screen so styles and layout apply.
    if (!parentWidget() && !isVisible()) {
        setAttribute(Qt::WA_DontShowOnScreen);
        show();
    }
    ensurePolished();
    layout()->activate();
    adjustSize();
    resize(kWidth, heightForWidth(kWidth) > 0 ? heightForWidth(kWidth) : sizeHint().height());
    return grab().toImage();
}

QByteArray SummaryCard::png()
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    render().save(&buffer, "PNG");
    return bytes;
}

} // namespace stackscope::ui
