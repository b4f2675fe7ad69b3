// The environment picker: a checkable list (libtorch, Python environments found or added), Add..., and a status line.
#include "ui/probes/python_env_picker.h"
#include "core/util/environment.h"
#include "ui/widgets/file_dialogs.h"

#include "core/python/python_envs.h"
#include "ui/probes/probe_results.h"
#include "ui/settings/settings.h"

#include <QDir>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace stackscope::ui {

namespace {

const QString kLibtorch = QStringLiteral("libtorch");

QStringList rememberedInterpreters()
{
    return Settings().pythonInterpreters();
}

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString homeShortened(QString path)
{
    const QString home = QDir::homePath();
    if (home.size() > 1 && path.startsWith(home + QLatin1Char('/')))
        path.replace(0, home.size(), QStringLiteral("~"));
    return path;
}

} // namespace

QString environmentItemText(const PythonEnvSummary& env)
{
    const QString kind = env.build == "rocm" ? QStringLiteral("ROCm %1").arg(qs(env.hipVersion).section(QLatin1Char('-'), 0, 0))
        : env.build == "cuda"                ? QStringLiteral("CUDA %1").arg(qs(env.cudaVersion))
                                             : QStringLiteral("CPU only");
    return QStringLiteral("%1 \u2014 python %2 \u00b7 torch %3 (%4) \u00b7 %5")
        .arg(qs(environmentShortName("python:" + env.path)), qs(env.pythonVersion), qs(env.torchVersion), kind,
             homeShortened(qs(env.path)));
}

PythonEnvPicker::PythonEnvPicker(QWidget* parent)
    : QWidget(parent)
    , m_list(new QListWidget(this))
    , m_add(new QPushButton(tr("Add\u2026"), this))
    , m_status(new QLabel(this))
{
    m_list->setObjectName(QStringLiteral("pythonEnvironments"));
    // Long interpreter paths are shortened in the middle (the full path is the tooltip), never scrolled sideways.
    m_list->setTextElideMode(Qt::ElideMiddle);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Room for five environments before the list scrolls; the grid below gets the rest of the height.
    m_list->setMaximumHeight(5 * m_list->fontMetrics().height() + 4 * m_list->frameWidth() + 8);
    m_add->setToolTip(tr("Add a Python interpreter (or an environment's folder) whose PyTorch to probe"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* libtorch = new QListWidgetItem(tr("libtorch (StackScope)"), m_list);
    libtorch->setData(Qt::UserRole, kLibtorch);
    libtorch->setToolTip(tr("The PyTorch StackScope was built with (its own torch module)"));
    libtorch->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    libtorch->setCheckState(Qt::Checked);
    for (const auto& path : rememberedInterpreters()) {
        PythonEnvSummary added;
        added.path = path.toStdString();
        added.source = "added";
        addEnvironment(added);
    }

    auto* title = new QLabel(tr("Environments"), this);
    auto* header = new QHBoxLayout;
    header->addWidget(title);
    header->addStretch(1);
    header->addWidget(m_add);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_status);
    setStatus(tr("Python environments are looked for when this page is first shown."));

    connect(m_add, &QPushButton::clicked, this, &PythonEnvPicker::chooseInterpreter);
    connect(m_list, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        const QString env = item->data(Qt::UserRole).toString();
        m_unchecked.removeAll(env);
        if (item->checkState() != Qt::Checked)
            m_unchecked << env;
        Q_EMIT choiceChanged();
    });
}

QStringList PythonEnvPicker::environments() const
{
    QStringList out;
    for (int i = 0; i < m_list->count(); ++i)
        out << m_list->item(i)->data(Qt::UserRole).toString();
    return out;
}

QStringList PythonEnvPicker::checkedEnvironments() const
{
    QStringList out;
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->checkState() == Qt::Checked)
            out << m_list->item(i)->data(Qt::UserRole).toString();
    }
    return out;
}

void PythonEnvPicker::setEnvironmentChecked(const QString& environment, bool checked)
{
    if (auto* item = itemFor(environment))
        item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

QString PythonEnvPicker::statusText() const
{
    return m_status->text();
}

void PythonEnvPicker::setStatus(const QString& text)
{
    m_status->setText(text);
}

QListWidgetItem* PythonEnvPicker::itemFor(const QString& environment) const
{
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->data(Qt::UserRole).toString() == environment)
            return m_list->item(i);
    }
    return nullptr;
}

// Lists (or updates) one environment; checked unless the user turned it off.
QListWidgetItem* PythonEnvPicker::addEnvironment(const PythonEnvSummary& env)
{
    const QString path = qs(env.path);
    const QString id = QStringLiteral("python:") + path;
    auto* item = itemFor(id);
    const QSignalBlocker block(m_list);
    if (!item) {
        item = new QListWidgetItem(m_list);
        item->setData(Qt::UserRole, id);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    }
    item->setText(env.looked
                      ? environmentItemText(env)
                      : tr("%1 \u2014 added earlier, not looked at yet \u00b7 %2")
                            .arg(QString::fromStdString(environmentShortName(id.toStdString())), homeShortened(path)));
    item->setToolTip(tr("%1\nfound as: %2").arg(path, qs(env.source)));
    item->setCheckState(m_unchecked.contains(id) ? Qt::Unchecked : Qt::Checked);
    return item;
}

