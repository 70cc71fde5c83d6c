// Project files (.tsproj): one JSON file that the GUI and `tstudio train` share, holding the graph,
// the data sources and the placeholders they feed, the training set-up, the hooks, the device and
// the log directory. Loading validates everything and names the file and JSON path in errors.
#pragma once

#include "core/expected.h"
#include "debugger/breakpoint.h"
#include "framework/data_type.h"
#include "proto/graph.pb.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tstudio::project {

/// The "format" tag and the newest "version" this build reads and writes.
inline constexpr std::string_view kProjectFormat = "tensorstudio-project";
inline constexpr int kProjectVersion = 1;

/// Where the graph comes from: a file (GraphDef .pb/.pbtxt or MetaGraphDef .meta/.pbtxt, the
/// path relative to the .tsproj) or an inline GraphDef in text form. Exactly one is set.
struct GraphSource {
    std::string file;
    std::string pbtxt;
    bool operator==(const GraphSource&) const = default;
};

/// "two_spirals": examples/two_spirals_data.h's generator. Components "points" float32 [2] and
/// "labels" (int64 [] sparse, or float32 [2] one-hot).
struct TwoSpiralsParams {
    std::int64_t pointsPerClass = 500;
    double turns = 1.75;
    double noise = 0.04;
    std::int64_t seed = 1;
    std::string labels = "sparse"; ///< "sparse" or "one_hot"
    bool operator==(const TwoSpiralsParams&) const = default;
};

/// "mnist": the idx files <dir>/<set>-images-idx3-ubyte[.gz] and -labels-idx1-ubyte[.gz].
/// Components "images" ([784], float32 in [0,1] when scaled, else uint8) and "labels" (int64 []
/// sparse or float32 [10] one-hot). skip/take select examples [skip, skip + take) (take -1: all).
struct MnistParams {
    std::optional<std::string> dir; ///< null: the project's data.dir
    std::string set = "train";      ///< "train" or "t10k"
    std::int64_t skip = 0;
    std::int64_t take = -1;
    std::string labels = "sparse";
    bool scale = true;
    bool operator==(const MnistParams&) const = default;
};

/// "cifar10": CIFAR-10 binary batch files (engine/data/cifar10.h), read one after the other.
/// Components "images" (float32 [3072] in [0,1] when scaled, else uint8: the 32x32x3 image flat in
/// height-width-channel order, as TF's cifar10 tutorial has it after its transpose) and "labels"
/// (int64 [] sparse or float32 [10] one-hot). skip/take select examples [skip, skip + take) of the
/// files' records in order (take -1: all).
struct Cifar10Params {
    std::optional<std::string> dir; ///< null: the project's data.dir
    /// Relative to `dir`; the training batches by default (test_batch.bin to evaluate).
    std::vector<std::string> files = {"data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin", "data_batch_4.bin",
                                      "data_batch_5.bin"};
    std::int64_t skip = 0;
    std::int64_t take = -1;
    std::string labels = "sparse";
    bool scale = true;
    bool operator==(const Cifar10Params&) const = default;
};

/// The image-decode step of a string feature: the bytes decoded to float32 [height, width,
/// channels] in [0, 1], as decode_image (or decode_raw + reshape), resize_images and
/// convert_image_dtype(tf.float32) give them in a TF 1.x input_fn.
struct ImageDecodeSpec {
    std::int64_t channels = 3;        ///< 1 (grey) or 3 (RGB)
    std::int64_t height = 0;          ///< >= 1
    std::int64_t width = 0;           ///< >= 1
    std::string encoding = "encoded"; ///< "encoded": a PNG or JPEG file; "raw": height x width x channels uint8
    std::string method = "bilinear";  ///< the resize method of encoded images (only "bilinear")
    bool operator==(const ImageDecodeSpec&) const = default;
};

/// One feature of a tf.train.Example: tf.io.FixedLenFeature (the default), tf.io.VarLenFeature
/// (`varlen`), or a string feature decoded as an image (`image`).
struct FeatureSpec {
    DataType dtype = tensorflow::DT_FLOAT; ///< float32, int64 or string (string for an image)
    std::vector<std::int64_t> shape;       ///< fixed-length features only
    /// Fixed length: null means required. Padded varlen: the scalar the rows are padded with (null:
    /// 0 or ""). Sparse varlen and image features have none.
    nlohmann::json defaultValue;
    /// tf.io.VarLenFeature: any number of values per example (none when the feature is absent). A
    /// batch gives the components "<name>.indices", "<name>.values" and "<name>.dense_shape" (the
    /// SparseTensor of tf.io.parse_example), or with `pad` "<name>" [batch, longest] and
    /// "<name>.length" [batch].
    bool varlen = false;
    bool pad = false;
    std::optional<ImageDecodeSpec> image; ///< set: the component is float32 [height, width, channels]
    bool operator==(const FeatureSpec&) const = default;
};

