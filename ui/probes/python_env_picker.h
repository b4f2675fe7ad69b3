// The Probes page's environment picker: libtorch (StackScope) and every Python environment with torch, checkable.
#pragma once

#include "core/python/python_envs.h"
#include "ui/jobs/job_tracker.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QLabel;
class QListWidget;
class QListWidgetItem;
class QPushButton;

namespace stackscope::ui {

class PythonEnvPicker : public QWidget {
    Q_OBJECT
public:
    // Lists libtorch and the interpreters added earlier (Settings::pythonInterpreters); discover() adds the
    // environments found on this machine.
    explicit PythonEnvPicker(QWidget* parent = nullptr);

    // The environments to probe, in the list's order: "libtorch" and "python:" + interpreter.
    QStringList checkedEnvironments() const;
    QStringList environments() const;
    void setEnvironmentChecked(const QString& environment, bool checked);
    bool isDiscovering() const { return m_discovering; }
    bool hasDiscovered() const { return m_discovered; }
    QListWidget* list() const { return m_list; }
    QString statusText() const;

public Q_SLOTS:
    // Looks for Python environments off the GUI thread (core/python/python_envs.h, the quick look); the added ones
    // are looked at again. STACKSCOPE_PYTHON_ENVS=off turns this off (the list keeps libtorch and the added ones).
    void discover();
    // Runs `path` (an interpreter, or an environment's folder) to see whether it has torch; one that has is listed,
    // checked and remembered, one that has not is named in the status with why.
    void addInterpreter(const QString& path);

Q_SIGNALS:
    void choiceChanged();
    void discoveryFinished();
    // After addInterpreter: `ok` when it was listed; `text` is what the status line says.
    void interpreterChecked(const QString& path, bool ok, const QString& text);

private:
    void chooseInterpreter();
    struct Discovered {
        std::vector<PythonEnvSummary> envs;
        qint64 milliseconds = 0;
    };
    void onDiscovered(const Discovered& found);
    void onInterpreterAnswer(const QString& path, const PythonEnvSummary& answer);
    QListWidgetItem* itemFor(const QString& environment) const;
    QListWidgetItem* addEnvironment(const PythonEnvSummary& env);
    void remember(const QString& interpreter);
    void setStatus(const QString& text);

    QListWidget* m_list = nullptr;
    QPushButton* m_add = nullptr;
    QLabel* m_status = nullptr;
    QStringList m_unchecked; // environments the user turned off: they stay off when discovery lists them again
    bool m_discovering = false;
    bool m_discovered = false;
    JobTracker m_discovery {this}; // the look for environments
    JobTracker m_adding {this};    // asking an added interpreter (the latest Add wins)
};

// "python 3.11 · torch 2.5.1+rocm6.2 (ROCm 6.2) · ~/.venvs/rocm-torch/bin/python3" for the list.
QString environmentItemText(const PythonEnvSummary& env);

} // namespace stackscope::ui
