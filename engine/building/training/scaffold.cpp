// Scaffold: settles the init, ready, local-init and summary ops and the Saver of a training graph.
#include "training/scaffold.h"

#include "builder/attr_values.h"
#include "builder/collections.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "summary/summary.h"
#include "training/report_uninitialized_variables.h"

namespace tstudio::training {
namespace {

/// Scaffold.get_or_default: the one item of `key`, else `make()` (added to `key` when it yields one).
template <typename Make>
Expected<std::optional<std::string>> getOrDefault(GraphBuilder& b, std::string_view key, Make make)
{
    const std::vector<CollectionItem> items = b.collections().get(key);
    if (items.size() > 1)
        return unexpected(failedPreconditionError("More than one item in the collection \"" + std::string(key) +
                                                  "\". Please indicate which one to use by passing it to the "
                                                  "tf.Scaffold constructor."));
    if (items.size() == 1)
        return collectionItemName(items.front());
    auto made = make();
    if (!made)
        return unexpected(made.error());
    if (!*made)
        return std::optional<std::string>();
    b.collections().add(key, **made);
    return std::optional<std::string>(collectionItemName(**made));
}

Expected<std::optional<CollectionItem>> concatReports(GraphBuilder& b, std::optional<std::vector<Variable>> variables,
                                                      std::string_view name)
{
    auto vars = reportUninitializedVariables(b, std::move(variables));
    if (!vars)
        return unexpected(vars.error());
    auto resources = reportUninitializedResources(b);
    if (!resources)
        return unexpected(resources.error());
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    auto axis = ops::constantInts(b, {0}, TensorShape({}), tensorflow::DT_INT32, "axis");
    if (!axis)
        return unexpected(axis.error());
    auto concat =
        ops::firstOutput(b.op("ConcatV2", {OpInput(std::vector<Output>{*vars, *resources}), *axis}, {}, scope->name()));
    if (!concat)
        return unexpected(concat.error());
    return std::optional<CollectionItem>(*concat);
}

Expected<std::optional<CollectionItem>> defaultInitOp(GraphBuilder& b)
{
    auto globals = globalVariablesInitializer(b);
    if (!globals)
        return unexpected(globals.error());
    auto resources = ops::noOp(b, "init");
    if (!resources)
        return unexpected(resources.error());
    auto group = ops::group(b, {*globals, *resources}, "group_deps");
    if (!group)
        return unexpected(group.error());
    return std::optional<CollectionItem>(*group);
}

/// tf.tables_initializer(): a group of the "table_initializer" collection's ops (lookup tables,
/// and the iterator initializers TensorFlow 1.x programs add there so that a MonitoredSession
/// starts their tf.data iterators) named "init_all_tables"; a NoOp of that name when it is empty.
Expected<Operation> tablesInitializer(GraphBuilder& b)
{
    std::vector<Operation> initializers;
    for (const CollectionItem& item : b.collections().get("table_initializer")) {
        std::string name;
        if (const Operation* op = std::get_if<Operation>(&item))
            name = op->name();
        else if (const Output* tensor = std::get_if<Output>(&item))
            name = tensor->node();
        else
            return unexpected(invalidArgumentError("collection 'table_initializer' holds variable '" +
                                                   collectionItemName(item) + "'; expected operations"));
        auto op = b.operation(name);
        if (!op)
            return unexpected(op.error().withContext("collection 'table_initializer'"));
        initializers.push_back(*op);
    }
    if (initializers.empty())
        return ops::noOp(b, "init_all_tables");
    return ops::group(b, initializers, "init_all_tables");
}

Expected<std::optional<CollectionItem>> defaultLocalInitOp(GraphBuilder& b)
{
    auto locals = localVariablesInitializer(b);
    if (!locals)
        return unexpected(locals.error());
    auto tables = tablesInitializer(b);
    if (!tables)
        return unexpected(tables.error());
    auto resources = ops::noOp(b, "init");
    if (!resources)
        return unexpected(resources.error());
    auto group = ops::group(b, {*locals, *tables, *resources}, "group_deps");
    if (!group)
        return unexpected(group.error());
    return std::optional<CollectionItem>(*group);
}

Status settle(std::optional<std::string>& piece, Expected<std::optional<std::string>> found)
{
    if (!found)
        return found.error();
    piece = std::move(*found);
    return {};
}

} // namespace

Status Scaffold::finalize(GraphBuilder& b)
{
    if (m_finalized)
        return {};
    ScaffoldOptions& o = m_options;
    if (!o.initOp)
        if (Status s = settle(o.initOp, getOrDefault(b, scaffold_keys::kInitOp, [&] { return defaultInitOp(b); }));
            !s.isOk())
            return s;
    if (!o.readyOp)
        if (Status s = settle(o.readyOp, getOrDefault(b, scaffold_keys::kReadyOp,
                                                      [&] { return concatReports(b, std::nullopt, "concat"); }));
            !s.isOk())
            return s;
    if (!o.readyForLocalInitOp)
        if (Status s = settle(o.readyForLocalInitOp,
                              getOrDefault(b, scaffold_keys::kReadyForLocalInitOp,
                                           [&] { return concatReports(b, globalVariables(b), "concat"); }));
            !s.isOk())
            return s;
    if (!o.localInitOp)
        if (Status s = settle(o.localInitOp,
                              getOrDefault(b, scaffold_keys::kLocalInitOp, [&] { return defaultLocalInitOp(b); }));
            !s.isOk())
            return s;
    if (!o.summaryOp) {
        auto summary = getOrDefault(b, scaffold_keys::kSummaryOp, [&]() -> Expected<std::optional<CollectionItem>> {
            auto merged = summary::mergeAll(b);
            if (!merged)
                return unexpected(merged.error());
            if (!*merged)
                return std::optional<CollectionItem>();
            return std::optional<CollectionItem>(**merged);
        });
        if (Status s = settle(o.summaryOp, std::move(summary)); !s.isOk())
            return s;
    }
    if (!o.saver) {
        SaverOptions saverOptions;
        saverOptions.allowEmpty = true;
        // Saver(sharded=True, allow_empty=True, save_relative_paths=True), as Scaffold's default.
        saverOptions.graph.sharded = true;
        saverOptions.saveRelativePaths = true;
        auto saver = Saver::create(b, saverOptions);
        if (!saver)
            return saver.error();
        o.saver = std::move(*saver);
    }
    m_finalized = true;
    return {};
}

} // namespace tstudio::training
