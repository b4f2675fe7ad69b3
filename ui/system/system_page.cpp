// System page layout and how it shows a snapshot.
#include "ui/system/system_page.h"

#include "ui/system/findings_box.h"
#include "ui/system/links_panel.h"
#include "ui/system/snapshot_banner.h"
#include "ui/system/stack_tabs.h"
#include "ui/system/verdict_panel.h"
#include "ui/widgets/card_strip.h"
#include "ui/widgets/gpu_card.h"
#include "ui/widgets/status_colors.h"
#include "ui/widgets/wheel_to_page.h"

#include <QAbstractScrollArea>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>

namespace stackscope::ui {

namespace {

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
    if (!s.envKnown) // not recorded: what was set there is not known, which is not "none set"
        lines << QObject::tr("GPU environment: <span style='color:%1'><b>unknown</b></span> (%2)")
                     .arg(unknownColor().name(), s.root ? QObject::tr("the recording has no <code>env</code> output, .stackscope/env")
                                                        : QObject::tr("the snapshot does not record it"));
    else
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
    , m_controller(new SystemController(this))
    , m_stackTabs(new StackTabs(m_controller->stackModel(), m_controller->coverageModel(), this))
    , m_findings(new FindingsBox(m_controller->findingsModel(), this))
{
    m_banner->setObjectName(QStringLiteral("snapshotBanner"));
    m_banner->setWordWrap(true);
    m_banner->setStyleSheet(QStringLiteral("QLabel#snapshotBanner { background: #fff3cd; border: 1px solid #e0c36b; padding: 6px; }"));
    m_banner->hide();

    auto* top = createTopBar();
    auto* cardsScroll = createCardsScroll();
    auto* accessBox = createAccessBox();
    connect(m_controller, &SystemController::diagnosed, this, &SystemPage::showDiagnosis);

    // The findings before the stack table: on a 1920x1080 screen they were below the fold, under the table
    // (walkthrough 2026-11-27 problem 21).
    auto* lower = new QSplitter(Qt::Vertical, this);
    lower->setObjectName(QStringLiteral("systemLower"));
    lower->addWidget(m_findings);
    lower->addWidget(m_stackTabs);
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
    // The page scrolls as one under the pointer: the tables and panes take the wheel only when clicked into.
    for (auto* view : findChildren<QAbstractScrollArea*>()) {
        if (view != m_cardsScroll)
            WheelToPage::install(view);
    }
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

// The GPU cards side by side, as tall as they are: many GPUs scroll sideways, never up and down inside the page.
QScrollArea* SystemPage::createCardsScroll()
{
    m_cardsLayout->setContentsMargins(0, 0, 0, 0);
    m_cardsScroll = new CardStrip(m_cards, this);
    m_cardsScroll->setObjectName(QStringLiteral("gpuCards"));
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
    QTableView* findings = m_findings->table();
    QTableView* stack = m_stackTabs->stackView();
    const int needFindings = rowsHeight(findings, kFindingRows);
    const int needStack = rowsHeight(stack, kStackRows);
    for (int pass = 0; pass < 2; ++pass) {
        layout()->activate();
        const int moreFindings = std::max(0, needFindings - findings->height());
        const int moreStack = std::max(0, needStack - stack->height());
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
    rebuildGpuCards(s);
    m_access->setText(accessText(s));
    m_controller->showSnapshot(std::move(snapshot)); // then showDiagnosis
}

void SystemPage::setSessionInputs(std::vector<ReadLogText> logs, std::vector<ProbeOutcome> probes)
{
    m_controller->setSessionInputs(std::move(logs), std::move(probes));
}

// The controller diagnosed the snapshot again (the findings box and the stack tabs follow their models).
void SystemPage::showDiagnosis()
{
    m_verdict->showDiagnosis(*m_controller->diagnosis());
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
    // Shown now, not at the next turn of the event loop (the layout's way for a visible parent): the strip's height is
    // the cards', and a picture of the page (fitForPicture) is laid out before that turn.
    for (const auto& g : s.gpus) {
        auto* card = new GpuCard(g, m_cards);
        m_cardsLayout->addWidget(card);
        card->show();
    }
    m_cardsLayout->addStretch(1);
    m_cardsScroll->updateGeometry();
}

} // namespace stackscope::ui
