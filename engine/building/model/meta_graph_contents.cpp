// metaGraphContents (meta_graph_contents.h).
#include "model/meta_graph_contents.h"

#include "model/meta_graph.h"
#include "proto/control_flow.pb.h"
#include "proto/variable.pb.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace tstudio {

namespace {

bool printable(const std::string& bytes)
{
    return std::all_of(bytes.begin(), bytes.end(),
                       [](char c) { return std::isprint(static_cast<unsigned char>(c)) || c == '\t'; });
}

std::string numberText(double value)
{
    std::string text = std::to_string(value);
    while (!text.empty() && text.back() == '0')
        text.pop_back();
    if (!text.empty() && text.back() == '.')
        text.pop_back();
    return text;
}

MetaGraphContents::Collection collectionOf(const std::string& name, const tensorflow::CollectionDef& def)
{
    MetaGraphContents::Collection c;
    c.name = name;
    switch (def.kind_case()) {
    case tensorflow::CollectionDef::kNodeList:
        c.kind = "node_list";
        c.members.assign(def.node_list().value().begin(), def.node_list().value().end());
        break;
    case tensorflow::CollectionDef::kBytesList:
        c.kind = "bytes_list";
        c.variableDefs = isVariableCollection(name);
        for (const std::string& bytes : def.bytes_list().value()) {
            if (name == "cond_context" || name == "while_context") {
                // tf.cond / tf.while_loop contexts: CondContextDef / WhileContextDef, named.
                tensorflow::CondContextDef cond;
                tensorflow::WhileContextDef loop;
                if (name == "cond_context" && cond.ParseFromString(bytes))
                    c.members.push_back(cond.context_name() + " (" + (cond.branch() ? "true" : "false") +
                                        " branch of " + cond.pred_name() + ")");
                else if (name == "while_context" && loop.ParseFromString(bytes))
                    c.members.push_back(loop.context_name());
                else
                    c.members.push_back("<" + std::to_string(bytes.size()) + " bytes>");
            } else if (c.variableDefs) {
                tensorflow::VariableDef variable;
                c.members.push_back(variable.ParseFromString(bytes)
                                        ? variable.variable_name()
                                        : "<unparsable VariableDef, " + std::to_string(bytes.size()) + " bytes>");
            } else {
                c.members.push_back(printable(bytes) ? bytes : "<" + std::to_string(bytes.size()) + " bytes>");
            }
        }
        break;
    case tensorflow::CollectionDef::kInt64List:
        c.kind = "int64_list";
        for (std::int64_t v : def.int64_list().value())
            c.members.push_back(std::to_string(v));
        break;
    case tensorflow::CollectionDef::kFloatList:
        c.kind = "float_list";
        for (float v : def.float_list().value())
            c.members.push_back(numberText(v));
        break;
    case tensorflow::CollectionDef::kAnyList:
        c.kind = "any_list";
        for (const auto& any : def.any_list().value())
            c.members.push_back(any.type_url());
        break;
    default:
        c.kind = "empty";
        break;
    }
    return c;
}

} // namespace

MetaGraphContents metaGraphContents(const tensorflow::MetaGraphDef& metaGraph)
{
    MetaGraphContents out;
    const auto& info = metaGraph.meta_info_def();
    out.tensorflowVersion = info.tensorflow_version();
    out.tensorflowGitVersion = info.tensorflow_git_version();
    out.tags.assign(info.tags().begin(), info.tags().end());
    out.strippedDefaultAttrs = info.stripped_default_attrs();
    if (info.has_any_info())
        out.anyInfoType = info.any_info().type_url();
    for (const auto& op : info.stripped_op_list().op())
        out.strippedOps.push_back(op.name());

    if (metaGraph.has_saver_def()) {
        const auto& s = metaGraph.saver_def();
        out.hasSaver = true;
        out.saver.filenameTensor = s.filename_tensor_name();
        out.saver.saveTensor = s.save_tensor_name();
        out.saver.restoreOp = s.restore_op_name();
        out.saver.maxToKeep = s.max_to_keep();
        out.saver.keepCheckpointEveryNHours = s.keep_checkpoint_every_n_hours();
        out.saver.sharded = s.sharded();
        out.saver.version = tensorflow::SaverDef::CheckpointFormatVersion_Name(s.version());
    }

    const std::map<std::string, tensorflow::CollectionDef> sorted(metaGraph.collection_def().begin(),
                                                                  metaGraph.collection_def().end());
    for (const auto& [name, def] : sorted)
        out.collections.push_back(collectionOf(name, def));
    for (const auto& asset : metaGraph.asset_file_def())
        out.assets.push_back({asset.tensor_info().name(), asset.filename()});
    out.signatureCount = metaGraph.signature_def_size();
    return out;
}

} // namespace tstudio
