// The layer catalogue: the layer node types of the node editor, their parameters, and their expansion
// into the ops tf.layers / tf.losses / tf.train (TensorFlow 1.15) build, through the engine's building API.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "proto/attr_value.pb.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::layers {

/// One parameter of a layer type. The kind of value it takes is the kind of `defaultValue`
/// (AttrValue s, i, f, b, type, shape or list(int)); an int is also accepted where a float is
/// expected. A string parameter with `choices` takes one of them.
struct LayerParam {
    std::string name;
    tensorflow::AttrValue defaultValue;
    std::string doc;
    std::vector<std::string> choices;
};

/// A layer node type. `category` is one of "Input", "Layers", "Activations", "Losses", "Training",
/// "Summaries" (the palette's groups). `inputs` -1: variadic (at least one). `inputNames` /
/// `outputNames` name the ports (a variadic type has one input name, used for every port).
///
/// `bindingNames` names optional input ports that come after the `inputs` (types with a fixed
/// number of inputs only) and take no tensor: connecting a data-source node's component to one
/// binds the node's placeholder (its output 0) to that component, so that the project feeds it
/// from that source (viewmodel/node_editor/document_project.h). A binding makes no graph edge, is
/// never passed to expandLayerNode and may stay unconnected (then the placeholder is fed by hand,
/// as any tf.placeholder). Only Input has one ("data"). Why not a general "optional tensor input":
/// no layer takes one (tf.losses' weights would be the first), and a port that may take a tensor
/// or nothing would need its expansion to say which it got; a binding is never a tensor.
struct LayerType {
    std::string type;
    std::string category;
    std::string doc;
    int inputs = 1;
    int outputs = 1;
    std::vector<LayerParam> params;
    std::vector<std::string> inputNames;
    std::vector<std::string> outputNames;
    std::vector<std::string> bindingNames;
};

/// Every layer type, in palette order (built on first use; thread-safe).
///  Input: Input (Placeholder), Dataset (two Placeholders the runner feeds, see below), and the
///         data-source nodes MnistSource, SpiralsSource, ImageFolderSource, NumpySource, CsvSource,
///         TfRecordSource (layers/data_source_nodes.h).
///  Layers: Dense, Embedding, RNN (layers/recurrent_nodes.h), Conv2D, Conv2DTranspose, MaxPool,
///         AvgPool, BatchNorm, Dropout, Flatten, Reshape, Concat, Add, Cond (layers/cond_node.h).
///  Activations: Relu, Relu6, Elu, Sigmoid, Tanh, Softmax, LeakyRelu.
///  Losses: SoftmaxCrossEntropy, SparseSoftmaxCrossEntropy, MeanSquaredError.
///  Training: GradientDescent, Momentum, Adam, RMSProp, Adagrad.
///  Summaries: ScalarSummary, HistogramSummary, ImageSummary, AudioSummary, TextSummary
///         (layers/summary_nodes.h). Dense, Conv2D and BatchNorm also take the bool param
///         "summaries" (summary_nodes.h: expandWithLayerSummaries).
const std::vector<LayerType>& layerCatalog();
/// The type called `type` (exact case), or nullptr.
const LayerType* findLayerType(std::string_view type);

/// The param `name` as given in `params`, else its default in `type` (an empty AttrValue when the
/// type has no such param).
const tensorflow::AttrValue& paramOrDefault(const LayerType& type, const std::map<std::string, tensorflow::AttrValue>& params,
                                            const std::string& name);

/// Checks `params` against `type` without building anything: NotFound "unknown layer type 'X'";
/// InvalidArgument naming the layer, the param and what was expected:
///   "layer 'fc' (Dense): unknown param 'unit'; expected one of units, activation, ..."
///   "layer 'fc' (Dense): param 'units' expects an int, got a string"
///   "layer 'fc' (Dense): param 'activation' must be one of none, relu, ...; got 'rleu'"
///   "layer 'fc' (Dense): param 'units' must be positive, got 0"
/// (ranges are checked here; everything that depends on the inputs is checked while expanding).
Status validateLayerParams(std::string_view type, std::string_view name,
                           const std::map<std::string, tensorflow::AttrValue>& params);

/// What one layer node built: its outputs (LayerType::outputs of them) and, for the Training
/// types, the train op to run (their `targets`; also in the "train_op" collection).
struct LayerExpansion {
    std::vector<Output> outputs;
    std::vector<Operation> targets;
};

