// One diagnosis for the System and Probes pages: both get the logs pasted or dropped in the session (or an opened
// report's), and the System page gets the probe results measured on the machine it shows, so the two pages list the
// same findings, in the same order, as the report and `stackscope-cli diagnose` make them from the same inputs.
#pragma once

namespace stackscope::ui {

class ProbesPage;
class SessionLogModel;
class SystemPage;

void installSessionFindings(SessionLogModel* logs, SystemPage* system, ProbesPage* probes);

} // namespace stackscope::ui
