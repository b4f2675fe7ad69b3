// The paste-a-log dialog: text in, the one diagnosis (diagnoseMachine) on a worker thread, facts, findings and fixes
// out.
#include "ui/probes/log_diagnosis_dialog.h"

#include "core/diagnosis/diagnosis.h"
#include "core/diagnosis/machine_diagnosis.h"
#include "ui/models/findings_model.h"
#include "ui/system/fix_command.h"
#include "ui/widgets/command_text_browser.h"
#include "ui/widgets/status_colors.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace stackscope::ui {

namespace {

// The Fix column's legend under the findings list (walkthrough 2026-11-27 problem 9).
QLabel* fixLegendLabel(QWidget* parent)
{
    auto* legend = new QLabel(fixColumnLegend(), parent);
    legend->setObjectName(QStringLiteral("fixLegend"));
    legend->setWordWrap(true);
    legend->setStyleSheet(QStringLiteral("QLabel { color: gray; }"));
    return legend;
}

struct Outcome {
    std::vector<Finding> findings;
    QStringList facts;
    int fromText = 0; // findings with evidence in the text (the rest are about the machine)
    QString error;
};

// How many findings the text itself supports: evidence from the log with this origin.
int findingsFromText(const std::vector<Finding>& findings, const std::string& origin)
{
    return static_cast<int>(std::count_if(findings.begin(), findings.end(), [&](const Finding& f) {
        return std::any_of(f.evidence.begin(), f.evidence.end(),
                           [&](const Evidence& e) { return e.source == "log" && e.origin == origin; });
    }));
}

QString fixLine(const FixAdvice& fix)
{
    QString line = fixHtmlWholeWords(QString::fromStdString(fix.text));
    QStringList exports;
    for (const auto& [name, value] : fix.env)
        exports << (value ? QStringLiteral("export %1=%2").arg(QString::fromStdString(name), QString::fromStdString(*value))
                          : QStringLiteral("unset %1").arg(QString::fromStdString(name)));
    if (!exports.isEmpty())
        line += QStringLiteral("<br/><code>%1</code>").arg(exports.join(QStringLiteral("; ")).toHtmlEscaped());
    if (fix.applies == std::optional<bool>(false))
        line += QObject::tr(" <i>(not for this GPU)</i>");
    return line;
}

} // namespace

LogDiagnosisDialog::LogDiagnosisDialog(SnapshotPtr snapshot, QWidget* parent)
    : QDialog(parent)
    , m_snapshot(std::move(snapshot))
    , m_text(new QPlainTextEdit(this))
    , m_diagnose(new QPushButton(tr("&Diagnose"), this))
    , m_summary(new QLabel(this))
    , m_factsLabel(new QLabel(this))
    , m_factsArea(new QScrollArea(this))
    , m_model(new FindingsModel(this))
    , m_table(new QTableView(this))
    , m_detail(new CommandTextBrowser(this))
{
    setWindowTitle(tr("Paste a log or error"));
    // Most of the window it belongs to (1024x640, the smallest supported, leaves it about 940x600), at most 1200x820.
    const QSize room = parent ? parent->window()->size() : QSize(980, 640);
    resize(std::min(1200, room.width() * 92 / 100), std::min(820, room.height() * 94 / 100));
    m_text->setObjectName(QStringLiteral("logText"));
    m_text->setPlaceholderText(tr("Paste a Python traceback, an error message or a whole log here, then press Diagnose "
                                  "(Ctrl+Return). You can also drop a text file on the main window."));
    m_text->setTabChangesFocus(true);
    m_diagnose->setObjectName(QStringLiteral("diagnoseButton"));
    m_diagnose->setDefault(true);
    connect(m_diagnose, &QPushButton::clicked, this, [this] {
        m_origin = tr("pasted text");
        run();
    });
    connect(new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this), &QShortcut::activated, m_diagnose, &QPushButton::click);
    m_summary->setObjectName(QStringLiteral("logSummary"));
    m_summary->setWordWrap(true);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_text);
    split->addWidget(createResults());
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_diagnose, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);
}

