// Loads fixture MNIST images and runs training steps through a Session.
#include "book_training.h"

#include "builder/attr_values.h"
#include "data/mnist.h"
#include "framework/allocator.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

namespace tstudio::testing {

std::map<std::string, tensorflow::AttrValue> bookDenseParams(std::int64_t units, const std::string& activation)
{
    return {{"scope", attr::s("variable_scope")},
            {"kernel_name", attr::s("weights")},
            {"bias_name", attr::s("biases")},
            {"bias_op", attr::s("Add")},
            {"kernel_initializer", attr::s("truncated_normal")},
            {"kernel_init_stddev", attr::f(0.1f)},
            {"bias_initializer", attr::s("constant")},
            {"bias_init_value", attr::f(0.0f)},
            {"kernel_regularizer_l2", attr::f(0.0001f)},
            {"units", attr::i(units)},
            {"activation", attr::s(activation)}};
}

std::map<std::string, tensorflow::AttrValue> bookOptimizerParams()
{
    return {{"learning_rate", attr::f(0.8f)}, {"global_step", attr::s("Variable")}, {"lr_decay", attr::s("exponential")},
            {"decay_steps", attr::i(550)},    {"decay_rate", attr::f(0.99f)},       {"staircase", attr::b(true)}};
}

Expected<BookTrainingRun> trainBookMnist(const tensorflow::GraphDef& graph, const std::string& loss,
                                         const std::string& train, const Registries& registries,
                                         const std::string& mnistDir, int steps, int images)
{
    CpuAllocator allocator;
    data::MnistOptions load;
    load.scaleToFloat = true;
    load.oneHot = true;
    load.maxItems = images;
    auto data = data::loadMnist(mnistDir + "/t10k-images-idx3-ubyte.gz", mnistDir + "/t10k-labels-idx1-ubyte.gz", allocator, load);
    if (!data)
        return unexpected(data.error());
    SessionOptions options;
    options.ops = &registries.ops;
    options.kernels = &registries.kernels;
    Session session(options);
    if (Status s = session.create(graph); !s.isOk())
        return unexpected(s);
    std::vector<Tensor> out;
    if (Status s = session.run({}, {}, {"init"}, &out); !s.isOk())
        return unexpected(s);
    const std::vector<std::pair<std::string, Tensor>> feeds{{"x-input", data->images}, {"y-input", data->labels}};
    BookTrainingRun run;
    for (int step = 0; step < steps; ++step) {
        if (Status s = session.run(feeds, {loss}, {train}, &out); !s.isOk())
            return unexpected(s);
        run.losses.push_back(out.at(0).values<float>()[0]);
    }
    if (Status s = session.run({}, {"Variable:0"}, {}, &out); !s.isOk())
        return unexpected(s);
    run.globalStep = out.at(0).values<std::int32_t>()[0];
    return run;
}

} // namespace tstudio::testing
