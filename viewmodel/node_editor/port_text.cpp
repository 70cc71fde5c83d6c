// The words of port tooltips: what each layer port expects or gives, by layer type and port name.
#include "node_editor/port_text.h"

#include "layers/layer_catalog.h"

#include <QCoreApplication>

namespace tstudio::node_editor {
namespace {

/// One port's text. `type` "" matches every layer type; the first match wins.
struct PortDoc {
    const char* type;
    const char* port;
    const char* text;
};

// Inputs. The loss entries say where the values should come from: the swap check (loss_ports.h) is
// about exactly that.
constexpr PortDoc kInputs[] = {
    {"Input", "data",
     QT_TRANSLATE_NOOP("PortText", "optional: a component of a data-source node (MnistSource, CsvSource, …). "
                                   "Connected, training feeds this placeholder from that component, whose dtype and "
                                   "shape must match; it is not an edge of the graph. Left unconnected, the "
                                   "placeholder is fed by hand.")},
    {"SparseSoftmaxCrossEntropy", "labels",
     QT_TRANSLATE_NOOP("PortText", "int32 or int64 class ids [batch], from the data")},
    {"SoftmaxCrossEntropy", "labels", QT_TRANSLATE_NOOP("PortText", "float one-hot rows [batch, classes], from the data")},
    {"", "logits", QT_TRANSLATE_NOOP("PortText", "float scores [batch, classes] computed by the network, before softmax")},
    {"MeanSquaredError", "labels", QT_TRANSLATE_NOOP("PortText", "float targets shaped as the predictions, from the data")},
    {"MeanSquaredError", "predictions", QT_TRANSLATE_NOOP("PortText", "float values computed by the network")},
    {"", "loss", QT_TRANSLATE_NOOP("PortText", "the scalar float loss to minimise")},
    {"Dense", "inputs", QT_TRANSLATE_NOOP("PortText", "float tensor [batch, …, features]")},
    {"Conv2D", "inputs", QT_TRANSLATE_NOOP("PortText", "float images [batch, height, width, channels] (channels_last)")},
    {"Conv2DTranspose", "inputs",
     QT_TRANSLATE_NOOP("PortText", "float images [batch, height, width, channels] (channels_last)")},
    {"MaxPool", "inputs", QT_TRANSLATE_NOOP("PortText", "float images [batch, height, width, channels] (channels_last)")},
    {"AvgPool", "inputs", QT_TRANSLATE_NOOP("PortText", "float images [batch, height, width, channels] (channels_last)")},
    {"Flatten", "inputs", QT_TRANSLATE_NOOP("PortText", "a tensor [batch, …], flattened to [batch, n]")},
    {"Reshape", "tensor", QT_TRANSLATE_NOOP("PortText", "any tensor with as many elements as the new shape")},
    {"Concat", "values", QT_TRANSLATE_NOOP("PortText", "tensors of one dtype, equal in shape but along the axis")},
    {"Add", "inputs", QT_TRANSLATE_NOOP("PortText", "tensors of one dtype and shape")},
    {"Cond", "pred", QT_TRANSLATE_NOOP("PortText", "a bool scalar: which value passes")},
    {"Cond", "true", QT_TRANSLATE_NOOP("PortText", "the value output when pred is true; the same dtype as 'false'")},
    {"Cond", "false", QT_TRANSLATE_NOOP("PortText", "the value output when pred is false; the same dtype as 'true'")},
    {"", "inputs", QT_TRANSLATE_NOOP("PortText", "a float tensor")},
    {"", "features", QT_TRANSLATE_NOOP("PortText", "a float tensor")},
};

constexpr PortDoc kOutputs[] = {
    {"Input", "output", QT_TRANSLATE_NOOP("PortText", "the value fed at run time")},
    {"", "loss", QT_TRANSLATE_NOOP("PortText", "the scalar loss (with total_loss: every loss so far)")},
    {"", "sum", QT_TRANSLATE_NOOP("PortText", "the element-wise sum")},
    {"Cond", "output", QT_TRANSLATE_NOOP("PortText", "the value of 'true' or 'false', as pred says (a Merge)")},
};

const char* find(const PortDoc* docs, std::size_t count, std::string_view type, std::string_view port)
{
    for (std::size_t i = 0; i < count; ++i)
        if ((docs[i].type[0] == '\0' || type == docs[i].type) && port == docs[i].port)
            return docs[i].text;
    return nullptr;
}

/// A layer's string / bool param as set, else the catalogue's default.
const tensorflow::AttrValue* param(const DocNode& node, const std::string& name)
{
    if (auto it = node.attrs.find(name); it != node.attrs.end())
        return &it->second;
    if (const layers::LayerType* type = layers::findLayerType(node.type))
        for (const layers::LayerParam& p : type->params)
            if (p.name == name)
                return &p.defaultValue;
    return nullptr;
}

QString translated(const char* text)
{
    return text ? QCoreApplication::translate("PortText", text) : QString();
}

} // namespace

QString layerInputExpects(const DocNode& node, std::string_view port)
{
    std::string_view type = node.type;
    // The old SoftmaxCrossEntropy with sparse on takes class ids, as the sparse type.
    if (type == "SoftmaxCrossEntropy")
        if (const auto* sparse = param(node, "sparse"); sparse && sparse->b())
            type = "SparseSoftmaxCrossEntropy";
    return translated(find(kInputs, std::size(kInputs), type, port));
}

QString layerOutputGives(const DocNode& node, std::string_view port)
{
    if (node.type == "Dataset") {
        const auto* labels = param(node, "labels");
        const auto* scale = param(node, "scale");
        if (port == "labels")
            return labels && labels->s() == "one_hot"
                       ? QCoreApplication::translate("PortText", "float32 one-hot rows [batch, 10]")
                       : QCoreApplication::translate("PortText", "int64 class ids [batch]");
        if (port == "images")
            return scale && !scale->b() ? QCoreApplication::translate("PortText", "uint8 pixels [batch, 784]")
                                        : QCoreApplication::translate("PortText", "float32 pixels in [0, 1] [batch, 784]");
    }
    return translated(find(kOutputs, std::size(kOutputs), node.type, port));
}

} // namespace tstudio::node_editor
