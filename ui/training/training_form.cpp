// TrainingForm: widgets to TrainingConfig and back; the Device box follows the snapshot's GPUs.
#include "ui/training/training_form.h"
#include "ui/widgets/app_paths.h"
#include "ui/widgets/file_dialogs.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>


#include <climits>

namespace stackscope::ui {

namespace {

QString appData()
{
    return appDataFolder();
}

QSpinBox* spin(QWidget* parent, int lo, int hi, int value)
{
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    s->setValue(value);
    s->setGroupSeparatorShown(true);
    return s;
}

// A learning rate reads as 0.001 or 3e-05, not 0.001000; typing either form works.
class RateSpinBox : public QDoubleSpinBox {
public:
    using QDoubleSpinBox::QDoubleSpinBox;
    QString textFromValue(double value) const override { return QString::number(value, 'g', 6); }
    double valueFromText(const QString& text) const override { return text.trimmed().toDouble(); }
    QValidator::State validate(QString& text, int&) const override
    {
        bool ok = false;
        const double v = text.trimmed().toDouble(&ok);
        if (ok && v >= minimum() && v <= maximum())
            return QValidator::Acceptable;
        return QValidator::Intermediate; // "1e-", "0." while typing
    }
};

QString joinLayers(const std::vector<int>& layers)
{
    QStringList parts;
    for (int h : layers)
        parts << QString::number(h);
    return parts.join(QLatin1Char(','));
}

} // namespace

TrainingForm::TrainingForm(SnapshotController* snapshots, QWidget* parent)
    : QWidget(parent)
    , m_snapshots(snapshots)
{
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->addWidget(buildDataBox());
    const training::TrainingConfig defaults;
    v->addWidget(buildModelBox(defaults));
    v->addWidget(buildDeviceBox(defaults));

    // buildDataBox listed its fields first.
    m_fields += {m_epochs, m_batch, m_learningRate, m_hidden, m_dropout, m_seed, m_patience, m_device, m_precision,
                 m_stepInterval, m_processes, m_distBackend, m_resume};
    setOutputFolder(newDefaultOutput());
    m_generatedOutput = m_output->text();
    updateDevices();
    updateInputNote();
    connectChanges();
    if (m_snapshots)
        connect(m_snapshots, &SnapshotController::snapshotChanged, this, &TrainingForm::updateDevices);
}

// The input CSV (browse, or the sample data) and the output folder.
QGroupBox* TrainingForm::buildDataBox()
{
    auto* dataBox = new QGroupBox(tr("Data and output"), this);
    m_input = new QLineEdit(sampleDataPath(), dataBox);
    m_input->setObjectName(QStringLiteral("trainingInput"));
    m_input->setToolTip(tr("Market data CSV of bars (--input), as the VPOC page reads it"));
    auto* browseInput = new QPushButton(tr("Browse…"), dataBox);
    auto* sample = new QPushButton(tr("Sample data"), dataBox);
    sample->setToolTip(tr("Synthetic ES futures 1-minute bars (20 trading days, deterministic)"));
    m_inputNote = new QLabel(dataBox);
    m_inputNote->setWordWrap(true);
    m_inputNote->setObjectName(QStringLiteral("trainingInputNote"));
    // A wrapped label asks for ~280 px by itself: it wraps to whatever the buttons below leave.
    m_inputNote->setMinimumWidth(120);
    m_output = new QLineEdit(dataBox);
    m_output->setObjectName(QStringLiteral("trainingOutput"));
    m_output->setToolTip(tr("Folder for model.pt, checkpoint.pt and model_metadata.json (--output)"));
    auto* browseOutput = new QPushButton(tr("Browse…"), dataBox);
    connect(browseInput, &QPushButton::clicked, this, [this] {
        const QString path = openFileInLastFolder(this, tr("Market data"), tr("CSV (*.csv *.txt);;All files (*)"));
        if (!path.isEmpty())
            m_input->setText(path);
    });
    connect(sample, &QPushButton::clicked, this, [this] { m_input->setText(sampleDataPath()); });
    connect(browseOutput, &QPushButton::clicked, this, [this] {
        const QString path = folderInLastFolder(this, tr("Output folder"), m_output->text());
        if (!path.isEmpty())
            m_output->setText(path);
    });
    connect(m_input, &QLineEdit::textChanged, this, &TrainingForm::updateInputNote);
    auto* dataLayout = new QGridLayout(dataBox);
    dataLayout->addWidget(new QLabel(tr("Input CSV"), dataBox), 0, 0, 1, 3);
    dataLayout->addWidget(m_input, 1, 0, 1, 3);
    dataLayout->addWidget(m_inputNote, 2, 0, 1, 3);
    dataLayout->addWidget(browseInput, 3, 1);
    dataLayout->addWidget(sample, 3, 2);
    dataLayout->addWidget(new QLabel(tr("Output folder"), dataBox), 4, 0, 1, 3);
    dataLayout->addWidget(m_output, 5, 0, 1, 3);
    dataLayout->addWidget(browseOutput, 6, 2);
    dataLayout->setColumnStretch(0, 1);
    m_fields = {m_input, browseInput, sample, m_output, browseOutput};
    return dataBox;
}

QGroupBox* TrainingForm::buildModelBox(const training::TrainingConfig& defaults)
{
    auto* modelBox = new QGroupBox(tr("Model and optimiser"), this);
    auto* f = new QFormLayout(modelBox);
    m_epochs = spin(modelBox, 1, 100000, defaults.epochs);
    m_batch = spin(modelBox, 1, 1 << 24, defaults.batchSize);
    m_learningRate = new RateSpinBox(modelBox);
    m_learningRate->setDecimals(8); // the value keeps this many decimals; the text shows significant digits
    m_learningRate->setRange(0.00000001, 10);
    m_learningRate->setSingleStep(0.0005);
    m_learningRate->setValue(defaults.learningRate);
    m_hidden = new QLineEdit(joinLayers(defaults.hidden), modelBox);
    m_hidden->setToolTip(tr("Units per hidden layer, separated by commas (--hidden)"));
    m_dropout = new QDoubleSpinBox(modelBox);
    m_dropout->setRange(0, 0.95);
    m_dropout->setSingleStep(0.05);
    m_dropout->setValue(defaults.dropout);
    m_seed = spin(modelBox, 0, INT_MAX, static_cast<int>(defaults.seed));
    m_seed->setGroupSeparatorShown(false);
    m_patience = spin(modelBox, 0, 100000, defaults.patience);
    m_patience->setSpecialValueText(tr("never stop early"));
    m_patience->setToolTip(tr("Stop after this many epochs without a better validation loss (--patience)"));
    f->addRow(tr("Epochs"), m_epochs);
    f->addRow(tr("Batch size"), m_batch);
    f->addRow(tr("Learning rate"), m_learningRate);
    f->addRow(tr("Hidden layers"), m_hidden);
    f->addRow(tr("Dropout"), m_dropout);
    f->addRow(tr("Seed"), m_seed);
    f->addRow(tr("Patience"), m_patience);
    return modelBox;
}

// Device, precision, progress interval, processes and collectives, and resume.
QGroupBox* TrainingForm::buildDeviceBox(const training::TrainingConfig& defaults)
{
    auto* whereBox = new QGroupBox(tr("Device"), this);
    auto* w = new QFormLayout(whereBox);
    m_device = new QComboBox(whereBox);
    m_device->setObjectName(QStringLiteral("trainingDevice"));
    m_device->setToolTip(tr("auto: the first GPU libtorch sees, else the CPU (--device)"));
    // As narrow as a short name: a GPU's long name in the closed box pushed the form past the window at 1024x640
    // (the list shows whole names).
    m_device->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_device->setMinimumContentsLength(10);
    m_precision = new QComboBox(whereBox);
    m_precision->addItem(QStringLiteral("fp32"));
    m_precision->addItem(QStringLiteral("bf16"));
    m_precision->setToolTip(tr("bf16 autocast needs a GPU with bf16 arithmetic (--precision)"));
    m_stepInterval = spin(whereBox, 1, 100000, defaults.stepInterval); // "100,000 steps" sets the column's width
    m_stepInterval->setSuffix(tr(" steps"));
    m_stepInterval->setToolTip(tr("Steps between progress reports; each report waits for the GPU once (--step-interval)"));
    m_processes = spin(whereBox, 0, 1024, defaults.processes);
    m_processes->setObjectName(QStringLiteral("trainingProcesses"));
    m_processes->setSpecialValueText(tr("one per GPU"));
    m_processes->setToolTip(tr("Processes (ranks) to start: one per GPU of the Device, or N ranks on the CPU or "
                               "sharing one GPU (--nproc)"));
    m_distBackend = new QComboBox(whereBox);
    m_distBackend->setObjectName(QStringLiteral("trainingDistBackend"));
    for (const auto& [backend, name] : training::kDistBackends)
        m_distBackend->addItem(QString::fromLatin1(name), static_cast<int>(backend));
    m_distBackend->setToolTip(tr("Collectives between processes: auto is nccl (RCCL on ROCm) on GPUs, gloo on the "
                                 "CPU (--dist-backend)"));
    m_resume = new QCheckBox(tr("Resume from its checkpoint"), whereBox);
    m_resume->setObjectName(QStringLiteral("trainingResume"));
    m_resume->setToolTip(tr("Continue the stopped run in the output folder from its checkpoint, with the same options "
                            "(--resume)"));
    w->addRow(tr("Device"), m_device);
    w->addRow(tr("Precision"), m_precision);
    w->addRow(tr("Progress every"), m_stepInterval);
    w->addRow(tr("Processes"), m_processes);
    w->addRow(tr("Collectives"), m_distBackend);
    w->addRow(m_resume);
    return whereBox;
}

void TrainingForm::connectChanges()
{
    for (auto* edit : {m_input, m_output, m_hidden})
        connect(edit, &QLineEdit::textChanged, this, &TrainingForm::optionsChanged);
    for (auto* box : {m_epochs, m_batch, m_seed, m_patience, m_stepInterval, m_processes})
        connect(box, &QSpinBox::valueChanged, this, &TrainingForm::optionsChanged);
    for (auto* box : {m_learningRate, m_dropout})
        connect(box, &QDoubleSpinBox::valueChanged, this, &TrainingForm::optionsChanged);
    for (auto* box : {m_device, m_precision, m_distBackend})
        connect(box, &QComboBox::currentIndexChanged, this, &TrainingForm::optionsChanged);
    connect(m_resume, &QCheckBox::toggled, this, &TrainingForm::optionsChanged);
}

QString TrainingForm::sampleDataPath()
{
    return appData() + QStringLiteral("/sample-es-1min-bars.csv");
}

QString TrainingForm::newDefaultOutput()
{
    return appData() + QStringLiteral("/training/run-") +
           QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
}

bool TrainingForm::inputIsSample() const
{
    return QDir::cleanPath(m_input->text().trimmed()) == QDir::cleanPath(sampleDataPath());
}

bool TrainingForm::outputIsDefault() const
{
    return m_output->text() == m_generatedOutput;
}

void TrainingForm::setOutputFolder(const QString& path)
{
    m_output->setText(path);
    if (path.startsWith(appData() + QStringLiteral("/training/run-")))
        m_generatedOutput = path;
}

QString TrainingForm::outputFolder() const
{
    return m_output->text().trimmed();
}

void TrainingForm::setResume(bool resume)
{
    m_resume->setChecked(resume);
}

bool TrainingForm::resume() const
{
    return m_resume->isChecked();
}

void TrainingForm::setEditable(bool editable)
{
    for (QWidget* widget : m_fields)
        widget->setEnabled(editable);
}

void TrainingForm::updateInputNote()
{
    m_inputNote->setText(inputIsSample()
                             ? tr("Synthetic sample data: generated ES 1-minute bars, not real market data "
                                  "(written here on the first run).")
                             : tr("Your data: bars with timestamp, open, high, low, close, volume."));
}

void TrainingForm::updateDevices()
{
    const QString current = m_device->currentData().toString();
    m_device->clear();
    m_device->addItem(tr("auto (a GPU when libtorch sees one)"), QStringLiteral("auto"));
    m_device->addItem(tr("cpu"), QStringLiteral("cpu"));
    const auto snapshot = m_snapshots ? m_snapshots->snapshot() : nullptr;
    if (snapshot) {
        QStringList all;
        for (const auto& gpu : snapshot->gpus) {
            const QString id = QStringLiteral("gpu:%1").arg(gpu.index);
            QString label = QStringLiteral("%1 — %2").arg(id, QString::fromStdString(gpu.name));
            if (gpu.vramTotalBytes)
                label += QStringLiteral(" (%1 GiB)").arg(double(*gpu.vramTotalBytes) / double(1ULL << 30), 0, 'f', 0);
            m_device->addItem(label, id);
            all << QString::number(gpu.index);
        }
        if (all.size() > 1) {
            const QString id = QStringLiteral("gpu:") + all.join(QLatin1Char(','));
            m_device->addItem(tr("%1 — all %2 GPUs, one process each").arg(id).arg(all.size()), id);
        }
    }
    const int keep = m_device->findData(current.isEmpty() ? QStringLiteral("auto") : current);
    if (keep >= 0) {
        m_device->setCurrentIndex(keep);
    } else {
        m_device->addItem(current, current); // a device named before this snapshot (another machine's run)
        m_device->setCurrentIndex(m_device->count() - 1);
    }
}

QString TrainingForm::explainError(const QString& message)
{
    static const std::pair<const char*, const char*> fields[] = {
        {"--input", "Input CSV"},        {"--output", "Output folder"}, {"--epochs", "Epochs"},
        {"--batch-size", "Batch size"},  {"--lr", "Learning rate"},     {"--hidden", "Hidden layers"},
        {"--dropout", "Dropout"},        {"--seed", "Seed"},            {"--patience", "Patience"},
        {"--device", "Device"},          {"--precision", "Precision"},  {"--step-interval", "Progress every"},
        {"--nproc", "Processes"},        {"--dist-backend", "Collectives"}, {"--resume", "Resume"}};
    for (const auto& [option, label] : fields) {
        const QString o = QString::fromLatin1(option);
        if (message.startsWith(o) && (message.size() == o.size() || message[o.size()] == QLatin1Char(' ') ||
                                      message[o.size()] == QLatin1Char(':')))
            return tr("%1 (%2)").arg(tr(label), message);
    }
    return message;
}

training::TrainingConfig TrainingForm::config() const
{
    training::TrainingConfig c;
    c.input = m_input->text().trimmed().toStdString();
    c.output = outputFolder().toStdString();
    if (c.input.empty())
        throw training::ConfigError("Input CSV: choose a market data file (Browse…), or Sample data");
    if (c.output.empty())
        throw training::ConfigError("Output folder: choose a folder for model.pt and model_metadata.json");
    c.epochs = m_epochs->value();
    c.batchSize = m_batch->value();
    c.learningRate = m_learningRate->value();
    c.hidden = training::parseLayerList(m_hidden->text().trimmed().toStdString(), "Hidden layers");
    c.dropout = m_dropout->value();
    c.seed = static_cast<uint64_t>(m_seed->value());
    c.patience = m_patience->value();
    c.device = training::parseDevices(m_device->currentData().toString().toStdString()); // the list's own text
    c.precision = m_precision->currentText().toStdString();
    c.stepInterval = m_stepInterval->value();
    c.processes = m_processes->value();
    c.distBackend = static_cast<training::DistBackend>(m_distBackend->currentData().toInt());
    c.resume = m_resume->isChecked();
    return c;
}

void TrainingForm::setConfig(const training::TrainingConfig& c)
{
    m_input->setText(QString::fromStdString(c.input));
    setOutputFolder(QString::fromStdString(c.output));
    m_epochs->setValue(c.epochs);
    m_batch->setValue(c.batchSize);
    m_learningRate->setValue(c.learningRate);
    m_hidden->setText(joinLayers(c.hidden));
    m_dropout->setValue(c.dropout);
    m_seed->setValue(static_cast<int>(std::min<uint64_t>(c.seed, INT_MAX)));
    m_patience->setValue(c.patience);
    const QString device = QString::fromStdString(c.device.toString());
    int index = m_device->findData(device);
    if (index < 0) {
        m_device->addItem(device, device);
        index = m_device->count() - 1;
    }
    m_device->setCurrentIndex(index);
    m_precision->setCurrentText(QString::fromStdString(c.precision));
    m_stepInterval->setValue(c.stepInterval);
    m_processes->setValue(c.processes);
    m_distBackend->setCurrentIndex(m_distBackend->findData(static_cast<int>(c.distBackend)));
    m_resume->setChecked(c.resume);
}

} // namespace stackscope::ui
