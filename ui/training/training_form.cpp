// TrainingForm: widgets to TrainingConfig and back; the Device box follows the snapshot's GPUs.
#include "ui/training/training_form.h"
#include "ui/widgets/app_paths.h"
#include "ui/widgets/elided_combo_box.h"
#include "ui/widgets/file_dialogs.h"
#include "ui/widgets/path_line_edit.h"
#include "ui/widgets/wrapped_label.h"

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

#include <algorithm>
#include <climits>
#include <utility>

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

// Each field's label by the CLI option it sets: the form's rows and the messages that name an option use it.
constexpr std::pair<const char*, const char*> kFieldLabels[] = {
    {"--input", QT_TRANSLATE_NOOP("stackscope::ui::TrainingForm", "Input CSV")},
    {"--output", QT_TRANSLATE_NOOP("stackscope::ui::TrainingForm", "Output folder")},
    {"--epochs", QT_TRANSLATE_NOOP("stackscope::ui::TrainingForm", "Epochs")},
    {"--batch-size", QT_TRANSLATE_NOOP("stackscope::ui::TrainingForm", "Batch size")},
    {"--lr", QT_TRANSLATE_NOOP("stackscope::ui::TrainingForm", "Learning rate")},
    {"--hidden", QT_TRANSLATE_NOOP("stackscope::ui::TrainingForm", "Hidden layers")},
    {"--dropout", QT_TRANSLATE_NOOP("stackscope::ui::TrainingForm", "Dropout")},
    {"--seed", QT_TRANSLATE_NOOP("stackscope::ui::TrainingForm", "Seed")},
    {"--patience", QT_TRANSLATE_NOOP("stackscope::ui::TrainingForm", "Patience")},
    {"--device", QT_TRANSLATE_NOOP("stackscope::ui::TrainingForm", "Device")},
    {"--precision", QT_TRANSLATE_NOOP("stackscope::ui::TrainingForm", "Precision")},
    {"--step-interval", QT_TRANSLATE_NOOP("stackscope::ui::TrainingForm", "Progress every")},
    {"--nproc", QT_TRANSLATE_NOOP("stackscope::ui::TrainingForm", "Processes")},
    {"--dist-backend", QT_TRANSLATE_NOOP("stackscope::ui::TrainingForm", "Collectives")},
    {"--resume", QT_TRANSLATE_NOOP("stackscope::ui::TrainingForm", "Resume")},
};

// What the Device box offers: auto, the CPU, each GPU of the snapshot by name and size, and all of them together.
std::vector<std::pair<QString, training::DeviceSelection>> deviceChoices(const Snapshot* snapshot)
{
    std::vector<std::pair<QString, training::DeviceSelection>> out {
        {TrainingForm::tr("auto (GPU, else CPU)"), {}},
        {TrainingForm::tr("cpu"), training::DeviceSelection::cpu()}};
    std::vector<int> all;
    for (const auto& gpu : snapshot ? snapshot->gpus : std::vector<GpuInfo> {}) {
        const auto one = training::DeviceSelection::onGpus({gpu.index});
        QString label = QStringLiteral("%1 — %2").arg(QString::fromStdString(one.toString()), QString::fromStdString(gpu.name));
        if (gpu.vramTotalBytes)
            label += QStringLiteral(" (%1 GiB)").arg(double(*gpu.vramTotalBytes) / double(1ULL << 30), 0, 'f', 0);
        out.emplace_back(label, one);
        all.push_back(gpu.index);
    }
    if (all.size() > 1) {
        const auto every = training::DeviceSelection::onGpus(all);
        out.emplace_back(TrainingForm::tr("%1 — all %2 GPUs, one process each")
                             .arg(QString::fromStdString(every.toString()))
                             .arg(all.size()),
                         every);
    }
    return out;
}

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
    m_fieldByOption = {{"--input", m_input},       {"--output", m_output},          {"--epochs", m_epochs},
                       {"--batch-size", m_batch},  {"--lr", m_learningRate},        {"--hidden", m_hidden},
                       {"--dropout", m_dropout},   {"--seed", m_seed},              {"--patience", m_patience},
                       {"--device", m_device},     {"--precision", m_precision},    {"--step-interval", m_stepInterval},
                       {"--nproc", m_processes},   {"--dist-backend", m_distBackend}, {"--resume", m_resume}};
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
    m_input = new PathLineEdit(sampleDataPath(), dataBox);
    m_input->setObjectName(QStringLiteral("trainingInput"));
    m_input->setToolTip(tr("Market data CSV of bars (--input), as the VPOC page reads it"));
    auto* browseInput = new QPushButton(tr("Browse…"), dataBox);
    auto* sample = new QPushButton(tr("Sample data"), dataBox);
    sample->setToolTip(tr("Synthetic ES futures 1-minute bars (20 trading days, deterministic)"));
    m_inputNote = new WrappedLabel(dataBox);
    m_inputNote->setObjectName(QStringLiteral("trainingInputNote"));
    // As tall as the longer of its two notes: switching the input never moves the fields below.
    m_inputNote->setReservedTexts({sampleInputNote(), ownInputNote()});
    // A wrapped label asks for ~280 px by itself: it wraps to whatever the buttons below leave.
    m_inputNote->setMinimumWidth(120);
    m_output = new PathLineEdit(QString(), dataBox);
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
    dataLayout->addWidget(new QLabel(fieldLabel("--input"), dataBox), 0, 0, 1, 3);
    dataLayout->addWidget(m_input, 1, 0, 1, 3);
    dataLayout->addWidget(m_inputNote, 2, 0, 1, 3);
    dataLayout->addWidget(browseInput, 3, 1);
    dataLayout->addWidget(sample, 3, 2);
    dataLayout->addWidget(new QLabel(fieldLabel("--output"), dataBox), 4, 0, 1, 3);
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
    f->addRow(fieldLabel("--epochs"), m_epochs);
    f->addRow(fieldLabel("--batch-size"), m_batch);
    f->addRow(fieldLabel("--lr"), m_learningRate);
    f->addRow(fieldLabel("--hidden"), m_hidden);
    f->addRow(fieldLabel("--dropout"), m_dropout);
    f->addRow(fieldLabel("--seed"), m_seed);
    f->addRow(fieldLabel("--patience"), m_patience);
    return modelBox;
}

