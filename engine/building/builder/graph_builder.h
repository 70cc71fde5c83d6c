// GraphBuilder: builds a TensorFlow 1.x GraphDef the way tf.Graph does (names, scopes, attrs, shapes).
#pragma once

#include "builder/attr_values.h"
#include "builder/collections.h"
#include "builder/control_flow_context.h"
#include "builder/output.h"
#include "builder/random_seed.h"
#include "builder/scope_guard.h"
#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/device_name.h"
#include "framework/op_registry.h"
#include "framework/tensor.h"
#include "function/shape_refiner.h"
#include "graph/unique_names.h"
#include "proto/graph.pb.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace tstudio {

class OpRegistry;
class VariableStore;

/// GraphDef.versions.producer of the graphs we build: TensorFlow 1.15's TF_GRAPH_DEF_VERSION.
inline constexpr int kGraphDefProducer = 134;

/// One input argument of an op: a single tensor, or a list for `N * T` and `list(type)` arguments
/// (Python's op_def_library takes one value per input argument the same way).
class OpInput {
public:
    OpInput(Output tensor) : m_tensors{std::move(tensor)} {}
    OpInput(std::vector<Output> tensors) : m_tensors(std::move(tensors)), m_isList(true) {}
    bool isList() const { return m_isList; }
    const std::vector<Output>& tensors() const { return m_tensors; }

private:
    std::vector<Output> m_tensors;
    bool m_isList = false;
};

/// tf.import_graph_def's arguments besides the graph (GraphBuilder::importGraphDef with options).
struct ImportGraphDefOptions {
    /// `name`: the prefix of every imported name, entered as tf.name_scope enters it (under the current
    /// scope, made unique: "import_1" when "import" is taken). nullopt is TensorFlow's None, "import";
    /// "" imports the names as they are (a name the graph has already gets "_1", "_2", ...).
    std::optional<std::string> name;
    /// `input_map`: a tensor of the imported graph ("x:0"; "x" stands for "x:0") to a tensor of this
    /// graph that the imported consumers read instead; "^x" moves the control inputs on x to the given
    /// tensor's node. The mapped nodes themselves are still imported.
    std::vector<std::pair<std::string, Output>> inputMap;
    /// `return_elements`: names in the imported graph, "x" for an operation, "x:0" for a tensor.
    std::vector<std::string> returnElements;
};

/// What GraphBuilder::importGraphDef with options returns.
struct ImportedGraphDef {
    /// The prefix used, without the trailing '/' ("" for none).
    std::string prefix;
    /// One per return element, in their order: an Operation for "x", an Output for "x:0".
    std::vector<std::variant<Operation, Output>> returned;
};

/// The one way code builds graphs: it owns a GraphDef under construction and adds nodes to it as
/// TensorFlow 1.x's Python tf.Graph does, so graphs built here look like TensorFlow's:
///  - names: "Add", "Add_1", ...; scopes "layer1/...", re-entered as "layer1_1" (Graph.unique_name,
///    case-insensitive);
///  - attrs: type and length attrs inferred from the inputs, defaults filled in, the NodeDef
///    validated against its OpDef; ops with ref inputs colocated with them ("_class" "loc:@x");
///  - shapes: every output's shape inferred as TensorFlow's shape refiner does, one node at a time
///    (function/shape_refiner.h's inferNodeOutputs): the op's shape function sees the values of Const
///    inputs, the shape facts of Shape/Size/Rank of known shapes, and partial shape tensors (the
///    Reshape of Pack(batch, 28, 28) is [?,28,28]);
///  - scopes: name, device, control dependencies, colocation, attrs (RAII ScopeGuard objects);
///  - the graph-level random seed and the collections (tf.GraphKeys).
/// Variables, variable scopes and initializers build on it (variables.h, variable_scope.h,
/// initializers.h); typed helpers for common ops are in ops_sugar.h.
///
/// Errors never leave the builder half-changed: a node that fails validation is not added (its name
/// stays reserved, as in TensorFlow). Messages name the node. Not synchronised: one thread at a time.
class GraphBuilder {
public:
    /// `registry` must outlive the builder.
    explicit GraphBuilder(const OpRegistry& registry);
    ~GraphBuilder();
    GraphBuilder(const GraphBuilder&) = delete;
    GraphBuilder& operator=(const GraphBuilder&) = delete;

