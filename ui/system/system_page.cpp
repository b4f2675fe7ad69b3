// System page layout and how it shows a snapshot.
#include "ui/system/system_page.h"

#include "core/diagnosis/machine_diagnosis.h"
#include "core/snapshot/stack_rows.h"
#include "ui/models/coverage_model.h"
#include "ui/models/findings_model.h"
#include "ui/models/stack_model.h"
#include "ui/system/fix_command.h"
#include "ui/system/links_panel.h"
#include "ui/system/verdict_panel.h"
#include "ui/system/snapshot_banner.h"
#include "ui/widgets/gpu_card.h"
#include "ui/widgets/status_colors.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>

namespace stackscope::ui {

namespace {

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent)
{
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    return view;
}

// One device node: read-write (ok), no access (a problem) or unknown, with what could not be read.
QString nodeText(const Snapshot& s, const DeviceNode& n)
{
    const QString path = QString::fromStdString(n.path).toHtmlEscaped();
    if (!n.exists)
        return QObject::tr("%1: <i>absent</i>").arg(path);
    const auto known = [](const std::optional<std::string>& v) {
        return v ? QString::fromStdString(*v).toHtmlEscaped() : QObject::tr("<i>not known</i>");
    };
    const QString details = QObject::tr("(mode %1, group %2)").arg(known(n.mode), known(n.group));
    if (n.readWrite) {
        return *n.readWrite
            ? QObject::tr("%1: <span style='color:%2'>read-write</span> %3").arg(path, okColor().name(), details)
            : QObject::tr("%1: <span style='color:%2'><b>no access</b></span> %3").arg(path, errorColor().name(), details);
    }
    // Unknown says what could not be read, in place of the mode and group it would show.
    const QString why = !n.mode ? (s.root ? QObject::tr("mode and group not recorded") : QObject::tr("mode and group could not be read"))
                                : QObject::tr("%1; the user %2").arg(details.mid(1, details.size() - 2),
                                                                     s.root ? QObject::tr("was not recorded") : QObject::tr("could not be read"));
    return QObject::tr("%1: <span style='color:%2'><b>unknown</b></span> (%3)").arg(path, unknownColor().name(), why);
}

// The user and groups line; an unknown user says what is not known and why, never "?".
QString userText(const Snapshot& s)
{
    if (!s.access.user) {
        return QObject::tr("User and groups: <span style='color:%1'><b>unknown</b></span> (%2)")
            .arg(unknownColor().name(), s.root ? QObject::tr("the recording has no <code>id</code> output, .stackscope/id")
                                               : QObject::tr("they could not be read"));
    }
    QStringList groups;
    for (const auto& g : s.access.userGroups)
        groups << QString::fromStdString(g).toHtmlEscaped();
    // Bold, so a user named "user" does not read as "User user in groups".
    return QObject::tr("User <b>%1</b> is in the groups: %2")
        .arg(QString::fromStdString(*s.access.user).toHtmlEscaped(),
             groups.isEmpty() ? QObject::tr("<i>none listed</i>") : groups.join(QStringLiteral(", ")));
}

QString accessText(const Snapshot& s)
{
    QStringList lines;
    lines << nodeText(s, s.access.kfd);
    for (const auto& r : s.access.renderNodes)
        lines << nodeText(s, r);
    lines << userText(s);
    QStringList env;
    // A container's image constraints (NVIDIA_REQUIRE_CUDA) run to kilobytes: long values are cut in the middle here,
    // whole in the snapshot JSON and the report.
    constexpr int kShownValue = 96;
    for (const auto& [k, v] : s.env) {
        QString value = QString::fromStdString(v);
        if (value.size() > kShownValue)
            value = value.left(kShownValue / 2) + QStringLiteral(" … ") + value.right(kShownValue / 4)
                + QObject::tr(" (%1 characters)").arg(v.size());
        env << QStringLiteral("<code>%1=%2</code>").arg(QString::fromStdString(k), value.toHtmlEscaped());
    }
    lines << QObject::tr("GPU environment: %1").arg(env.isEmpty() ? QObject::tr("none set") : env.join(QStringLiteral(" ")));
    return lines.join(QStringLiteral("<br/>"));
}

} // namespace

