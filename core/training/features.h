// Causal features and the forward-return target from market data bars, split by time and normalised.
#pragma once

#include "core/training/training_config.h"
#include "core/util/cancel_token.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace stackscope::training {

// Thrown when the cancel flag is seen while the data are read, before training starts: nothing was written.
class DatasetCancelled : public std::runtime_error {
public:
    DatasetCancelled()
        : std::runtime_error("stopped while the data were read, before training started; nothing was written: "
                             "start the run again")
    {
    }
};

// Rows of features (row-major floats) with their target, in time order. A feature of row t uses bars at or
// before t only; the target is the close `horizon` bars later in the same session minus the close, in ticks.
struct Dataset {
    std::vector<std::string> names; // one per column
    std::string targetName;
    std::vector<float> x;
    std::vector<float> y;
    std::vector<int64_t> timeUs; // the bar of each row (UTC microseconds)
    int64_t rows = 0;
    int64_t cols = 0;

    int64_t barsRead = 0;          // bars in sessions
    int64_t barsOutsideSessions = 0; // the daily halt
    int64_t sessions = 0;
    int64_t rowsWithoutHistory = 0; // the first session (no previous one), the first bars of the returns/volume windows
    int64_t rowsWithoutTarget = 0;  // the last `horizon` bars of each session
    std::string inputSha256;
};

// Reads the file (bars; a trade file works as one-price bars) and builds the rows. Throws
// vpoc::InputError (file:line:column), ConfigError (an option, or too few rows to train on),
// DatasetCancelled and std::runtime_error (I/O). `cancel` is checked between blocks of rows.
Dataset buildDataset(const TrainingConfig& config, const CancelToken& cancel = {});

// Per column mean and standard deviation of the training part (rows [0, trainRows)) only.
struct Normalisation {
    std::vector<double> mean;
    std::vector<double> std; // 1 where a column is constant in the training part
    double targetMean = 0;
    double targetStd = 1;
};

// The number of training rows for a validation fraction: everything before the last `fraction` of time.
int64_t trainingRows(int64_t rows, double validationFraction);
Normalisation fitNormalisation(const Dataset& data, int64_t trainRows);
// Applies (x - mean) / std to every row and the target.
void normalise(Dataset& data, const Normalisation& n);

} // namespace stackscope::training
