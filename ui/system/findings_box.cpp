#include "ui/system/findings_box.h"

#include "ui/models/findings_model.h"
#include "ui/system/fix_command.h"
#include "ui/system/system_table.h"
#include "ui/widgets/command_text_browser.h"
#include "ui/widgets/status_colors.h"

#include <QCoreApplication>
#include <QEvent>
#include <QHeaderView>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace stackscope::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("stackscope::ui::FindingsBox", text);
}

QString html(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString sourcesHtml(const Finding& f)
{
    QString sources;
    for (const auto& src : f.sources) {
        const QString s = html(src);
        sources += s.startsWith(QStringLiteral("http")) ? QStringLiteral("<li><a href=\"%1\">%1</a></li>").arg(s)
                                                        : QStringLiteral("<li>%1</li>").arg(s);
    }
    return sources;
}

// A check has one fix; a diagnosis lists its fixes in order and says what it matched (the facts that name the cause,
// such as the variable that hides the GPUs).
QString fixesHtml(const Finding& f)
{
    QString fixes = f.fix.empty() ? QString() : QStringLiteral("<p>%1</p>").arg(fixHtmlWholeWords(QString::fromStdString(f.fix)));
    if (!f.fixes.empty()) {
        fixes += QStringLiteral("<ol>");
        for (const auto& a : f.fixes)
            fixes += QStringLiteral("<li>%1%2</li>").arg(fixHtmlWholeWords(QString::fromStdString(a.text)),
                                                           a.diagnostic ? tr(" <i>(locates the problem)</i>") : QString());
        fixes += QStringLiteral("</ol>");
    }
    return fixes;
}

QString evidenceHtml(const Finding& f)
{
    QString evidence;
    for (std::size_t i = 0; i < f.evidence.size() && i < 3; ++i) {
        const auto& e = f.evidence[i];
        evidence += QStringLiteral("<li>%1: <code>%2</code></li>").arg(html(e.origin), html(e.text));
    }
    return evidence.isEmpty() ? evidence : tr("<h4>Seen</h4><ul>%1</ul>").arg(evidence);
}

} // namespace

QString findingDetailHtml(const Finding& f)
{
    return QStringLiteral("<h3 style='color:%1'>%2</h3><p><code>%3</code> · %4</p>"
                          "<p style='white-space:pre-wrap'>%5</p>%6<h4>Fix</h4>%7<h4>Sources</h4><ul>%8</ul>")
        .arg(severityColor(f.severity).name(), html(f.title), QString::fromStdString(f.id),
             QString::fromLatin1(severityName(f.severity)), html(f.detail), evidenceHtml(f), fixesHtml(f),
             sourcesHtml(f));
}

FindingsBox::FindingsBox(FindingsModel* findings, QWidget* parent)
    : QGroupBox(tr("Findings"), parent)
    , m_model(findings)
    , m_table(makeSystemTable(findings, this))
    , m_detail(new CommandTextBrowser(this))
{
    setObjectName(QStringLiteral("findingsBox"));
    m_table->setObjectName(QStringLiteral("findingsTable"));
    m_table->horizontalHeader()->setSectionResizeMode(FindingsModel::SeverityColumn, QHeaderView::ResizeToContents);
    // The Finding column takes the width; Rule is as wide as its longest id up to a third of the table, cut beyond
    // (the detail pane beside it names the rule whole). At 1024x640 ROCM_MULTIPLE_INSTALLS left "A GPU's PCIe…".
    m_table->horizontalHeader()->setSectionResizeMode(FindingsModel::IdColumn, QHeaderView::Interactive);
    m_table->horizontalHeader()->setSectionResizeMode(FindingsModel::TitleColumn, QHeaderView::Stretch);
    m_table->viewport()->installEventFilter(this);
    connect(m_model, &QAbstractItemModel::modelReset, this, &FindingsBox::fitRuleColumn);
    // The checks have no fix a probe variant could verify (the Probes page shows that column).
    m_table->setColumnHidden(FindingsModel::VerifiedColumn, true);
    m_detail->setObjectName(QStringLiteral("findingDetail"));
    m_detail->setOpenExternalLinks(true);
    m_detail->setPlaceholderText(tr("Select a finding to see its detail, the fix and the sources."));
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showFinding(current.row()); });
    connect(m_model, &QAbstractItemModel::modelReset, this, &FindingsBox::showFirst);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    split->addWidget(m_detail);
    // Half each: at 2 to 3 the table's Finding column had about 100 px at 1024x640; the detail pane wraps.
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    (new QVBoxLayout(this))->addWidget(split);
}

bool FindingsBox::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitRuleColumn();
    return QGroupBox::eventFilter(watched, event);
}

void FindingsBox::fitRuleColumn()
{
    const int longest = std::max(static_cast<QAbstractItemView*>(m_table)->sizeHintForColumn(FindingsModel::IdColumn),
                                 m_table->horizontalHeader()->sectionSizeHint(FindingsModel::IdColumn));
    m_table->horizontalHeader()->resizeSection(FindingsModel::IdColumn,
                                               std::min(longest, std::max(60, m_table->viewport()->width() / 3)));
}

// A new list (a snapshot shown, the session's logs or probes changed): its first finding, the most important.
void FindingsBox::showFirst()
{
    m_detail->clear();
    if (m_model->rowCount() > 0)
        m_table->selectRow(0);
}

void FindingsBox::showFinding(int row)
{
    const Finding* f = m_model->findingAt(row);
    if (!f) {
        m_detail->clear();
        return;
    }
    m_detail->setHtml(findingDetailHtml(*f));
}

QString FindingsBox::detail() const
{
    return m_detail->plainText();
}

} // namespace stackscope::ui