SystemPage::SystemPage(QWidget* parent)
    : QWidget(parent)
    , m_banner(new QLabel(this))
    , m_verdict(new VerdictPanel(this))
    , m_cards(new QWidget(this))
    , m_cardsLayout(new QHBoxLayout(m_cards))
    , m_access(new QLabel(this))
    , m_stackModel(new StackModel(this))
    , m_findingsModel(new FindingsModel(this))
    , m_coverageModel(new CoverageModel(this))
    , m_stackView(makeTable(m_stackModel, this))
    , m_stackDetail(new QTextBrowser(this))
    , m_coverageView(makeTable(m_coverageModel, this))
    , m_coverageNote(new QLabel(this))
    , m_findingsView(makeTable(m_findingsModel, this))
    , m_findingDetail(new QTextBrowser(this))
{
    m_banner->setObjectName(QStringLiteral("snapshotBanner"));
    m_banner->setWordWrap(true);
    m_banner->setStyleSheet(QStringLiteral("QLabel#snapshotBanner { background: #fff3cd; border: 1px solid #e0c36b; padding: 6px; }"));
    m_banner->hide();

    auto* top = createTopBar();
    auto* cardsScroll = createCardsScroll();
    auto* accessBox = createAccessBox();
    auto* stackBox = createStackTabs();
    auto* findingsBox = createFindingsBox();

    // The findings before the stack table: on a 1920x1080 screen they were below the fold, under the table
    // (walkthrough 2026-11-27 problem 21).
    auto* lower = new QSplitter(Qt::Vertical, this);
    lower->setObjectName(QStringLiteral("systemLower"));
    lower->addWidget(findingsBox);
    lower->addWidget(stackBox);
    lower->setStretchFactor(0, 2);
    lower->setStretchFactor(1, 3);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_banner);
    layout->addWidget(m_verdict);
    layout->addWidget(cardsScroll);
    m_links = new LinksPanel(this); // the links between the GPUs and the host, measured (issue 33)
    layout->addWidget(m_links);
    layout->addWidget(accessBox);
    layout->addWidget(lower, 1);
}

// The heading with Paste a log and Refresh.
QHBoxLayout* SystemPage::createTopBar()
{
    auto* refresh = new QPushButton(tr("Refresh"), this);
    refresh->setObjectName(QStringLiteral("refreshButton"));
    refresh->setToolTip(tr("Inspect this machine again"));
    connect(refresh, &QPushButton::clicked, this, &SystemPage::refreshRequested);
    auto* pasteLog = new QPushButton(tr("Paste a log or error…"), this);
    pasteLog->setObjectName(QStringLiteral("pasteLogButton"));
    pasteLog->setToolTip(tr("Diagnose a Python traceback, an error message or a log (you can also drop a text file on the window)"));
    connect(pasteLog, &QPushButton::clicked, this, &SystemPage::pasteLogRequested);
    auto* heading = new QLabel(tr("<h2>System</h2>"), this);
    auto* top = new QHBoxLayout;
    top->addWidget(heading);
    top->addStretch(1);
    top->addWidget(pasteLog);
    top->addWidget(refresh);
    return top;
}

// The GPU cards, in a scroll area of bounded height.
QScrollArea* SystemPage::createCardsScroll()
{
    m_cardsLayout->setContentsMargins(0, 0, 0, 0);
    m_cardsScroll = new QScrollArea(this);
    m_cardsScroll->setObjectName(QStringLiteral("gpuCards"));
    m_cardsScroll->setWidget(m_cards);
    m_cardsScroll->setWidgetResizable(true);
    m_cardsScroll->setFrameShape(QFrame::NoFrame);
    m_cardsScroll->setMinimumHeight(170);
    m_cardsScroll->setMaximumHeight(200);
    return m_cardsScroll;
}

QGroupBox* SystemPage::createAccessBox()
{
    m_access->setTextFormat(Qt::RichText);
    m_access->setWordWrap(true);
    m_access->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* accessBox = new QGroupBox(tr("Device access and environment"), this);
    (new QVBoxLayout(accessBox))->addWidget(m_access);
    return accessBox;
}

// The stack table above the selected row's details. Component and Status fit their (short) texts; Version and
// Found at share the rest whatever their length, cut in the middle with the whole text in the tooltip and the
// details: a long value (the kernel command line) once sized Version past the window and hid Status at every size.
QWidget* SystemPage::createStackTab()
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

void SystemPage::showStackRow(int row)
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

