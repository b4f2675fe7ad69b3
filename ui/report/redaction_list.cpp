// What the report's redaction replaces, shown before the export.
#include "ui/report/redaction_list.h"

#include <QCoreApplication>
#include <QHeaderView>
#include <QLabel>
#include <QStringList>
#include <QTableWidget>
#include <QVBoxLayout>

namespace stackscope::ui {

RedactionList::RedactionList(QWidget* parent)
    : QGroupBox(tr("Redacted (the originals are never written)"), parent)
    , m_table(new QTableWidget(0, 3, this))
    , m_nothing(new QLabel(this))
    , m_uncertain(new QLabel(this))
{
    m_table->setObjectName(QStringLiteral("redactions"));
    m_table->setHorizontalHeaderLabels({tr("What"), tr("Shown as"), tr("Times")});
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_nothing->setObjectName(QStringLiteral("redactionNothing"));
    m_nothing->setWordWrap(true);
    m_nothing->setTextFormat(Qt::PlainText);
    m_nothing->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_nothing->hide();
    m_uncertain->setObjectName(QStringLiteral("redactionUncertain"));
    m_uncertain->setWordWrap(true);
    m_uncertain->setTextFormat(Qt::PlainText);
    m_uncertain->setStyleSheet(QStringLiteral("color: #b26a00;"));
    m_uncertain->hide();
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_nothing);
    layout->addWidget(m_uncertain);
    // Without the table the sentences sit at the top (the table, stretch 1, takes this room when shown).
    layout->addStretch(0);
}

void RedactionList::setRedactions(const std::vector<report::RedactionEntry>& entries, const std::vector<std::string>& uncertain,
                                  bool enabled)
{
    m_table->setRowCount(0);
    // Said before the export, in the words report.json's redaction.uncertain keeps: the user decides
    // whether to post the report with what may remain.
    QStringList notes;
    for (const auto& u : uncertain)
        notes << QStringLiteral("• ") + QString::fromStdString(u);
    m_uncertain->setText(tr("Not certain (check the report before you post it):\n%1").arg(notes.join(QLatin1Char('\n'))));
    m_uncertain->setVisible(enabled && !notes.isEmpty());
    m_enabled = enabled;
    m_empty = entries.empty();
    showNothingNote();
    if (!enabled) {
        m_table->setRowCount(1);
        m_table->setItem(0, 0, new QTableWidgetItem(tr("Redaction is off: nothing is replaced")));
        return;
    }
    for (const auto& e : entries) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(e.kind)));
        m_table->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(e.placeholder)));
        m_table->setItem(row, 2, new QTableWidgetItem(QString::number(e.count)));
    }
}

void RedactionList::setOpenedReport(const std::optional<std::vector<report::RedactionEntry>>& written)
{
    m_reportOpen = true;
    m_written = written;
    showNothingNote();
}

void RedactionList::clearOpenedReport()
{
    m_reportOpen = false;
    m_written.reset();
    showNothingNote();
}

QString RedactionList::nothingNote() const
{
    return m_nothing->isHidden() ? QString() : m_nothing->text();
}

namespace {

// "host name as <host> (1 time)", for each kind the report replaced.
QString replacedList(const std::vector<report::RedactionEntry>& written)
{
    QStringList parts;
    for (const auto& e : written) {
        QString part = QCoreApplication::translate("stackscope::ui::RedactionList", "%1 as %2")
                           .arg(QString::fromStdString(e.kind), QString::fromStdString(e.placeholder));
        if (e.count == 1)
            part += QCoreApplication::translate("stackscope::ui::RedactionList", " (1 time)");
        else if (e.count > 1)
            part += QCoreApplication::translate("stackscope::ui::RedactionList", " (%1 times)").arg(e.count);
        parts << part;
    }
    return parts.join(QStringLiteral("; "));
}

} // namespace

// An empty table said nothing (walkthrough 2026-11-27 third, problem 13): the box says why nothing is replaced.
void RedactionList::showNothingNote()
{
    const bool nothing = m_enabled && m_empty;
    m_table->setVisible(!nothing);
    m_nothing->setVisible(nothing);
    if (!nothing)
        return;
    const QString looked = tr("user and host names, home paths, IP and MAC addresses, GPU UUIDs and serials, credentials");
    if (!m_reportOpen) {
        m_nothing->setText(tr("Nothing was redacted: none of what redaction looks for (%1) is in this report.").arg(looked));
    } else if (!m_written) {
        m_nothing->setText(tr("Nothing was redacted: none of what redaction looks for (%1) was found in the report open "
                              "here, although it was written without redaction. Read it before you post it.")
                               .arg(looked));
    } else if (m_written->empty()) {
        m_nothing->setText(tr("Nothing was redacted: the report open here was redacted when it was written and had "
                              "nothing to replace then, and nothing private (%1) is in it now.")
                               .arg(looked));
    } else {
        m_nothing->setText(tr("Nothing more to redact: the report open here was redacted when it was written, so it "
                              "holds placeholders in place of the private data. It replaced: %1.")
                               .arg(replacedList(*m_written)));
    }
}

} // namespace stackscope::ui
