// What the report's redaction replaces, shown before the export.
#include "ui/report/redaction_list.h"

#include <QHeaderView>
#include <QLabel>
#include <QStringList>
#include <QTableWidget>
#include <QVBoxLayout>

namespace stackscope::ui {

RedactionList::RedactionList(QWidget* parent)
    : QGroupBox(tr("Redacted (the originals are never written)"), parent)
    , m_table(new QTableWidget(0, 3, this))
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
    m_uncertain->setObjectName(QStringLiteral("redactionUncertain"));
    m_uncertain->setWordWrap(true);
    m_uncertain->setTextFormat(Qt::PlainText);
    m_uncertain->setStyleSheet(QStringLiteral("color: #b26a00;"));
    m_uncertain->hide();
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_uncertain);
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

} // namespace stackscope::ui