/// "tfrecord": files of serialized tf.train.Example, one component per feature.
struct TfRecordParams {
    std::vector<std::string> files;   ///< relative to data.dir when set, else to the .tsproj
    std::string compression = "none"; ///< "none", "zlib" or "gzip"
    std::map<std::string, FeatureSpec> features;
    bool operator==(const TfRecordParams&) const = default;
};

/// One column of a CSV file: a scalar component.
struct CsvColumn {
    std::string name;
    DataType dtype = tensorflow::DT_FLOAT; ///< float32, float64, int32, int64 or string
    nlohmann::json defaultValue;           ///< null: required
    bool operator==(const CsvColumn&) const = default;
};

/// "csv": text files, one record per line, decoded as tf.io.decode_csv decodes them.
struct CsvParams {
    std::vector<std::string> files;
    bool header = false; ///< skip each file's first line
    std::string fieldDelim = ",";
    std::vector<CsvColumn> columns;
    bool operator==(const CsvParams&) const = default;
};

/// "numpy": NumPy arrays, one component per array, the first dimension indexing the examples
/// (every array must have the same number). Either .npy files, each a component named after its
/// stem ("x.npy" -> "x"), or one .npz archive (np.savez / np.savez_compressed) whose arrays
/// `keys` names ("x" is the member "x.npy"). skip/take as mnist's.
struct NumpyParams {
    std::vector<std::string> files; ///< relative to data.dir when set, else to the .tsproj
    std::vector<std::string> keys;  ///< the .npz's arrays (required for an .npz, empty for .npy)
    std::int64_t skip = 0;
    std::int64_t take = -1;
    bool operator==(const NumpyParams&) const = default;
};

/// "image_folder": <dir>/<class>/<image> with one subfolder per class, as Keras'
/// image_dataset_from_directory reads it: classes sorted by name are labels 0..n-1, images sorted
/// by name within their class, PNG and JPEG files (other files are skipped). Components "images"
/// (float32 [height, width, channels] in [0, 1], resized as tf.image.resize_images' default
/// bilinear) and "labels" (int64 [] sparse, or float32 [classes] one-hot).
struct ImageFolderParams {
    std::string dir;             ///< relative to data.dir when set, else to the .tsproj
    std::int64_t height = 256;
    std::int64_t width = 256;
    std::int64_t channels = 3;   ///< 1 (grey) or 3 (RGB)
    std::string labels = "sparse";
    /// null: as many classes as subfolders; set: the folder must have exactly that many (what an
    /// editor node's one-hot labels are shaped by).
    std::optional<std::int64_t> classes;
    bool operator==(const ImageFolderParams&) const = default;
};

/// "word_text": a tokenised text file read as TensorFlow's PTB tutorial reader reads it (words
/// separated by white space, each line end a "<eos>" word), its words turned into ids by a
/// vocabulary (built from `vocabFrom`, by default the file itself: words by falling count, then by
/// word, ids 0..n-1; or read from `vocabFile`, one word per line, the line number its id); a word
/// not in the vocabulary becomes "<unk>" (which the vocabulary must then hold). The ids are cut
/// into batches as ptb_producer cuts them: reshaped to [batch_size, batch_len], step i of an epoch
/// takes x = data[:, i*num_steps:(i+1)*num_steps] and y the same shifted by one; an epoch is
/// (batch_len - 1) / num_steps steps, in order (never shuffled). Components "x" and "y", int32
/// [num_steps] per example (a batch is [batch_size, num_steps]).
struct WordTextParams {
    std::string file;              ///< relative to data.dir when set, else to the .tsproj
    std::string vocabFrom;         ///< the file whose words make the vocabulary ("": `file`)
    std::string vocabFile;         ///< a vocabulary file instead ("": none)
    std::int64_t numSteps = 20;    ///< >= 1
    std::optional<std::int64_t> vocabSize; ///< set: the vocabulary must have exactly this many words
    bool operator==(const WordTextParams&) const = default;
};

