// From an exception to what the Training page says: the kind and the option from the core's error types.
#include "ui/training/training_problem.h"

#include "core/training/training_config.h"
#include "core/util/atomic_file.h"
#include "core/vpoc/market_data.h"
#include "ui/widgets/status_colors.h"

#include <QObject>

namespace stackscope::ui {

RunProblem runProblem(const std::exception& error)
{
    RunProblem p;
    p.message = QString::fromStdString(error.what());
    const auto* typed = dynamic_cast<const Error*>(&error);
    if (!typed)
        return p; // not one of StackScope's errors: the job failed (the CLI exits 1)
    p.kind = typed->kind();
    if (const auto* config = dynamic_cast<const training::ConfigError*>(&error))
        p.option = config->option();
    else if (dynamic_cast<const vpoc::InputError*>(&error))
        p.option = "--input"; // the data file, at the line and column the message gives
    else if (dynamic_cast<const FileWriteError*>(&error))
        p.option = "--output"; // the run writes only there
    return p;
}

QString problemHtml(const RunProblem& problem, const QString& field, const QString& nextStep)
{
    QString message = problem.message;
    if (problem.kind == ErrorKind::Input) {
        const QString option = QString::fromStdString(problem.option);
        QString what = field;
        if (what.isEmpty())
            what = option.isEmpty() ? QObject::tr("the input") : option;
        // "--hidden: give at least one layer" under "Check Hidden layers:" needs no "--hidden:" of its own.
        if (!option.isEmpty() && message.startsWith(option + QStringLiteral(": ")))
            message = message.mid(option.size() + 2);
        return QStringLiteral("<span style='color:%1'><b>%2</b> %3</span>")
            .arg(warningColor().name(), QObject::tr("Check %1:").arg(what.toHtmlEscaped()), message.toHtmlEscaped());
    }
    QString text = QStringLiteral("<span style='color:%1'><b>%2</b> %3</span>")
                       .arg(errorColor().name(), QObject::tr("Training failed:"), message.toHtmlEscaped());
    if (!nextStep.isEmpty())
        text += QStringLiteral("<br>") + nextStep.toHtmlEscaped();
    return text;
}

} // namespace stackscope::ui
