// Which epoch a training folder's files hold, checked against model_metadata.json.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace stackscope::training {

// The trainer stages model.pt and checkpoint.pt, has model_metadata.json rewritten with the epoch (the epoch event),
// then renames the two (core/torch/trainer.cpp): a run killed in between leaves the metadata one epoch ahead of the
// files. `train --resume` heals that (it redoes the epoch and drops the record, TrainingMetadata::started); a reader
// before any resume calls this. Each epoch records the SHA-256 of the checkpoint it staged ("checkpoint_sha256"):
// when checkpoint.pt (in `folder`) matches an earlier epoch than the last recorded, the epochs after it are moved to
// "epochs_not_in_files", best_epoch/best_val_loss are taken from the epochs kept, and "files_note" says what
// happened and what to do. Returns that note; "" when the files hold the last recorded epoch, or when the metadata
// has no hashes (written before they were recorded) or no epoch. Throws nothing: a checkpoint that cannot be read is
// said in the note.
std::string checkTrainingFiles(nlohmann::json& metadata, const std::string& folder);

} // namespace stackscope::training
