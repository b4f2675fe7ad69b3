// TrainingResultsPanel: the widgets of the Training page's results and their layout.
#include "ui/training/training_results_panel.h"

#include "ui/training/epoch_table_model.h"
#include "ui/training/epoch_table_view.h"
#include "ui/training/training_charts.h"
#include "ui/training/training_page_widgets.h"
#include "ui/training/training_run_controller.h"
#include "ui/training/training_status_text.h"
#include "ui/widgets/stale_banner.h"
#include "ui/widgets/status_colors.h"

#include <QChartView>
#include <QCheckBox>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace stackscope::ui {

TrainingResultsPanel::TrainingResultsPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 0, 0, 0);
    createStatusLines();
    createChartGrid();
    createOutputLine();
    showIdle();
}

// Status, progress, details and the out-of-date banner, then the log-scale switch beside the stall figure.
void TrainingResultsPanel::createStatusLines()
{
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("trainingStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress = new ProgressStrip(this);
    m_progress->setObjectName(QStringLiteral("trainingProgress"));
    m_details = new QLabel(this);
    m_details->setObjectName(QStringLiteral("trainingDetails"));
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setStyleSheet(QStringLiteral("QLabel { color: #555; }"));
    m_staleBanner = new StaleBanner(this);
    m_staleBanner->setObjectName(QStringLiteral("trainingStale"));
    m_logScale = new QCheckBox(tr("Log scale (loss)"), this);
    m_logScale->setObjectName(QStringLiteral("trainingLogScale"));
    m_stallLabel = new QLabel(this);
    m_stallLabel->setObjectName(QStringLiteral("trainingStall"));
    m_stallLabel->setToolTip(tr("The most a 5 ms timer on the GUI thread was late during the run: how long the "
                                "window could not react"));
    auto* v = static_cast<QVBoxLayout*>(layout());
    for (QWidget* w : std::initializer_list<QWidget*> {m_status, m_progress, m_details, createDeviceAdviceBox(),
                                                      m_staleBanner})
        v->addWidget(w);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_logScale);
    bar->addStretch(1);
    bar->addWidget(m_stallLabel);
    v->addLayout(bar);
}

// A light-blue box (information, not a failure): the advice beside its button, hidden until a run carries one.
QWidget* TrainingResultsPanel::createDeviceAdviceBox()
{
    m_adviceBox = new QFrame(this);
    m_adviceBox->setObjectName(QStringLiteral("trainingDeviceAdvice"));
    m_adviceBox->setStyleSheet(
        QStringLiteral("#trainingDeviceAdvice { background: #e7f1fb; border: 1px solid #8db6e0; }"));
    m_adviceText = new QLabel(m_adviceBox);
    m_adviceText->setObjectName(QStringLiteral("trainingDeviceAdviceText"));
    m_adviceText->setWordWrap(true);
    m_adviceText->setTextFormat(Qt::RichText);
    m_adviceText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_adviceButton = new QPushButton(m_adviceBox);
    m_adviceButton->setObjectName(QStringLiteral("trainingUseSuggestedDevice"));
    connect(m_adviceButton, &QPushButton::clicked, this, &TrainingResultsPanel::deviceAdviceButtonClicked);
    auto* h = new QHBoxLayout(m_adviceBox);
    h->setContentsMargins(6, 4, 6, 4);
    h->addWidget(m_adviceText, 1);
    h->addWidget(m_adviceButton, 0, Qt::AlignVCenter);
    m_adviceBox->hide();
    return m_adviceBox;
}

void TrainingResultsPanel::showDeviceAdvice(const std::optional<training::DeviceAdvice>& advice)
{
    if (!advice || advice->kind != training::DeviceAdvice::Kind::FewerGpusFaster) {
        m_adviceBox->hide(); // several GPUs faster: the note says so among the others
        return;
    }
    m_adviceText->setText(deviceAdviceText(*advice));
    m_adviceButton->setText(deviceAdviceButtonText(*advice));
    m_adviceButton->setToolTip(deviceAdviceButtonToolTip(*advice));
    m_adviceBox->show();
}

void TrainingResultsPanel::setDeviceAdviceButtonEnabled(bool enabled)
{
    m_adviceButton->setEnabled(enabled);
}

// Loss and throughput above, memory and the epoch table below.
void TrainingResultsPanel::createChartGrid()
{
    m_charts = new TrainingCharts(this);
    connect(m_logScale, &QCheckBox::toggled, m_charts, &TrainingCharts::setLogScale);
    m_epochModel = new EpochTableModel(this);
    // Columns as wide as their header and recent cells need (not ResizeToContents: that measures every row on each
    // reset, O(epochs) per repaint); "0...." and "Samples/" were Stretch's equal shares at 1024x640.
    m_epochView = new EpochTableView(this);
    m_epochView->setObjectName(QStringLiteral("trainingEpochs"));
    m_epochView->setModel(m_epochModel);
    m_epochView->verticalHeader()->hide();
    m_epochView->verticalHeader()->setDefaultSectionSize(m_epochView->fontMetrics().height() + 6);
    m_epochView->setAlternatingRowColors(true);
    m_epochView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_epochView->setMinimumHeight(120);
    // The newest epoch in view as the table grows (the model is reset with the whole table each time).
    connect(m_epochModel, &QAbstractItemModel::modelReset, m_epochView, &QAbstractItemView::scrollToBottom);
    auto* grid = new QGridLayout;
    grid->addWidget(m_charts->lossView(), 0, 0);
    grid->addWidget(m_charts->samplesView(), 0, 1);
    grid->addWidget(m_charts->memoryView(), 1, 0);
    grid->addWidget(m_epochView, 1, 1);
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);
    static_cast<QVBoxLayout*>(layout())->addLayout(grid, 1);
}

