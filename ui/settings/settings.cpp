// The keys under which Settings keeps its values: written here once.
#include "ui/settings/settings.h"

#include <QFileInfo>
#include <QSettings>

namespace stackscope::ui {

namespace {

const QString kLastDialogFolder = QStringLiteral("dialogs/lastFolder");
const QString kPythonInterpreters = QStringLiteral("probes/pythonInterpreters");
const QString kWindowGeometry = QStringLiteral("window/geometry");
const QString kWindowState = QStringLiteral("window/state");
const QString kLastPage = QStringLiteral("window/page");
const QString kVpocInput = QStringLiteral("vpoc/input");
const QString kTrainingOptions = QStringLiteral("training/options");

} // namespace

Settings::Settings()
    : m_settings(new QSettings)
{
}

Settings::Settings(const QString& iniFile)
    : m_settings(new QSettings(iniFile, QSettings::IniFormat))
{
}

Settings::~Settings()
{
    delete m_settings;
}

QString Settings::lastDialogFolder() const
{
    const QString saved = m_settings->value(kLastDialogFolder).toString();
    return !saved.isEmpty() && QFileInfo(saved).isDir() ? saved : QString();
}

void Settings::setLastDialogFolder(const QString& folder)
{
    m_settings->setValue(kLastDialogFolder, folder);
}

QStringList Settings::pythonInterpreters() const
{
    return m_settings->value(kPythonInterpreters).toStringList();
}

void Settings::addPythonInterpreter(const QString& interpreter)
{
    QStringList list = pythonInterpreters();
    if (!list.contains(interpreter)) {
        list << interpreter;
        m_settings->setValue(kPythonInterpreters, list);
    }
}

QByteArray Settings::windowGeometry() const
{
    return m_settings->value(kWindowGeometry).toByteArray();
}

void Settings::setWindowGeometry(const QByteArray& geometry)
{
    m_settings->setValue(kWindowGeometry, geometry);
}

QByteArray Settings::windowState() const
{
    return m_settings->value(kWindowState).toByteArray();
}

void Settings::setWindowState(const QByteArray& state)
{
    m_settings->setValue(kWindowState, state);
}

QString Settings::lastPage() const
{
    return m_settings->value(kLastPage).toString();
}

void Settings::setLastPage(const QString& page)
{
    m_settings->setValue(kLastPage, page);
}

QString Settings::vpocInput() const
{
    return m_settings->value(kVpocInput).toString();
}

void Settings::setVpocInput(const QString& path)
{
    m_settings->setValue(kVpocInput, path);
}

QByteArray Settings::trainingOptions() const
{
    return m_settings->value(kTrainingOptions).toByteArray();
}

void Settings::setTrainingOptions(const QByteArray& json)
{
    m_settings->setValue(kTrainingOptions, json);
}

} // namespace stackscope::ui
