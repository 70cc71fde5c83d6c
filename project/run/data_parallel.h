// DataParallel: where this process stands in a data-parallel run across the ranks of an MPI job
// (Horovod's semantics), as training_setup and project_runner take it.
#pragma once

namespace tstudio::project {

/// One rank of a data-parallel run (`tstudio train --distributed` under mpirun or srun). The
/// project's batch_size is per rank (Horovod's convention): a step's global batch is
/// size x batch_size. With size 1 training is the plain one-process run (no Horovod op is built),
/// except that the log says so.
///  - each data source is read as tf.data's shard(size, rank): examples rank, rank + size, ...,
///    taken before shuffling and batching;
///  - the optimizer's gradients are averaged over the ranks (HorovodAllreduce, then divided by
///    size) before clipping and apply_gradients, as horovod.tensorflow.DistributedOptimizer;
///  - rank 0's variables reach every rank once the session exists (HorovodBroadcast of every
///    global variable, as BroadcastGlobalVariablesHook), so a rank 0 that resumed from a
///    checkpoint resumes every rank;
///  - rank 0 alone restores and writes checkpoints and writes the main event files and the
///    evaluations in the log directory; rank r > 0 writes its event files to <logdir>/worker_<r>/.
struct DataParallel {
    int rank = 0;
    int size = 1;
    /// Multiply the learning rate by size (every value of its schedule), Horovod's advice when the
    /// global batch grows with the ranks. Or-ed with the project's distributed.scale_learning_rate.
    bool scaleLearningRate = false;
    /// TensorFlow's between-graph asynchronous replication (parameter_server.h) instead: `rank` and
    /// `size` are then this worker's index among the workers and their number (each reads its
    /// shard), and no gradient is averaged nor any variable broadcast; the train op is not run
    /// locally (PreparedTraining::gradientTensors go to the parameter server, which applies them).
    bool asynchronous = false;
};

} // namespace tstudio::project