void TrainingResultsPanel::createOutputLine()
{
    m_outputLabel = new QLabel(this);
    m_outputLabel->setObjectName(QStringLiteral("trainingOutputFolder"));
    m_outputLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_outputLabel->setWordWrap(true);
    m_openFolder = new QPushButton(tr("Open folder"), this);
    m_openFolder->setObjectName(QStringLiteral("trainingOpenFolder"));
    m_openFolder->setEnabled(false);
    connect(m_openFolder, &QPushButton::clicked, this, &TrainingResultsPanel::openFolderClicked);
    auto* out = new QHBoxLayout;
    out->addWidget(m_outputLabel, 1);
    out->addWidget(m_openFolder);
    static_cast<QVBoxLayout*>(layout())->addLayout(out);
}

void TrainingResultsPanel::setStatus(const QString& text)
{
    m_status->setText(text);
}

QString TrainingResultsPanel::status() const
{
    return m_status->text();
}

void TrainingResultsPanel::setDetails(const QString& text)
{
    m_details->setText(text);
}

void TrainingResultsPanel::setProgress(double fraction)
{
    m_progress->setFraction(fraction);
}

void TrainingResultsPanel::setOutput(const QString& text, bool openable)
{
    m_outputLabel->setText(text);
    m_openFolder->setEnabled(openable);
}

void TrainingResultsPanel::setStall(const QString& text)
{
    m_stallLabel->setText(text);
}

void TrainingResultsPanel::showStall(double stallMs, double updateMs, double paintMs)
{
    m_stallLabel->setText(tr("longest GUI stall this run: %1 ms").arg(stallMs, 0, 'f', 1));
    // The page's own share: anything above it was the machine (other processes, the trainer's threads on the same
    // cores), not this page's work.
    m_stallLabel->setToolTip(tr("The most a 5 ms timer on the GUI thread was late during the run: how long the "
                                "window could not react.\nThe page's own work took at most %1 ms per update and "
                                "%2 ms per chart paint.")
                                 .arg(updateMs, 0, 'f', 1)
                                 .arg(paintMs, 0, 'f', 1));
}

void TrainingResultsPanel::showIdle()
{
    m_progress->setFraction(0);
    m_details->clear();
    m_status->setText(tr("Set the options and press Start. Training runs in the background; the page stays "
                         "responsive and Stop keeps the last finished epoch."));
    setOutput(tr("Output folder: appears here when a run ends."), false);
}

void TrainingResultsPanel::showStarting(const training::TrainingConfig& config)
{
    setOutput(tr("Output folder: %1 (being written)").arg(QString::fromStdString(config.output)), false);
    setProgress(0);
    setDetails({});
    setStatus(config.resume ? tr("Resuming from %1…").arg(QString::fromStdString(config.output))
                            : tr("Reading %1 and building the features…").arg(QString::fromStdString(config.input)));
    setStall(tr("measuring the GUI thread's longest stall…"));
}

void TrainingResultsPanel::showStopping()
{
    setStatus(tr("Stopping… the trainer stops within one step and keeps the last finished epoch's checkpoint."));
}

void TrainingResultsPanel::showLive(const LiveRun& live, bool stopRequested)
{
    setDetails(liveDetails(live.devices, live.notes));
    if (!live.lastStep || stopRequested)
        return;
    setProgress(progressFraction(*live.lastStep, live.firstEpoch, live.plannedEpochs));
    setStatus(progressText(*live.lastStep, live.plannedEpochs));
}

void TrainingResultsPanel::showEnded(const training::TrainingResult& result, double secondsAfterStop,
                                     int checkpointEpoch, const QString& devices, const QString& output)
{
    setStatus(endedText(result, checkpointEpoch, secondsAfterStop));
    if (result.status != training::TrainingStatus::Stopped)
        setProgress(1);
    setDetails(endedDetails(devices, result));
    setOutput(tr("Output folder: %1").arg(output), true);
}

void TrainingResultsPanel::showFailedOutput(const QString& output)
{
    setOutput(failedOutputText(output, QFileInfo::exists(output + QStringLiteral("/model_metadata.json"))), false);
}

void TrainingResultsPanel::showRecorded(const training::RecordedTrainingRun& run, const QString& origin)
{
    setStatus(recordedText(run, origin));
    setDetails(recordedDetails(run));
    setOutput(tr("Output folder: not on this machine (the run is %1's).").arg(origin), false);
    setProgress(1);
}

void TrainingResultsPanel::showOpenFolderFailed(const QString& folder)
{
    setStatus(QStringLiteral("<span style='color:%1'>%2</span>")
                  .arg(errorColor().name(),
                       tr("Could not open %1 with the desktop's file manager; open it by hand (the path can be copied "
                          "from the line beside the button)")
                           .arg(folder)
                           .toHtmlEscaped()));
}

} // namespace stackscope::ui
