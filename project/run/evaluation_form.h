// What a form may choose for a project's evaluation: which data (a held-out split of a training
// source, the same kind of source reading another file, folder or seed, or the training data
// itself) and which metrics it can fill in from the graph (the loss, and for a classifier's loss
// the accuracy metrics of its logits and labels), turned into and read back from "eval" entries.
#pragma once

#include "core/expected.h"
#include "project/format/project_file.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tstudio {
class OpRegistry;
}

namespace tstudio::project {

/// Where an evaluation's examples come from, relative to data.sources[source].
struct EvalDataChoice {
    enum class Mode {
        kSplit, ///< {"from": source, "skip", "take"}: held-out examples (mnist, numpy and cifar10 sources)
        kOther, ///< a copy of the source reading `other` instead: evalOtherKind says what that is
        kSame,  ///< a copy of the source itself (the training data)
    };
    std::size_t source = 0;
    Mode mode = Mode::kSame;
    std::int64_t skip = 0;
    std::int64_t take = -1;
    std::string other;
    bool operator==(const EvalDataChoice&) const = default;
};

/// What kOther replaces in a source of this type: "file" (word_text: the text file, its vocabulary
/// still built from the training file, as the PTB tutorial evaluates ptb.valid.txt), "dir" (mnist,
/// image_folder), "files" (numpy, csv, tfrecord, cifar10: comma-separated), "seed" (two_spirals: a new
/// draw).
std::string evalOtherKind(const DataSource& source);

/// The modes a source allows, in the order a form offers them (kSplit first where it exists).
std::vector<EvalDataChoice::Mode> evalModes(const DataSource& source);

/// The eval source `choice` describes. InvalidArgument naming the problem: no such data source,
/// a split of a source without skip and take, an empty `other`, a seed that is not a number.
Expected<EvalSource> evalSourceFor(const Project& project, const EvalDataChoice& choice);

/// The choice `eval` was made from (its inverse), or nullopt for an entry a form did not make
/// (another type, different feeds or settings): such an entry is kept as it is.
std::optional<EvalDataChoice> evalDataChoiceOf(const Project& project, const EvalSource& eval);

/// The tensors a classifier metric reads, found from training.loss as default_accuracy.h finds
/// them: its cross-entropy's logits and labels. Reading or importing the graph, or a loss that is
/// not a single softmax cross-entropy: nullopt.
struct ClassifierTensors {
    std::string logits;
    std::string labels;
};
std::optional<ClassifierTensors> projectClassifier(const Project& project, const OpRegistry& ops);

/// The metric kinds a form can fill in for `project` without asking for tensors: "loss" (with a
/// training.loss), "perplexity" (with the project's "perplexity"), and with `classifier`
/// "accuracy", "top_k_accuracy" and "pr_curve" (TensorBoard's PR curves per class).
std::vector<std::string> evalFormMetricKinds(const Project& project, const std::optional<ClassifierTensors>& classifier);

/// The entry of kind `kind` (one of evalFormMetricKinds) as the form makes it; `k` for top_k_accuracy.
EvalMetricSpec evalFormMetric(const std::string& kind, const std::optional<ClassifierTensors>& classifier,
                              std::int64_t k = 5);

} // namespace tstudio::project
