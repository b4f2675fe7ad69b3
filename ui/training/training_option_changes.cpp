// Text for the training options of a run, and the options changed since it.
#include "ui/training/training_option_changes.h"

#include <QFileInfo>
#include <QObject>

namespace stackscope::ui {

namespace {

using training::TrainingConfig;

QString number(double v)
{
    return QString::number(v, 'g', 10);
}

QString layers(const std::vector<int>& hidden)
{
    QStringList parts;
    for (int h : hidden)
        parts << QString::number(h);
    return parts.join(QLatin1Char(','));
}

QString data(const TrainingConfig& c)
{
    return QObject::tr("data %1").arg(QFileInfo(QString::fromStdString(c.input)).fileName());
}
QString epochs(const TrainingConfig& c)
{
    return QObject::tr("epochs %1").arg(c.epochs);
}
QString batch(const TrainingConfig& c)
{
    return QObject::tr("batch %1").arg(c.batchSize);
}
QString rate(const TrainingConfig& c)
{
    return QObject::tr("learning rate %1").arg(number(c.learningRate));
}
QString hidden(const TrainingConfig& c)
{
    return QObject::tr("hidden %1").arg(layers(c.hidden));
}
QString dropout(const TrainingConfig& c)
{
    return QObject::tr("dropout %1").arg(number(c.dropout));
}
QString seed(const TrainingConfig& c)
{
    return QObject::tr("seed %1").arg(c.seed);
}
QString patience(const TrainingConfig& c)
{
    return QObject::tr("patience %1").arg(c.patience);
}
QString device(const TrainingConfig& c)
{
    return QObject::tr("device %1").arg(QString::fromStdString(c.device.toString()));
}
QString precision(const TrainingConfig& c)
{
    return QObject::tr("precision %1").arg(QString::fromStdString(c.precision));
}
QString processes(const TrainingConfig& c)
{
    return c.processes == 0 ? QObject::tr("processes one per GPU") : QObject::tr("processes %1").arg(c.processes);
}

enum class InSummary { Always, NotDefault };

struct OptionText {
    QString (*text)(const TrainingConfig&);
    InSummary shown;
};
// The options that change the epochs' numbers, in the order they are said.
constexpr OptionText kOptions[] {
    { data, InSummary::Always },
    { epochs, InSummary::Always },
    { batch, InSummary::Always },
    { rate, InSummary::Always },
    { hidden, InSummary::Always },
    { dropout, InSummary::Always },
    { seed, InSummary::Always },
    { patience, InSummary::NotDefault },
    { device, InSummary::NotDefault },
    { precision, InSummary::NotDefault },
    { processes, InSummary::NotDefault },
};

} // namespace

QString trainingOptionsSummary(const TrainingConfig& config)
{
    const TrainingConfig defaults;
    QStringList parts;
    for (const auto& o : kOptions) {
        const QString text = o.text(config);
        if (o.shown == InSummary::Always || text != o.text(defaults))
            parts << text;
    }
    return parts.join(QStringLiteral(", "));
}

QStringList trainingOptionChanges(const TrainingConfig& ran, const TrainingConfig& now)
{
    QStringList changed;
    for (const auto& o : kOptions) {
        // The data by its path: two files of one name in different folders are different data.
        const bool differs = o.text == data ? ran.input != now.input : o.text(now) != o.text(ran);
        if (differs)
            changed << o.text(now);
    }
    return changed;
}

} // namespace stackscope::ui