// The facts the text states above the findings list, beside the selected finding. The list gets the width: severity
// and fix status fit their short texts, the title takes the rest, cut in the middle with the whole title (and the
// cause) in its tooltip; the rule id is in the detail.
QWidget* LogDiagnosisDialog::createResults()
{
    m_factsLabel->setObjectName(QStringLiteral("logFacts"));
    m_factsLabel->setWordWrap(true);
    m_factsLabel->setTextFormat(Qt::RichText);
    m_factsLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_factsLabel->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_table->setObjectName(QStringLiteral("logFindings"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setColumnHidden(FindingsModel::IdColumn, true);
    auto* header = m_table->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(FindingsModel::SeverityColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(FindingsModel::TitleColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(FindingsModel::VerifiedColumn, QHeaderView::ResizeToContents);
    m_table->setTabKeyNavigation(false);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showFinding(current.row()); });
    m_detail->setObjectName(QStringLiteral("logFindingDetail"));
    m_detail->setOpenExternalLinks(true);
    m_detail->setPlaceholderText(tr("Select a finding for its cause, the lines that matched and the fixes."));
    // A log that states many facts (collect_env) scrolls them in at most about eight lines: the list keeps its room.
    auto* facts = m_factsArea;
    facts->setObjectName(QStringLiteral("logFactsArea"));
    facts->setWidget(m_factsLabel);
    facts->setWidgetResizable(true);
    facts->setFrameShape(QFrame::NoFrame);
    facts->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(facts);
    leftLayout->addWidget(m_table, 1);
    leftLayout->addWidget(fixLegendLabel(left));
    auto* results = new QSplitter(Qt::Horizontal, this);
    results->setObjectName(QStringLiteral("logResults"));
    results->addWidget(left);
    results->addWidget(m_detail);
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 2);
    results->setChildrenCollapsible(false);
    left->setMinimumWidth(360);
    showFactsPending();
    return results;
}

// Before any text is diagnosed the facts line says nothing and takes no room; the text box's placeholder says what to
// do (it said "none (no GPU, architecture or version named)" of a text not yet given: walkthrough 2026-11-27
// problem 10).
void LogDiagnosisDialog::showFactsPending()
{
    m_facts.clear();
    m_factsLabel->clear();
    m_factsArea->hide();
}

void LogDiagnosisDialog::showFacts(const QStringList& facts, const QString& against)
{
    m_facts = facts;
    QString html = tr("<b>Facts the text states</b>");
    if (facts.isEmpty()) {
        // Not "the text names none": a build's target list (gfx1100;gfx1101) or a runtime's own version can be there
        // without being a fact about a machine (third walkthrough 2026-11-27, problem 5).
        html += tr(": none StackScope reads as this machine's (a GPU, its architecture, a driver or library version)");
    } else {
        html += QStringLiteral("<ul style='margin:0 0 0 -20px'>");
        for (const auto& f : facts)
            html += QStringLiteral("<li>%1</li>").arg(f.toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }
    if (!against.isEmpty())
        html += tr("<br/>Diagnosed against %1.").arg(against.toHtmlEscaped());
    fitFacts(html);
}

void LogDiagnosisDialog::fitFacts(const QString& html)
{
    m_factsLabel->setText(html);
    m_factsArea->show();
    // As tall as the facts need, up to about eight lines (then they scroll); the list below takes the rest.
    const int width = std::max(m_table->width(), 360) - 16;
    const int maxHeight = m_factsLabel->fontMetrics().lineSpacing() * 8 + 8;
    m_factsArea->setFixedHeight(std::min(m_factsLabel->heightForWidth(width) + 4, maxHeight));
}

void LogDiagnosisDialog::diagnoseText(const QString& text, const QString& origin)
{
    m_text->setPlainText(text.size() > kMaxChars ? text.right(kMaxChars) : text);
    m_origin = origin;
    run();
}

bool LogDiagnosisDialog::diagnoseFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_summary->setText(tr("Cannot read %1: %2. Copy the log somewhere readable and drop it again.").arg(path, file.errorString()));
        return false;
    }
    const qint64 size = file.size();
    if (size > kMaxChars)
        file.seek(size - kMaxChars);
    diagnoseText(QString::fromUtf8(file.readAll()), QFileInfo(path).fileName());
    return true;
}

