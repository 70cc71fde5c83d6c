// The examples every tstudio subcommand shows at the end of its --help and in `man tstudio`.
#include "cli_examples.h"

namespace tstudio::cli {

const std::vector<CommandExamples>& commandExamples()
{
    static const std::vector<CommandExamples> examples = {
        {"inspect",
         {{"tstudio inspect model.pb", "what a GraphDef holds: nodes, ops, placeholders, variables, devices"},
          {"tstudio inspect model.pbtxt --shapes --json", "the same as JSON, with every tensor's inferred dtype and shape"},
          {"tstudio inspect runs/train/model.ckpt-1000 --values --max-values 10",
           "every tensor of a checkpoint, with its first values"},
          {"tstudio inspect export/1", "a SavedModel's tag sets and signatures"}}},
        {"run",
         {{"tstudio run model.pb --feed 'x=[[1,2,3]]' --fetch y:0", "feed a placeholder, print a tensor as JSON"},
          {"tstudio run export/1 --signature serving_default --feed x=@batch.npy --out-npy out",
           "run a SavedModel's signature on a .npy file and keep the outputs as .npy files"},
          {"tstudio run model.meta --checkpoint runs/train --fetch loss:0",
           "a MetaGraph with its variables restored from the latest checkpoint of a folder"}}},
        {"bench",
         {{"tstudio bench matmul --threads 2", "float32 MatMul GFLOPS through Session::run"},
          {"tstudio bench overhead", "the executor's cost per node"},
          {"tstudio bench mlp --threads 1 --background-load 1", "training steps/s beside a busy process"},
          {"tstudio bench all --rounds 3", "every training and pipeline benchmark beside its peer, as one table"}}},
        {"devices",
         {{"tstudio devices", "the CPU and every GPU the engine can use"},
          {"tstudio devices --json --self-test", "as JSON, after running a small kernel on each GPU"}}},
        {"freeze",
         {{"tstudio freeze model.meta --checkpoint runs/train --outputs softmax -o frozen.pb",
           "variables turned into constants holding the latest checkpoint's values"}}},
        {"convert-checkpoint",
         {{"tstudio convert-checkpoint old/model.ckpt new/model.ckpt", "a V1 checkpoint rewritten as a V2 bundle"}}},
        {"export",
         {{"tstudio export mnist.tsproj --saved-model export/1", "a SavedModel with a predict signature"},
          {"tstudio export mnist.tsproj --frozen frozen.pb --outputs logits --moving-average",
           "a frozen GraphDef with the variables' moving averages"}}},
        {"train",
         {{"tstudio train spirals", "train the shipped spirals example (synthetic data)"},
          {"tstudio train lenet --mnist ~/data/mnist --steps 2000 --threads 2", "LeNet on MNIST for 2,000 steps"},
          {"tstudio train my.tsproj --resume --set optimizer.learning_rate=0.01",
           "continue from the latest checkpoint with another learning rate"},
          {"mpirun -np 2 tstudio train my.tsproj --distributed", "two ranks of an MPI job, as Horovod"}}},
        {"hostfile",
         {{"tstudio hostfile hosts.txt --np 8", "check that the hosts resolve and their slots hold 8 ranks"}}},
        {"evaluate",
         {{"tstudio evaluate mnist.tsproj --json", "the eval metrics of the latest checkpoint, as JSON"},
          {"tstudio evaluate mnist.tsproj --checkpoint runs/train/model.ckpt-500 --write-summary",
           "one checkpoint, with the metrics written to the log directory's eval run"}}},
        {"profile",
         {{"tstudio profile spirals --steps 5 --out trace.json", "a Chrome trace of 5 training steps"},
          {"tstudio profile model.pb --feed 'x=[[1,2]]' --fetch y:0 --summary", "tfprof's op and scope tables"},
          {"tstudio profile trace.json --summary", "summarise a Chrome trace written earlier"}}},
        {"debug",
         {{"tstudio debug model.pb --feed 'x=[[1,2]]' --fetch y:0 --break op:MatMul",
           "stop at every MatMul, as tfdbg's run -f"},
          {"tstudio debug spirals --steps 10 --watch dense/BiasAdd:0", "train to step 10, watching a tensor"}}},
        {"diff",
         {{"tstudio diff before.pb after.pb", "the nodes added, removed, renamed and changed"},
          {"tstudio diff runs/a/model.ckpt-100 runs/a/model.ckpt-200 --json",
           "each tensor's largest and relative change between two checkpoints, as JSON"}}},
        {"events",
         {{"tstudio events runs", "the runs and tags of a log directory"},
          {"tstudio events runs --csv --tag 'loss|accuracy'", "the matching scalars as CSV"}}},
        {"data", {{"tstudio data make-tfrecord images -o train.tfrecord", "see data make-tfrecord"}}},
        {"data make-tfrecord",
         {{"tstudio data make-tfrecord images -o train.tfrecord --shuffle --seed 1",
           "a folder of class subfolders as shuffled tf.train.Examples"},
          {"tstudio data make-tfrecord images -o train.tfrecord --shards 4 --encoding raw",
           "four shards of decoded pixels (image_raw)"}}},
        {"completion",
         {{"tstudio completion bash > ~/.local/share/bash-completion/completions/tstudio",
           "bash completion for your user"},
          {"tstudio completion zsh > ~/.zfunc/_tstudio", "zsh completion (with ~/.zfunc on fpath)"}}},
        {"man", {{"tstudio man | man -l -", "read this page without installing it"}}},
    };
    return examples;
}

const CommandExamples* examplesFor(const std::string& path)
{
    for (const CommandExamples& c : commandExamples())
        if (c.path == path)
            return &c;
    return nullptr;
}

std::string examplesFooter(const CommandExamples& examples)
{
    std::string text = "Examples:";
    for (const Example& e : examples.examples)
        text += "\n  " + e.command + "\n      " + e.meaning;
    return text;
}

} // namespace tstudio::cli
