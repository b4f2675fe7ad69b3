// Text for the VPOC options of a run, the options changed since it, and the mark on results out of date. The values
// and units come from the fields' table (core/vpoc/vpoc_options.h); this file only says which fields change results.
#include "ui/vpoc/option_changes.h"

#include "core/vpoc/vpoc_options.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace stackscope::ui {

namespace {

// When the summary names an option: always, where it is not core's default, or never (only as a change: the page
// turns the developing values on by default, and they only draw the price line).
enum class InSummary { Always, NotDefault, Never };

// The fields that change the numbers or the charts, in the order they are said, with the words that name them.
struct ResultField {
    const char* field;
    const char* words;
    InSummary shown;
};
constexpr ResultField kResultFields[] {
    { "va", QT_TRANSLATE_NOOP("VpocOptions", "value area"), InSummary::Always },
    { "tick", QT_TRANSLATE_NOOP("VpocOptions", "tick"), InSummary::Always },
    { "session", QT_TRANSLATE_NOOP("VpocOptions", "session"), InSummary::Always },
    { "session-tz", QT_TRANSLATE_NOOP("VpocOptions", "session zone"), InSummary::NotDefault },
    { "tz", QT_TRANSLATE_NOOP("VpocOptions", "data zone"), InSummary::NotDefault },
    { "format", QT_TRANSLATE_NOOP("VpocOptions", "format"), InSummary::NotDefault },
    { "distribution", QT_TRANSLATE_NOOP("VpocOptions", "distribution"), InSummary::NotDefault },
    { "va-method", QT_TRANSLATE_NOOP("VpocOptions", "VA method"), InSummary::NotDefault },
    { "skip-bad", QT_TRANSLATE_NOOP("VpocOptions", "skip bad rows"), InSummary::NotDefault },
    { "developing-values", QT_TRANSLATE_NOOP("VpocOptions", "developing values"), InSummary::Never },
};

// "value area 70 %", "tick 0.25", "bad rows skipped off".
QString phrase(const ResultField& r, const vpoc::VpocOptions& options)
{
    const vpoc::VpocField& field = vpoc::vpocField(r.field);
    const std::string value = vpoc::fieldText(field.value(vpoc::VpocRequest { options, {} }));
    const QString words = QCoreApplication::translate("VpocOptions", r.words);
    if (field.kind == vpoc::FieldKind::Switch)
        return QStringLiteral("%1 %2").arg(words,
            value == "true" ? QCoreApplication::translate("VpocOptions", "on")
                            : QCoreApplication::translate("VpocOptions", "off"));
    return QStringLiteral("%1 %2%3").arg(words, QString::fromStdString(value), QString::fromLatin1(field.range.suffix));
}

} // namespace

QString vpocOptionsSummary(const vpoc::VpocOptions& options)
{
    const vpoc::VpocOptions defaults;
    QStringList parts;
    for (const auto& r : kResultFields) {
        const QString text = phrase(r, options);
        if (r.shown == InSummary::Always || (r.shown == InSummary::NotDefault && text != phrase(r, defaults)))
            parts << text;
    }
    return parts.join(QStringLiteral(", "));
}

QStringList vpocOptionChanges(const vpoc::VpocOptions& ran, const vpoc::VpocOptions& now)
{
    QStringList changed;
    for (const auto& r : kResultFields) {
        const QString text = phrase(r, now);
        if (text != phrase(r, ran))
            changed << text;
    }
    return changed;
}

ResultsMark resultsMark(const vpoc::VpocResult* result, const QString& resultInput, const QString& recordedOrigin,
    const QString& formInput, const QStringList& changes)
{
    auto tr = [](const char* text) { return QCoreApplication::translate("VpocResults", text); };
    ResultsMark m;
    if (!result)
        return m;
    const QString file = QFileInfo(resultInput).fileName();
    const QString ran = vpocOptionsSummary(result->options);
    if (!recordedOrigin.isEmpty()) {
        // The form was set to the run's options (a report opened): out of date only where it now differs.
        m.stale = !changes.isEmpty();
        m.exportsEnabled = !m.stale;
        m.resultsForWarns = m.stale;
        m.resultsFor = tr("From %1 (%2): %3. A report keeps the sessions' levels, not their profiles.")
                           .arg(recordedOrigin, file.isEmpty() ? tr("input not named") : file, ran);
        if (m.stale)
            m.banner = tr("<b>Out of date:</b> computed with %1 (from %2); the form differs (now %3): press Run to "
                          "compute with the form's options.")
                           .arg(ran.toHtmlEscaped(), recordedOrigin.toHtmlEscaped(),
                               changes.join(QStringLiteral(", ")).toHtmlEscaped());
        return m;
    }
    const bool sameInput = formInput.trimmed() == resultInput;
    m.stale = !sameInput || !changes.isEmpty();
    // Exports write what is shown; while it is out of date a run comes first (the same options back clear the mark).
    m.exportsEnabled = !m.stale;
    m.resultsForWarns = m.stale;
    m.resultsFor = sameInput ? tr("Results for %1: %2").arg(file, ran)
                             : tr("These results are for %1, not the file above: press Run to update them.").arg(file);
    if (!sameInput)
        m.banner = tr("<b>Out of date:</b> these results are for %1, not the file above: press Run to update them.")
                       .arg(file.toHtmlEscaped());
    else if (m.stale)
        m.banner = tr("<b>Out of date:</b> computed with %1; options changed since (now %2): press Run again.")
                       .arg(ran.toHtmlEscaped(), changes.join(QStringLiteral(", ")).toHtmlEscaped());
    return m;
}

} // namespace stackscope::ui