/// "skip_gram": a text file's words (split on white space) as the (centre, context) pairs of
/// TensorFlow's word2vec tutorial (word2vec_basic.py): a vocabulary of "UNK" (id 0) and the
/// vocab_size - 1 most common words; for every centre word with a full window, num_skips distinct
/// context words drawn (seeded) from the skip_window words on each side. Components "inputs" (int32
/// scalar, the centre's id) and "labels" (int64 [1], the context's id: nce_loss's [batch, 1] labels).
/// The vocabulary is written as metadata.tsv beside the run's checkpoints, for the projector.
struct SkipGramParams {
    std::string file;               ///< relative to data.dir when set, else to the .tsproj
    std::int64_t vocabSize = 10000; ///< >= 2, "UNK" included
    std::int64_t skipWindow = 1;    ///< >= 1
    std::int64_t numSkips = 2;      ///< 1 ..= 2 * skip_window
    std::int64_t seed = 1;
    bool operator==(const SkipGramParams&) const = default;
};

using SourceParams = std::variant<TwoSpiralsParams, MnistParams, TfRecordParams, CsvParams, NumpyParams,
                                  ImageFolderParams, WordTextParams, Cifar10Params, SkipGramParams>;

/// One data source: its examples shuffled (seeded), repeated forever and batched by the project's
/// batch size; each feed maps a placeholder (a tensor name, "x" meaning "x:0") to one component
/// or to several scalar components of one dtype stacked into a vector.
struct DataSource {
    SourceParams params;
    std::optional<std::int64_t> shuffleBuffer; ///< null: every example (files: 10,000)
    std::int64_t shuffleSeed = 1;
    std::map<std::string, std::vector<std::string>> feeds;

    /// "two_spirals", "mnist", "tfrecord", "csv", "numpy", "image_folder", "word_text", "cifar10" or
    /// "skip_gram".
    std::string type() const;
    bool operator==(const DataSource&) const = default;
};

/// A learning rate: a constant, or one of TensorFlow's decay schedules of the global step.
struct LearningRate {
    std::string schedule = "constant"; ///< constant, exponential_decay, piecewise_constant,
                                       ///< polynomial_decay, cosine_decay, inverse_time_decay
    double learningRate = 0.01;
    std::int64_t decaySteps = 0;
    double decayRate = 0;
    bool staircase = false;
    std::vector<std::int64_t> boundaries;
    std::vector<double> values;
    double endLearningRate = 0.0001;
    double power = 1.0;
    bool cycle = false;
    double alpha = 0;
    bool operator==(const LearningRate&) const = default;
};

/// An optimizer to build into the graph: its type, learning rate and the type's other
/// hyper-parameters (numbers and flags, each with TensorFlow's default).
struct OptimizerSpec {
    std::string type = "GradientDescent"; ///< GradientDescent, Momentum, Adam, RMSProp, Adagrad, Adadelta
    LearningRate learningRate;
    std::map<std::string, double> numbers; ///< e.g. "beta1", "momentum"
    std::map<std::string, bool> flags;     ///< e.g. "use_nesterov", "centered"
    bool operator==(const OptimizerSpec&) const = default;
};

/// "warm_start": variables initialised from another checkpoint when training starts fresh (no
/// checkpoint in the log directory yet), as tf.estimator.WarmStartSettings: the trainable
/// variables whose names match `varsToWarmStart` from the start (Python's re.match), each read
/// from the checkpoint under its own name or the one `varNameToPrevVarName` gives it.
struct WarmStart {
    std::string ckptToInitializeFrom; ///< a checkpoint prefix, or a directory (its latest checkpoint)
    std::string varsToWarmStart = ".*";
    std::map<std::string, std::string> varNameToPrevVarName;
    bool operator==(const WarmStart&) const = default;
};

/// Either an existing train op (with the loss to report) or a loss and an optimizer to build.
struct TrainingSetup {
    std::string loss;                       ///< tensor name; required with an optimizer
    std::optional<std::string> trainOp;     ///< an op of the graph
    std::optional<std::string> globalStep;  ///< null: tf.train.get_or_create_global_step
    std::optional<std::string> initOp;      ///< null: an initializer of every variable is added
    std::optional<OptimizerSpec> optimizer; ///< set exactly when trainOp is not
    std::optional<double> clipByGlobalNorm; ///< optimizer only
    /// "var_list": a regex (re.match) choosing which trainable variables the optimizer updates, as
    /// minimize(var_list=...); null: all of them. Optimizer only.
    std::optional<std::string> varList;
    std::optional<WarmStart> warmStart;
    bool operator==(const TrainingSetup&) const = default;
};