// Device, precision, progress interval, processes and collectives, and resume.
QGroupBox* TrainingForm::buildDeviceBox(const training::TrainingConfig& defaults)
{
    auto* whereBox = new QGroupBox(tr("Device"), this);
    auto* w = new QFormLayout(whereBox);
    m_device = new ElidedComboBox(whereBox);
    m_device->setObjectName(QStringLiteral("trainingDevice"));
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
    w->addRow(fieldLabel("--device"), m_device);
    w->addRow(fieldLabel("--precision"), m_precision);
    w->addRow(fieldLabel("--step-interval"), m_stepInterval);
    w->addRow(fieldLabel("--nproc"), m_processes);
    w->addRow(fieldLabel("--dist-backend"), m_distBackend);
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

QString TrainingForm::sampleInputNote()
{
    return tr("Synthetic sample data: generated ES 1-minute bars, not real market data (written here on the first run).");
}

QString TrainingForm::ownInputNote()
{
    return tr("Your data: bars with timestamp, open, high, low, close, volume.");
}

void TrainingForm::updateInputNote()
{
    m_inputNote->setFullText(inputIsSample() ? sampleInputNote() : ownInputNote());
}

// Training runs on this machine, so the box lists this machine's GPUs: while the System page shows a recorded machine
// (a root, a snapshot file, a report) the box keeps the GPUs of this machine's last inspection, and says so.
void TrainingForm::updateDevices()
{
    if (m_snapshots && m_snapshots->isThisMachine())
        m_thisMachine = m_snapshots->snapshot();
    const QString current = m_device->currentData().toString();
    m_device->clear();
    for (const auto& [label, device] : deviceChoices(m_thisMachine.get()))
        m_device->addItem(label, QString::fromStdString(device.toString()));
    selectDevice(current.isEmpty() ? QStringLiteral("auto") : current);
    m_device->setToolTip(deviceToolTip());
}

QString TrainingForm::deviceToolTip() const
{
    QString tip = tr("auto: the first GPU libtorch sees, else the CPU (--device)");
    if (!m_snapshots || !m_snapshots->snapshot() || m_snapshots->isThisMachine())
        return tip;
    tip += QLatin1Char('\n') + tr("The System page shows %1, not this machine. Training runs on this machine, so this "
                                  "list has this machine's GPUs, never the recorded machine's.")
                                   .arg(m_snapshots->originText());
    if (!m_thisMachine)
        tip += QLatin1Char(' ') + tr("This machine has not been inspected in this session: View > Refresh inspects it "
                                     "(auto picks the first GPU libtorch sees here).");
    return tip;
}

void TrainingForm::selectDevice(const QString& device)
{
    if (m_device->findData(device) < 0)
        m_device->addItem(device, device); // a device this machine's snapshot does not list (another machine's run)
    m_device->setCurrentIndex(m_device->findData(device));
}

QString TrainingForm::fieldLabel(const std::string& option)
{
    for (const auto& [flag, label] : kFieldLabels) {
        if (option == flag)
            return tr(label);
    }
    return {};
}

bool TrainingForm::focusField(const std::string& option)
{
    const auto it = std::find_if(m_fieldByOption.begin(), m_fieldByOption.end(), [&](const auto& f) { return f.first == option; });
    if (it == m_fieldByOption.end() || !it->second->isEnabled())
        return false;
    it->second->setFocus(Qt::OtherFocusReason);
    if (auto* edit = qobject_cast<QLineEdit*>(it->second))
        edit->selectAll();
    else if (auto* box = qobject_cast<QAbstractSpinBox*>(it->second))
        box->selectAll();
    return true;
}

training::TrainingConfig TrainingForm::config() const
{
    training::TrainingConfig c;
    c.input = m_input->text().trimmed().toStdString();
    c.output = outputFolder().toStdString();
    if (c.input.empty())
        throw training::ConfigError("--input: choose a market data file (Browse…), or Sample data");
    if (c.output.empty())
        throw training::ConfigError("--output: choose a folder for model.pt and model_metadata.json");
    c.epochs = m_epochs->value();
    c.batchSize = m_batch->value();
    c.learningRate = m_learningRate->value();
    c.hidden = training::parseLayerList(m_hidden->text().trimmed().toStdString(), "--hidden");
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
    selectDevice(QString::fromStdString(c.device.toString()));
    m_precision->setCurrentText(QString::fromStdString(c.precision));
    m_stepInterval->setValue(c.stepInterval);
    m_processes->setValue(c.processes);
    m_distBackend->setCurrentIndex(m_distBackend->findData(static_cast<int>(c.distBackend)));
    m_resume->setChecked(c.resume);
}

} // namespace stackscope::ui
