// Tests for float-operation counting and model parameters: TF's per-op rules on hand-computed cases, the
// variables' parameter rules, and the float ops and parameters of the book's MNIST network and LeNet-5
// traced by our Session (FULL_TRACE), checked against values worked out by hand from the layer sizes.
#include "profiler/float_ops.h"
#include "profiler/model_parameters.h"
#include "profiler/profile_tables.h"
#include "profiler/trace_builder.h"

#include "book_mnist.h"
#include "framework/allocator.h"
#include "layer_networks.h"
#include "proto/meta_graph.pb.h"
#include "proto/variable.pb.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QTest>

#include <algorithm>
#include <map>

using namespace tstudio;
using namespace tstudio::profiler;

namespace {

using Dims = std::vector<std::int64_t>;

tensorflow::NodeDef nodeWith(const std::string& op, std::initializer_list<std::pair<const char*, Dims>> lists,
                             const std::string& dataFormat = "")
{
    tensorflow::NodeDef node;
    node.set_name("n");
    node.set_op(op);
    for (const auto& [name, values] : lists)
        for (std::int64_t v : values)
            (*node.mutable_attr())[name].mutable_list()->add_i(v);
    if (!dataFormat.empty())
        (*node.mutable_attr())["data_format"].set_s(dataFormat);
    return node;
}

/// floatOps for `op` with these input and output shapes (nullptr: unknown) and an optional node.
FloatOpsResult count(const char* op, std::vector<const Dims*> inputs, std::vector<const Dims*> outputs,
                     const tensorflow::NodeDef* node = nullptr)
{
    FloatOpsRequest request;
    request.op = op;
    request.inputs.assign(inputs.begin(), inputs.end());
    request.outputs.assign(outputs.begin(), outputs.end());
    request.node = node;
    return floatOps(request);
}

std::int64_t flops(const char* op, std::vector<const Dims*> inputs, std::vector<const Dims*> outputs,
                   const tensorflow::NodeDef* node = nullptr)
{
    const FloatOpsResult r = count(op, std::move(inputs), std::move(outputs), node);
    return r.counted && !r.incomplete ? r.floatOps : -1;
}

tensorflow::NodeDef variable(const std::string& name, const std::string& op, Dims shape,
                             tensorflow::DataType dtype = tensorflow::DT_FLOAT, const std::string& colocated = "")
{
    tensorflow::NodeDef node;
    node.set_name(name);
    node.set_op(op);
    (*node.mutable_attr())["dtype"].set_type(dtype);
    auto* proto = (*node.mutable_attr())["shape"].mutable_shape();
    for (std::int64_t d : shape)
        proto->add_dim()->set_size(d);
    if (!colocated.empty())
        (*node.mutable_attr())["_class"].mutable_list()->add_s("loc:@" + colocated);
    return node;
}

Tensor zeros(tensorflow::DataType dtype, const TensorShape& shape)
{
    static CpuAllocator allocator;
    auto t = Tensor::allocate(allocator, dtype, shape);
    std::span<std::byte> bytes = t->tensorData();
    std::fill(bytes.begin(), bytes.end(), std::byte{0});
    return *t;
}

/// Creates a session over `graph`, runs `init`, then one FULL_TRACE run of `fetches` and `targets`.
Expected<ProfileTrace> tracedRun(const Registries& registries, const tensorflow::GraphDef& graph,
                                 const std::string& init, const std::vector<std::pair<std::string, Tensor>>& feeds,
                                 const std::vector<std::string>& fetches, const std::vector<std::string>& targets)
{
    SessionOptions options;
    options.ops = &registries.ops;
    options.kernels = &registries.kernels;
    Session session(options);
    Status s = session.create(graph);
    if (!s.isOk())
        return unexpected(s);
    std::vector<Tensor> out;
    s = session.run({}, {}, {init}, &out);
    if (!s.isOk())
        return unexpected(s);
    tensorflow::RunOptions runOptions;
    runOptions.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
    tensorflow::RunMetadata metadata;
    s = session.run(runOptions, feeds, fetches, targets, &out, &metadata);
    if (!s.isOk())
        return unexpected(s);
    return traceFromStepStats(metadata.step_stats(), 1);
}

/// Float ops by op type of one table.
std::map<std::string, std::int64_t> flopsByOp(const ProfileTable& table)
{
    std::map<std::string, std::int64_t> out;
    for (const ProfileRow& row : table.rows)
        out[row.name] = row.total.floatOps;
    return out;
}

} // namespace