void PythonEnvPicker::discover()
{
    if (m_discovering)
        return;
    if (envValue(EnvVar::PythonEnvs) == "off") {
        setStatus(tr("Looking for Python environments is off (STACKSCOPE_PYTHON_ENVS=off); add one with Add\u2026"));
        m_discovered = true;
        Q_EMIT discoveryFinished();
        return;
    }
    m_discovering = true;
    setStatus(tr("Looking for Python environments\u2026"));
    PythonPlaces places = PythonPlaces::fromEnvironment();
    for (const auto& p : rememberedInterpreters())
        places.userAdded.push_back(p.toStdString());
    m_discovery.run(
        [places](const JobControl&) {
            QElapsedTimer timer;
            timer.start();
            Discovered found;
            found.envs = pythonEnvSummaries(queryPythonEnvs(pythonCandidates(places)));
            found.milliseconds = timer.elapsed();
            return found;
        },
        [this](const Discovered& found) { onDiscovered(found); },
        [this](const QString& error) {
            m_discovering = false;
            m_discovered = true;
            setStatus(tr("Looking for Python environments failed: %1. Add one with Add\u2026").arg(error));
            Q_EMIT discoveryFinished();
        });
}

void PythonEnvPicker::onDiscovered(const Discovered& discovered)
{
    m_discovering = false;
    m_discovered = true;
    QStringList without, notStarted;
    int found = 0;
    for (const auto& e : discovered.envs) {
        if (!e.notStarted.empty())
            notStarted << tr("%1 (%2)").arg(qs(e.path), qs(e.notStarted));
        if (e.hasTorch == true) {
            addEnvironment(e);
            ++found;
        } else if (auto* item = itemFor(QStringLiteral("python:") + qs(e.path))) {
            delete item; // an added interpreter that no longer has torch
            without << qs(e.path);
        }
    }
    QString text = found == 1 ? tr("1 Python environment with torch") : tr("%1 Python environments with torch").arg(found);
    text += tr(" among %1 interpreters, found in %2 s.")
                .arg(discovered.envs.size())
                .arg(discovered.milliseconds / 1000.0, 0, 'f', 1);
    if (!without.isEmpty())
        text += QLatin1Char(' ') + tr("No torch any more in %1: use Add\u2026 again once it has.").arg(without.join(QStringLiteral(", ")));
    if (!notStarted.isEmpty())
        text += QLatin1Char(' ') + tr("Not started, as they may hold code you did not choose to run: %1. Use Add\u2026 to "
                                      "choose one.").arg(notStarted.join(QStringLiteral("; ")));
    setStatus(text);
    Q_EMIT choiceChanged();
    Q_EMIT discoveryFinished();
}

void PythonEnvPicker::chooseInterpreter()
{
    const QString path = openFileInLastFolder(this, tr("Python interpreter with PyTorch"), QString());
    if (!path.isEmpty())
        addInterpreter(path);
}

void PythonEnvPicker::addInterpreter(const QString& path)
{
    PythonPlaces given;
    given.userAdded = {path.toStdString()};
    const auto candidates = pythonCandidates(given);
    if (candidates.empty()) {
        const QString text = tr("%1: no executable interpreter there; pick a python3 (or its environment's folder).").arg(path);
        setStatus(text);
        Q_EMIT interpreterChecked(path, false, text);
        return;
    }
    setStatus(tr("Asking %1 whether it has torch\u2026").arg(path));
    PythonQueryOptions options;
    options.readFiles = false; // run it: a file look cannot tell that an interpreter starts
    m_adding.run([candidates, options](const JobControl&) { return pythonEnvSummary(queryPythonEnvs(candidates, options).at(0)); },
                 [this, path](const PythonEnvSummary& answer) { onInterpreterAnswer(path, answer); },
                 [this, path](const QString& error) {
                     const QString text = tr("%1 could not be asked whether it has torch: %2").arg(path, error);
                     setStatus(text);
                     Q_EMIT interpreterChecked(path, false, text);
                 });
}

void PythonEnvPicker::onInterpreterAnswer(const QString& path, const PythonEnvSummary& answer)
{
    QString text;
    const bool ok = answer.hasTorch == true;
    if (ok) {
        m_unchecked.removeAll(QStringLiteral("python:") + qs(answer.path));
        addEnvironment(answer);
        remember(qs(answer.path));
        text = tr("Added: %1").arg(environmentItemText(answer));
    } else if (!answer.error.empty()) {
        text = tr("%1 cannot be used: %2").arg(path, qs(answer.error));
    } else {
        text = tr("%1 (Python %2) has no torch: install PyTorch there (pip install torch) or pick another interpreter.")
                   .arg(path, qs(answer.pythonVersion));
    }
    setStatus(text);
    if (ok)
        Q_EMIT choiceChanged();
    Q_EMIT interpreterChecked(path, ok, text);
}

void PythonEnvPicker::remember(const QString& interpreter)
{
    Settings().addPythonInterpreter(interpreter);
}

} // namespace stackscope::ui
