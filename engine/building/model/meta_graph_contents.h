// What a MetaGraphDef holds besides its graph, as a reader wants to see it (#55 point 7): the
// meta-info (TensorFlow's version, tags, whether default attrs were stripped), the SaverDef, every
// collection with its members as names (a VariableDef's variable, a node list's nodes; other
// values printed), the stripped op list and the asset files. `tstudio inspect` prints it.
#pragma once

#include "proto/meta_graph.pb.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tstudio {

struct MetaGraphContents {
    std::string tensorflowVersion;    ///< meta_info_def.tensorflow_version ("1.3.0")
    std::string tensorflowGitVersion; ///< meta_info_def.tensorflow_git_version
    std::vector<std::string> tags;
    bool strippedDefaultAttrs = false;
    std::string anyInfoType; ///< meta_info_def.any_info's type URL, when set

    bool hasSaver = false;
    struct Saver {
        std::string filenameTensor, saveTensor, restoreOp;
        std::int32_t maxToKeep = 0;
        float keepCheckpointEveryNHours = 0;
        bool sharded = false;
        std::string version; ///< "V1", "V2" or "LEGACY"
    } saver;

    struct Collection {
        std::string name;
        std::string kind; ///< "node_list", "bytes_list", "int64_list", "float_list", "any_list", "empty"
        /// The members: node or tensor names; for variable collections each VariableDef's
        /// variable_name; for cond_context / while_context each context's name (a cond's with its
        /// branch and predicate); numbers as text; other bytes as text when printable, else
        /// "<N bytes>".
        std::vector<std::string> members;
        bool variableDefs = false; ///< bytes_list of serialized VariableDef
    };
    std::vector<Collection> collections; ///< sorted by name, as TensorFlow writes the map

    std::vector<std::string> strippedOps; ///< stripped_op_list's op names, in order
    struct Asset {
        std::string tensor;   ///< tensor_info.name
        std::string filename; ///< the asset's file name under assets/
    };
    std::vector<Asset> assets;
    std::int64_t signatureCount = 0;
};

/// Reads the parts of `metaGraph` listed above. A VariableDef that does not parse is listed as
/// "<unparsable VariableDef, N bytes>" rather than failing: the rest of the file stays readable.
MetaGraphContents metaGraphContents(const tensorflow::MetaGraphDef& metaGraph);

} // namespace tstudio