/// When the training loop's hooks fire (null: never).
struct Hooks {
    std::optional<std::int64_t> checkpointEverySteps;
    std::optional<std::int64_t> checkpointEverySecs = 600;
    std::optional<std::int64_t> summaryEverySteps = 100;
    std::optional<std::int64_t> logEverySteps = 100;
    std::optional<std::int64_t> profileEverySteps;
    std::optional<std::int64_t> stopAtStep;
    bool operator==(const Hooks&) const = default;
};

/// "debugger": the breakpoints ({"at": "op:Log if has_nan", "enabled": true}, in parseBreakpoint's
/// syntax) and the watched tensors ("layer1/MatMul:0"). The section, and each list in it, is written
/// only when it has entries; reading takes an absent, null or empty list as none (earlier versions
/// wrote "watch": [] beside the breakpoints).
struct DebuggerSettings {
    std::vector<debugger::Breakpoint> breakpoints;
    std::vector<std::string> watch;
    bool empty() const { return breakpoints.empty() && watch.empty(); }
    bool operator==(const DebuggerSettings&) const = default;
};

/// "export": what File ▸ Export… and `tstudio export` write by default (project_export.h). Paths are
/// relative to the .tsproj or absolute; empty: not written. Written only when set.
struct ExportSettings {
    std::string savedModel;           ///< "saved_model": a SavedModel directory
    std::string frozenGraph;          ///< "frozen_graph": a frozen binary GraphDef (.pb)
    std::vector<std::string> inputs;  ///< placeholders; empty: those a data source feeds that the outputs need
    std::vector<std::string> outputs; ///< tensor names ("y" meaning "y:0")
    bool movingAverage = false;       ///< "moving_average": the variables' ExponentialMovingAverage values
    bool operator==(const ExportSettings&) const = default;
};

/// One entry of "summaries": a summary the training writes besides the graph's own, of a tensor of
/// the graph or of the batches a data source feeds (summarised from the placeholder it feeds), as
/// tf.summary.<kind>(tag, tensor, ...) builds it (project_summaries.h). Exactly one of `tensor`
/// and `source` is set.
struct SummarySpec {
    std::string kind;                   ///< "scalar", "histogram", "image", "audio" or "text"
    std::string tensor;                 ///< a tensor of the graph ("x" meaning "x:0")
    std::optional<std::int64_t> source; ///< an index of data.sources
    std::string component;              ///< with `source`: the component (fed alone to a placeholder)
    std::string tag;                    ///< the summary's name; empty: the tensor's name ("x:0" -> "x_0")
    std::string family;                 ///< tf.summary's family ("" = none; not for text)
    std::int64_t maxOutputs = 3;        ///< image and audio
    std::optional<double> sampleRate;   ///< audio (Hz), required there
    /// Image and audio: each example reshaped to this first ([-1] + shape); empty: as it is, except
    /// an mnist source's images, which are [28, 28, 1].
    std::vector<std::int64_t> shape;
    bool operator==(const SummarySpec&) const = default;
};

/// One entry of "eval.sources": a data source of its own (the schema of data.sources), or a held-out
/// split of a training source ({"from": 0, "skip": 55000, "take": 5000}: data.sources[from] with
/// that skip and take, which only mnist, numpy and cifar10 sources have).
struct EvalSource {
    std::optional<std::int64_t> from; ///< set: a split of data.sources[from]
    std::int64_t skip = 0;            ///< with `from`
    std::int64_t take = -1;           ///< with `from`
    DataSource source;                ///< the source itself (with `from`: the derived copy)
    bool operator==(const EvalSource&) const = default;
};