    const OpRegistry& registry() const { return m_registry; }

    // --- Nodes -------------------------------------------------------------------------------------

    /// Adds a node of op `type` with one OpInput per input argument of the OpDef, `attrs` (type and
    /// length attrs may be left out: they are inferred from the inputs), named `name` (default: the
    /// op type) made unique within the current name scope. A name ending in '/' is a scope name
    /// returned by nameScope() and is used as is, without the slash (TensorFlow's convention for
    /// naming an op after the scope that holds its helpers). Control inputs come from the active
    /// controlDependencies scopes, the device from the device scopes, "_class" from colocation.
    /// Errors (InvalidArgument unless said otherwise, naming the node): NotFound "Op type not
    /// registered 'Foo'"; a bad node name ("'a b' is not a valid node name"); "Duplicate node name
    /// in graph: 'x'"; the wrong number of inputs; an input that is not in this graph; dtype
    /// mismatches ("Input 'y' of 'Add' Op has type int32 that does not match type float32 of
    /// argument 'x'."); "Input 'ref' of 'Assign' Op requires l-value input"; validateNodeDef's
    /// errors; shape-function errors as TensorFlow words them ("Shape must be rank 2 but is rank 3
    /// for 'MatMul' (op: 'MatMul') with input shapes: [2,3,4], [4,5].").
    /// While a control-flow context is current (controlFlowContextScope; whileLoop makes one), the
    /// node's name is chosen first and the context, with the builder in the name scope "<node>/",
    /// may replace its inputs (an outside tensor enters the loop frame) and add control inputs;
    /// the node is recorded as part of that context (contextOf).
    Expected<Operation> op(std::string_view type, std::vector<OpInput> inputs = {}, AttrMap attrs = {},
                           std::string_view name = {});

    /// The number of nodes created so far (TensorFlow's Graph._last_id, used for op seeds).
    int nodeCount() const { return m_def.node_size(); }
    /// The node called `name`, or NotFound.
    Expected<Operation> operation(std::string_view name) const;
    /// The tensor "node:1" ("node" means output 0), or NotFound / InvalidArgument for a bad index.
    Expected<Output> tensor(std::string_view name) const;
    /// The NodeDef of `name` as built (defaults filled), or nullptr.
    const tensorflow::NodeDef* findNode(std::string_view name) const;
    /// The value of `output` when it is known while building (a Const, or a Shape/Size/Rank of a
    /// fully defined shape), else nullptr. The pointer stays valid as long as the builder.
    const Tensor* constantValue(const Output& output) const;

    // --- Names -------------------------------------------------------------------------------------

    /// The current name scope without its trailing slash ("" at the root).
    const std::string& currentNameScope() const { return m_nameScope; }
    /// Graph.unique_name: `name` prefixed with the current scope and suffixed "_1", "_2", ... when
    /// already used (ignoring case); the result is marked used.
    std::string uniqueName(std::string_view name);
    /// Enters name scope `name` (Graph.name_scope): "layer1" nests under the current scope and is
    /// made unique ("layer1_1" on re-entry); "a/b/" (trailing slash) is absolute and used as is;
    /// "" returns to the root. The guard's name() is the full scope with a trailing slash.
    /// InvalidArgument "'a b' is not a valid scope name".
    Expected<ScopeGuard> nameScope(std::string_view name);

    // --- Devices, control dependencies, colocation, attrs --------------------------------------------

