// One process per rank: the launcher behind `train --device gpu:0,1` / `--nproc N` and the Training page, and
// each rank's side of the env:// rendezvous (ours, torchrun, srun or mpirun set the variables).
#pragma once

#include "core/training/training_run.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stackscope::training {

// Who this process is in a run of several, from the launcher's environment.
struct RankEnvironment {
    int rank = 0;
    int worldSize = 1;
    int localRank = 0;
    std::string masterAddr;
    int masterPort = 0;
    bool agentStore = false; // torchrun's agent already hosts the TCPStore at MASTER_PORT
    std::string statusFile;  // STACKSCOPE_RANK_STATUS: where our launcher reads the last collective
};
// RANK/WORLD_SIZE/LOCAL_RANK (torchrun, ours), else SLURM_PROCID/SLURM_NTASKS/SLURM_LOCALID (srun), else
// OMPI_COMM_WORLD_RANK/_SIZE/_LOCAL_RANK (Open MPI's mpirun), with MASTER_ADDR and MASTER_PORT. Nullopt when no
// launcher set a rank; throws ConfigError when the set is incomplete or inconsistent.
std::optional<RankEnvironment> rankEnvironment();

// How many processes a run of `config` started here needs: one per GPU of --device, or --nproc.
int processesFor(const TrainingConfig& config);
// The GPU this rank trains on ({} for the CPU): the LOCAL_RANK-th of --device's list, or its only GPU for
// every rank; `auto` is GPU LOCAL_RANK, else the CPU (`fallback` set). Throws ConfigError.
std::vector<int> rankDevices(const TrainingConfig& config, const RankEnvironment& env, bool& fallback);
// What every rank of a run must share, compared through the rendezvous store before the process group is made
// (the torch module's "agree"): the options that shape the model, the batches and the epochs (all of toJson but the
// paths, the device, the timeout, the report interval and the notes, which may differ per rank or node), and the
// data: rows, columns, training rows and the SHA-256 of the feature and target arrays. A rank started with other
// options or data would otherwise meet its peers in a collective of another size and abort inside Gloo or NCCL.
nlohmann::json agreementJson(const TrainingConfig& config, const Dataset& data, int64_t trainRows);
// The torch module's "dist" settings for this rank, with `agreement` as "agree".
nlohmann::json distJson(const TrainingConfig& config, const RankEnvironment& env, const nlohmann::json& agreement);
// Throws ConfigError when this process could not hold the connections of a group of env.worldSize: rank 0 hosts
// the rendezvous store (one connection per rank) unless torchrun's agent does, and Gloo's full mesh opens one per
// peer on every rank, against the open-file limit (ulimit -n) less what is open and a reserve. Refused before the
// rendezvous: WORLD_SIZE=100000 otherwise waited the whole --dist-timeout and then about 10 ms a rank in teardown.
void checkWorldFits(const TrainingConfig& config, const RankEnvironment& env);

// Starts processesFor(config) ranks (`stackscope-cli train-rank`, the same program as the CLI), each with the
// rendezvous in its environment; forwards rank 0's events to `progress`; on `cancel` the ranks stop together.
// A rank that fails: the others get --dist-timeout to end, then are killed; the error names each rank, how it
// ended and its last collective. ConfigError when rank 0 refused the configuration, runtime_error otherwise.
std::shared_ptr<const TrainingResult> launchRanks(const TrainingConfig& config, const TrainingProgressCallback& progress,
                                                  const CancelToken& cancel);

} // namespace stackscope::training