/// One entry of "eval.metrics": tf.metrics.<kind> of tensors of the graph ("x" meaning "x:0").
/// `logits` stands in for `predictions` where a class is predicted: argmax over the last axis (and a
/// one-hot `labels` is reduced the same way), or, for top_k_accuracy, the scores themselves.
struct EvalMetricSpec {
    std::string kind;        ///< one of evalMetricKinds() (evaluation.h)
    std::string name;        ///< the result's key and the eval summary's tag; empty: the kind's default
    std::string tensor;      ///< loss (default training.loss), mean, percentage_below
    std::string labels;
    std::string predictions;
    std::string logits;
    std::string weights;     ///< optional
    std::string normalizer;  ///< mean_relative_error
    std::optional<std::int64_t> k;             ///< top_k_accuracy (default 5)
    std::optional<std::int64_t> numClasses;    ///< mean_iou
    std::optional<std::int64_t> numThresholds; ///< auc, sensitivity_at_specificity, ... (default 200)
    std::optional<std::int64_t> dim;           ///< mean_cosine_distance
    std::optional<double> threshold;           ///< percentage_below
    std::optional<double> at;                  ///< the specificity or sensitivity of *_at_*
    std::string curve = "ROC";                 ///< auc: "ROC" or "PR"
    bool operator==(const EvalMetricSpec&) const = default;
};

/// `source` reading examples [skip, skip + take) instead (take -1: to the end), as an eval split of
/// it; nullopt for a type without skip and take (only mnist, numpy and cifar10 sources have them).
std::optional<DataSource> splitOf(const DataSource& source, std::int64_t skip, std::int64_t take);

/// "eval.best": keep the checkpoint with the best value of a metric in <logdir>/best/ (as
/// tf.estimator.BestExporter keeps the best export). mode "max" or "min" ("" : by the metric's kind).
struct BestCheckpointSpec {
    std::string metric;
    std::string mode;
    bool operator==(const BestCheckpointSpec&) const = default;
};

/// "eval.early_stopping": stop training when `metric` has not improved by more than `minDelta` for
/// `patience` evaluations in a row (tf.estimator.experimental.stop_if_no_increase_hook, counted in
/// evaluations).
struct EarlyStoppingSpec {
    std::string metric;
    std::string mode; ///< "max", "min" or "" (by the metric's kind)
    std::int64_t patience = 5;
    double minDelta = 0;
    bool operator==(const EarlyStoppingSpec&) const = default;
};

/// "eval": evaluation while training, as tf.estimator.train_and_evaluate: every `everySteps` steps,
/// every `everySecs` seconds or after each checkpoint, `steps` batches (null: one pass over the
/// sources) of the eval sources run in evaluation mode (the learning phase fed false) through the
/// metrics, written to <logdir>/eval/ as Estimator writes them.
struct EvalSettings {
    std::vector<EvalSource> sources;
    std::optional<std::int64_t> everySteps;
    std::optional<std::int64_t> everySecs;
    bool afterCheckpoint = false;
    std::optional<std::int64_t> steps;
    std::optional<std::int64_t> batchSize; ///< null: the project's
    std::vector<EvalMetricSpec> metrics;   ///< empty: the loss alone
    std::optional<BestCheckpointSpec> best;
    std::optional<EarlyStoppingSpec> earlyStopping;
    bool operator==(const EvalSettings&) const = default;
};

/// One entry of "carry_state": a recurrent network's state carried from one training step to the
/// next, as TensorFlow's PTB tutorial feeds `final_state` back as `initial_state`: each step feeds
/// the value `fetch` had after the previous step to `feed` (a Placeholder or PlaceholderWithDefault
/// whose shape is known but for its first, batch, dimension); the first step of every epoch of the
/// word_text source feeds zeros instead. Tensor names as elsewhere ("x" meaning "x:0").
struct CarryState {
    std::string fetch;
    std::string feed;
    bool operator==(const CarryState&) const = default;
};

/// "distributed": settings of a data-parallel run across the ranks of an MPI job (`tstudio train
/// PROJECT --distributed` under mpirun or srun; data_parallel.h says what each rank does). The
/// project's batch_size stays per rank (Horovod's convention). Written only when it differs from the
/// default. Keys: "scale_learning_rate" (bool, default false): the learning rate (every value of its
/// schedule) times the number of ranks, as --scale-lr; "replication" ("sync", the default: Horovod's
/// synchronous data parallelism; "async": TensorFlow's between-graph asynchronous replication with
/// parameter servers, parameter_server.h); "ps_tasks" (>= 1, default 1; async only): how many of the
/// ranks are parameter servers (the last ones).
struct DistributedSettings {
    bool scaleLearningRate = false;
    bool asynchronous = false;
    std::int64_t psTasks = 1;
    bool operator==(const DistributedSettings&) const = default;
};