void LogDiagnosisDialog::run()
{
    const std::string text = m_text->toPlainText().toStdString();
    if (text.empty()) {
        m_summary->setText(tr("Nothing to diagnose: paste a log or an error message into the box first."));
        return;
    }
    m_summary->setText(tr("Diagnosing…"));
    m_diagnose->setEnabled(false);
    Q_EMIT logKept(m_origin, m_text->toPlainText());
    // The machine the rules check against: the one shown (this machine, a file, a recorded root, a report), else the
    // facts the text states, as `diagnose --log-only` does.
    const QString against = !m_snapshot ? tr("the facts the text states (no machine inspected yet)")
                          : m_snapshot->root ? tr("the recorded root %1").arg(QString::fromStdString(*m_snapshot->root))
                                             : tr("the machine shown on the System page");
    m_jobs.run(
        [text, origin = m_origin.toStdString(), snapshot = m_snapshot](const JobControl&) {
            Outcome out;
            MachineDiagnosisInput input;
            input.snapshot = snapshot.get();
            input.logs.push_back(readLogText(text, origin));
            try {
                auto d = diagnoseMachine(input);
                // Without a machine the snapshot is the facts the text states: every finding comes from the text.
                out.fromText = snapshot ? findingsFromText(d.findings, origin) : static_cast<int>(d.findings.size());
                out.findings = std::move(d.findings);
                for (const auto& f : d.logFacts)
                    out.facts << QString::fromStdString(f);
            } catch (const std::exception& e) {
                out.error = QString::fromStdString(e.what());
            }
            return out;
        },
        [this, against](Outcome out) {
            m_diagnose->setEnabled(true);
            m_model->setFindings(std::move(out.findings));
            showFacts(out.facts, against);
            const int n = m_model->rowCount();
            const int machine = n - out.fromText;
            const QString kept = tr("The text is kept for the support report (Report page).");
            const QString aboutMachine = machine == 1 ? tr("1 finding about the machine") : tr("%1 findings about the machine").arg(machine);
            const QString fromText = out.fromText == 1 ? tr("1 finding from this text") : tr("%1 findings from this text").arg(out.fromText);
            m_summary->setText(!out.error.isEmpty() ? tr("The diagnosis failed: %1").arg(out.error)
                               : n == 0 ? tr("No known problem matches this text. It is kept for the support report: export "
                                             "the report on the Report page so someone can read it.")
                               : out.fromText == 0 ? tr("No known problem matches this text; %1 listed. %2").arg(aboutMachine, kept)
                               : machine == 0 ? tr("%1; select one for the cause, the lines that matched and the fixes. %2").arg(fromText, kept)
                                              : tr("%1, %2; select one for the cause, the lines that matched and the fixes. %3")
                                                    .arg(fromText, aboutMachine, kept));
            if (n > 0)
                m_table->selectRow(0);
            else
                m_detail->clear();
            Q_EMIT diagnosed();
        },
        [this](const QString& error) { // the job catches what it expects; this is anything else
            m_diagnose->setEnabled(true);
            m_summary->setText(tr("The diagnosis failed: %1").arg(error));
            Q_EMIT diagnosed();
        });
}

QString LogDiagnosisDialog::summary() const
{
    return m_summary->text();
}

void LogDiagnosisDialog::showFinding(int row)
{
    const Finding* f = m_model->findingAt(row);
    if (!f) {
        m_detail->clear();
        return;
    }
    QString evidence;
    const bool guess = isGuessFromWords(*f);
    for (const auto& e : f->evidence)
        evidence += QStringLiteral("<li>%1%2: <code>%3</code>%4</li>")
                        .arg(QString::fromStdString(e.origin).toHtmlEscaped(), e.line ? QStringLiteral(" line %1").arg(*e.line) : QString(),
                             QString::fromStdString(e.text).toHtmlEscaped(),
                             guess ? QStringLiteral(" (%1)").arg(QString::fromStdString(e.signature).toHtmlEscaped()) : QString());
    // A guess from the description's words says so before its cause, and what would confirm it.
    const QString guessNote = guess ? QStringLiteral("<p><i>%1</i></p>").arg(QString::fromStdString(f->confidenceNote).toHtmlEscaped())
                                    : QString();
    QString fixes;
    for (const auto& fix : f->fixes)
        fixes += QStringLiteral("<li>%1</li>").arg(fixLine(fix));
    QString sources;
    for (const auto& s : f->sources) {
        const QString url = QString::fromStdString(s).toHtmlEscaped();
        if (url.startsWith(QStringLiteral("http")))
            sources += QStringLiteral("<li><a href=\"%1\">%1</a></li>").arg(url);
    }
    // A system check (about the machine, not the text) has one fix and no matched lines.
    if (!f->fix.empty())
        fixes = QStringLiteral("<li>%1</li>").arg(fixHtmlWholeWords(QString::fromStdString(f->fix))) + fixes;
    if (evidence.isEmpty())
        evidence = tr("<li>none in the text: this finding is about the machine</li>");
    m_detail->setHtml(tr("<h3 style='color:%1'>%2</h3><p><code>%3</code> · %4 · confidence %5</p>%6<p>%7</p>"
                         "<h4>Fixes, in order</h4><ol>%8</ol><h4>Lines that matched</h4><ul>%9</ul><h4>Sources</h4><ul>%10</ul>")
                          .arg(severityColor(f->severity).name(), findingTitle(*f).toHtmlEscaped(),
                               QString::fromStdString(f->id).toHtmlEscaped(), QString::fromLatin1(severityName(f->severity)),
                               QString::fromLatin1(confidenceName(f->confidence)), guessNote,
                               QString::fromStdString(f->detail).toHtmlEscaped(), fixes, evidence, sources));
}

} // namespace stackscope::ui
