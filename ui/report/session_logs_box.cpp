// The session's logs on the Report page.
#include "ui/report/session_logs_box.h"

#include "ui/report/session_logs.h"

#include <QGridLayout>
#include <QLabel>
#include <QListView>
#include <QPushButton>

namespace stackscope::ui {

SessionLogsBox::SessionLogsBox(SessionLogModel* logs, QWidget* parent)
    : QGroupBox(tr("Pasted logs"), parent)
    , m_logs(logs)
    , m_list(new QListView(this))
    , m_remove(new QPushButton(tr("Leave out"), this))
    , m_note(new QLabel(this))
{
    m_list->setObjectName(QStringLiteral("sessionLogs"));
    m_list->setModel(m_logs);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setTextElideMode(Qt::ElideMiddle);
    // A few rows: the redaction list below keeps the page's room.
    m_list->setMaximumHeight(m_list->fontMetrics().height() * 4 + 12);
    m_remove->setObjectName(QStringLiteral("removeLogButton"));
    m_remove->setToolTip(tr("Leave the selected log out of the report"));
    m_note->setObjectName(QStringLiteral("sessionLogsNote"));
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText);
    connect(m_logs, &SessionLogModel::rowsInserted, this, &SessionLogsBox::showLogs);
    connect(m_logs, &SessionLogModel::rowsRemoved, this, &SessionLogsBox::showLogs);
    connect(m_logs, &SessionLogModel::modelReset, this, &SessionLogsBox::showLogs); // an opened report's logs, or back to this session's
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this, &SessionLogsBox::showLogs);
    connect(m_remove, &QPushButton::clicked, this, [this] { m_logs->remove(m_list->currentIndex().row()); });
    showLogs();
    auto* layout = new QGridLayout(this);
    layout->addWidget(m_note, 0, 0, 1, 2);
    layout->addWidget(m_list, 1, 0);
    layout->addWidget(m_remove, 1, 1, Qt::AlignTop);
    layout->setColumnStretch(0, 1);
}

void SessionLogsBox::showLogs()
{
    const int n = m_logs->rowCount();
    m_list->setVisible(n > 0);
    m_remove->setVisible(n > 0);
    m_remove->setEnabled(m_list->currentIndex().isValid());
    m_note->setText(n == 0 ? tr("None yet. What you paste or drop into \"Paste a log or error…\" is kept here and "
                                "goes into the report's logs, redacted with the rest.")
                    : n == 1 ? tr("1 log goes into the report (logs/recent.log, report.json), redacted with the rest.")
                             : tr("%1 logs go into the report (logs/recent.log, report.json), redacted with the rest.").arg(n));
}

} // namespace stackscope::ui