struct Project {
    int version = kProjectVersion;
    std::string name;
    GraphSource graph;
    std::optional<std::string> dataDir;
    std::vector<DataSource> sources;
    TrainingSetup training;
    std::int64_t batchSize = 100;
    std::int64_t steps = 1000;
    Hooks hooks;
    std::optional<ExportSettings> exportSettings; ///< "export"; written only when set
    std::string device = "cpu"; ///< "cpu" or "gpu"
    /// "replicas": the model trained as this many data-parallel towers, tower i on CPU:i ("cpu";
    /// the session then has that many CPU devices) or GPU:i ("gpu"), each on batchSize / replicas
    /// examples of every batch, their gradients averaged (replicas.h). >= 1 and dividing batchSize;
    /// written only when not 1.
    std::int64_t replicas = 1;
    /// On the GPU, capture the training step once as a CUDA graph and replay it ("cuda_graphs").
    bool cudaGraphs = true;
    std::string logdir = "logs";
    DebuggerSettings debugger;
    std::vector<SummarySpec> summaries;                 ///< "summaries"; written only when not empty
    std::vector<CarryState> carryState;                 ///< "carry_state"; written only when not empty
    /// "perplexity": the per-word loss tensor ("" = none; written only when set): the training log
    /// and event file get scalar "perplexity" = exp(mean of it over each epoch of the word_text
    /// source), as the PTB tutorial reports it.
    std::string perplexity;
    std::optional<EvalSettings> eval;                   ///< "eval"; written only when set
    DistributedSettings distributed;                    ///< "distributed"; written only when not default
    nlohmann::json settings = nlohmann::json::object(); ///< free-form, kept as is

    /// The .tsproj this project was loaded from or saved to (not stored in the file): relative
    /// paths are resolved against its folder.
    std::filesystem::path location;

    /// `relative` resolved against the .tsproj's folder (absolute paths unchanged).
    std::filesystem::path resolve(const std::string& relative) const;
    bool operator==(const Project&) const = default;
};

/// "<file>: " for a project with a location (the .tsproj's file name), else "": the prefix of the
/// errors that name a project.
std::string projectLabel(const Project& project);

/// One --set override: "training.optimizer.learning_rate=0.1". The value is JSON when it parses
/// as JSON, else a string.
struct Override {
    std::string path;
    std::string value;
    bool operator==(const Override&) const = default;
};
/// Splits "a.b=value"; InvalidArgument "--set 'x': expected KEY=VALUE" without '=' or key.
Expected<Override> parseOverride(std::string_view text);

/// Applies overrides to a project's JSON: each path's parts are object keys or array indices
/// ("data.sources.0.seed"); the key may be new to its object (validation then checks it), every
/// part before it must exist. InvalidArgument "--set a.b: 'a' is not in the project" and the like.
Status applyOverrides(nlohmann::json& document, const std::vector<Override>& overrides);

/// Parses and validates a project from its JSON text. `label` prefixes errors ("spirals.tsproj").
/// Errors (InvalidArgument): "<label>: <json path>: <what>", e.g. "spirals.tsproj:
/// training.optimizer.type: expected one of GradientDescent, Momentum, Adam, RMSProp, Adagrad,
/// Adadelta, got 'Adamm'", "<label>: hooks.every: unknown key", "<label>: not valid JSON: ...".
Expected<Project> parseProject(const std::string& text, const std::string& label,
                               const std::vector<Override>& overrides = {});

/// Reads `path` (at most 64 MiB) and parses it; location is set to `path`.
Expected<Project> loadProject(const std::filesystem::path& path, const std::vector<Override>& overrides = {});

/// The project's graph: its inline GraphDef text, else its file (the graph of a MetaGraphDef or
/// SavedModel for those). Errors name the project file: "<name>.tsproj: graph.pbtxt: ...",
/// "<name>.tsproj: graph.file: ...".
Expected<tensorflow::GraphDef> readProjectGraph(const Project& project);

/// The project as JSON text: every key in a fixed order, two-space indents, a final newline, so
/// that saving a loaded project gives the same bytes and diffs stay small.
std::string projectToJson(const Project& project);

/// Writes projectToJson atomically (temporary file, then rename), after checking that parseProject
/// reads the text back; when it does not, nothing is written and the error is parseProject's
/// prefixed "not saved, as it would not open again: ".
Status saveProject(const Project& project, const std::filesystem::path& path);

} // namespace tstudio::project
