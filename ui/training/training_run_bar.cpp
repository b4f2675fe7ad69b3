#include "ui/training/training_run_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace stackscope::ui {

TrainingRunBar::TrainingRunBar(QWidget* parent)
    : QWidget(parent)
    , m_start(new QPushButton(tr("Start"), this))
    , m_stop(new QPushButton(tr("Stop"), this))
    , m_resume(new QPushButton(tr("Resume"), this))
{
    m_start->setObjectName(QStringLiteral("trainingStart"));
    m_start->setDefault(true);
    m_stop->setObjectName(QStringLiteral("trainingStop"));
    m_stop->setToolTip(tr("Stops within one step; the last finished epoch's checkpoint stays for Resume"));
    m_resume->setObjectName(QStringLiteral("trainingResumeButton"));
    m_resume->setToolTip(tr("Continue the stopped run from its checkpoint, in the same output folder"));
    connect(m_start, &QPushButton::clicked, this, &TrainingRunBar::startClicked);
    connect(m_stop, &QPushButton::clicked, this, &TrainingRunBar::stopClicked);
    connect(m_resume, &QPushButton::clicked, this, &TrainingRunBar::resumeClicked);
    auto* top = new QHBoxLayout(this);
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(new QLabel(tr("<h2>Training</h2>"), this));
    top->addStretch(1);
    top->addWidget(m_start);
    top->addWidget(m_stop);
    top->addWidget(m_resume);
}

bool TrainingRunBar::setRunning(bool running, bool resumable)
{
    m_start->setEnabled(!running);
    m_stop->setEnabled(running);
    const bool resume = !running && resumable;
    if (m_resume->isEnabled() == resume)
        return false;
    m_resume->setEnabled(resume);
    return true;
}

void TrainingRunBar::stopRequested()
{
    m_stop->setEnabled(false);
}

bool TrainingRunBar::canStart() const
{
    return m_start->isEnabled();
}

bool TrainingRunBar::canStop() const
{
    return m_stop->isEnabled();
}

bool TrainingRunBar::canResume() const
{
    return m_resume->isEnabled();
}

} // namespace stackscope::ui
