// VPOC page: the form, the status and the results side by side, wired to the controller.
#include "ui/vpoc/vpoc_page.h"

#include "core/util/atomic_file.h"
#include "core/vpoc/sample_data.h"
#include "ui/vpoc/option_changes.h"
#include "ui/vpoc/vpoc_controller.h"
#include "ui/vpoc/vpoc_form.h"
#include "ui/vpoc/vpoc_results_view.h"
#include "ui/vpoc/vpoc_status.h"
#include "ui/widgets/app_paths.h"

#include <QDir>
#include <QDragEnterEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMimeData>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>

namespace stackscope::ui {

VpocPage::VpocPage(QWidget* parent)
    : QWidget(parent)
    , m_controller(new VpocController(this))
{
    setAcceptDrops(true);
    m_results = new VpocResultsView(this);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(createFormColumn());
    split->addWidget(m_results);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("<h2>VPOC</h2>"), this));
    layout->addWidget(split, 1);
    connectController();
    // Every option that changes the results marks them when it differs from the run's.
    connect(m_form, &VpocForm::changed, this, &VpocPage::markResults);
    connect(m_form, &VpocForm::sampleDataAsked, this, &VpocPage::useSampleData);
    connect(m_status, &VpocStatus::runClicked, this, &VpocPage::run);
    connect(m_status, &VpocStatus::cancelClicked, this, &VpocPage::cancel);
    connect(m_results, &VpocResultsView::exported, this, [this](const QString& text) { m_status->setStatus(text); });
    connect(m_results, &VpocResultsView::exportFailed, m_status, &VpocStatus::showError);
    markResults();
}

// The options scroll on their own; Run, the progress and the status line stay in view below them (at 1024x640
// with a report's banner the form's rows were squeezed and an error line fell below the window).
QWidget* VpocPage::createFormColumn()
{
    auto* column = new QWidget(this);
    column->setMaximumWidth(360);
    m_form = new VpocForm(column);
    auto* scroll = new QScrollArea(column);
    scroll->setObjectName(QStringLiteral("vpocFormScroll"));
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(m_form->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width());
    scroll->setMinimumHeight(120);
    m_status = new VpocStatus(column);
    auto* c = new QVBoxLayout(column);
    c->setContentsMargins(0, 0, 0, 0);
    c->addWidget(scroll, 1);
    c->addWidget(m_status);
    return column;
}

void VpocPage::connectController()
{
    connect(m_controller, &VpocController::resultChanged, this, [this] {
        m_results->showResult(m_controller->result(), !m_controller->recordedOrigin().isEmpty());
        markResults();
    });
    connect(m_controller, &VpocController::progressed, this, [this](int permille, const QString& text) {
        m_status->setProgress(permille);
        m_status->setStatus(text);
    });
    connect(m_controller, &VpocController::succeeded, this, &VpocPage::onSucceeded);
    connect(m_controller, &VpocController::failed, this, [this](const QString& error) {
        m_status->setRunning(false);
        m_status->showError(error);
        Q_EMIT finished(false);
    });
    connect(m_controller, &VpocController::cancelled, this, [this] {
        m_status->setRunning(false);
        m_status->setStatus(tr("Cancelled; the previous results are kept."));
        Q_EMIT finished(false);
    });
}

void VpocPage::run()
{
    vpoc::VpocRequest request;
    try {
        request = m_form->request();
        if (request.options.input.empty())
            throw std::invalid_argument("choose an input file (Browse…, drop a file here, or Sample data)");
    } catch (const std::exception& e) {
        m_status->showError(QString::fromStdString(e.what()));
        Q_EMIT finished(false);
        return;
    }
    m_status->setRunning(true);
    m_status->setProgress(0);
    m_status->setStatus(tr("Reading %1…").arg(m_form->inputText()));
    m_controller->run(request.options);
}

void VpocPage::onSucceeded(const QString& text, const QString& details)
{
    m_status->setRunning(false);
    m_status->setProgress(1000);
    m_status->setStatus(text, details);
    Q_EMIT finished(true);
}

void VpocPage::cancel()
{
    m_controller->cancel(); // its cancelled() resets the controls and says so
}

void VpocPage::showProgress(const vpoc::VpocProgress& p)
{
    m_controller->reportProgress(p);
}