    /// Places the ops created inside on `deviceName` ("/cpu:0", "/device:GPU:1", "/job:w/task:1"):
    /// nested device scopes merge, the inner one winning where both set a field, and nodes get the
    /// canonical name ("/device:CPU:0"). InvalidArgument for a name that does not parse.
    Expected<ScopeGuard> device(std::string_view deviceName);
    /// tf.device(None): ops created inside get no device from outer device scopes.
    ScopeGuard clearDevice();
    /// A device function (tf.device(fn)): called with each op created inside (name, type, inputs and
    /// attrs set, its device the one inner scopes gave it) and returns its device, which replaces
    /// that one; outer device scopes then fill the fields it leaves unset. Scopes apply innermost
    /// first, as Graph._apply_device_functions. An error or a name that does not parse fails the
    /// op's creation, naming the node.
    using DeviceFunction = std::function<Expected<std::string>(const tensorflow::NodeDef& node)>;
    ScopeGuard device(DeviceFunction function);
    /// Ops created inside get control inputs on `ops` (tf.control_dependencies), unless one of their
    /// data inputs was itself created inside the same scope, and never on an op that is already a
    /// data input.
    ScopeGuard controlDependencies(const std::vector<Operation>& ops);
    /// tf.control_dependencies(None): no control inputs from outer scopes inside.
    ScopeGuard clearControlDependencies();
    /// Ops created inside are colocated with `op` (tf.colocate_with): their "_class" lists the
    /// colocation groups of every op on the colocation stack ("loc:@x"), their device is `op`'s
    /// device, and outer device scopes are ignored. `ignoreExisting` clears the outer colocations.
    ScopeGuard colocateWith(const Operation& op, bool ignoreExisting = false);
    /// Ops created inside get each of `attrs` they do not set themselves (Graph._attr_scope; used
    /// for the "_class" of a variable's initializer ops).
    ScopeGuard attrScope(AttrMap attrs);

    // --- Control-flow contexts (while loops; see control_flow_context.h) ------------------------------

    /// Takes ownership of `context`; it lives as long as the builder.
    ControlFlowContext* addControlFlowContext(std::unique_ptr<ControlFlowContext> context);
    /// The context ops are created in now (nullptr: the root), as Graph._get_control_flow_context.
    ControlFlowContext* controlFlowContext() const { return m_controlFlowContext; }
    /// Makes `context` current (nullptr: the root) until the guard closes, which restores the previous
    /// one (ControlFlowContext.Enter/Exit).
    ScopeGuard controlFlowContextScope(ControlFlowContext* context);
    /// The context node `name` was created in (nullptr: the root, or no such node).
    ControlFlowContext* contextOf(std::string_view name) const;
    /// Moves node `name` to `context` (Operation._set_control_flow_context). NotFound for no such node.
    Status setContextOf(std::string_view name, ControlFlowContext* context);
    /// Replaces data input `index` of node `name` by `input` (Operation._update_input; the back edge
    /// of a loop's Merge). The node's inferred shapes are kept. InvalidArgument for a bad index, a
    /// dtype that differs, or a tensor not in this graph.
    Status updateInput(std::string_view name, int index, const Output& input);
    /// Tensor.set_shape: merges `shape` into the inferred shape of `t`; InvalidArgument naming the
    /// tensor when they are incompatible.
    Status setShape(const Output& t, const TensorShape& shape);
    /// Adds the control input "^control" to node `name` unless it has it (Operation._add_control_input).
    Status addControlInput(std::string_view name, std::string_view control);

    // --- Gradients of ops created here ---------------------------------------------------------------

    /// Graph.gradient_override_map({"Square": "CustomSquare"}): ops of a mapped type created inside get
    /// the attr "_gradient_op_type" naming the gradient tf.gradients uses for them: one registered
    /// with registerGradient, else the named op's (so {"Floor": "Identity"} passes gradients straight
    /// through). Nested scopes add to the outer map; the guard restores it.
    ScopeGuard gradientOverrideMap(std::map<std::string, std::string> opTypeToGradient);
    /// tf.RegisterGradient(name): a gradient function for ops whose "_gradient_op_type" is `name`.
    /// AlreadyExists when the name is registered here already; InvalidArgument for an empty function.
    Status registerGradient(std::string name, GradientFunction function);
    /// The function registerGradient registered under `name`, or nullptr.
    const GradientFunction* registeredGradient(std::string_view name) const;

