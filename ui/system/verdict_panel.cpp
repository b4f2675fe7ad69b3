// The verdict panel: a headline for the diagnosis's state, then one row per problem, no-GPU reason or unknown (title,
// the fix or the way to check in one line, its command with Copy).
#include "ui/system/verdict_panel.h"

#include "ui/system/fix_command.h"
#include "ui/widgets/status_colors.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace stackscope::ui {

namespace {

// The fix's first sentence: enough to act on in one line; the whole text is the tool tip.
QString firstSentence(const QString& text)
{
    const int end = text.indexOf(QLatin1String(". "));
    return end < 0 ? text : text.left(end + 1);
}

// Where a recorded machine's command runs, in the CLI's words.
const QString kOnThatMachine = QStringLiteral("On that machine:");

VerdictItem findingItem(const Finding& f, bool recorded)
{
    const QString fix = QString::fromStdString(firstFix(f));
    VerdictItem item { QString::fromStdString(f.id), f.severity, false, QString::fromStdString(f.title), fix,
        fixCommand(fix), {} };
    if (recorded && !item.command.isEmpty())
        item.where = kOnThatMachine;
    return item;
}

VerdictItem notCheckedItem(const NotChecked& n, bool recorded)
{
    const QString check = QString::fromStdString(n.check);
    const QString what = QString::fromStdString(n.what);
    VerdictItem item { QString::fromStdString(n.id), Severity::Warning, true, QObject::tr("Unknown: %1").arg(what),
        QObject::tr("Not known because %1. %2").arg(QString::fromStdString(n.why), check), fixCommand(check), {} };
    // The check's own text says "On that machine:" before the command (the CLI's words); the box says it again.
    if (recorded && !item.command.isEmpty())
        item.where = kOnThatMachine;
    return item;
}

QString headlineHtml(const QColor& color, const QString& mark, const QString& bold, const QString& rest)
{
    return QStringLiteral("<span style='color:%1; font-size:15px'><b>%2 %3</b></span> %4")
        .arg(color.name(), mark, bold.toHtmlEscaped(), rest.toHtmlEscaped());
}

// The warnings named (walkthrough 2026-11-27 problem 13: one warning was only in the status bar's count and the
// table far below): one with its title, up to three by id, more counted.
QString warningsNamed(const VerdictView& v)
{
    constexpr int kNamed = 3;
    const int n = v.warningIds.size();
    if (n == 1)
        return QObject::tr("the warning %1 (%2), in Findings below").arg(v.warningIds[0], v.warningTitles.value(0));
    QStringList named = v.warningIds.mid(0, kNamed);
    const QString last = n > kNamed ? QObject::tr("%1 more").arg(n - kNamed) : named.takeLast();
    return QObject::tr("the warnings %1 and %2, in Findings below").arg(named.join(QStringLiteral(", ")), last);
}

QString warningsText(const VerdictView& v, bool recorded)
{
    const QString place = recorded ? QObject::tr("on that machine") : QObject::tr("here");
    if (v.warningIds.isEmpty())
        return QObject::tr("nothing blocks GPU work %1.").arg(place);
    return QObject::tr("nothing blocks GPU work %1. Not blocking: %2.").arg(place, warningsNamed(v));
}

// The unknown state's line: nothing found blocks, the warnings named, and why this is not "all good".
QString unknownText(const VerdictView& v)
{
    const QString notAllGood = QObject::tr("This is not \u201call good\u201d until these are known.");
    if (v.warningIds.isEmpty())
        return QObject::tr("Nothing found blocks GPU work. %1").arg(notAllGood);
    return QObject::tr("Nothing found blocks GPU work. Not blocking: %1. %2").arg(warningsNamed(v), notAllGood);
}

// The problem state's line: the errors first; the warnings named after them.
QString problemText(const VerdictView& v)
{
    if (v.warningIds.isEmpty())
        return QObject::tr("Fix these first; every finding is in the table below.");
    return QObject::tr("Fix these first. Also found: %1.").arg(warningsNamed(v));
}

} // namespace

VerdictView verdictView(const MachineDiagnosis& d, bool recorded)
{
    VerdictView v;
    v.state = d.verdict;
    v.recorded = recorded;
    QList<VerdictItem> unknowns;
    for (const auto& n : d.notChecked)
        unknowns.append(notCheckedItem(n, recorded));
    for (const auto& f : d.findings) {
        v.warnings += f.severity == Severity::Warning ? 1 : 0;
        if (f.severity == Severity::Warning && d.verdict != VerdictState::NoGpu) {
            v.warningIds << QString::fromStdString(f.id);
            v.warningTitles << QString::fromStdString(f.title);
        }
        const bool shown = d.verdict == VerdictState::Problem ? f.severity == Severity::Error
            : d.verdict == VerdictState::NoGpu                ? f.severity == Severity::Warning
                                                              : false;
        if (shown)
            v.items.append(findingItem(f, recorded));
    }
    if (d.verdict == VerdictState::Unknown)
        v.items = unknowns;
    else if (d.verdict == VerdictState::Problem || d.verdict == VerdictState::NoGpu)
        v.notChecked = unknowns;
    return v;
}

