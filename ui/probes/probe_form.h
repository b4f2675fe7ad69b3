// The Probes page's run bar: Run all probes, Cancel, the rules' fix variants and the per-probe timeout. Maps them,
// with the environments checked in the picker, to what a run starts and to the choice the stale banner compares.
#pragma once

#include "core/probes/probe_runner.h"
#include "ui/probes/probe_option_changes.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QCheckBox;
class QDoubleSpinBox;
class QPushButton;

namespace stackscope::ui {

class ProbeForm : public QWidget {
    Q_OBJECT
public:
    explicit ProbeForm(QWidget* parent = nullptr);

    double timeoutSeconds() const;
    void setTimeoutSeconds(double seconds);
    bool ruleVariants() const;
    void setRuleVariants(bool on);
    // The form's choice with the environments checked in the picker ("libtorch", "python:/path").
    ProbeRunChoice choice(const QStringList& environments) const;
    // What "Run all probes" starts: one run per environment, in their order, each with the form's timeout.
    std::vector<ProbeRunOptions> runs(const QStringList& environments) const;
    // Run is off and Cancel on while a run goes on.
    void setRunning(bool running);

Q_SIGNALS:
    void runClicked();
    void cancelClicked();
    // The timeout or the variants choice changed (the page marks results run with others).
    void changed();

private:
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QCheckBox* m_ruleVariants = nullptr;
    QDoubleSpinBox* m_timeout = nullptr;
};

} // namespace stackscope::ui
