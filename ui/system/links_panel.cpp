// The System page's links box: its buttons, status line and topology view, wired to a BandwidthController.
#include "ui/system/links_panel.h"

#include "ui/system/topology_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace stackscope::ui {

LinksPanel::LinksPanel(QWidget* parent)
    : QGroupBox(tr("Links and bandwidth"), parent)
    , m_measure(new QPushButton(tr("Measure links"), this))
    , m_stop(new QPushButton(tr("Stop"), this))
    , m_open(new QPushButton(tr("Open recorded run…"), this))
    , m_status(new QLabel(this))
    , m_view(new TopologyView(this))
{
    setObjectName(QStringLiteral("linksPanel"));
    m_measure->setObjectName(QStringLiteral("measureLinksButton"));
    m_measure->setToolTip(tr("Run the bandwidth suite on this machine (stackscope-cli bench bandwidth): host links, "
                             "peer copies, collectives, memory and GEMM, each judged against what it should reach"));
    m_stop->setObjectName(QStringLiteral("stopLinksButton"));
    m_stop->setEnabled(false);
    m_open->setObjectName(QStringLiteral("openBandwidthButton"));
    m_open->setToolTip(tr("Show a run saved with stackscope-cli bench bandwidth --json"));
    m_status->setObjectName(QStringLiteral("linksStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setMinimumWidth(200);
    connect(m_open, &QPushButton::clicked, this, &LinksPanel::openRequested);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_status, 1);
    bar->addWidget(m_measure);
    bar->addWidget(m_stop);
    bar->addWidget(m_open);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_view);
}

void LinksPanel::setController(BandwidthController* controller)
{
    m_controller = controller;
    connect(m_measure, &QPushButton::clicked, controller, &BandwidthController::measure);
    connect(m_stop, &QPushButton::clicked, controller, &BandwidthController::stop);
    connect(controller, &BandwidthController::statusChanged, m_status, &QLabel::setText);
    connect(controller, &BandwidthController::runChanged, m_view, &TopologyView::showRun);
    connect(controller, &BandwidthController::measuringChanged, this, [this](bool measuring) {
        m_measure->setEnabled(!measuring);
        m_stop->setEnabled(measuring);
    });
    m_status->setText(controller->statusText());
    m_view->showRun(controller->shown());
}

void LinksPanel::showNote(const QString& text)
{
    for (auto* button : {m_measure, m_stop, m_open})
        button->hide();
    m_status->setText(text);
}

QString LinksPanel::statusText() const
{
    return m_status->text();
}

} // namespace stackscope::ui
