// WhileContextDef / CondContextDef from and to a GraphBuilder's contexts (TensorFlow 1.15's
// WhileContext/CondContext to_proto and from_proto, and their MetaGraphDef collections).
#include "builder/control_flow_contexts.h"

#include "builder/cond.h"
#include "builder/while_loop.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <set>
#include <vector>

/// TSTUDIO_TRY for functions that return a Status.
#define TSTUDIO_TRY_STATUS(var, expr)                                                                                  \
    auto var##_expected_ = (expr);                                                                                     \
    if (!var##_expected_)                                                                                              \
        return var##_expected_.error();                                                                                \
    auto var = std::move(*var##_expected_)

namespace tstudio {
namespace {

std::string serializeDeterministic(const google::protobuf::MessageLite& message)
{
    std::string out;
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&coded);
    coded.Trim();
    return out;
}

/// Every context the builder's nodes belong to (with the contexts they are nested in), in the
/// order their first node was made (the order the contexts were made in).
std::vector<ControlFlowContext*> contextsInOrder(const GraphBuilder& b)
{
    std::vector<ControlFlowContext*> out;
    std::set<ControlFlowContext*> seen;
    const tensorflow::GraphDef& graph = b.graphDef();
    for (const tensorflow::NodeDef& node : graph.node()) {
        std::vector<ControlFlowContext*> chain;
        for (ControlFlowContext* c = b.contextOf(node.name()); c != nullptr && !seen.count(c); c = c->outerContext())
            chain.push_back(c);
        // An outer context comes before the contexts nested in it.
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            seen.insert(*it);
            out.push_back(*it);
        }
    }
    return out;
}

/// True for a gradient loop or a context nested in one (TensorFlow keeps none of them).
bool inGradientLoop(ControlFlowContext* context)
{
    for (ControlFlowContext* c = context; c != nullptr; c = c->outerContext()) {
        WhileContext* w = c->whileContext();
        if (w == c && w->gradState() != nullptr)
            return true;
    }
    return false;
}

tensorflow::ValuesDef valuesDef(const std::set<std::string>& values, const std::map<std::string, Output>& external)
{
    tensorflow::ValuesDef def;
    for (const std::string& v : values) // std::set: sorted, as TensorFlow writes them
        def.add_values(v);
    for (const auto& [outside, inside] : external)
        (*def.mutable_external_values())[outside] = inside.name();
    return def;
}

tensorflow::WhileContextDef whileDef(const WhileContext& context, const std::vector<ControlFlowContext*>& order);
tensorflow::CondContextDef condDef(const CondContext& context, const std::vector<ControlFlowContext*>& order);

void addNested(const ControlFlowContext& outer, const std::vector<ControlFlowContext*>& order,
               google::protobuf::RepeatedPtrField<tensorflow::ControlFlowContextDef>* nested)
{
    for (ControlFlowContext* c : order) {
        if (c->outerContext() != &outer)
            continue;
        if (CondContext* cond = c->condContext())
            *nested->Add()->mutable_cond_ctxt() = condDef(*cond, order);
        else if (WhileContext* loop = c->whileContext(); loop == c)
            *nested->Add()->mutable_while_ctxt() = whileDef(*loop, order);
    }
}

tensorflow::WhileContextDef whileDef(const WhileContext& context, const std::vector<ControlFlowContext*>& order)
{
    tensorflow::WhileContextDef def;
    def.set_context_name(context.name());
    def.set_parallel_iterations(context.parallelIterations());
    def.set_back_prop(context.backProp());
    def.set_swap_memory(context.swapMemory());
    def.set_pivot_name(context.pivot().name());
    def.set_pivot_for_pred_name(context.pivotForPred().name());
    def.set_pivot_for_body_name(context.pivotForBody().name());
    for (const Output& e : context.loopExits())
        def.add_loop_exit_names(e.name());
    for (const Output& e : context.loopEnters())
        def.add_loop_enter_names(e.name());
    *def.mutable_values_def() = valuesDef(context.values(), context.externalValues());
    if (context.maximumIterations().isValid())
        def.set_maximum_iterations_name(context.maximumIterations().name());
    addNested(context, order, def.mutable_nested_contexts());
    return def;
}

tensorflow::CondContextDef condDef(const CondContext& context, const std::vector<ControlFlowContext*>& order)
{
    tensorflow::CondContextDef def;
    def.set_context_name(context.name());
    def.set_pred_name(context.pred().name());
    def.set_pivot_name(context.pivot().name());
    def.set_branch(context.branch());
    *def.mutable_values_def() = valuesDef(context.values(), context.externalValues());
    addNested(context, order, def.mutable_nested_contexts());
    return def;
}

// --- Import ---------------------------------------------------------------------------------------

class ContextImporter {
public:
    ContextImporter(GraphBuilder& b, std::string_view scope) : m_b(b), m_scope(scope) {}

    Status importWhile(const tensorflow::WhileContextDef& def, ControlFlowContext* outer);
    Status importCond(const tensorflow::CondContextDef& def, ControlFlowContext* outer);
    Status importNested(const google::protobuf::RepeatedPtrField<tensorflow::ControlFlowContextDef>& nested,
                        ControlFlowContext* outer);

private:
    std::string scoped(const std::string& name) const
    {
        return m_scope.empty() || name.empty() ? name : m_scope + "/" + name;
    }
    /// The tensor `name` (as stored) names, or an error naming the context, the field and the node.
    Expected<Output> tensorOf(const std::string& what, const std::string& field, const std::string& name) const;
    /// ControlFlowContext._init_values_from_proto: the values and external values; the nodes of the
    /// values that are not external are recorded as part of `context`.
    template <typename Context>
    Status importValues(const std::string& what, const tensorflow::ValuesDef& def, Context& context);

    GraphBuilder& m_b;
    std::string m_scope;
};

Expected<Output> ContextImporter::tensorOf(const std::string& what, const std::string& field,
                                           const std::string& name) const
{
    const std::string full = scoped(name);
    const std::string node = full.substr(0, full.find(':'));
    if (full.empty() || m_b.findNode(node) == nullptr)
        return unexpected(invalidArgumentError(what + ": " + field + " '" + full + "' refers to node '" + node +
                                               "', which is not in the graph"));
    auto t = m_b.tensor(full);
    if (!t)
        return unexpected(t.error().withContext(what + ": " + field));
    return *t;
}

template <typename Context>
Status ContextImporter::importValues(const std::string& what, const tensorflow::ValuesDef& def, Context& context)
{
    std::set<std::string> external;
    for (const auto& [outsideName, insideName] : def.external_values()) {
        const std::string outside = scoped(outsideName);
        TSTUDIO_TRY_STATUS(inside, tensorOf(what, "external_values['" + outside + "']", insideName));
        context.addExternalValue(outside, inside);
        external.insert(outside);
    }
    for (const std::string& stored : def.values()) {
        const std::string value = scoped(stored);
        context.addName(value);
        if (external.count(value))
            continue;
        TSTUDIO_TRY_STATUS(t, tensorOf(what, "values", stored));
        if (Status s = m_b.setContextOf(t.node(), &context); !s.isOk())
            return s.withContext(what);
    }
    return Status::ok();
}

Status ContextImporter::importWhile(const tensorflow::WhileContextDef& def, ControlFlowContext* outer)
{
    const std::string name = scoped(def.context_name());
    const std::string what = "while_context '" + name + "'";
    if (def.context_name().empty())
        return invalidArgumentError("while_context: a WhileContextDef has no context_name");
    TSTUDIO_TRY_STATUS(pivot, tensorOf(what, "pivot_name", def.pivot_name()));
    TSTUDIO_TRY_STATUS(pivotForPred, tensorOf(what, "pivot_for_pred_name", def.pivot_for_pred_name()));
    TSTUDIO_TRY_STATUS(pivotForBody, tensorOf(what, "pivot_for_body_name", def.pivot_for_body_name()));
    auto* context = static_cast<WhileContext*>(m_b.addControlFlowContext(
        std::make_unique<WhileContext>(outer, name, def.parallel_iterations(), def.back_prop())));
    context->setSwapMemory(def.swap_memory());
    context->setPivot(pivot);
    context->setPivotForPred(pivotForPred);
    context->setPivotForBody(pivotForBody);
    if (!def.maximum_iterations_name().empty()) {
        TSTUDIO_TRY_STATUS(maximum, tensorOf(what, "maximum_iterations_name", def.maximum_iterations_name()));
        context->setMaximumIterations(maximum);
    }
    for (const std::string& exitName : def.loop_exit_names()) {
        TSTUDIO_TRY_STATUS(exit, tensorOf(what, "loop_exit_names", exitName));
        context->mutableLoopExits().push_back(exit);
    }
    for (const std::string& enterName : def.loop_enter_names()) {
        TSTUDIO_TRY_STATUS(enter, tensorOf(what, "loop_enter_names", enterName));
        context->mutableLoopEnters().push_back(enter);
    }
    if (Status s = importValues(what, def.values_def(), *context); !s.isOk())
        return s;
    // The pivots and the Exits belong to the loop whatever the values say.
    for (const Output& t : {pivot, pivotForPred, pivotForBody}) {
        if (Status s = m_b.setContextOf(t.node(), context); !s.isOk())
            return s.withContext(what);
    }
    for (const Output& exit : context->loopExits()) {
        if (Status s = m_b.setContextOf(exit.node(), context); !s.isOk())
            return s.withContext(what);
        if (outer != nullptr)
            outer->addName(exit.name());
    }
    return importNested(def.nested_contexts(), context);
}

Status ContextImporter::importCond(const tensorflow::CondContextDef& def, ControlFlowContext* outer)
{
    const std::string name = scoped(def.context_name());
    const std::string what = "cond_context '" + name + "'";
    if (def.branch() != 0 && def.branch() != 1)
        return invalidArgumentError(what + ": branch is " + std::to_string(def.branch()) + "; it must be 0 or 1");
    TSTUDIO_TRY_STATUS(pred, tensorOf(what, "pred_name", def.pred_name()));
    TSTUDIO_TRY_STATUS(pivot, tensorOf(what, "pivot_name", def.pivot_name()));
    auto* context = static_cast<CondContext*>(
        m_b.addControlFlowContext(std::make_unique<CondContext>(outer, pred, pivot, def.branch(), name)));
    if (Status s = importValues(what, def.values_def(), *context); !s.isOk())
        return s;
    if (Status s = m_b.setContextOf(pivot.node(), context); !s.isOk())
        return s.withContext(what);
    return importNested(def.nested_contexts(), context);
}

Status
ContextImporter::importNested(const google::protobuf::RepeatedPtrField<tensorflow::ControlFlowContextDef>& nested,
                              ControlFlowContext* outer)
{
    for (const tensorflow::ControlFlowContextDef& def : nested) {
        Status s = Status::ok();
        if (def.has_cond_ctxt())
            s = importCond(def.cond_ctxt(), outer);
        else if (def.has_while_ctxt())
            s = importWhile(def.while_ctxt(), outer);
        if (!s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace

tensorflow::WhileContextDef whileContextDef(const GraphBuilder& b, const WhileContext& context)
{
    return whileDef(context, contextsInOrder(b));
}

tensorflow::CondContextDef condContextDef(const GraphBuilder& b, const CondContext& context)
{
    return condDef(context, contextsInOrder(b));
}

std::map<std::string, tensorflow::CollectionDef> controlFlowContextCollections(const GraphBuilder& b)
{
    std::map<std::string, tensorflow::CollectionDef> out;
    const std::vector<ControlFlowContext*> order = contextsInOrder(b);
    for (ControlFlowContext* c : order) {
        if (c->outerContext() != nullptr || inGradientLoop(c))
            continue;
        if (CondContext* cond = c->condContext()) {
            out[std::string(kCondContextCollection)].mutable_bytes_list()->add_value(
                serializeDeterministic(condDef(*cond, order)));
        } else if (WhileContext* loop = c->whileContext(); loop == c) {
            out[std::string(kWhileContextCollection)].mutable_bytes_list()->add_value(
                serializeDeterministic(whileDef(*loop, order)));
        }
    }
    return out;
}

Status importControlFlowContexts(GraphBuilder& b, const tensorflow::CollectionDef* whileContexts,
                                 const tensorflow::CollectionDef* condContexts, std::string_view importScope)
{
    std::string scope(importScope);
    while (scope.ends_with('/'))
        scope.pop_back();
    ContextImporter importer(b, scope);
    for (const auto& [key, collection] :
         {std::pair{kWhileContextCollection, whileContexts}, std::pair{kCondContextCollection, condContexts}}) {
        if (collection == nullptr || collection->kind_case() == tensorflow::CollectionDef::KIND_NOT_SET)
            continue;
        if (!collection->has_bytes_list())
            return invalidArgumentError("collection '" + std::string(key) +
                                        "' must be a bytes_list of serialized context protos");
        int index = 0;
        for (const std::string& bytes : collection->bytes_list().value()) {
            Status s = Status::ok();
            if (key == kWhileContextCollection) {
                tensorflow::WhileContextDef def;
                if (!def.ParseFromString(bytes))
                    return dataLossError("collection 'while_context': item " + std::to_string(index) +
                                         " is not a valid WhileContextDef");
                s = importer.importWhile(def, nullptr);
            } else {
                tensorflow::CondContextDef def;
                if (!def.ParseFromString(bytes))
                    return dataLossError("collection 'cond_context': item " + std::to_string(index) +
                                         " is not a valid CondContextDef");
                s = importer.importCond(def, nullptr);
            }
            if (!s.isOk())
                return s;
            ++index;
        }
    }
    return Status::ok();
}

Status importControlFlowContexts(GraphBuilder& b, const tensorflow::MetaGraphDef& meta, std::string_view importScope)
{
    auto find = [&](std::string_view key) -> const tensorflow::CollectionDef* {
        auto it = meta.collection_def().find(std::string(key));
        return it == meta.collection_def().end() ? nullptr : &it->second;
    };
    return importControlFlowContexts(b, find(kWhileContextCollection), find(kCondContextCollection), importScope);
}

} // namespace tstudio