/// Adds the ops of layer `type` to `b` as TensorFlow 1.15's Python API adds them, reading `inputs`
/// (Outputs already in `b`, in port order) with `params` (missing ones take their defaults).
/// `name` is the name given to the Python call (empty: the call's default); tf.layers types use it
/// as the layer name (variable scope `name`, name scope `name` made unique), single-op types as
/// the op's name ("relu", made unique), losses as their scope, optimizers as their name.
///  Input       tf.placeholder(dtype, shape, name): the Placeholder `name`. Its binding port "data"
///              (LayerType::bindingNames) is the editor's: it takes no input here.
///  Dataset     there is no graph-level dataset op in the engine (tf.data runs in the runner,
///              project/data_sources.h), so a Dataset node is two Placeholders under the scope
///              `name` that the runner feeds from a project "mnist" source: "<name>/images"
///              (float32 [?,784] scaled to [0,1], or uint8 with scale false) and "<name>/labels"
///              (int64 [?] sparse, or float32 [?,10] one_hot) - feeds {"<name>/images": ["images"],
///              "<name>/labels": ["labels"]}. Kept for old documents; new ones use MnistSource.
///  MnistSource ... TfRecordSource: a Placeholder "<name>/<component>" per component, dtype and
///              [?] + example shape from the params alone (layers/data_source_nodes.h); the
///              editor writes the matching project source (viewmodel/node_editor/document_project.h).
///  Dense       scope "layer": tf.layers.dense ("dense/kernel", "dense/MatMul", "dense/BiasAdd",
///              penalties under "dense/kernel/Regularizer/" in REGULARIZATION_LOSSES); kernel_name,
///              bias_name and bias_op ("Add": the Python `+`, node "add") rename the pieces.
///              scope "variable_scope": the book's mnist_inference.py: tf.variable_scope(name),
///              tf.get_variable(kernel_name, ...), the L2 penalty built in the scope
///              ("layer1/l2_regularizer") and added to the "losses" collection, then MatMul, the
///              bias op and the activation; `name` empty means "dense", not made unique (a second
///              one fails in get_variable as in TensorFlow). Renamed pieces and the variable_scope form need a
///              rank-2 input.
///  Conv2D, MaxPool, AvgPool, BatchNorm, Dropout, Flatten: tf.layers.conv2d, max_pooling2d,
///              average_pooling2d, batch_normalization, dropout, flatten (layers/*.h). BatchNorm and
///              Dropout take `training` from the graph's learning phase (builder/learning_phase.h:
///              "learning_phase", true unless fed false) while the param learning_phase is on (the
///              default), else the Python bool of the param training.
///  Reshape     tf.reshape(x, shape, name): Const "<name>/shape", Reshape "<name>".
///  Concat      tf.concat(values, axis, name) of two or more inputs: Const "<name>/axis", ConcatV2.
///  Add         op "AddN": tf.add_n (one input: its Identity); op "Add": tf.add of exactly two.
///  Cond        (pred, true, false): tf.cond(pred, lambda: true, lambda: false, name) with TensorFlow's
///              Switch / Merge nodes ("cond/Switch", "cond/switch_t", ..., "cond/Merge"); pred must be a
///              bool scalar and the values of one dtype (layers/cond_node.h: checkCondPorts):
///              "layer 'gate' (Cond): port 'pred' takes a bool scalar; got float32 []".
///  Relu ... LeakyRelu: tf.nn.relu(x, name) and friends, one op; Softmax over the last axis.
///  SoftmaxCrossEntropy (labels, logits): tf.losses.softmax_cross_entropy, or with sparse (kept for
///              old documents) tf.losses.sparse_softmax_cross_entropy; SparseSoftmaxCrossEntropy
///              (labels: int32/int64 class ids, logits): tf.losses.sparse_softmax_cross_entropy;
///              MeanSquaredError (labels, predictions): tf.losses.mean_squared_error; with reduction
///              as tf.losses. With total_loss (the default) the output is tf.losses.get_total_loss()
///              ("total_loss"): every loss in the "losses" collection (this one, the book's
///              penalties) plus REGULARIZATION_LOSSES. Before building, the ports are checked
///              (checkLossPorts, loss_ports.h): labels of the wrong kind or rank, integer logits and
///              swapped ports (labels computed from trainable variables, logits / predictions not):
///              "layer 'loss' (SoftmaxCrossEntropy): port 'labels' takes float one-hot rows [batch,
///              classes]; got int64 [?]: class ids go to SparseSoftmaxCrossEntropy".
///  ScalarSummary ... TextSummary: tf.summary.<kind>(name, tensor, ...) into SUMMARIES
///              (layers/summary_nodes.h: expandSummaryNode); with summaries on, Dense, Conv2D and
///              BatchNorm add variable_summaries of their variables and output.
///  GradientDescent, Momentum, Adam, RMSProp, Adagrad (loss): tf.train.<X>Optimizer(learning_rate,
///              ...).minimize(loss, global_step); learning_rate optionally through
///              tf.train.exponential_decay of the global step; global_step "global_step"
///              (tf.train.get_or_create_global_step), "Variable" (the book's tf.Variable(0,
///              trainable=False), int32) or "none". No outputs; the train op is the target.
/// Errors: validateLayerParams'; InvalidArgument "layer 'fc' (Dense): expected 1 input, got 2";
/// the building API's errors (TensorFlow's words) prefixed "layer 'fc' (Dense): ". On error the
/// builder may hold the nodes added before the failing one (names stay reserved, as in TF).
Expected<LayerExpansion> expandLayerNode(GraphBuilder& b, std::string_view type, std::string_view name,
                                         const std::map<std::string, tensorflow::AttrValue>& params,
                                         const std::vector<Output>& inputs);

/// expandLayerNode's outputs.
Expected<std::vector<Output>> expandLayer(GraphBuilder& b, std::string_view type, std::string_view name,
                                          const std::map<std::string, tensorflow::AttrValue>& params,
                                          const std::vector<Output>& inputs);

} // namespace tstudio::layers
