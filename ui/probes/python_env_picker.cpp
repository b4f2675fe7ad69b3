// The environment picker: a checkable list (libtorch, Python environments found or added), Add..., and a status line.
#include "ui/probes/python_env_picker.h"
#include "ui/widgets/file_dialogs.h"

#include "core/python/python_envs.h"
#include "ui/probes/probe_results.h"

#include <QDir>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QThreadPool>
#include <QVBoxLayout>

namespace stackscope::ui {

namespace {

const char* const kSettingsKey = "probes/pythonInterpreters";
const QString kLibtorch = QStringLiteral("libtorch");

QStringList rememberedInterpreters()
{
    return QSettings().value(QLatin1String(kSettingsKey)).toStringList();
}

QString str(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

QString homeShortened(QString path)
{
    const QString home = QDir::homePath();
    if (home.size() > 1 && path.startsWith(home + QLatin1Char('/')))
        path.replace(0, home.size(), QStringLiteral("~"));
    return path;
}

} // namespace

QString environmentItemText(const nlohmann::json& env)
{
    const QString build = str(env, "build");
    QString kind = build == QLatin1String("rocm") ? QStringLiteral("ROCm %1").arg(str(env, "hip_version").section(QLatin1Char('-'), 0, 0))
        : build == QLatin1String("cuda")          ? QStringLiteral("CUDA %1").arg(str(env, "cuda_version"))
                                                  : QStringLiteral("CPU only");
    return QStringLiteral("%1 \u2014 python %2 \u00b7 torch %3 (%4) \u00b7 %5")
        .arg(QString::fromStdString(environmentShortName("python:" + str(env, "path").toStdString())),
             str(env, "python_version"), str(env, "torch_version"), kind, homeShortened(str(env, "path")));
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
    for (const auto& path : rememberedInterpreters())
        addEnvironment({{"path", path.toStdString()}, {"source", "added"}});

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
QListWidgetItem* PythonEnvPicker::addEnvironment(const nlohmann::json& env)
{
    const QString path = str(env, "path");
    const QString id = QStringLiteral("python:") + path;
    auto* item = itemFor(id);
    const QSignalBlocker block(m_list);
    if (!item) {
        item = new QListWidgetItem(m_list);
        item->setData(Qt::UserRole, id);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    }
    item->setText(env.contains("torch_version")
                      ? environmentItemText(env)
                      : tr("%1 \u2014 added earlier, not looked at yet \u00b7 %2")
                            .arg(QString::fromStdString(environmentShortName(id.toStdString())), homeShortened(path)));
    item->setToolTip(tr("%1\nfound as: %2").arg(path, str(env, "source")));
    item->setCheckState(m_unchecked.contains(id) ? Qt::Unchecked : Qt::Checked);
    return item;
}

void PythonEnvPicker::discover()
{
    if (m_discovering)
        return;
    if (qEnvironmentVariable("STACKSCOPE_PYTHON_ENVS") == QLatin1String("off")) {
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
    QPointer<PythonEnvPicker> self(this);
    QThreadPool::globalInstance()->start([self, places] {
        QElapsedTimer timer;
        timer.start();
        auto envs = queryPythonEnvs(pythonCandidates(places));
        const qint64 ms = timer.elapsed();
        if (self)
            QMetaObject::invokeMethod(self.data(), [self, envs, ms] {
                if (self)
                    self->onDiscovered(envs, ms);
            }, Qt::QueuedConnection);
    });
}

void PythonEnvPicker::onDiscovered(const nlohmann::json& envs, qint64 milliseconds)
{
    m_discovering = false;
    m_discovered = true;
    QStringList without, notStarted;
    int found = 0;
    for (const auto& e : envs) {
        if (e.contains("not_started"))
            notStarted << tr("%1 (%2)").arg(str(e, "path"), str(e, "not_started"));
        if (e.value("has_torch", nlohmann::json(false)) == nlohmann::json(true)) {
            addEnvironment(e);
            ++found;
        } else if (auto* item = itemFor(QStringLiteral("python:") + str(e, "path"))) {
            delete item; // an added interpreter that no longer has torch
            without << str(e, "path");
        }
    }
    QString text = found == 1 ? tr("1 Python environment with torch") : tr("%1 Python environments with torch").arg(found);
    text += tr(" among %1 interpreters, found in %2 s.").arg(envs.size()).arg(milliseconds / 1000.0, 0, 'f', 1);
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
    QPointer<PythonEnvPicker> self(this);
    QThreadPool::globalInstance()->start([self, path, candidates, options] {
        const auto answer = queryPythonEnvs(candidates, options).at(0);
        if (self)
            QMetaObject::invokeMethod(self.data(), [self, path, answer] {
                if (self)
                    self->onInterpreterAnswer(path, answer);
            }, Qt::QueuedConnection);
    });
}

void PythonEnvPicker::onInterpreterAnswer(const QString& path, const nlohmann::json& answer)
{
    QString text;
    const bool ok = answer.value("has_torch", nlohmann::json(false)) == nlohmann::json(true);
    if (ok) {
        m_unchecked.removeAll(QStringLiteral("python:") + str(answer, "path"));
        addEnvironment(answer);
        remember(str(answer, "path"));
        text = tr("Added: %1").arg(environmentItemText(answer));
    } else if (answer.contains("error")) {
        text = tr("%1 cannot be used: %2").arg(path, str(answer, "error"));
    } else {
        text = tr("%1 (Python %2) has no torch: install PyTorch there (pip install torch) or pick another interpreter.")
                   .arg(path, str(answer, "python_version"));
    }
    setStatus(text);
    if (ok)
        Q_EMIT choiceChanged();
    Q_EMIT interpreterChecked(path, ok, text);
}

void PythonEnvPicker::remember(const QString& interpreter)
{
    QSettings settings;
    QStringList list = settings.value(QLatin1String(kSettingsKey)).toStringList();
    if (!list.contains(interpreter)) {
        list << interpreter;
        settings.setValue(QLatin1String(kSettingsKey), list);
    }
}

} // namespace stackscope::ui
