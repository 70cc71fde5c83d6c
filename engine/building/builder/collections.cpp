// Collections: ordered lists by key, and their CollectionDef form.
#include "builder/collections.h"

#include <algorithm>

namespace tstudio {

std::string collectionItemName(const CollectionItem& item)
{
    if (const auto* v = std::get_if<Variable>(&item))
        return v->name();
    if (const auto* t = std::get_if<Output>(&item))
        return t->name();
    return std::get<Operation>(item).name();
}

void Collections::add(std::string_view key, CollectionItem item)
{
    auto it = m_items.find(key);
    if (it == m_items.end())
        it = m_items.emplace(std::string(key), std::vector<CollectionItem>{}).first;
    it->second.push_back(std::move(item));
}

void Collections::addToEach(const std::vector<std::string>& keys, const CollectionItem& item)
{
    std::vector<std::string> seen;
    for (const std::string& key : keys) {
        if (std::find(seen.begin(), seen.end(), key) != seen.end())
            continue;
        seen.push_back(key);
        add(key, item);
    }
}

std::vector<CollectionItem> Collections::get(std::string_view key, std::string_view scope) const
{
    std::vector<CollectionItem> out;
    auto it = m_items.find(key);
    if (it == m_items.end())
        return out;
    for (const CollectionItem& item : it->second) {
        if (scope.empty() || collectionItemName(item).starts_with(scope))
            out.push_back(item);
    }
    return out;
}

std::vector<Variable> Collections::variables(std::string_view key, std::string_view scope) const
{
    std::vector<Variable> out;
    for (const CollectionItem& item : get(key, scope)) {
        if (const auto* v = std::get_if<Variable>(&item))
            out.push_back(*v);
    }
    return out;
}

std::vector<std::string> Collections::keys() const
{
    std::vector<std::string> out;
    for (const auto& [key, items] : m_items) {
        if (!items.empty())
            out.push_back(key);
    }
    return out; // std::map keeps them sorted
}

void Collections::clear(std::string_view key)
{
    if (auto it = m_items.find(key); it != m_items.end())
        m_items.erase(it);
}

Expected<tensorflow::CollectionDef> Collections::toCollectionDef(std::string_view key) const
{
    auto it = m_items.find(key);
    if (it == m_items.end() || it->second.empty())
        return unexpected(notFoundError("Collection '" + std::string(key) + "' is empty or does not exist"));
    const bool variables = std::holds_alternative<Variable>(it->second.front());
    tensorflow::CollectionDef def;
    for (const CollectionItem& item : it->second) {
        if (std::holds_alternative<Variable>(item) != variables)
            return unexpected(invalidArgumentError("Collection '" + std::string(key) +
                                                   "' mixes variables with tensors or operations"));
        if (variables)
            def.mutable_bytes_list()->add_value(std::get<Variable>(item).toVariableDef().SerializeAsString());
        else
            def.mutable_node_list()->add_value(collectionItemName(item));
    }
    return def;
}

} // namespace tstudio
