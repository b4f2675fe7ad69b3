// The window's session through Settings: the pages' values as their forms give and take them.
#include "ui/window_session.h"

#include "core/training/training_config.h"
#include "ui/main_window.h"
#include "ui/settings/settings.h"
#include "ui/training/training_form.h"
#include "ui/training/training_page.h"
#include "ui/vpoc/vpoc_form.h"
#include "ui/vpoc/vpoc_page.h"

#include <nlohmann/json.hpp>

#include <QFileInfo>

namespace stackscope::ui {

namespace {

void restoreTrainingOptions(TrainingForm& form, const QByteArray& saved)
{
    if (saved.isEmpty())
        return;
    const auto j = nlohmann::json::parse(saved.constBegin(), saved.constEnd(), nullptr, false);
    if (j.is_discarded())
        return;
    training::TrainingConfig config;
    try {
        config = training::configFromJson(j);
    } catch (const std::exception&) {
        return; // an older build's options: the form keeps its defaults
    }
    const training::TrainingConfig now = form.config();
    config.output = now.output; // a new run's folder: the last one's files are not written over
    if (!QFileInfo(QString::fromStdString(config.input)).isFile())
        config.input = now.input;
    form.setConfig(config);
    form.setResume(false);
}

} // namespace

void restoreWindowSession(MainWindow& window, const Settings& settings)
{
    if (const QByteArray geometry = settings.windowGeometry(); !geometry.isEmpty())
        window.restoreGeometry(geometry);
    if (const QByteArray state = settings.windowState(); !state.isEmpty())
        window.restoreState(state);
    if (const QString page = settings.lastPage(); !page.isEmpty())
        window.showPage(page);
    if (const QString input = settings.vpocInput(); !input.isEmpty() && QFileInfo(input).isFile())
        window.vpocPage()->form()->setInputFile(input);
    if (window.trainingPage())
        restoreTrainingOptions(*window.trainingPage()->form(), settings.trainingOptions());
}

void saveWindowSession(const MainWindow& window, Settings& settings)
{
    settings.setWindowGeometry(window.saveGeometry());
    settings.setWindowState(window.saveState());
    settings.setLastPage(window.currentPageTitle());
    settings.setVpocInput(window.vpocPage()->form()->inputText());
    if (!window.trainingPage())
        return;
    try {
        const std::string options = training::toJson(window.trainingPage()->form()->config()).dump();
        settings.setTrainingOptions(QByteArray::fromStdString(options));
    } catch (const training::ConfigError&) {
        // A field that does not read (the page says which): the options kept from before stay.
    }
}

} // namespace stackscope::ui
