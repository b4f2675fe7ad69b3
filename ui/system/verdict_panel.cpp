// The verdict panel: one row per blocking problem (title, the fix in one line, its command with Copy).
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

} // namespace

QList<VerdictItem> blockingItems(const std::vector<Finding>& findings)
{
    QList<VerdictItem> items;
    for (const auto& f : findings) {
        if (f.severity != Severity::Error)
            continue;
        const QString fix = QString::fromStdString(firstFix(f));
        items.append({f.severity, QString::fromStdString(f.title), fix, fixCommand(fix)});
    }
    return items;
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
    m_headline->setText(tr("Inspecting this machine…"));
}

void VerdictPanel::clearRows()
{
    while (QLayoutItem* item = m_rows->takeAt(0)) {
        delete item->widget();
        delete item;
    }
}

void VerdictPanel::setItems(const QList<VerdictItem>& items, const QString& allGood)
{
    m_items = items;
    clearRows();
    if (items.isEmpty()) {
        m_headline->setText(tr("<span style='color:%1; font-size:15px'><b>\u2714 All good:</b></span> %2")
                                .arg(okColor().name(), allGood.toHtmlEscaped()));
        return;
    }
    const QString count = items.size() == 1 ? tr("1 problem blocks GPU work here.")
                                             : tr("%1 problems block GPU work here.").arg(items.size());
    m_headline->setText(tr("<span style='color:%1; font-size:15px'><b>\u2716 %2</b></span> "
                           "Fix these first; every finding is in the table below.")
                            .arg(errorColor().name(), count));
    for (int i = 0; i < items.size() && i < kMaxShown; ++i) {
        // Two problems with one fix (kfd and render nodes: the same group command) get one command box.
        VerdictItem item = items[i];
        const bool sameAsNext = i + 1 < items.size() && i + 1 < kMaxShown && items[i + 1].command == item.command;
        if (sameAsNext)
            item.command.clear();
        m_rows->addWidget(makeRow(item));
    }
    if (items.size() > kMaxShown) {
        auto* more = new QLabel(tr("… and %1 more in the table below.").arg(items.size() - kMaxShown), this);
        m_rows->addWidget(more);
    }
}

void VerdictPanel::showNoGpu(const QString& text)
{
    m_items.clear();
    clearRows();
    m_headline->setText(tr("<span style='color:%1; font-size:15px'><b>\u26a0 No GPU visible:</b></span> %2")
                            .arg(warningColor().name(), text.toHtmlEscaped()));
}

QWidget* VerdictPanel::makeRow(const VerdictItem& item)
{
    auto* row = new QWidget(this);
    auto* layout = new QVBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* title = new QLabel(QStringLiteral("<b style='color:%1'>%2</b> — %3")
                                 .arg(severityColor(item.severity).name(), item.title.toHtmlEscaped(),
                                      fixHtml(firstSentence(item.fix))),
                             row);
    title->setObjectName(QStringLiteral("verdictItem"));
    title->setWordWrap(true);
    title->setToolTip(fixPlain(item.fix));
    title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(title);
    if (item.command.isEmpty())
        return row;
    auto* commandRow = new QHBoxLayout;
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
    for (int i = 0; i < m_items.size() && i < kMaxShown; ++i) {
        if (!m_items[i].command.isEmpty() && !out.contains(m_items[i].command))
            out << m_items[i].command;
    }
    return out;
}

} // namespace stackscope::ui