    // --- Finalizing ---------------------------------------------------------------------------------

    /// Graph.finalize(): from now on every op creation, import and function addition fails with
    /// FailedPrecondition "Graph is finalized and cannot be modified." (as tf.train.MonitoredSession
    /// does to a graph, so a training loop cannot grow it by mistake). Collections stay writable.
    void finalize() { m_finalized = true; }
    /// Graph.finalized.
    bool finalized() const { return m_finalized; }
    /// Graph._unsafe_unfinalize().
    void unfinalize() { m_finalized = false; }

    // --- Random seeds --------------------------------------------------------------------------------

    /// tf.set_random_seed: the graph-level seed (nullopt: none).
    void setRandomSeed(std::optional<std::int64_t> seed) { m_seed = seed; }
    std::optional<std::int64_t> randomSeed() const { return m_seed; }
    /// The seed attrs for a random op about to be created now (tf.get_seed(opSeed)).
    RandomSeeds seedsFor(std::optional<std::int64_t> opSeed) const { return randomSeeds(m_seed, opSeed, nodeCount()); }

    // --- Collections and variables -------------------------------------------------------------------

    Collections& collections() { return m_collections; }
    const Collections& collections() const { return m_collections; }
    /// The variable scopes and the variables made by getVariable (see variable_scope.h).
    VariableStore& variableStore() { return *m_variables; }
    const VariableStore& variableStore() const { return *m_variables; }

    // --- Import (graph_builder_import.cpp) ------------------------------------------------------------

    /// Starts from an existing graph, as tf.import_graph_def(graph, name="") into an empty tf.Graph:
    /// the nodes are kept as they are (order, devices, "_class"; OpDef defaults filled in), with
    /// versions and library; every output's dtype and shape is inferred as op() infers them, and
    /// every name is marked used, so nodes built afterwards get fresh names ("init" -> "init_1").
    /// Collections are not touched (see importedVariable / graphVariables). Errors (the builder is
    /// left empty): FailedPrecondition when the builder already has nodes; Graph::fromGraphDef's
    /// (duplicate names, unknown inputs, cycles); "node 'x': Op type not registered 'Foo'";
    /// validateNodeDef's; the first shape-function error, naming its node.
    Status importGraphDef(const tensorflow::GraphDef& graph);
    /// tf.import_graph_def(graph, input_map, return_elements, name) into this graph, which may hold nodes
    /// already: every imported node named under the prefix, with its inputs, control inputs and "loc:@"
    /// colocation groups renamed alike; input_map's tensors wired in; OpDef defaults filled in; the
    /// library's functions added; outputs inferred as importGraphDef(graph) infers them. Device and
    /// control-dependency scopes are not applied to the imported nodes. Errors (the builder is left
    /// as it was, but for the prefix's name, taken as tf.name_scope takes it), InvalidArgument unless
    /// said: "Node 'y': Unknown input node 'x'"; "Attempted to map inputs that were not found in
    /// graph_def: [x:0]"; "Requested return tensor 'x:1' not found in graph def", "Requested return
    /// node 'x' not found in graph def"; "Input 0 of node import/y was passed int32 from z:0
    /// incompatible with expected float."; Graph::fromGraphDef's, validateNodeDef's and the first
    /// shape-function error of an imported node.
    Expected<ImportedGraphDef> importGraphDef(const tensorflow::GraphDef& graph, const ImportGraphDefOptions& options);
    /// Adds functions (and gradient pairs) to the graph's library, with FunctionLibrary::add's rules
    /// and errors (an identical function again is ignored; nothing is added on error). Nodes calling
    /// them are PartitionedCall / StatefulPartitionedCall (op() builds those); nodes calling a
    /// function by name come only through importGraphDef, which accepts them when the graph's
    /// library has the function (checked against its signature; shapes seen through the call).
    Status addFunctions(const tensorflow::FunctionDefLibrary& library);

