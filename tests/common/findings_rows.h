// A findings model's rows as "severity ID" lines, in the order shown: what the GUI tests compare with the CLI's
// `diagnose --json` (tst_one_diagnosis, tst_log_dialog_layout).
#pragma once

#include "ui/models/findings_model.h"

#include <QStringList>

namespace stackscope::test {

inline QStringList guiFindings(const ui::FindingsModel* model)
{
    QStringList out;
    for (int r = 0; r < model->rowCount(); ++r) {
        const auto index = model->index(r, 0);
        const auto severity = static_cast<Severity>(index.data(ui::FindingsModel::SeverityRole).toInt());
        out << QStringLiteral("%1 %2").arg(QLatin1String(severityName(severity)),
                                           index.data(ui::FindingsModel::IdRole).toString());
    }
    return out;
}

} // namespace stackscope::test
