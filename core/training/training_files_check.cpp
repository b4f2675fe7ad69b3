// checkTrainingFiles: the epochs of model_metadata.json that checkpoint.pt holds.
#include "core/training/training_files_check.h"

#include "core/util/sha256.h"

#include <fmt/format.h>

#include <stdexcept>

namespace stackscope::training {

namespace {

std::string recordedHash(const nlohmann::json& epoch)
{
    const auto it = epoch.find("checkpoint_sha256");
    return it != epoch.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The trainer's rule: an epoch is the best when it is the first or its validation loss is strictly lower.
void recomputeBest(nlohmann::json& metadata)
{
    int bestEpoch = 0;
    double bestLoss = 0;
    for (const auto& e : metadata["epochs"]) {
        const double loss = e.value("val_loss", 0.0);
        if (bestEpoch == 0 || loss < bestLoss) {
            bestEpoch = e.value("epoch", 0);
            bestLoss = loss;
        }
    }
    metadata["best_epoch"] = bestEpoch;
    metadata["best_val_loss"] = bestEpoch > 0 ? nlohmann::json(bestLoss) : nlohmann::json(nullptr);
}

std::string note(nlohmann::json& metadata, std::string text)
{
    metadata["files_note"] = text;
    return text;
}

} // namespace

std::string checkTrainingFiles(nlohmann::json& metadata, const std::string& folder)
{
    if (!metadata.is_object() || !metadata.contains("epochs") || !metadata["epochs"].is_array() ||
        metadata["epochs"].empty() || recordedHash(metadata["epochs"].back()).empty())
        return {};
    auto& epochs = metadata["epochs"];
    const std::string path = folder + "/checkpoint.pt";
    std::string actual;
    try {
        actual = sha256File(path);
    } catch (const std::runtime_error& e) {
        return note(metadata, fmt::format("{}; model_metadata.json records {} epochs that cannot be checked against it",
                                          e.what(), epochs.size()));
    }
    std::size_t held = epochs.size();
    while (held > 0 && recordedHash(epochs[held - 1]) != actual)
        --held;
    if (held == epochs.size())
        return {};
    const int last = epochs.back().value("epoch", 0);
    if (held == 0)
        return note(metadata, fmt::format("{} matches none of the {} epochs model_metadata.json records (last: epoch "
                                          "{}): the folder's files come from different runs; train again into an "
                                          "empty folder",
                                          path, epochs.size(), last));
    const int filesEpoch = epochs[held - 1].value("epoch", 0);
    nlohmann::json ahead = nlohmann::json::array();
    for (std::size_t i = held; i < epochs.size(); ++i)
        ahead.push_back(epochs[i]);
    epochs.erase(epochs.begin() + static_cast<std::ptrdiff_t>(held), epochs.end());
    metadata["epochs_not_in_files"] = std::move(ahead);
    recomputeBest(metadata);
    return note(metadata, fmt::format("model_metadata.json records epoch {}, but checkpoint.pt holds epoch {} (and "
                                      "model.pt the best epoch up to it): the run stopped while writing epoch {}'s "
                                      "files; shown up to epoch {}; `stackscope-cli train --resume --output {}` goes "
                                      "on from there",
                                      last, filesEpoch, last, filesEpoch, folder));
}

} // namespace stackscope::training
