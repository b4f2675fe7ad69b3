// The Probes page's run bar and the mapping of its choices (probe_run_plan.h makes the runs).
#include "ui/probes/probe_form.h"

#include "ui/probes/probe_run_plan.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace stackscope::ui {

ProbeForm::ProbeForm(QWidget* parent)
    : QWidget(parent)
{
    m_run = new QPushButton(tr("Run all probes"), this);
    m_run->setDefault(true);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_ruleVariants = new QCheckBox(tr("With the rules' fix variants"), this);
    m_ruleVariants->setToolTip(tr("Also run every environment change a diagnosis rule proposes for this machine"));
    m_timeout = new QDoubleSpinBox(this);
    m_timeout->setRange(1, 600);
    m_timeout->setValue(30);
    m_timeout->setSuffix(tr(" s per probe"));

    auto* bar = new QHBoxLayout(this);
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_run);
    bar->addWidget(m_cancel);
    bar->addWidget(m_ruleVariants);
    bar->addWidget(new QLabel(tr("Timeout"), this));
    bar->addWidget(m_timeout);
    bar->addStretch(1);

    connect(m_run, &QPushButton::clicked, this, &ProbeForm::runClicked);
    connect(m_cancel, &QPushButton::clicked, this, &ProbeForm::cancelClicked);
    connect(m_timeout, &QDoubleSpinBox::valueChanged, this, &ProbeForm::changed);
    connect(m_ruleVariants, &QCheckBox::toggled, this, &ProbeForm::changed);
    setRunning(false);
}

double ProbeForm::timeoutSeconds() const
{
    return m_timeout->value();
}

void ProbeForm::setTimeoutSeconds(double seconds)
{
    m_timeout->setValue(seconds);
}

bool ProbeForm::ruleVariants() const
{
    return m_ruleVariants->isChecked();
}

void ProbeForm::setRuleVariants(bool on)
{
    m_ruleVariants->setChecked(on);
}

ProbeRunChoice ProbeForm::choice(const QStringList& environments) const
{
    return {environments, m_timeout->value(), m_ruleVariants->isChecked()};
}

std::vector<ProbeRunOptions> ProbeForm::runs(const QStringList& environments) const
{
    return environmentRuns(environments, m_timeout->value());
}

void ProbeForm::setRunning(bool running)
{
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
}

} // namespace stackscope::ui