// The stack table (with the selected row's details) and the kernel coverage table (with the selected cell's note),
// as two tabs.
QTabWidget* SystemPage::createStackTabs()
{
    m_coverageView->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_coverageView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_coverageNote->setWordWrap(true);
    m_coverageNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(m_coverageView->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& current) {
        m_coverageNote->setText(current.data(Qt::ToolTipRole).toString());
    });
    auto* coverageTab = new QWidget(this);
    auto* coverageLayout = new QVBoxLayout(coverageTab);
    coverageLayout->addWidget(m_coverageView, 1);
    coverageLayout->addWidget(m_coverageNote);
    auto* stackBox = new QTabWidget(this);
    stackBox->setObjectName(QStringLiteral("stackTabs"));
    stackBox->addTab(createStackTab(), tr("Stack"));
    stackBox->addTab(coverageTab, tr("Kernel coverage"));
    return stackBox;
}

// The findings table beside the selected finding's detail.
QGroupBox* SystemPage::createFindingsBox()
{
    m_findingsView->setObjectName(QStringLiteral("findingsTable"));
    m_findingsView->horizontalHeader()->setSectionResizeMode(FindingsModel::SeverityColumn, QHeaderView::ResizeToContents);
    m_findingsView->horizontalHeader()->setSectionResizeMode(FindingsModel::IdColumn, QHeaderView::ResizeToContents);
    // The checks have no fix a probe variant could verify (the Probes page shows that column).
    m_findingsView->setColumnHidden(FindingsModel::VerifiedColumn, true);
    m_findingDetail->setOpenExternalLinks(true);
    m_findingDetail->setPlaceholderText(tr("Select a finding to see its detail, the fix and the sources."));
    connect(m_findingsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showFinding(current.row()); });
    auto* findingsSplit = new QSplitter(Qt::Horizontal, this);
    findingsSplit->addWidget(m_findingsView);
    findingsSplit->addWidget(m_findingDetail);
    findingsSplit->setStretchFactor(0, 2);
    findingsSplit->setStretchFactor(1, 3);
    auto* findingsBox = new QGroupBox(tr("Findings"), this);
    findingsBox->setObjectName(QStringLiteral("findingsBox"));
    (new QVBoxLayout(findingsBox))->addWidget(findingsSplit);
    return findingsBox;
}

int SystemPage::fitForPicture(int width)
{
    // Enough for every finding and stack row seen on the recorded machines; more scroll.
    constexpr int kFindingRows = 12;
    constexpr int kStackRows = 40;
    const auto rowsHeight = [](QTableView* view, int maxRows) {
        const int rows = view->model()->rowCount();
        const int rowsShown = rows == 0 ? view->verticalHeader()->defaultSectionSize()
            : rows <= maxRows          ? view->verticalHeader()->length()
                                       : maxRows * view->verticalHeader()->sectionSize(0);
        return view->horizontalHeader()->height() + rowsShown + 2 * view->frameWidth();
    };
    // First every box at the height its text asks for (squeezed, the links box's text had no room)...
    const int natural = std::max({height(), layout()->totalSizeHint().height(),
                                  layout()->hasHeightForWidth() ? layout()->totalHeightForWidth(width) : 0});
    resize(width, natural);
    // ...then the page grows by what the two tables lack, and the splitter below gives it to them (twice at most: the
    // first pass may change a wrapped label's width and so its height).
    auto* lower = findChild<QSplitter*>(QStringLiteral("systemLower"));
    const int needFindings = rowsHeight(m_findingsView, kFindingRows);
    const int needStack = rowsHeight(m_stackView, kStackRows);
    for (int pass = 0; pass < 2; ++pass) {
        layout()->activate();
        const int moreFindings = std::max(0, needFindings - m_findingsView->height());
        const int moreStack = std::max(0, needStack - m_stackView->height());
        if (moreFindings == 0 && moreStack == 0)
            break;
        const QList<int> sizes = lower->sizes();
        resize(width, height() + moreFindings + moreStack);
        layout()->activate();
        lower->setSizes({sizes.value(0) + moreFindings, sizes.value(1) + moreStack});
    }
    return height();
}

int SystemPage::gpuCardCount() const
{
    return m_cards->findChildren<GpuCard*>().size();
}

void SystemPage::setBusy(bool busy)
{
    setCursor(busy ? Qt::BusyCursor : Qt::ArrowCursor);
}

void SystemPage::showInspecting(const QString& what)
{
    m_verdict->showInspecting(what);
}