class TestFloatOps : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    void matMulCountsTheContractedSize()
    {
        const Dims a{3, 4}, aT{4, 3}, out{3, 5}, partial{-1, 4};
        // 2 * k * |out| = 2 * 4 * 15, whatever the transposes.
        QCOMPARE(flops("MatMul", {&a, nullptr}, {&out}), 120);
        QCOMPARE(flops("MatMul", {&aT, nullptr}, {&out}), 120);
        tensorflow::NodeDef transposed = nodeWith("MatMul", {});
        (*transposed.mutable_attr())["transpose_a"].set_b(true);
        QCOMPARE(flops("MatMul", {&aT, nullptr}, {&out}, &transposed), 120);
        // A fed [?,4] input: with the node's attrs k = 4 is enough; without them it is incomplete.
        tensorflow::NodeDef plain = nodeWith("MatMul", {});
        QCOMPARE(flops("MatMul", {&partial, nullptr}, {&out}, &plain), 120);
        QVERIFY(count("MatMul", {&partial, nullptr}, {&out}).incomplete);
        // x^T * grad with x fed as [?,4]: k is the batch, unknown in x, known in grad [6,5].
        const Dims grad{6, 5}, weights{4, 5};
        QCOMPARE(flops("MatMul", {&partial, &grad}, {&weights}, &transposed), 2 * 6 * 20);
        QCOMPARE(flops("MatMul", {&partial, &grad}, {&weights}), 2 * 6 * 20);
        QVERIFY(count("MatMul", {&a, nullptr}, {nullptr}).incomplete);
        // BatchMatMulV2: [2,3,4] x [2,4,5] -> [2,3,5]: 2 * 4 * 30; adj_x reads dimension -2.
        const Dims ba{2, 3, 4}, baT{2, 4, 3}, bout{2, 3, 5};
        QCOMPARE(flops("BatchMatMulV2", {&ba, nullptr}, {&bout}), 240);
        tensorflow::NodeDef adj = nodeWith("BatchMatMulV2", {});
        (*adj.mutable_attr())["adj_x"].set_b(true);
        QCOMPARE(flops("BatchMatMulV2", {&baT, nullptr}, {&bout}, &adj), 240);
        // The plan's fused weight-gradient sum: a0^T b0 + a1^T b1 (+ c): 2 * 3 * 30 + 2 * 4 * 30 for
        // the products, 30 per addition of the AddN they replace; a fed [?,6] reads the rows from b.
        const Dims a0{3, 6}, b0{3, 5}, a1{4, 6}, b1{4, 5}, c{6, 5}, fed{-1, 6};
        QCOMPARE(flops("_FusedMatMulSum", {&a0, &b0, &a1, &b1}, {&c}), 180 + 240 + 30);
        QCOMPARE(flops("_FusedMatMulSum", {&a0, &b0, &a1, &b1, &c}, {&c}), 180 + 240 + 60);
        QCOMPARE(flops("_FusedMatMulSum", {&fed, &b0, &a1, &b1}, {&c}), 180 + 240 + 30);
        QVERIFY(count("_FusedMatMulSum", {&fed, nullptr, &a1, &b1}, {&c}).incomplete);
    }

    void convolutionsAndPooling()
    {
        // Conv2D: 2 * |out| * kh * kw * in_depth = 2 * (1*5*5*8) * 3 * 3 * 3.
        const Dims image{1, 5, 5, 3}, filter{3, 3, 3, 8}, out{1, 5, 5, 8};
        QCOMPARE(flops("Conv2D", {&image, &filter}, {&out}), 2 * 200 * 9 * 3);
        // Depthwise: 2 * |out| * kh * kw = 2 * (1*5*5*6) * 9.
        const Dims dwFilter{3, 3, 3, 2}, dwOut{1, 5, 5, 6};
        QCOMPARE(flops("DepthwiseConv2dNative", {&image, &dwFilter}, {&dwOut}), 2 * 150 * 9);
        // Conv2DBackpropInput, strides 2x2: 2 * |out| * |filter| / (depth(out) * 4) = 2*108*216/12.
        const Dims inputSizes{4}, inputGrad{1, 6, 6, 3}, outGrad{1, 3, 3, 8};
        tensorflow::NodeDef strided = nodeWith("Conv2DBackpropInput", {{"strides", {1, 2, 2, 1}}}, "NHWC");
        QCOMPARE(flops("Conv2DBackpropInput", {&inputSizes, &filter, &outGrad}, {&inputGrad}, &strided), 3888);
        // NCHW has no rule in TF: counted as 0, not as unknown.
        tensorflow::NodeDef nchw = nodeWith("Conv2DBackpropInput", {{"strides", {1, 1, 2, 2}}}, "NCHW");
        const FloatOpsResult r = count("Conv2DBackpropInput", {&inputSizes, &filter, &outGrad}, {&inputGrad}, &nchw);
        QVERIFY(r.counted && !r.incomplete);
        QCOMPARE(r.floatOps, 0);
        // Without the node the strides are unknown.
        QVERIFY(count("Conv2DBackpropInput", {&inputSizes, &filter, &outGrad}, {&inputGrad}).incomplete);
        // Conv2DBackpropFilter, strides 1: 2 * |input| * |filter grad| / depth(input) = 2*108*216/3.
        tensorflow::NodeDef unit = nodeWith("Conv2DBackpropFilter", {{"strides", {1, 1, 1, 1}}});
        QCOMPARE(flops("Conv2DBackpropFilter", {&inputGrad, &inputSizes, &outGrad}, {&filter}, &unit), 15552);

        // Pooling by kernel area: MaxPool 4 * |out|; AvgPoolGrad 2 * 9 * |grad|; MaxPoolGrad (4 + 1) * |orig out|.
        const Dims pooled{1, 2, 2, 3}, poolIn{1, 4, 4, 3}, origShape{4};
        tensorflow::NodeDef pool2 = nodeWith("MaxPool", {{"ksize", {1, 2, 2, 1}}, {"strides", {1, 2, 2, 1}}});
        QCOMPARE(flops("MaxPool", {&poolIn}, {&pooled}, &pool2), 48);
        QVERIFY(count("MaxPool", {&poolIn}, {&pooled}).incomplete); // no ksize without the node
        tensorflow::NodeDef pool3 = nodeWith("AvgPoolGrad", {{"ksize", {1, 3, 3, 1}}});
        QCOMPARE(flops("AvgPoolGrad", {&origShape, &pooled}, {&poolIn}, &pool3), 216);
        QCOMPARE(flops("MaxPoolGrad", {&poolIn, &pooled, &pooled}, {&poolIn}, &pool2), 60);
    }

    void elementWiseAndReductions()
    {
        const Dims m45{4, 5}, v4{4}, m23{2, 3}, t234{2, 3, 4}, m1010{10, 10}, m25{2, 5}, v7{7}, m33{3, 3}, v5{5},
            scalar{};
        QCOMPARE(flops("Mean", {&m45, &v4}, {&v4}), 20); // 20 + 4 * (1 - 1)
        QCOMPARE(flops("Sum", {&m45, &v4}, {&v4}), 16);  // 20 + 4 * (0 - 1)
        QCOMPARE(flops("ArgMax", {&m45, &scalar}, {&v4}), 16);
        QCOMPARE(flops("BiasAddGrad", {&t234}, {&v4}), 20);    // 24 - 4
        QCOMPARE(flops("L2Loss", {&m1010}, {&scalar}), 299);   // 3 * 100 - 1
        QCOMPARE(flops("Softmax", {&m25}, {&m25}), 50);        // 5 per element
        QCOMPARE(flops("Rsqrt", {&v7}, {&v7}), 14);            // 2 per element
        QCOMPARE(flops("AssignSub", {&m33, &m33}, {&m33}), 9); // input 0, the variable
        QCOMPARE(flops("AddV2", {&m23, &v4}, {&m23}), 6);      // per output element
        QCOMPARE(flops("SquaredDifference", {&m23, &m23}, {&m23}), 12);
        QCOMPARE(flops("RsqrtGrad", {&v5, &v5}, {&v5}), 20);
        QCOMPARE(flops("Mul", {&scalar, &scalar}, {&scalar}), 1); // a scalar is one element
        QCOMPARE(flops("AddN", {&v4, &v4, &v4}, {&v4}), 8);       // 4 * (3 - 1)
        QCOMPARE(flops("BiasAdd", {&t234, &v4}, {&t234}), 24);

        // Ops TF does not count, and unknown shapes.
        const FloatOpsResult relu = count("Relu", {&m23}, {&m23});
        QVERIFY(!relu.counted && !relu.incomplete && relu.floatOps == 0);
        QVERIFY(!hasFloatOpsRule("Relu"));
        QVERIFY(hasFloatOpsRule("MatMul"));
        const FloatOpsResult unknown = count("Add", {&m23, &m23}, {nullptr});
        QVERIFY(unknown.counted && unknown.incomplete && unknown.floatOps == 0);
        const Dims partial{-1, 3};
        QVERIFY(count("Add", {&m23, &m23}, {&partial}).incomplete);
    }

    void parametersOfVariables()
    {
        tensorflow::GraphDef graph;
        *graph.add_node() = variable("w", "VariableV2", {3, 4});
        *graph.add_node() = variable("w/Momentum", "VariableV2", {3, 4});
        *graph.add_node() = variable("b", "VariableV2", {4});
        *graph.add_node() = variable("global_step", "VariableV2", {}, tensorflow::DT_INT64);
        *graph.add_node() = variable("beta1_power", "VariableV2", {}, tensorflow::DT_FLOAT, "w");
        *graph.add_node() = variable("v", "VarHandleOp", {2, 2});
        *graph.add_node() = variable("s", "Variable", {});
        *graph.add_node() = variable("u", "VariableV2", {-1, 3});
        *graph.add_node() = variable("x", "Placeholder", {5, 5});

        // Fallback rule: w 12 + b 4 + v 4 + s 1 (a scalar is 1) + u (unknown: 0).
        const ModelParameters all = modelParameters(graph);
        QCOMPARE(all.rule, ParameterRule::AllButSlotsAndLocals);
        QCOMPARE(all.variables.size(), std::size_t(8));
        QCOMPARE(all.total, 21);
        QVERIFY(!all.complete);
        std::map<std::string, const VariableParameters*> byName;
        for (const VariableParameters& v : all.variables)
            byName[v.name] = &v;
        QCOMPARE(QString::fromStdString(byName["w/Momentum"]->excludedBecause), QString("optimizer slot of 'w'"));
        QCOMPARE(QString::fromStdString(byName["global_step"]->excludedBecause), QString("integer dtype"));
        QCOMPARE(QString::fromStdString(byName["beta1_power"]->excludedBecause), QString("colocated with 'w'"));
        QCOMPARE(byName["s"]->parameters, 1);
        QVERIFY(!byName["u"]->complete && byName["u"]->counted);

        ModelParametersOptions locals;
        locals.localVariables = {"v:0"};
        QCOMPARE(modelParameters(graph, locals).total, 17);

        // The trainable_variables collection decides alone when given.
        ModelParametersOptions trainable;
        trainable.trainableVariables = std::vector<std::string>{"w:0", "b"};
        const ModelParameters listed = modelParameters(graph, trainable);
        QCOMPARE(listed.rule, ParameterRule::TrainableCollection);
        QCOMPARE(listed.total, 16);
        QVERIFY(listed.complete);

        // The collection as a MetaGraphDef stores it: serialized VariableDefs.
        tensorflow::MetaGraphDef meta;
        auto& list = *(*meta.mutable_collection_def())["trainable_variables"].mutable_bytes_list();
        for (const char* name : {"w:0", "b:0"}) {
            tensorflow::VariableDef def;
            def.set_variable_name(name);
            list.add_value(def.SerializeAsString());
        }
        auto names = variableCollection(meta, "trainable_variables");
        QVERIFY(names && *names);
        QCOMPARE(**names, (std::vector<std::string>{"w", "b"}));
        auto absent = variableCollection(meta, "local_variables");
        QVERIFY(absent && !*absent);
        list.add_value("\xff\xff\xff");
        auto damaged = variableCollection(meta, "trainable_variables");
        QVERIFY(!damaged);
        QVERIFY(damaged.error().message().find("collection 'trainable_variables': entry 2") != std::string::npos);
    }

    void bookMnistForwardAndTrainingStep()
    {
        auto net = examples::buildBookMnist(m_registries->ops);
        QVERIFY2(net, net ? "" : net.error().toString().c_str());
        const std::int64_t batch = 100;
        const std::vector<std::pair<std::string, Tensor>> feeds = {
            {net->inputs, zeros(tensorflow::DT_FLOAT, TensorShape({batch, 784}))},
            {net->labels, zeros(tensorflow::DT_FLOAT, TensorShape({batch, 10}))}};

        // Forward to the logits "layer2/add", batch 100, 500 hidden units:
        //   layer1/MatMul  2 * 784 * (100 * 500)   = 78,400,000
        //   layer1/add     100 * 500                =     50,000
        //   layer2/MatMul  2 * 500 * (100 * 10)     =  1,000,000
        //   layer2/add     100 * 10                 =      1,000   (Relu, Identity, reads: not counted)
        const std::int64_t forward = 78'400'000 + 50'000 + 1'000'000 + 1'000;
        auto trace = tracedRun(*m_registries, net->graph, net->init, {feeds[0]}, {"layer2/add:0"}, {});
        QVERIFY2(trace, trace ? "" : trace.error().toString().c_str());
        ProfileTableOptions options;
        options.graph = &net->graph;
        auto byNode = buildProfileTable(*trace, ProfileView::ByNode, options);
        QVERIFY(byNode);
        QCOMPARE(byNode->total.floatOps, forward);
        QCOMPARE(byNode->floatOpsIncompleteNodes, 0);
        std::map<std::string, std::int64_t> nodeFlops;
        for (const ProfileRow& row : byNode->rows)
            nodeFlops[row.name] = row.total.floatOps;
        QCOMPARE(nodeFlops["layer1/MatMul"], 78'400'000);
        QCOMPARE(nodeFlops["layer2/add"], 1'000);

        // Parameters: 784 * 500 + 500 + 500 * 10 + 10 weights and biases; the int32 global step
        // "Variable" and the moving averages (under each variable's name) are not parameters.
        const std::int64_t parameters = 784 * 500 + 500 + 500 * 10 + 10;
        QCOMPARE(byNode->total.parameters, parameters);
        QCOMPARE(modelParameters(net->graph).total, parameters);

        // One training step: the gradient of each MatMul is two MatMuls (TF's _MatMulGrad):
        //   layer2: dx 2 * 10 * (100 * 500) = 1,000,000, dW 2 * 100 * (500 * 10) = 1,000,000
        //   layer1: dW = x^T * grad 2 * 100 * (784 * 500) = 78,400,000 (k = 100 from the gradient, x being
        //   fed as [?,784]); its dx is read by nothing but the gradient tuple's control edge, so it does
        //   not run (Grappler's dependency optimizer in TF, markControlOnlyNodes here).
        // L2 penalties: L2Loss(784x500) 3 * 392,000 - 1 and L2Loss(500x10) 3 * 5,000 - 1.
        auto step = tracedRun(*m_registries, net->graph, net->init, feeds, {}, {net->train});
        QVERIFY2(step, step ? "" : step.error().toString().c_str());
        auto byOp = buildProfileTable(*step, ProfileView::ByOpType, options);
        QVERIFY(byOp);
        const auto ops = flopsByOp(*byOp);
        QCOMPARE(ops.at("MatMul"), (78'400'000 + 1'000'000) + (1'000'000 + 1'000'000) + 78'400'000);
        QCOMPARE(ops.at("L2Loss"), (3 * 392'000 - 1) + (3 * 5'000 - 1));
        QCOMPARE(byOp->total.parameters, parameters);
    }

    void leNet5ForwardAndTrainingStep()
    {
        auto net = examples::buildLeNet5(m_registries->ops);
        QVERIFY2(net, net ? "" : net.error().toString().c_str());
        const std::int64_t b = 4;
        const std::vector<std::pair<std::string, Tensor>> feeds = {
            {net->inputs, zeros(tensorflow::DT_FLOAT, TensorShape({b, 784}))},
            {net->labels, zeros(tensorflow::DT_INT64, TensorShape({b}))}};
        ProfileTableOptions options;
        options.graph = &net->graph;

        // Forward to the logits, per example (28x28x1 -> conv 5x5x32 same -> pool 2 -> conv 5x5x64 same
        // -> pool 2 -> 7*7*64 = 3136 -> 512 -> 10):
        const std::int64_t conv1 = 2 * (28 * 28 * 32) * 5 * 5 * 1;  //  1,254,400
        const std::int64_t bias1 = 28 * 28 * 32;                    //     25,088
        const std::int64_t pool1 = 4 * (14 * 14 * 32);              //     25,088
        const std::int64_t conv2 = 2 * (14 * 14 * 64) * 5 * 5 * 32; // 20,070,400
        const std::int64_t bias2 = 14 * 14 * 64;                    //     12,544
        const std::int64_t pool2 = 4 * (7 * 7 * 64);                //     12,544
        const std::int64_t dense = 2 * 3136 * 512;                  //  3,211,264
        const std::int64_t bias3 = 512;
        const std::int64_t logits = 2 * 512 * 10; //     10,240
        const std::int64_t bias4 = 10;
        const std::int64_t forward = conv1 + bias1 + pool1 + conv2 + bias2 + pool2 + dense + bias3 + logits + bias4;
        QCOMPARE(forward, 24'622'090);
        auto trace = tracedRun(*m_registries, net->graph, net->init, {feeds[0]}, {"dense_1/BiasAdd:0"}, {});
        QVERIFY2(trace, trace ? "" : trace.error().toString().c_str());
        auto byOp = buildProfileTable(*trace, ProfileView::ByOpType, options);
        QVERIFY(byOp);
        QCOMPARE(byOp->total.floatOps, b * forward);
        QCOMPARE(flopsByOp(*byOp).at("MaxPool"), b * (pool1 + pool2));

        // Parameters: 5*5*1*32 + 32 + 5*5*32*64 + 64 + 3136*512 + 512 + 512*10 + 10 (global_step is int64).
        const std::int64_t parameters = 800 + 32 + 51'200 + 64 + 1'605'632 + 512 + 5'120 + 10;
        QCOMPARE(byOp->total.parameters, parameters);
        QCOMPARE(parameters, 1'663'370);

        // One training step. A convolution's gradient is a BackpropInput and a BackpropFilter: with stride 1
        // each costs 2 * |image| * |filter| / depth(image), the forward's count. The first convolution's
        // BackpropInput (the gradient of the reshaped input) is read by nothing and does not run.
        auto step = tracedRun(*m_registries, net->graph, net->init, feeds, {}, {net->train});
        QVERIFY2(step, step ? "" : step.error().toString().c_str());
        auto training = buildProfileTable(*step, ProfileView::ByOpType, options);
        QVERIFY(training);
        const auto ops = flopsByOp(*training);
        // The convolutions run with their biases and Relus as _FusedConv2D (Grappler's remapper, on by
        // default), counted as the Conv2D and the BiasAdd they replace.
        QCOMPARE(ops.at("Conv2D"), 0); // the graph's Conv2D nodes did not run
        QCOMPARE(ops.at("_FusedConv2D"), b * (conv1 + bias1 + conv2 + bias2));
        QCOMPARE(ops.at("Conv2DBackpropInput"), b * conv2);
        QCOMPARE(ops.at("Conv2DBackpropFilter"), b * (conv1 + conv2));
        // Dense layers: forward, dx and dW each 2 * in * out * batch.
        QCOMPARE(ops.at("MatMul"), 3 * b * (dense + logits));
        // MaxPoolGrad: (2 * 2 + 1) * |pool output|.
        QCOMPARE(ops.at("MaxPoolGrad"), 5 * b * (14 * 14 * 32 + 7 * 7 * 64));
        // BiasAddGrad sums the gradient over all but the channels: |grad| - channels.
        QCOMPARE(ops.at("BiasAddGrad"), (b * bias1 - 32) + (b * bias2 - 64) + (b * bias3 - 512) + (b * bias4 - 10));
    }
};

QTEST_GUILESS_MAIN(TestFloatOps)
#include "test_float_ops.moc"
