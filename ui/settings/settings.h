// The GUI's one Settings object: every value StackScope keeps between sessions, typed, over QSettings (after
// hotspot's Settings). Nothing else in ui/ opens QSettings; the environment variables are in docs/environment.md.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

class QSettings;

namespace stackscope::ui {

class Settings {
public:
    // The application's settings (QCoreApplication's organisation and name: ~/.config/StackScope/StackScope.conf).
    Settings();
    // A settings file of its own (tests).
    explicit Settings(const QString& iniFile);
    ~Settings();
    Settings(const Settings&) = delete;
    Settings& operator=(const Settings&) = delete;

    // The folder the file dialogs start in: the last one chosen in any of them; empty when none was (or it is gone).
    QString lastDialogFolder() const;
    void setLastDialogFolder(const QString& folder);

    // The Python interpreters added on the Probes page (Add...), listed at every start, in the order added.
    QStringList pythonInterpreters() const;
    void addPythonInterpreter(const QString& interpreter);

    // The main window's geometry and its docks and toolbars (QMainWindow::saveGeometry / saveState); empty: none kept.
    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& geometry);
    QByteArray windowState() const;
    void setWindowState(const QByteArray& state);
    // The page shown last ("System", "Probes", "VPOC", "Training", "Report"); empty: none kept.
    QString lastPage() const;
    void setLastPage(const QString& page);

    // The VPOC page's last input file; empty: none kept.
    QString vpocInput() const;
    void setVpocInput(const QString& path);
    // The Training page's last options, as a run's JSON writes them (training::toJson; read back by
    // training::configFromJson); empty: none kept.
    QByteArray trainingOptions() const;
    void setTrainingOptions(const QByteArray& json);

private:
    QSettings* m_settings;
};

} // namespace stackscope::ui
