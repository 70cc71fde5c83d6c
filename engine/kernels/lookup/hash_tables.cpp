// HashTable, MutableHashTable and MutableHashTableOfTensors over std::unordered_map, one template
// instantiation per (key, value) dtype pair, chosen at creation.
#include "kernels/lookup/hash_tables.h"

#include <charconv>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace tstudio {

namespace {

namespace tf = tensorflow;

using KeyTypes = TypeList<std::int32_t, std::int64_t, std::string>;
using ValueTypes = TypeList<bool, std::int32_t, std::int64_t, float, double, std::string>;

/// A key or value as TensorFlow's StrCat prints it: numbers in their shortest form, bools as 1/0.
template <typename T> std::string elementString(const T& value)
{
    if constexpr (std::is_same_v<T, std::string>) {
        return value;
    } else if constexpr (std::is_same_v<T, bool>) {
        return value ? "1" : "0";
    } else {
        char buffer[64];
        const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
        return std::string(buffer, result.ptr);
    }
}

template <typename T> Expected<Tensor> vectorTensor(Allocator& allocator, const std::vector<T>& values)
{
    return Tensor::fromVector<T>(allocator, TensorShape{static_cast<std::int64_t>(values.size())}, values);
}

/// TensorFlow's HashTable: filled once through InitializableTable::initialize.
template <typename K, typename V> class HashTable final : public InitializableTable {
public:
    DataType keyDtype() const override { return kDataTypeOf<K>; }
    DataType valueDtype() const override { return kDataTypeOf<V>; }
    TensorShape valueShape() const override { return TensorShape::scalar(); }
    std::string_view kindName() const override { return "HashTable"; }

    std::int64_t size() const override
    {
        // The map is only written under initialize(), which no reader overlaps once initialized.
        return isInitialized() ? static_cast<std::int64_t>(m_map.size()) : 0;
    }

    Expected<std::pair<Tensor, Tensor>> exportValues(Allocator& allocator) const override
    {
        if (!isInitialized())
            return unexpected(Status(StatusCode::kAborted, "HashTable is not initialized."));
        std::vector<K> keys;
        std::vector<V> values;
        keys.reserve(m_map.size());
        values.reserve(m_map.size());
        for (const auto& [key, value] : m_map) {
            keys.push_back(key);
            values.push_back(value);
        }
        auto keyTensor = vectorTensor(allocator, keys);
        if (!keyTensor)
            return unexpected(keyTensor.error());
        auto valueTensor = vectorTensor(allocator, values);
        if (!valueTensor)
            return unexpected(valueTensor.error());
        return std::pair{std::move(*keyTensor), std::move(*valueTensor)};
    }

protected:
    Status doInsert(const Tensor& keys, const Tensor& values) override
    {
        const auto k = keys.values<K>();
        const auto v = values.values<V>();
        for (std::size_t i = 0; i < k.size(); ++i) {
            const auto [it, inserted] = m_map.try_emplace(k[i], v[i]);
            if (!inserted && it->second != v[i])
                return failedPreconditionError("HashTable has different value for same key. Key " +
                                               elementString(k[i]) + " has " + elementString(it->second) +
                                               " and trying to add value " + elementString(v[i]));
        }
        return Status::ok();
    }

    Status doFind(const Tensor& keys, Tensor& values, const Tensor& defaultValue) const override
    {
        const V fallback = defaultValue.values<V>()[0];
        const auto k = keys.values<K>();
        auto out = values.values<V>();
        for (std::size_t i = 0; i < k.size(); ++i) {
            const auto it = m_map.find(k[i]);
            out[i] = it == m_map.end() ? fallback : it->second;
        }
        return Status::ok();
    }

private:
    std::unordered_map<K, V> m_map;
};

/// TensorFlow's MutableHashTableOfScalars (`kVector` false) and MutableHashTableOfTensors (true,
/// every value a vector of `m_width` elements).
template <typename K, typename V, bool kVector> class MutableHashTable final : public LookupTable {
public:
    explicit MutableHashTable(TensorShape valueShape) : m_valueShape(std::move(valueShape))
    {
        m_width = kVector ? static_cast<std::size_t>(m_valueShape.dim(0)) : 1;
    }

    DataType keyDtype() const override { return kDataTypeOf<K>; }
    DataType valueDtype() const override { return kDataTypeOf<V>; }
    TensorShape valueShape() const override { return m_valueShape; }
    std::string_view kindName() const override { return kVector ? "MutableHashTableOfTensors" : "MutableHashTable"; }

    std::int64_t size() const override
    {
        std::lock_guard lock(m_mutex);
        return static_cast<std::int64_t>(m_map.size());
    }

    Status find(const Tensor& keys, Tensor& values, const Tensor& defaultValue) override
    {
        const auto fallback = defaultValue.values<V>();
        const auto k = keys.values<K>();
        auto out = values.values<V>();
        std::lock_guard lock(m_mutex);
        for (std::size_t i = 0; i < k.size(); ++i) {
            const auto it = m_map.find(k[i]);
            for (std::size_t j = 0; j < m_width; ++j)
                out[i * m_width + j] = it == m_map.end() ? fallback[j] : element(it->second, j);
        }
        return Status::ok();
    }

    Status insert(Allocator&, const Tensor& keys, const Tensor& values) override { return put(keys, values, false); }
    Status importValues(Allocator&, const Tensor& keys, const Tensor& values) override
    {
        return put(keys, values, true);
    }

    Status remove(const Tensor& keys) override
    {
        const auto k = keys.values<K>();
        std::lock_guard lock(m_mutex);
        for (const K& key : k)
            m_map.erase(key);
        return Status::ok();
    }

    Expected<std::pair<Tensor, Tensor>> exportValues(Allocator& allocator) const override
    {
        std::lock_guard lock(m_mutex);
        const auto n = static_cast<std::int64_t>(m_map.size());
        auto keys = Tensor::allocate(allocator, keyDtype(), TensorShape{n});
        if (!keys)
            return unexpected(keys.error());
        const TensorShape valuesShape = kVector ? TensorShape{n, static_cast<std::int64_t>(m_width)} : TensorShape{n};
        auto values = Tensor::allocate(allocator, valueDtype(), valuesShape);
        if (!values)
            return unexpected(values.error());
        auto k = keys->template values<K>();
        auto v = values->template values<V>();
        std::size_t i = 0;
        for (const auto& [key, value] : m_map) {
            k[i] = key;
            for (std::size_t j = 0; j < m_width; ++j)
                v[i * m_width + j] = element(value, j);
            ++i;
        }
        return std::pair{std::move(*keys), std::move(*values)};
    }

private:
    using Stored = std::conditional_t<kVector, std::vector<V>, V>;

    static V element(const Stored& stored, std::size_t j)
    {
        if constexpr (kVector)
            return stored[j];
        else
            return (static_cast<void>(j), stored);
    }

    Status put(const Tensor& keys, const Tensor& values, bool clear)
    {
        const auto k = keys.values<K>();
        const auto v = values.values<V>();
        std::lock_guard lock(m_mutex);
        if (clear)
            m_map.clear();
        for (std::size_t i = 0; i < k.size(); ++i) {
            if constexpr (kVector)
                m_map.insert_or_assign(k[i],
                                       std::vector<V>(v.begin() + static_cast<std::ptrdiff_t>(i * m_width),
                                                      v.begin() + static_cast<std::ptrdiff_t>((i + 1) * m_width)));
            else
                m_map.insert_or_assign(k[i], v[i]);
        }
        return Status::ok();
    }

    TensorShape m_valueShape;
    std::size_t m_width = 1;
    mutable std::mutex m_mutex;
    std::unordered_map<K, Stored> m_map;
};

/// Calls make<K, V>() for the C++ types of the dtypes (Unimplemented naming them otherwise).
template <typename Make>
Expected<std::shared_ptr<LookupTable>> makeTyped(DataType keyDtype, DataType valueDtype, Make make)
{
    std::shared_ptr<LookupTable> table;
    Status s = dispatchDataType<KeyTypes>(keyDtype, [&]<typename K>(TypeTag<K>) {
        return dispatchDataType<ValueTypes>(valueDtype,
                                            [&]<typename V>(TypeTag<V>) { table = make.template operator()<K, V>(); });
    });
    if (!s.isOk())
        return unexpected(unimplementedError("lookup tables of " + dataTypeString(keyDtype) + " keys and " +
                                             dataTypeString(valueDtype) + " values are not supported: " + s.message()));
    return table;
}

/// makeTyped's maker of a HashTable<K, V>: a named class, not a template lambda (clang 14 left some
/// instantiations' virtual members undefined, failing the fuzz build's link, when a lambda made them).
struct MakeHashTable {
    template <typename K, typename V> std::shared_ptr<LookupTable> operator()() const
    {
        return std::make_shared<HashTable<K, V>>();
    }
};

/// The same for MutableHashTable (of scalars, or of vectors: MutableHashTableOfTensors).
struct MakeMutableHashTable {
    const TensorShape& valueShape;
    bool ofTensors;
    template <typename K, typename V> std::shared_ptr<LookupTable> operator()() const
    {
        if (ofTensors)
            return std::make_shared<MutableHashTable<K, V, true>>(valueShape);
        return std::make_shared<MutableHashTable<K, V, false>>(valueShape);
    }
};

} // namespace

Expected<std::shared_ptr<LookupTable>> makeHashTable(DataType keyDtype, DataType valueDtype)
{
    return makeTyped(keyDtype, valueDtype, MakeHashTable{});
}

Expected<std::shared_ptr<LookupTable>> makeMutableHashTable(DataType keyDtype, DataType valueDtype,
                                                            const TensorShape& valueShape, bool ofTensors)
{
    if (ofTensors && valueShape.rank() != 1)
        return unexpected(invalidArgumentError("Default value must be a vector, got shape " + valueShape.toString()));
    if (!valueShape.isFullyDefined())
        return unexpected(invalidArgumentError("the value_shape of a mutable hash table must be fully defined, got " +
                                               valueShape.toString()));
    if (!ofTensors && valueShape.rank() != 0)
        return unexpected(
            invalidArgumentError("MutableHashTable values are scalars; got value shape " + valueShape.toString()));
    return makeTyped(keyDtype, valueDtype, MakeMutableHashTable{valueShape, ofTensors});
}

} // namespace tstudio
