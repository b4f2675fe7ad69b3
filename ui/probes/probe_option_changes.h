// What the Probes page's shown run was started with (environments, timeout, the rules' variants), and what the
// form has changed since: a changed option marks the grid out of date until the next run.
#pragma once

#include <QString>
#include <QStringList>

namespace stackscope::ui {

struct ProbeRunChoice {
    QStringList environments; // "libtorch", "python:/path/to/python3", in the list's order
    double timeoutS = 30;
    bool ruleVariants = false;
};

// "environments libtorch, Python /usr/bin/python3; timeout 30 s; without the rules' fix variants".
QString probeChoiceSummary(const ProbeRunChoice& choice);
// The parts that differ, with their new value: {"environments libtorch", "timeout 10 s"}. Empty: the grid is the
// form's.
QStringList probeChoiceChanges(const ProbeRunChoice& ran, const ProbeRunChoice& now);

} // namespace stackscope::ui
