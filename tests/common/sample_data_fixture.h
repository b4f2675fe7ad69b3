// Test set-up shared by the GUI suites: the built-in synthetic ES bars written to a temporary folder, and whether
// the libtorch trainer module loads here (its message when it does not, for QSKIP).
#pragma once

#include "core/util/atomic_file.h"
#include "core/vpoc/sample_data.h"

#include <QString>
#include <QTemporaryDir>

#include <exception>

namespace stackscope::test {

// dir/name holding `days` days of 1-minute sample bars; returns its path.
inline QString writeSampleBars(const QTemporaryDir& dir, int days, const QString& name)
{
    vpoc::SampleDataOptions o;
    o.days = days;
    const QString path = dir.filePath(name);
    writeFileAtomically(path.toStdString(), vpoc::generateSampleData(o));
    return path;
}

// Empty when `load` (training::trainerModule) succeeds, else why the module could not be loaded.
template <typename Load>
QString moduleMissing(Load&& load)
{
    try {
        load();
        return {};
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
}

} // namespace stackscope::test
