// The Training page's configuration form: data, output folder, model, optimiser, device and resume.
#pragma once

#include "core/training/training_config.h"
#include "ui/system/snapshot_controller.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace stackscope::ui {

class WrappedLabel;

class TrainingForm : public QWidget {
    Q_OBJECT
public:
    // `snapshots` (may be null): the Device box offers the GPUs of its inspections of this machine (never those of a
    // recorded machine it shows).
    explicit TrainingForm(SnapshotController* snapshots, QWidget* parent = nullptr);

    // The configuration the form describes; throws training::ConfigError naming the field and what to write.
    training::TrainingConfig config() const;
    // Fills every field from `config` (tests; a run's saved options).
    void setConfig(const training::TrainingConfig& config);

    // The synthetic sample data file (appDataFolder()/sample-es-1min-bars.csv), the default input; the run
    // writes it on first use.
    static QString sampleDataPath();
    // A new timestamped folder under appDataFolder()/training (nothing is created until a run starts).
    static QString newDefaultOutput();
    bool inputIsSample() const;
    // True while the output field holds a generated default (a new run then takes a fresh timestamp).
    bool outputIsDefault() const;
    void setOutputFolder(const QString& path);
    QString outputFolder() const;
    void setResume(bool resume);
    bool resume() const;
    void setEditable(bool editable);

    // The core names options as the command line does ("--lr 0: use ..."): the form's label of that option
    // ("Learning rate"), empty when the form has no field for it (--tick, --session: their defaults).
    static QString fieldLabel(const std::string& option);
    // Puts the keyboard focus on the option's field (and selects a text field's text); false when there is none.
    bool focusField(const std::string& option);

Q_SIGNALS:
    // Any field changed (the page marks results computed with other options out of date).
    void optionsChanged();

private:
    void connectChanges();
    QGroupBox* buildDataBox();
    QGroupBox* buildModelBox(const training::TrainingConfig& defaults);
    QGroupBox* buildDeviceBox(const training::TrainingConfig& defaults);
    void updateDevices();
    void selectDevice(const QString& device);
    QString deviceToolTip() const;
    void updateInputNote();
    static QString sampleInputNote();
    static QString ownInputNote();

    SnapshotController* m_snapshots = nullptr;
    SnapshotPtr m_thisMachine; // the last inspection of this machine; null before one
    QString m_generatedOutput;
    QLineEdit* m_input = nullptr;
    WrappedLabel* m_inputNote = nullptr;
    QLineEdit* m_output = nullptr;
    QSpinBox* m_epochs = nullptr;
    QSpinBox* m_batch = nullptr;
    QDoubleSpinBox* m_learningRate = nullptr;
    QLineEdit* m_hidden = nullptr;
    QDoubleSpinBox* m_dropout = nullptr;
    QSpinBox* m_seed = nullptr;
    QSpinBox* m_patience = nullptr;
    QComboBox* m_device = nullptr;
    QComboBox* m_precision = nullptr;
    QSpinBox* m_stepInterval = nullptr;
    QSpinBox* m_processes = nullptr;
    QComboBox* m_distBackend = nullptr;
    QCheckBox* m_resume = nullptr;
    QList<QWidget*> m_fields;
    std::vector<std::pair<std::string, QWidget*>> m_fieldByOption; // the CLI option each field sets
};

} // namespace stackscope::ui