// Results stay beside the input and options they came from: another path or a changed option marks them.
void VpocPage::markResults()
{
    const auto& result = m_controller->result();
    QStringList changes;
    if (result) {
        try {
            auto now = m_form->request().options;
            if (!m_controller->recordedOrigin().isEmpty())
                now.developing = result->options.developing; // a report records no developing values: not a change
            changes = vpocOptionChanges(result->options, now);
        } catch (const std::exception& e) { // a value the form cannot give: not the run's either
            changes << QString::fromStdString(e.what());
        }
    }
    const ResultsMark mark = resultsMark(
        result.get(), m_controller->resultInput(), m_controller->recordedOrigin(), m_form->inputText(), changes);
    m_results->applyMark(mark);
    m_stale = mark.stale;
}

bool VpocPage::showRecordedRun(std::shared_ptr<const vpoc::VpocResult> result, const QString& origin)
{
    const auto sessions = result ? result->sessions.size() : 0;
    const auto rows = result ? result->rows : 0;
    const QString backend = result ? QString::fromStdString(result->backend) : QString();
    const vpoc::VpocOptions ran = result ? result->options : vpoc::VpocOptions {};
    if (!m_controller->showRecorded(std::move(result), origin))
        return false;
    // The form shows the options the run was made with, so form and results agree; a value it cannot hold leaves
    // the results marked (markResults: "Out of date: computed with …").
    m_form->setOptions(ran);
    m_status->setStatus(tr("%1 from %2 (%3 rows, %4). Press Run to compute them here.")
                            .arg(sessions == 1 ? tr("1 session") : tr("%1 sessions").arg(sessions))
                            .arg(origin)
                            .arg(rows)
                            .arg(backend));
    return true;
}

void VpocPage::clearRecordedRun()
{
    if (!showsRecordedRun())
        return;
    m_controller->clear();
    m_status->setStatus(tr("Choose a file or the sample data, then Run."));
}

bool VpocPage::showsRecordedRun() const
{
    return !m_controller->recordedOrigin().isEmpty();
}

QString VpocPage::useSampleData()
{
    const QString dir = appDataFolder();
    const QString path = dir + QStringLiteral("/sample-es-1min-bars.csv");
    if (!QFileInfo::exists(path)) {
        try {
            QDir().mkpath(dir);
            writeFileAtomically(path.toStdString(), vpoc::generateSampleData(vpoc::SampleDataOptions {}));
        } catch (const std::exception& e) {
            m_status->showError(tr("Could not write the sample data: %1").arg(QString::fromStdString(e.what())));
            return {};
        }
    }
    setInputFile(path);
    m_status->setStatus(tr("Sample data selected: synthetic ES 1-minute bars (not real market data)."));
    return path;
}

bool VpocPage::exportPng(const QString& path)
{
    const QString error = m_results->exportPng(path);
    if (!error.isEmpty()) {
        m_status->showError(error);
        return false;
    }
    m_status->setStatus(tr("Charts written to %1").arg(path));
    return true;
}

bool VpocPage::exportCsv(const QString& path)
{
    const QString error = m_results->exportCsv(path);
    if (!error.isEmpty()) {
        m_status->showError(error);
        return false;
    }
    m_status->setStatus(tr("Sessions and profile written to %1").arg(path));
    return true;
}

SessionModel* VpocPage::sessionModel() const
{
    return m_results->sessionModel();
}
VolumeProfileView* VpocPage::profileView() const
{
    return m_results->profileView();
}
QChart* VpocPage::priceChart() const
{
    return m_results->priceChart();
}
QChartView* VpocPage::priceView() const
{
    return m_results->priceView();
}
QString VpocPage::statusText() const
{
    return m_status->text();
}
bool VpocPage::isRunning() const
{
    return m_controller->isRunning();
}
bool VpocPage::hasResults() const
{
    return m_controller->result() != nullptr;
}
QString VpocPage::detailText() const
{
    return m_status->details();
}
bool VpocPage::statusIsError() const
{
    return m_status->isError();
}
void VpocPage::setInputFile(const QString& path)
{
    m_form->setInputFile(path);
}

void VpocPage::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void VpocPage::dropEvent(QDropEvent* event)
{
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile())
        setInputFile(urls.first().toLocalFile());
}

} // namespace stackscope::ui