    // --- Export ----------------------------------------------------------------------------------------

    /// The graph as built, with versions.producer = kGraphDefProducer.
    const tensorflow::GraphDef& graphDef() const { return m_def; }
    /// A copy; with `addShapes`, every node with outputs carries "_output_shapes" (the inferred
    /// shapes), as tf.Graph.as_graph_def(add_shapes=True) and MetaGraphDefs write them.
    tensorflow::GraphDef toGraphDef(bool addShapes = false) const;

private:
    /// What the shape refiner's node step found for each output: dtype, shape, known value,
    /// partial shape tensor.
    struct NodeInfo {
        std::vector<InferredOutput> outputs;
        ControlFlowContext* context = nullptr;
    };
    struct ControlScope {
        bool clears = false;               ///< control_dependencies(None)
        std::vector<std::string> controls; ///< node names
        std::vector<int> created;          ///< nodes created inside (ids)
    };
    struct DeviceScope {
        bool clears = false; ///< device(None), and the reset done by colocate_with
        DeviceName spec;
        DeviceFunction function; ///< set for tf.device(fn)
    };
    struct ColocationScope {
        bool clears = false; ///< colocate_with(..., ignore_existing=True)
        std::string node;
    };

    Expected<Operation> addNode(std::string_view type, std::vector<OpInput> inputs, AttrMap attrs,
                                std::string_view name);
    /// The device scopes applied to `node` (innermost first): spec scopes fill unset fields, device
    /// functions replace the device. Errors name the node.
    Expected<std::string> deviceFor(const tensorflow::NodeDef& node) const;
    /// FailedPrecondition once finalize() was called.
    Status checkNotFinalized() const;
    std::vector<std::string> colocationGroups(const std::string& node) const;
    Operation operationOf(int id) const;
    Expected<int> nodeIdOf(const Output& output) const;

    const OpRegistry& m_registry;
    CpuAllocator m_allocator; ///< holds known values; declared before m_nodes so it outlives them
    tensorflow::GraphDef m_def;
    std::deque<NodeInfo> m_nodes; ///< by node id (position in m_def); a deque keeps values in place
    std::unordered_map<std::string, int> m_byName;
    UniqueNames m_names;
    std::string m_nameScope;
    std::vector<DeviceScope> m_deviceScopes;
    std::vector<ControlScope> m_controlScopes;
    std::vector<ColocationScope> m_colocationScopes;
    std::vector<AttrMap> m_attrScopes;
    std::map<std::string, std::string> m_gradientOverrides;
    std::map<std::string, GradientFunction, std::less<>> m_registeredGradients;
    bool m_finalized = false;
    std::optional<std::int64_t> m_seed;
    Collections m_collections;
    std::unique_ptr<VariableStore> m_variables;
    std::vector<std::unique_ptr<ControlFlowContext>> m_contexts;
    ControlFlowContext* m_controlFlowContext = nullptr;
};

/// The Variable a VariableDef describes (from a MetaGraphDef's collections) over the nodes of `b`:
/// ref variable_name, value snapshot_name, initializer initializer_name, initial value
/// initial_value_name (when set). NotFound / InvalidArgument naming the missing tensor or node.
Expected<Variable> importedVariable(const GraphBuilder& b, const tensorflow::VariableDef& def);

/// The ref variables of an imported plain GraphDef (one without collections), in graph order: each
/// VariableV2 / Variable node "x" with an Assign to it (preferably "x/Assign"; its value input is
/// the initial value) and, when present, an Identity of it (preferably "x/read"; else the value is
/// the ref itself). Nodes without an Assign are skipped (nothing could initialise them). Every
/// variable is reported trainable; callers decide (a GraphDef does not say).
std::vector<Variable> graphVariables(const GraphBuilder& b);

} // namespace tstudio