VerdictPanel::VerdictPanel(QWidget* parent)
    : QFrame(parent)
    , m_headline(new QLabel(this))
    , m_rows(new QVBoxLayout)
{
    setObjectName(QStringLiteral("verdict"));
    setFrameShape(QFrame::StyledPanel);
    m_headline->setObjectName(QStringLiteral("verdictHeadline"));
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_rows->setContentsMargins(0, 0, 0, 0);
    m_rows->setSpacing(6);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 8);
    layout->addWidget(m_headline);
    layout->addLayout(m_rows);
    m_headline->setText(
        tr("No machine shown yet: View > Refresh inspects this machine; File > Open shows a snapshot or a report."));
}

void VerdictPanel::clearRows()
{
    while (QLayoutItem* item = m_rows->takeAt(0)) {
        delete item->widget();
        delete item;
    }
}

void VerdictPanel::showInspecting(const QString& what)
{
    m_view = VerdictView {};
    clearRows();
    m_headline->setText(tr("Inspecting %1…").arg(what).toHtmlEscaped());
}

void VerdictPanel::showDiagnosis(const MachineDiagnosis& d)
{
    m_view = verdictView(d, m_recorded);
    clearRows();
    const int n = m_view.items.size();
    switch (m_view.state) {
    case VerdictState::Ok:
        m_headline->setText(
            headlineHtml(okColor(), QStringLiteral("\u2714"), tr("All good:"), warningsText(m_view, m_recorded)));
        break;
    case VerdictState::Problem:
        m_headline->setText(headlineHtml(errorColor(), QStringLiteral("\u2716"),
            m_recorded ? (n == 1 ? tr("1 problem blocks GPU work on that machine.")
                                 : tr("%1 problems block GPU work on that machine.").arg(n))
                       : (n == 1 ? tr("1 problem blocks GPU work here.") : tr("%1 problems block GPU work here.").arg(n)),
            problemText(m_view)));
        break;
    case VerdictState::NoGpu:
        m_headline->setText(headlineHtml(warningColor(), QStringLiteral("\u26a0"), tr("No GPU visible:"),
            m_recorded ? tr("GPU work cannot run on that machine; the CPU probes and CPU training can.")
                       : tr("GPU work cannot run here; the CPU probes and CPU training can.")));
        break;
    case VerdictState::Unknown:
        m_headline->setText(headlineHtml(unknownColor(), QStringLiteral("?"),
            n == 1 ? tr("1 check could not be made.") : tr("%1 checks could not be made.").arg(n),
            unknownText(m_view)));
        break;
    }
    addRows(m_view.items);
    if (!m_view.notChecked.isEmpty())
        addRows(m_view.notChecked);
}

void VerdictPanel::addRows(const QList<VerdictItem>& items)
{
    for (int i = 0; i < items.size() && i < kMaxShown; ++i) {
        // Two problems with one fix (kfd and render nodes: the same group command) get one command box.
        VerdictItem item = items[i];
        const bool sameAsNext = i + 1 < items.size() && i + 1 < kMaxShown && items[i + 1].command == item.command;
        if (sameAsNext)
            item.command.clear();
        addRowWidget(makeRow(item));
    }
    if (items.size() > kMaxShown)
        addRowWidget(new QLabel(tr("… and %1 more in the table below.").arg(items.size() - kMaxShown), this));
}

// Shown now, not when the layout's queued show arrives: the panel's height is right at once (a page laid out for a
// picture before the event loop ran had a verdict one line tall and its rows drawn over the boxes below).
void VerdictPanel::addRowWidget(QWidget* row)
{
    m_rows->addWidget(row);
    row->show();
}

QWidget* VerdictPanel::makeRow(const VerdictItem& item)
{
    auto* row = new QWidget(this);
    auto* layout = new QVBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    const QColor color = item.notChecked ? unknownColor() : severityColor(item.severity);
    auto* title = new QLabel(QStringLiteral("<b style='color:%1'>%2</b> — %3")
                                 .arg(color.name(), item.title.toHtmlEscaped(), fixHtml(firstSentence(item.fix))),
        row);
    title->setObjectName(item.notChecked ? QStringLiteral("verdictUnknown") : QStringLiteral("verdictItem"));
    title->setWordWrap(true);
    title->setToolTip(fixPlain(item.fix));
    title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(title);
    if (item.command.isEmpty())
        return row;
    auto* commandRow = new QHBoxLayout;
    if (!item.where.isEmpty()) {
        auto* where = new QLabel(item.where, row);
        where->setObjectName(QStringLiteral("verdictCommandWhere"));
        commandRow->addWidget(where);
    }
    auto* command = new QLineEdit(item.command, row);
    command->setObjectName(QStringLiteral("verdictCommand"));
    command->setReadOnly(true);
    command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    command->setCursorPosition(0);
    auto* copy = new QPushButton(tr("Copy"), row);
    copy->setObjectName(QStringLiteral("copyFix"));
    copy->setToolTip(tr("Copy this command to the clipboard, then paste it into a terminal"));
    const QString text = item.command;
    connect(copy, &QPushButton::clicked, this, [text] { QApplication::clipboard()->setText(text); });
    commandRow->addWidget(command, 1);
    commandRow->addWidget(copy);
    layout->addLayout(commandRow);
    return row;
}

QString VerdictPanel::headline() const
{
    return m_headline->text();
}

QStringList VerdictPanel::commands() const
{
    QStringList out;
    for (const auto* list : { &m_view.items, &m_view.notChecked }) {
        for (int i = 0; i < list->size() && i < kMaxShown; ++i) {
            if (!(*list)[i].command.isEmpty() && !out.contains((*list)[i].command))
                out << (*list)[i].command;
        }
    }
    return out;
}

} // namespace stackscope::ui
