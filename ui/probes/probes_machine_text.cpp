// The Probes page's machine line and findings heading. The findings always describe the machine the System page
// shows (as the status bar does); probe results measured elsewhere are shown beside them, labelled, never mixed in.
#include "ui/probes/probes_machine_text.h"

#include <QCoreApplication>

namespace stackscope::ui {

namespace {
QString tr(const char* text)
{
    return QCoreApplication::translate("stackscope::ui::ProbesPage", text);
}
} // namespace

QString probesMachineText(const ProbesWhose& w)
{
    const QString origin = w.resultsOrigin.toHtmlEscaped();
    // An opened report's own machine and results (none, or its probe results): the report's banner above every
    // page says whose they are, and a second line under it was what issue 35 item 7 took out.
    if (!w.resultsLive && w.resultsMatch)
        return {};
    if (w.notThisMachine.isEmpty()) {
        if (!w.hasResults || w.resultsMatch)
            return {};
        return tr("<b>These results are from %1.</b> The System page now shows this machine; the findings are this "
                  "machine's, without these results.")
            .arg(origin);
    }
    const QString findings = tr("The findings are that machine's, as on the System page and in the status bar.");
    const QString runHere = tr("Run all probes runs on this machine.");
    if (!w.hasResults)
        return w.notThisMachine + QLatin1Char(' ') + findings + QLatin1Char(' ') + runHere;
    if (w.resultsLive)
        return w.notThisMachine + QLatin1Char(' ') + findings + QLatin1Char(' ')
            + tr("<b>The probe results are from this machine</b> (run here): they are not in those findings, and the "
                 "report leaves them out. To diagnose them, inspect this machine (View > Refresh).");
    return w.notThisMachine + QLatin1Char(' ') + findings + QLatin1Char(' ')
        + tr("<b>The probe results are from %1</b>: they are not in those findings.").arg(origin);
}

QString probesFindingsHeading(const QString& shownMachine, bool thisMachine)
{
    if (thisMachine)
        return tr("Findings: this machine");
    return tr("Findings: %1 (not this machine)").arg(shownMachine);
}

} // namespace stackscope::ui
