// The seeds' book's two-layer MNIST network (mnist_inference.py + mnist_train.py, TensorFlow 1.x),
// built with TensorStudio's building API node for node.
#pragma once

#include "classifier_graph.h"
#include "core/expected.h"

#include <cstdint>
#include <optional>

namespace tstudio {
class OpRegistry;
}

namespace tstudio::examples {

/// The book's hyper-parameters (its constants), with the number of training examples that sets
/// the learning-rate decay's period.
struct BookMnistOptions {
    std::int64_t layer1Units = 500;
    double learningRateBase = 0.8;
    double learningRateDecay = 0.99;
    double regularizationRate = 0.0001;
    double movingAverageDecay = 0.99;
    std::int64_t batchSize = 100;
    /// mnist.train.num_examples in the book (55,000); decay_steps = trainingExamples / batchSize.
    std::int64_t trainingExamples = 55000;
    /// tf.set_random_seed (nullopt: none, as in the book).
    std::optional<std::int64_t> seed;
};

/// x-input [?,784] -> layer1 (784x500 truncated-normal(0.1) weights, zero biases, ReLU) -> layer2
/// (500x10) logits; loss = mean sparse softmax cross entropy against argmax(y-input) + the L2
/// penalties (tf.contrib.layers.l2_regularizer) of both weights, collected in "losses"; global step
/// "Variable" (int32); exponential_decay(staircase) learning rate; GradientDescent minimize;
/// ExponentialMovingAverage(0.99, global step) of the trainable variables; "train" = no_op after
/// both. The node names are TensorFlow's (compare tf1-mnist-book/mnist_model-29001.meta), with
/// TensorFlow 1.15's AddV2 where 1.3 wrote Add.
///
/// The labels are one-hot, as the book feeds them ("y-input", float32 [?,10]; labelDepth 10).
/// accuracy and evalAccuracy compare argmax of the logits with argmax of y-input; evalAccuracy
/// runs layer 1 and 2 on the moving averages of the weights (the book's mnist_eval.py restores
/// them into the variables instead), under "average_inference/".
Expected<ClassifierGraph> buildBookMnist(const OpRegistry& ops, const BookMnistOptions& options = {});

} // namespace tstudio::examples
