// What the Probes page says about whose findings and results it shows, when that is not simply this machine's: the
// System page's "Not this machine" line for a recorded machine, then whose the findings and the probe results are
// (walkthrough 2026-11-27 third, problem 4: on a recorded root the page had no such line, and after a run here its
// findings went empty while the status bar kept the recorded machine's counts).
#pragma once

#include <QString>

namespace stackscope::ui {

struct ProbesWhose {
    // The System page's "Not this machine" line (rich text) for the machine it shows; empty when it shows this one.
    QString notThisMachine;
    bool hasResults = false;   // the grid has results, or a run goes on
    bool resultsLive = true;   // run here (true) or from a report (false)
    bool resultsMatch = true;  // the results were measured on the machine the System page shows
    QString resultsOrigin;     // the report the results came from, when not live
};

// Rich text; empty when the findings and the results are both this machine's (or there are none), or both an opened
// report's (its banner says so).
QString probesMachineText(const ProbesWhose& whose);

// The heading over the findings list: whose findings they are ("Findings: this machine", "Findings: the recorded
// root …, as on the System page").
QString probesFindingsHeading(const QString& shownMachine, bool thisMachine);

} // namespace stackscope::ui
