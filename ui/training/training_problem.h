// Why a training run did not start or did not finish, and how the page says it: an Input error names the field to
// correct, a Failed one is a failure with its next step. The kind is the core's (stackscope::Error), the one the CLI
// maps to exit 2 or 1.
#pragma once

#include "core/util/error.h"

#include <QString>

#include <exception>
#include <string>

namespace stackscope::ui {

struct RunProblem {
    ErrorKind kind = ErrorKind::Failed;
    QString message;    // the core's words: what is wrong and what to do
    std::string option; // Input: the CLI option it concerns ("--lr"; "--input" for a bad data file); may be empty
};

// The problem an exception from the form, validate() or runTraining() stands for: a stackscope::Error keeps its kind;
// anything else is a failure (as the CLI exits 1 for it).
RunProblem runProblem(const std::exception& error);

// The status line (rich text, escaped): for Input "Check <field>: <message>" (`field` is the form's label of the
// option, empty when the form has none: then the option or "the input" stands in), for Failed "Training failed:
// <message>" and `nextStep`.
QString problemHtml(const RunProblem& problem, const QString& field, const QString& nextStep);

} // namespace stackscope::ui