void SystemPage::showSnapshot(SnapshotPtr snapshot, const QString& origin)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!snapshot)
        return;
    const Snapshot& s = *snapshot;
    if (origin.isEmpty() && !s.root) {
        m_banner->hide();
    } else {
        m_banner->setText(notThisMachineText(s, origin));
        m_banner->show();
    }
    m_verdict->setRecordedMachine(!origin.isEmpty() || s.root.has_value());
    m_shown = snapshot;
    rebuildGpuCards(s);
    m_access->setText(accessText(s));
    m_coverageModel->setCoverage(s.archCoverage);
    m_coverageNote->setText(m_coverageModel->rowCount() == 0
        ? m_coverageModel->emptyReason()
        : tr("Select a cell for what it means and the fix. Red: the library has no code for that GPU."));
    showDiagnosis();
}

void SystemPage::setSessionInputs(std::vector<ReadLogText> logs, std::vector<ProbeOutcome> probes)
{
    m_sessionLogs = std::move(logs);
    m_sessionProbes = std::move(probes);
    if (m_shown)
        showDiagnosis();
}

// The one diagnosis (as `stackscope-cli diagnose` makes it) over the snapshot, the logs pasted in the session and the
// probe results measured on this machine: the page only renders it.
void SystemPage::showDiagnosis()
{
    const Snapshot& s = *m_shown;
    MachineDiagnosisInput input;
    input.snapshot = &s;
    input.logs = m_sessionLogs;
    input.probes = m_sessionProbes;
    const MachineDiagnosis diagnosis = diagnoseMachine(input);
    m_stackModel->setRows(stackRows(s, diagnosis.findings));
    m_stackDetail->clear();
    m_findingsModel->setFindings(diagnosis.findings, FindingsModel::Order::AsGiven);
    m_verdict->showDiagnosis(diagnosis);
    m_findingDetail->clear();
    if (m_findingsModel->rowCount() > 0)
        m_findingsView->selectRow(0);
    Q_EMIT diagnosisShown();
}

void SystemPage::rebuildGpuCards(const Snapshot& s)
{
    while (QLayoutItem* item = m_cardsLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    // No GPU: the verdict says so and why; the room goes to the tables instead of an empty card.
    m_cardsScroll->setVisible(!s.gpus.empty());
    for (const auto& g : s.gpus)
        m_cardsLayout->addWidget(new GpuCard(g, m_cards));
    m_cardsLayout->addStretch(1);
}

void SystemPage::showFinding(int row)
{
    const Finding* f = m_findingsModel->findingAt(row);
    if (!f) {
        m_findingDetail->clear();
        return;
    }
    QString sources;
    for (const auto& src : f->sources) {
        const QString s = QString::fromStdString(src).toHtmlEscaped();
        sources += s.startsWith(QStringLiteral("http")) ? QStringLiteral("<li><a href=\"%1\">%1</a></li>").arg(s)
                                                        : QStringLiteral("<li>%1</li>").arg(s);
    }
    // A check has one fix; a diagnosis lists its fixes in order and says what it matched (the facts that name the
    // cause, such as the variable that hides the GPUs).
    QString fixes = f->fix.empty() ? QString() : QStringLiteral("<p>%1</p>").arg(fixHtml(QString::fromStdString(f->fix)));
    if (!f->fixes.empty()) {
        fixes += QStringLiteral("<ol>");
        for (const auto& a : f->fixes)
            fixes += QStringLiteral("<li>%1%2</li>").arg(fixHtml(QString::fromStdString(a.text)),
                                                           a.diagnostic ? tr(" <i>(locates the problem)</i>") : QString());
        fixes += QStringLiteral("</ol>");
    }
    QString evidence;
    for (std::size_t i = 0; i < f->evidence.size() && i < 3; ++i) {
        const auto& e = f->evidence[i];
        evidence += QStringLiteral("<li>%1: <code>%2</code></li>").arg(QString::fromStdString(e.origin).toHtmlEscaped(),
                                                                        QString::fromStdString(e.text).toHtmlEscaped());
    }
    if (!evidence.isEmpty())
        evidence = tr("<h4>Seen</h4><ul>%1</ul>").arg(evidence);
    m_findingDetail->setHtml(QStringLiteral("<h3 style='color:%1'>%2</h3><p><code>%3</code> · %4</p>"
                                            "<p style='white-space:pre-wrap'>%5</p>%6<h4>Fix</h4>%7<h4>Sources</h4><ul>%8</ul>")
                                 .arg(severityColor(f->severity).name(), QString::fromStdString(f->title).toHtmlEscaped(),
                                      QString::fromStdString(f->id), QString::fromLatin1(severityName(f->severity)),
                                      QString::fromStdString(f->detail).toHtmlEscaped(), evidence, fixes, sources));
}

} // namespace stackscope::ui
