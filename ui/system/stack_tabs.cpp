#include "ui/system/stack_tabs.h"

#include "core/snapshot/stack_rows.h"
#include "ui/models/coverage_model.h"
#include "ui/models/stack_model.h"
#include "ui/system/system_table.h"
#include "ui/widgets/status_colors.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace stackscope::ui {

StackTabs::StackTabs(StackModel* stack, CoverageModel* coverage, QWidget* parent)
    : QTabWidget(parent)
    , m_stackModel(stack)
    , m_coverageModel(coverage)
    , m_stackView(makeSystemTable(stack, this))
    , m_stackDetail(new QTextBrowser(this))
    , m_coverageView(makeSystemTable(coverage, this))
    , m_coverageNote(new QLabel(this))
{
    setObjectName(QStringLiteral("stackTabs"));
    addTab(createStackTab(), tr("Stack"));
    addTab(createCoverageTab(), tr("Kernel coverage"));
    // A new list: nothing selected, so no row's details; the coverage note says what the tab shows or why it is empty.
    connect(m_stackModel, &QAbstractItemModel::modelReset, m_stackDetail, &QTextBrowser::clear);
    connect(m_coverageModel, &QAbstractItemModel::modelReset, this, &StackTabs::showCoverageNote);
}

// The stack table above the selected row's details. Component and Status fit their (short) texts; Version and
// Found at share the rest whatever their length, cut in the middle with the whole text in the tooltip and the
// details: a long value (the kernel command line) once sized Version past the window and hid Status at every size.
QWidget* StackTabs::createStackTab()
{
    auto* header = m_stackView->horizontalHeader();
    header->setSectionResizeMode(StackModel::ComponentColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(StackModel::StatusColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(StackModel::VersionColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(StackModel::LocationColumn, QHeaderView::Stretch);
    header->setStretchLastSection(false);
    m_stackView->setObjectName(QStringLiteral("stackTable"));
    m_stackView->setTextElideMode(Qt::ElideMiddle);
    m_stackDetail->setObjectName(QStringLiteral("stackDetail"));
    m_stackDetail->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere); // a path has no spaces to wrap at
    m_stackDetail->setPlaceholderText(tr("Select a row for its whole value, where it was found and why it is missing, failed or unknown."));
    // About four lines; longer values scroll inside.
    m_stackDetail->setFixedHeight(m_stackDetail->fontMetrics().lineSpacing() * 4 + 12);
    connect(m_stackView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showStackRow(current.row()); });
    auto* tab = new QWidget(this);
    auto* layout = new QVBoxLayout(tab);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stackView, 1);
    layout->addWidget(m_stackDetail);
    return tab;
}

// The kernel coverage table above the selected cell's note (what it means and the fix).
QWidget* StackTabs::createCoverageTab()
{
    m_coverageView->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_coverageView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_coverageNote->setWordWrap(true);
    m_coverageNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(m_coverageView->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& current) {
        m_coverageNote->setText(current.data(Qt::ToolTipRole).toString());
    });
    auto* tab = new QWidget(this);
    auto* layout = new QVBoxLayout(tab);
    layout->addWidget(m_coverageView, 1);
    layout->addWidget(m_coverageNote);
    return tab;
}

void StackTabs::showStackRow(int row)
{
    const StackRow* r = m_stackModel->rowAt(row);
    if (!r) {
        m_stackDetail->clear();
        return;
    }
    auto html = [](const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); };
    QString text = tr("<b>%1</b> · <span style='color:%2'>%3</span><br/>Version: <code>%4</code><br/>Found at: <code>%5</code>")
                       .arg(html(r->component), statusColor(r->status).name(), QString::fromLatin1(stackStatusName(r->status)),
                            html(r->version), html(r->location));
    if (!r->note.empty())
        text += QStringLiteral("<br/>") + html(r->note);
    m_stackDetail->setHtml(text);
}

void StackTabs::showCoverageNote()
{
    m_coverageNote->setText(m_coverageModel->rowCount() == 0
        ? m_coverageModel->emptyReason()
        : tr("Select a cell for what it means and the fix. Red: the library has no code for that GPU."));
}

QString StackTabs::stackDetail() const
{
    return m_stackDetail->toPlainText();
}

QString StackTabs::coverageNote() const
{
    return m_coverageNote->text();
}

} // namespace stackscope::ui
