// The node editor's data-source nodes (palette group "Input"): one node type per kind of project
// data source, their components, and their expansion into the placeholders the runner feeds.
//
// Why one type per source kind rather than one "DataSource" node with a `source` choice: the kinds
// share almost no parameters (an MNIST set, an image size, a CSV delimiter, TFRecord features), so
// one node would show every kind's fields at once, most of them meaningless for the chosen kind,
// and its checks would depend on the choice. One type per kind gives each node exactly its own
// fields and defaults, a palette entry per kind, and a 1:1 map to the project's source types
// (MnistSource <-> "mnist", ...). The older "Dataset" type (MNIST only) stays as it was so that
// documents saved with it still load.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "framework/data_type.h"
#include "framework/tensor_shape.h"
#include "layers/layer_catalog.h"
#include "proto/attr_value.pb.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::layers {

/// One component of a data-source node: its output port, the placeholder "<name>/<component>" and
/// the project source's component of the same name.
struct SourceComponent {
    std::string name;
    DataType dtype = tensorflow::DT_FLOAT;
    TensorShape exampleShape; ///< per example; the placeholder is [?] + exampleShape
    std::string defaultValue; ///< CsvSource / TfRecordSource: as written after '=' ("" = required)
};

/// The data-source node types, in palette order (category "Input"), with their params:
///  MnistSource        dir, set (train|t10k), skip, take, labels (sparse|one_hot), scale -> images
///                     (float32 [784], or uint8 without scale), labels (int64 [] or float32 [10]).
///  SpiralsSource      points_per_class, turns, noise, seed, labels -> points (float32 [2]), labels.
///  ImageFolderSource  dir, height, width, channels (1|3), labels, classes (needed for one_hot) ->
///                     images (float32 [height, width, channels]), labels (int64 [] or float32
///                     [classes]).
///  NumpySource        files, components, skip, take -> one port per component.
///  CsvSource          files, header, field_delim, columns -> one scalar port per column.
///  TfRecordSource     files, compression, features -> one port per feature.
/// `dir` and `files` are paths (files: comma-separated), relative to the project's data.dir when
/// set, else to the .tsproj; they are never read while expanding.
/// The component lists (components, columns, features) are comma-separated entries
/// "name:dtype[:shape][=default]": the shape's dimensions joined by 'x' ("28x28x1"; none for a
/// scalar), a default only for scalar CSV columns and TFRecord features. A NumpySource's
/// components are its .npy files' stems in file order, or the keys of its single .npz.
std::vector<LayerType> dataSourceLayerTypes();

/// True for the types above.
bool isDataSourceType(std::string_view type);

/// The components of a data-source node from its params (missing ones take their defaults),
/// without reading any file. InvalidArgument naming the layer and param:
///   "layer 'data' (NumpySource): param 'components' entry 2 ('y:int65'): unknown dtype 'int65'
///    (expected one of float16, float32, ...)"
///   "layer 'data' (NumpySource): param 'components': 'y' is named twice"
///   "layer 'data' (ImageFolderSource): param 'classes' must be positive for one_hot labels (the
///    number of class folders), got 0"
///   "layer 'data' (MnistSource): param 'take' must be -1 (all) or positive, got 0"
Expected<std::vector<SourceComponent>> dataSourceComponents(std::string_view type, std::string_view name,
                                                            const std::map<std::string, tensorflow::AttrValue>& params);

/// The output port names of any layer node: a data-source node's component names (its type's
/// default outputNames when its params do not parse), else LayerType::outputNames.
std::vector<std::string> layerOutputNames(const LayerType& type,
                                          const std::map<std::string, tensorflow::AttrValue>& params);

/// "a, b" -> {"a", "b"}: a comma-separated param split and trimmed, empty items dropped.
std::vector<std::string> splitList(std::string_view text);

/// Whether the Input node `input`, whose placeholder is `dtype` `shape` (from its params), may be fed
/// component `component` of the data-source node `source` (its binding port "data", see
/// LayerType::bindingNames): the same dtype, and a shape that fits [?] + the example shape (known
/// dimensions equal; an unknown rank or dimension fits anything; the batch dimension is the
/// project's batch size, checked when training starts). InvalidArgument naming both nodes and ports:
///   "Input 'input' is float32 [?,784] but port 'images' of 'mnist' is uint8 [?,784]: bound to it
///    through port 'data', the Input needs dtype uint8 and a shape that fits [?,784], such as [-1,784]"
Status checkSourceBinding(std::string_view input, DataType dtype, const TensorShape& shape, std::string_view source,
                          const SourceComponent& component);

/// Adds the node's placeholders under the name scope `name` (empty: the type's default, e.g.
/// "mnist"): one Placeholder per component, "<scope>/<component>", dtype and shape [?] + the
/// example shape. Returns them in component order. Errors: dataSourceComponents'; the builder's.
Expected<std::vector<Output>> expandDataSource(GraphBuilder& b, std::string_view type, std::string_view name,
                                               const std::map<std::string, tensorflow::AttrValue>& params);

} // namespace tstudio::layers
