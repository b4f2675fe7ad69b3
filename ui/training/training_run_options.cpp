#include "ui/training/training_run_options.h"

#include <QFileInfo>
#include <QString>

namespace stackscope::ui {

void checkStartable(const training::TrainingConfig& config, bool inputIsSample)
{
    training::validate(config);
    if (!inputIsSample && !QFileInfo(QString::fromStdString(config.input)).isFile())
        throw training::ConfigError("--input " + config.input + ": no such file; choose a CSV of bars (Browse…), "
                                    "or Sample data");
}

training::TrainingConfig withSuggestedDevice(training::TrainingConfig config, const training::DeviceAdvice& advice)
{
    config.device = training::parseDevices(advice.suggestedDevice);
    config.processes = 0;
    return config;
}

training::TrainingConfig recordedRunOnThisMachine(training::TrainingConfig recorded, const std::string& output)
{
    recorded.output = output;
    recorded.resume = false;
    return recorded;
}

} // namespace stackscope::ui
