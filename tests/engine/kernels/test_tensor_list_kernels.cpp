// Tests for TensorFlow's list ops (EmptyTensorList, TensorListReserve, FromTensor, GetItem, SetItem,
// PushBack, PopBack, Stack, Gather, Scatter(V2), ScatterIntoExistingList, Concat(V2), Split, Resize,
// Length, ElementShape, ConcatLists; AddN and ZerosLike of lists): shape functions, kernel values
// worked out by hand and the cases and messages of TensorFlow's list_ops_test.py, lists as values
// (an op never changes the list it read, long lists across storage chunks against a plain vector), a
// StatelessWhile over lists as map_fn builds it run in a session, and the list gradients (also
// through that loop) checked against central differences.
#include "autodiff/gradient_checker.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "kernel_harness.h"
#include "kernels/kernels.h"
#include "kernels/tensor_list/tensor_list.h"
#include "ops/ops.h"
#include "registries/register_all_ops.h"
#include "registries/default_registries.h"
#include "runtime/session.h"
#include "shape_fn_testing.h"

#include <google/protobuf/text_format.h>

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

/// "attr { key: 'key' value { type: DT_X } }".
std::string typeAttr(const std::string& key, const std::string& type)
{
    return "attr { key: '" + key + "' value { type: " + type + " } }";
}

/// A NodeDef text for `op` with element_dtype `dtype` (when not empty) and `extra` attrs.
std::string node(const std::string& op, const std::string& dtype = "DT_FLOAT", const std::string& extra = "")
{
    std::string text = "op: '" + op + "' ";
    if (!dtype.empty())
        text += typeAttr("element_dtype", dtype) + " ";
    return text + extra;
}

const std::string kShapeInt32 = typeAttr("shape_type", "DT_INT32");

/// Fails the test function with the message when `expr` (a QString) is not empty.
#define CHECK_EMPTY(expr)                                                                                              \
    do {                                                                                                               \
        const QString why_ = (expr);                                                                                   \
        QVERIFY2(why_.isEmpty(), qPrintable(why_));                                                                    \
    } while (false)

bool contains(const Status& s, const std::string& text)
{
    return s.message().find(text) != std::string::npos;
}

template <typename T> std::vector<T> valuesOf(const Tensor& t)
{
    const auto v = t.values<T>();
    return std::vector<T>(v.begin(), v.end());
}

/// The cond and body of a map_fn-like StatelessWhile over (i, n, elements, results): while i < n,
/// results[i] = elements[i]^2 + 1, as TensorFlow 2 writes them (GetItem and SetItem on list loop
/// variables). `dtype` is the elements' ("DT_FLOAT" or "DT_DOUBLE").
std::string mapLibrary(const std::string& dtype)
{
    std::string text = R"pb(
          library {
            function {
              signature { name: 'map_cond' input_arg { name: 'i' type: DT_INT32 } input_arg { name: 'n' type: DT_INT32 }
                          input_arg { name: 'in' type: DT_VARIANT } input_arg { name: 'out' type: DT_VARIANT }
                          output_arg { name: 'more' type: DT_BOOL } }
              node_def { name: 'less' op: 'Less' input: 'i' input: 'n' attr { key: 'T' value { type: DT_INT32 } } }
              ret { key: 'more' value: 'less:z:0' }
            }
            function {
              signature { name: 'map_body' input_arg { name: 'i' type: DT_INT32 } input_arg { name: 'n' type: DT_INT32 }
                          input_arg { name: 'in' type: DT_VARIANT } input_arg { name: 'out' type: DT_VARIANT }
                          output_arg { name: 'i_next' type: DT_INT32 } output_arg { name: 'n_out' type: DT_INT32 }
                          output_arg { name: 'in_out' type: DT_VARIANT }
                          output_arg { name: 'out_next' type: DT_VARIANT } }
              node_def { name: 'shape' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }
                         attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 0 } } } } } }
              node_def { name: 'one' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }
                         attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 1 } } } }
              node_def { name: 'onef' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }
                         attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } } }
              node_def { name: 'get' op: 'TensorListGetItem' input: 'in' input: 'i' input: 'shape:output:0'
                         attr { key: 'element_dtype' value { type: DT_FLOAT } } }
              node_def { name: 'sq' op: 'Mul' input: 'get:item:0' input: 'get:item:0'
                         attr { key: 'T' value { type: DT_FLOAT } } }
              node_def { name: 'y' op: 'AddV2' input: 'sq:z:0' input: 'onef:output:0'
                         attr { key: 'T' value { type: DT_FLOAT } } }
              node_def { name: 'set' op: 'TensorListSetItem' input: 'out' input: 'i' input: 'y:z:0'
                         attr { key: 'element_dtype' value { type: DT_FLOAT } } }
              node_def { name: 'next' op: 'AddV2' input: 'i' input: 'one:output:0'
                         attr { key: 'T' value { type: DT_INT32 } } }
              ret { key: 'i_next' value: 'next:z:0' } ret { key: 'n_out' value: 'n' }
              ret { key: 'in_out' value: 'in' } ret { key: 'out_next' value: 'set:output_handle:0' }
            }
          }
    )pb";
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"DT_FLOAT", dtype},
                                   {"float_val", dtype == "DT_DOUBLE" ? "double_val" : "float_val"}}) {
        for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
            text.replace(at, from.size(), to);
    }
    return text;
}

} // namespace

class TestTensorListKernels : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<KernelHarness> m_h;
    std::unique_ptr<Registries> m_registries;

    Tensor floats(const TensorShape& shape, const std::vector<float>& v)
    {
        return tensor<float>(m_h->allocator(), shape, v);
    }
    Tensor ints(const TensorShape& shape, const std::vector<std::int32_t>& v)
    {
        return tensor<std::int32_t>(m_h->allocator(), shape, v);
    }
    Tensor longs(const std::vector<std::int64_t>& v)
    {
        return tensor<std::int64_t>(m_h->allocator(), TensorShape{static_cast<std::int64_t>(v.size())}, v);
    }
    Tensor scalar(float v) { return floats(TensorShape::scalar(), {v}); }
    Tensor index(std::int32_t i) { return ints(TensorShape::scalar(), {i}); }
    /// An int32 element_shape: the sizes given (-1 unknown).
    Tensor elementShape(const std::vector<std::int32_t>& dims)
    {
        return ints(TensorShape{static_cast<std::int64_t>(dims.size())}, dims);
    }
    /// The element_shape of an unknown shape: the scalar -1.
    Tensor unknownShape() { return index(-1); }

    /// Output `i` of one run of `text` on `inputs`.
    Expected<Tensor> run(const std::string& text, const std::vector<Tensor>& inputs, int i = 0)
    {
        auto out = m_h->run(text, inputs);
        if (!out)
            return unexpected(out.error());
        return (*out)[static_cast<std::size_t>(i)];
    }
    Expected<Tensor> reserve(const Tensor& elementShape, std::int32_t n, const std::string& dtype = "DT_FLOAT")
    {
        return run(node("TensorListReserve", dtype, kShapeInt32), {elementShape, index(n)});
    }
    Expected<Tensor> empty(const Tensor& elementShape, std::int32_t maxNum = -1, const std::string& dtype = "DT_FLOAT")
    {
        return run(node("EmptyTensorList", dtype, kShapeInt32), {elementShape, index(maxNum)});
    }
    Expected<Tensor> fromTensor(const Tensor& t, const Tensor& elementShape, const std::string& dtype = "DT_FLOAT")
    {
        return run(node("TensorListFromTensor", dtype, kShapeInt32), {t, elementShape});
    }
    Expected<Tensor> getItem(const Tensor& list, std::int32_t i, const Tensor& elementShape,
                             const std::string& dtype = "DT_FLOAT")
    {
        return run(node("TensorListGetItem", dtype), {list, index(i), elementShape});
    }
    Expected<Tensor> setItem(const Tensor& list, std::int32_t i, const Tensor& item,
                             const std::string& dtype = "DT_FLOAT", bool resize = false)
    {
        const std::string extra = resize ? "attr { key: 'resize_if_index_out_of_bounds' value { b: true } }" : "";
        return run(node("TensorListSetItem", dtype, extra), {list, index(i), item});
    }
    Expected<Tensor> pushBack(const Tensor& list, const Tensor& item, const std::string& dtype = "DT_FLOAT")
    {
        return run(node("TensorListPushBack", dtype), {list, item});
    }
    Expected<Tensor> stack(const Tensor& list, const Tensor& elementShape, const std::string& dtype = "DT_FLOAT",
                           int numElements = -1)
    {
        return run(node("TensorListStack", dtype,
                        "attr { key: 'num_elements' value { i: " + std::to_string(numElements) + " } }"),
                   {list, elementShape});
    }
    Expected<Tensor> stackAll(const Tensor& list) { return stack(list, unknownShape()); }
    Expected<std::int32_t> length(const Tensor& list)
    {
        auto n = run(node("TensorListLength", ""), {list});
        if (!n)
            return unexpected(n.error());
        return n->scalar<std::int32_t>();
    }

    /// Empty when `t` is a float tensor of `dims` holding `values`.
    static QString check(const Expected<Tensor>& t, const std::vector<std::int64_t>& dims,
                         const std::vector<float>& values)
    {
        if (!t)
            return QString::fromStdString(t.error().toString());
        if (t->dtype() != tf::DT_FLOAT || t->shape() != TensorShape(dims))
            return QString::fromStdString("got " + t->debugString());
        if (valuesOf<float>(*t) != values)
            return QString::fromStdString("got " + t->debugString(20));
        return {};
    }
    /// Empty when `t` failed with InvalidArgument containing `text`.
    template <typename T> static QString failsWith(const Expected<T>& t, const std::string& text)
    {
        if (t)
            return QString::fromStdString("succeeded; expected an error containing: " + text);
        if (t.error().code() != StatusCode::kInvalidArgument || !contains(t.error(), text))
            return QString::fromStdString(t.error().toString() + "\nexpected: " + text);
        return {};
    }

private slots:
    void initTestCase()
    {
        m_h = KernelHarness::createOrWarn({registerArrayOps, registerMathOps, registerListOps},
                                          {registerTensorListCpuKernels});
        QVERIFY(m_h);
        auto r = makeDefaultRegistries();
        QVERIFY2(r, r ? "" : r.error().toString().c_str());
        m_registries = std::move(*r);
        // makeDefaultRegistries registers every gradient family, the list family among them.
        QVERIFY(m_registries->ops.find("TensorListStack")->gradient);
    }

    /// The shape functions, one case per line in TensorFlow's notation (cases from list_ops_test.py's
    /// graph-mode tests where it has them).
    void shapeFunctions()
    {
        const OpRegistry& ops = m_h->ops();
        const char* f32 = "element_dtype=float;shape_type=int32";
        INFER_OK(ops, "EmptyTensorList", f32, "[]={-1};[]", "[]");
        INFER_ERROR(ops, "Shape must be at most rank 1 but is rank 2", "EmptyTensorList", f32, "[1,0];[]");
        INFER_OK(ops, "TensorListReserve", f32, "[2]={2,-1};[]", "[]");
        INFER_OK(ops, "TensorListGetItem", "element_dtype=float", "[];[];[2]={2,-1}", "[2,?]");
        INFER_OK(ops, "TensorListGetItem", "element_dtype=float", "[];[];[]={-1}", "?");
        INFER_OK(ops, "TensorListStack", "element_dtype=float", "[];[0]={}", "[?]");
        INFER_OK(ops, "TensorListStack", "element_dtype=float;num_elements=3", "[];[1]={2}", "[3,2]");
        INFER_OK(ops, "TensorListStack", "element_dtype=float", "[];[]={-1}", "?");
        INFER_OK(ops, "TensorListGather", "element_dtype=float", "[];[5];[1]={3}", "[5,3]");
        INFER_OK(ops, "TensorListPopBack", "element_dtype=float", "[];[]={-1}", "[];?");
        INFER_OK(ops, "TensorListLength", "", "[]", "[]");
        INFER_OK(ops, "TensorListElementShape", "shape_type=int32", "[]", "?");
        INFER_OK(ops, "TensorListConcat", "element_dtype=float;element_shape=[?,2,3]", "[]", "[?,2,3];[?]");
        INFER_OK(ops, "TensorListConcat", "element_dtype=float;element_shape=[1,2,3]", "[]", "[?,2,3];[?]");
        INFER_OK(ops, "TensorListConcat", "element_dtype=float", "[]", "?;[?]");
        INFER_ERROR(ops, "element_shape must not be empty", "TensorListConcat", "element_dtype=float;element_shape=[]",
                    "[]");
        INFER_OK(ops, "TensorListConcatV2", f32, "[];[3]={-1,2,-1};[0]", "[?,2,?];[?]");
        INFER_OK(ops, "TensorListSplit", f32, "[4,2];[]={-1};[2]", "[]");
        INFER_ERROR(ops, "Shapes must be equal rank, but are 1 and 0", "TensorListSplit", f32, "[2];[0]={};[2]");
        INFER_ERROR(ops, "Shapes must be equal rank, but are 2 and 1", "TensorListSplit", f32, "[2,1];[1]={1};[2]");
        INFER_OK(ops, "TensorListFromTensor", f32, "[3,2];[1]={2}", "[]");
        INFER_ERROR(ops, "Shape must be at most rank 1 but is rank 2", "TensorListFromTensor", f32, "[2];[1,1]={1}");
        INFER_ERROR(ops, "Dimension 0 in both shapes must be equal, but are 2 and 3", "TensorListFromTensor", f32,
                    "[4,2];[1]={3}");
        INFER_ERROR(ops, "Shape must be at most rank 1 but is rank 2", "TensorListScatter", f32, "[2];[2];[1,1]={1}");
        INFER_ERROR(ops, "Shape must be rank 0 but is rank 2", "TensorListScatterV2", f32, "[1];[1];[1];[3,0]");
        INFER_OK(ops, "TensorListScatterV2", f32, "[2];[2];[0]={};[]", "[]");
        INFER_ERROR(ops, "Shape must be rank 0 but is rank 4", "TensorListResize", "", "[];[0,2,3,3]");
        INFER_ERROR(ops, "Shape must be at least rank 1 but is rank 0", "TensorListScatterIntoExistingList",
                    "element_dtype=float", "[];[];[2]");
        INFER_OK(ops, "TensorListSetItem", "element_dtype=float", "[];[];[2,3]", "[]");
        INFER_OK(ops, "TensorListConcatLists", "element_dtype=float", "[2];[?]", "[2]");
        INFER_ERROR(ops, "Shapes must be equal rank, but are 1 and 0", "TensorListConcatLists", "element_dtype=float",
                    "[2];[]");
    }

    /// TensorFlow's testGetSetReserved and testStackWithUninitializedTensors: unset elements read as
    /// zeros of the list's element shape; SetItem leaves the list it read alone.
    void reserveSetGetStack()
    {
        auto l = reserve(elementShape({}), 3);
        QVERIFY2(l, l ? "" : l.error().toString().c_str());
        QCOMPARE(l->dtype(), tf::DT_VARIANT);
        QCOMPARE(l->rank(), 0);
        QCOMPARE(*length(*l), 3);
        CHECK_EMPTY(check(getItem(*l, 1, unknownShape()), {}, {0}));
        auto l2 = setItem(*l, 0, scalar(3));
        QVERIFY(l2);
        QCOMPARE(*length(*l2), 3);
        CHECK_EMPTY(check(stackAll(*l2), {3}, {3, 0, 0}));
        // The input list is a value: still all unset.
        CHECK_EMPTY(check(stackAll(*l), {3}, {0, 0, 0}));
        CHECK_EMPTY(check(getItem(*l2, 0, unknownShape()), {}, {3}));
        auto list = tensor_list::listFromTensor(*l2);
        QVERIFY(list);
        QCOMPARE((*list)->typeName(), std::string("tensorflow::TensorList"));
        QVERIFY(!TensorList::isSet((*list)->element(1)));
    }

    /// Lists longer than a storage chunk (TensorList::kChunkSize): sets, appends, pops and resizes
    /// across chunk boundaries against a plain vector kept beside them (unset elements read 0), and
    /// every earlier list still reads as it did.
    void longListsMatchAPlainVector()
    {
        std::vector<float> model(130, 0.0f);
        auto l = reserve(elementShape({}), 130);
        QVERIFY(l);
        std::vector<std::pair<Tensor, std::vector<float>>> history = {{*l, model}};
        for (int i = 0; i < 130; i += 7) {
            l = setItem(*l, i, scalar(float(i) + 0.5f));
            model[static_cast<std::size_t>(i)] = float(i) + 0.5f;
        }
        history.push_back({*l, model});
        for (int i = 0; i < 70; ++i) {
            l = pushBack(*l, scalar(1000.0f + float(i)));
            model.push_back(1000.0f + float(i));
        }
        history.push_back({*l, model});
        for (int i = 0; i < 5; ++i) {
            auto popped = m_h->run(node("TensorListPopBack"), {*l, unknownShape()});
            QVERIFY(popped);
            QCOMPARE((*popped)[1].scalar<float>(), model.back());
            model.pop_back();
            l = (*popped)[0];
        }
        for (std::int32_t size : {128, 100, 64, 300}) {
            l = run(node("TensorListResize", ""), {*l, index(size)});
            model.resize(static_cast<std::size_t>(size), 0.0f);
            history.push_back({*l, model});
        }
        l = setItem(*l, 310, scalar(-1), "DT_FLOAT", true);
        model.resize(311, 0.0f);
        model[310] = -1;
        l = setItem(*l, 63, scalar(-2));
        model[63] = -2;
        history.push_back({*l, model});
        for (const auto& [list, values] : history) {
            CHECK_EMPTY(check(stackAll(list), {static_cast<std::int64_t>(values.size())}, values));
        }
    }

    /// testTensorListFromTensor / testUnknownShape: rows become elements; PopBack takes the last.
    void fromTensorGetPop()
    {
        auto l = fromTensor(floats({3, 2}, {1, 2, 3, 4, 5, 6}), elementShape({2}));
        QVERIFY(l);
        CHECK_EMPTY(check(getItem(*l, 1, unknownShape()), {2}, {3, 4}));
        auto popped = m_h->run(node("TensorListPopBack"), {*l, unknownShape()});
        QVERIFY2(popped, popped ? "" : popped.error().toString().c_str());
        CHECK_EMPTY(check((*popped)[1], {2}, {5, 6}));
        QCOMPARE(*length((*popped)[0]), 2);
        CHECK_EMPTY(check(stackAll((*popped)[0]), {2, 2}, {1, 2, 3, 4}));
        QCOMPARE(*length(*l), 3);
        // Strings (map_fn over strings; the classify model's output list).
        auto s = fromTensor(tensor<std::string>(m_h->allocator(), {2}, {"a", "bc"}), elementShape({}), "DT_STRING");
        QVERIFY(s);
        auto s2 = setItem(*s, 0, tensor<std::string>(m_h->allocator(), TensorShape::scalar(), {"xyz"}), "DT_STRING");
        QVERIFY(s2);
        auto st = stack(*s2, elementShape({}), "DT_STRING");
        QVERIFY2(st, st ? "" : st.error().toString().c_str());
        QCOMPARE(valuesOf<std::string>(*st), (std::vector<std::string>{"xyz", "bc"}));
    }

    void fromTensorErrors()
    {
        CHECK_EMPTY(
            failsWith(fromTensor(scalar(1), elementShape({})), "Tensor must be at least a vector, but saw shape: []"));
        CHECK_EMPTY(failsWith(fromTensor(floats({2}, {1, 2}), elementShape({3})),
                              "Specified a list with shape [3] from a tensor with shape []"));
        CHECK_EMPTY(failsWith(fromTensor(floats({2}, {1, 2}), ints({1, 1}, {1})),
                              "Shape must be at most rank 1 but is rank 2"));
        CHECK_EMPTY(failsWith(fromTensor(floats({2}, {1, 2}), index(2)),
                              "The only valid scalar shape tensor is the fully unknown shape specified as -1."));
        CHECK_EMPTY(failsWith(fromTensor(floats({2}, {1, 2}), elementShape({-2})), "Dimension -2 must be >= -1"));
    }

    /// testPushPop, testStackWithUnknownElementShape, testStackWithPartiallyDefinedElementShape,
    /// testPushInFullListFails, testPopFromEmptyTensorListFails.
    void pushPopStack()
    {
        auto l = empty(unknownShape());
        QVERIFY(l);
        auto l1 = pushBack(*l, scalar(1));
        auto l2 = pushBack(*l1, scalar(2));
        QVERIFY(l2);
        CHECK_EMPTY(check(stackAll(*l2), {2}, {1, 2}));
        auto l3 = pushBack(*l2, floats({2}, {3, 4}));
        QVERIFY(l3);
        CHECK_EMPTY(failsWith(stackAll(*l3), "Incompatible ranks during merge: 0 vs. 1"));

        auto p = empty(elementShape({-1}));
        auto p2 = pushBack(*pushBack(*p, floats({1}, {1})), floats({1}, {2}));
        CHECK_EMPTY(check(stackAll(*p2), {2, 1}, {1, 2}));
        CHECK_EMPTY(
            failsWith(stackAll(*pushBack(*p2, floats({2}, {2, 3}))), "Incompatible shapes during merge: [1] vs. [2]"));

        auto full = pushBack(*empty(elementShape({}), 1), scalar(1));
        QVERIFY(full);
        CHECK_EMPTY(failsWith(pushBack(*full, scalar(2)),
                              "Tried to push item into a full list list size: 1 max_num_elements: 1"));
        CHECK_EMPTY(failsWith(
            pushBack(*empty(elementShape({2})), floats({3}, {1, 2, 3})),
            "Tried to append a tensor with incompatible shape to a list. Op element shape: [3] list shape: [2]"));
        CHECK_EMPTY(failsWith(m_h->run(node("TensorListPopBack"), {*empty(elementShape({})), unknownShape()}),
                              "Trying to pop from an empty list."));
    }

    /// testPopUninitializedTensor*: the list's or the op's element shape gives the zeros.
    void popUnsetElements()
    {
        auto fromList = m_h->run(node("TensorListPopBack"), {*reserve(elementShape({2, 3}), 3), unknownShape()});
        QVERIFY(fromList);
        CHECK_EMPTY(check((*fromList)[1], {2, 3}, std::vector<float>(6, 0)));
        auto fromOp = m_h->run(node("TensorListPopBack"), {*reserve(elementShape({-1, 3}), 3), elementShape({4, 3})});
        QVERIFY(fromOp);
        CHECK_EMPTY(check((*fromOp)[1], {4, 3}, std::vector<float>(12, 0)));
        CHECK_EMPTY(
            failsWith(m_h->run(node("TensorListPopBack"), {*reserve(unknownShape(), 3), unknownShape()}),
                      "Trying to read an uninitialized tensor but element_shape is not fully defined.<unknown>"));
        CHECK_EMPTY(
            failsWith(m_h->run(node("TensorListPopBack"), {*reserve(elementShape({-1, 2}), 3), elementShape({1, 3})}),
                      "PartialTensorShape: Incompatible shapes during merge: [1,3] vs. [?,2]"));
    }

    /// testGetUninitializedTensor*, testStackWithUninitializedTensorsInferShape,
    /// testStackReservedListWithNoElementsAndPartialElementShapeFails, testStackEmptyList,
    /// testStackUsingSpecifiedElementShape.
    void unsetElementShapes()
    {
        auto l = reserve(unknownShape(), 3);
        CHECK_EMPTY(check(getItem(*l, 1, elementShape({2, 3})), {2, 3}, std::vector<float>(6, 0)));
        CHECK_EMPTY(
            failsWith(getItem(*l, 0, unknownShape()),
                      "Trying to read an uninitialized tensor but element_shape is not fully defined: <unknown> and "
                      "no list element is set."));
        CHECK_EMPTY(check(stack(*l, elementShape({})), {3}, {0, 0, 0}));
        CHECK_EMPTY(failsWith(stackAll(*l), "Tried to stack list which only contains uninitialized tensors and has a "
                                            "non-fully-defined element_shape: <unknown>"));
        auto set = setItem(*l, 1, floats({2}, {1, 2}));
        CHECK_EMPTY(check(stackAll(*set), {3, 2}, {0, 0, 1, 2, 0, 0}));
        CHECK_EMPTY(check(getItem(*set, 2, unknownShape()), {2}, {0, 0}));
        CHECK_EMPTY(check(stackAll(*empty(elementShape({1, 2}))), {0, 1, 2}, {}));
        CHECK_EMPTY(failsWith(stackAll(*empty(elementShape({-1, 2}))),
                              "Tried to stack elements of an empty list with non-fully-defined element_shape: [?,2]"));
        CHECK_EMPTY(failsWith(stack(*l, elementShape({}), "DT_FLOAT", 2),
                              "Operation expected a list with 2 elements but got a list "
                              "with 3 elements."));
    }

    /// Indices out of range, wrong dtypes and shapes (testSetOnEmptyListWithMaxNumElementsFails,
    /// testSkipEagerSetItemWithMismatchedShapeFails); SetItem's resize_if_index_out_of_bounds.
    void setGetErrorsAndResize()
    {
        auto l = fromTensor(floats({3}, {1, 2, 3}), elementShape({}));
        CHECK_EMPTY(failsWith(getItem(*l, 3, unknownShape()), "Trying to access element 3 in a list with 3 elements."));
        CHECK_EMPTY(
            failsWith(getItem(*l, -1, unknownShape()), "Trying to access element -1 in a list with 3 elements."));
        CHECK_EMPTY(failsWith(setItem(*empty(elementShape({}), 3), 0, scalar(1)),
                              "Trying to modify element 0 in a list with 0 elements."));
        CHECK_EMPTY(failsWith(setItem(*l, 0, floats({1}, {3})),
                              "Tried to set a tensor with incompatible shape at a list "
                              "index. Item element shape: [1] list shape: []"));
        CHECK_EMPTY(failsWith(getItem(*l, 0, unknownShape(), "DT_INT32"),
                              "Invalid data types; op elements int32 but list "
                              "elements float"));
        CHECK_EMPTY(failsWith(run(node("TensorListLength", ""), {scalar(1)}), "Input handle is not a list."));
        auto grown = setItem(*l, 4, scalar(9), "DT_FLOAT", true);
        QVERIFY2(grown, grown ? "" : grown.error().toString().c_str());
        CHECK_EMPTY(check(stackAll(*grown), {5}, {1, 2, 3, 0, 9}));
        auto inPlace = setItem(*l, 1, scalar(7), "DT_FLOAT", true);
        CHECK_EMPTY(check(stackAll(*inPlace), {3}, {1, 7, 3}));
        CHECK_EMPTY(failsWith(reserve(elementShape({}), -1),
                              "The num_elements to reserve must be a non negative number, but got -1"));
        auto huge = reserve(elementShape({}), 1 << 30);
        QVERIFY(!huge && huge.error().code() == StatusCode::kResourceExhausted);
    }

    /// testGather*, testGatherEmptyList.
    void gather()
    {
        auto l = fromTensor(floats({3, 2}, {1, 2, 3, 4, 5, 6}), elementShape({-1}));
        auto g = run(node("TensorListGather"), {*l, ints({2}, {2, 0}), unknownShape()});
        CHECK_EMPTY(check(g, {2, 2}, {5, 6, 1, 2}));
        CHECK_EMPTY(failsWith(run(node("TensorListGather"), {*l, ints({1}, {3}), unknownShape()}),
                              "Index 3 out o range; list only has 3 elements."));
        CHECK_EMPTY(check(run(node("TensorListGather"), {*empty(elementShape({1, 2})), ints({0}, {}), unknownShape()}),
                          {0, 1, 2}, {}));
        CHECK_EMPTY(
            failsWith(run(node("TensorListGather"), {*empty(elementShape({-1, 2})), ints({0}, {}), unknownShape()}),
                      "Tried to gather 0-elements from a list with non-fully-defined shape: [?,2]"));
        auto partial = setItem(*reserve(unknownShape(), 3), 1, floats({2}, {1, 2}));
        CHECK_EMPTY(
            check(run(node("TensorListGather"), {*partial, ints({2}, {1, 2}), unknownShape()}), {2, 2}, {1, 2, 0, 0}));
        CHECK_EMPTY(
            failsWith(run(node("TensorListGather"), {*reserve(unknownShape(), 3), ints({1}, {0}), unknownShape()}),
                      "Tried to gather uninitialized tensors from a list with non-fully-defined element_shape"));
    }

    /// testScatter*: the list is as long as the largest index needs, or num_elements.
    void scatter()
    {
        const std::string v1 = node("TensorListScatter", "DT_FLOAT", kShapeInt32);
        const std::string v2 = node("TensorListScatterV2", "DT_FLOAT", kShapeInt32);
        auto l = run(v1, {floats({2}, {1, 2}), ints({2}, {1, 3}), elementShape({})});
        QVERIFY2(l, l ? "" : l.error().toString().c_str());
        CHECK_EMPTY(check(stackAll(*l), {4}, {0, 1, 0, 2}));
        auto l5 = run(v2, {floats({2}, {1, 2}), ints({2}, {1, 3}), elementShape({}), index(5)});
        QCOMPARE(*length(*l5), 5);
        CHECK_EMPTY(failsWith(run(v2, {floats({2}, {1, 2}), ints({2}, {1, 3}), elementShape({}), index(3)}),
                              "TensorListScatter: Trying to scatter at index 3 in list with size 3"));
        CHECK_EMPTY(failsWith(run(v2, {floats({2}, {1, 2}), ints({2}, {1, 3}), elementShape({}), index(-2)}),
                              "TensorListScatter expects num_elements >= -1, found: -2"));
        CHECK_EMPTY(failsWith(run(v1, {floats({2}, {1, 2}), ints({3}, {1, 0, 2}), elementShape({})}),
                              "Invalid number of rows in input tensor. Expected: 3 Actual: 2"));
        CHECK_EMPTY(failsWith(run(v1, {floats({2}, {1, 2}), ints({2}, {-1, -2}), elementShape({})}),
                              "Indices in TensorListScatter must all be non-negative."));
        // testScatterIntoExistingList.
        auto base = run(v1, {floats({1}, {1}), ints({1}, {0}), elementShape({})});
        const std::string into = node("TensorListScatterIntoExistingList");
        auto merged = run(into, {*base, floats({2}, {2, 3}), ints({2}, {1, 2})});
        QVERIFY2(merged, merged ? "" : merged.error().toString().c_str());
        CHECK_EMPTY(check(stackAll(*merged), {3}, {1, 2, 3}));
        QCOMPARE(*length(*base), 1);
        CHECK_EMPTY(failsWith(run(into, {*base, floats({2}, {2, 3}), ints({1}, {1})}),
                              "Expected len(indices) == tensor.shape[0], but saw: 1 vs. 2"));
    }

    /// testConcat* and testEvenSplit / testUnevenSplit / testSplitWithInvalidLengthsFails.
    void concatAndSplit()
    {
        const std::string v2 = node("TensorListConcatV2", "DT_FLOAT", kShapeInt32);
        auto l =
            pushBack(*pushBack(*empty(elementShape({-1, 2})), floats({1, 2}, {0, 1})), floats({2, 2}, {2, 3, 4, 5}));
        auto out = m_h->run(v2, {*l, unknownShape(), longs({})});
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        CHECK_EMPTY(check((*out)[0], {3, 2}, {0, 1, 2, 3, 4, 5}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[1]), (std::vector<std::int64_t>{1, 2}));
        auto mixed = pushBack(*pushBack(*empty(unknownShape()), floats({1, 2}, {0, 1})), floats({2, 1}, {2, 4}));
        CHECK_EMPTY(failsWith(m_h->run(v2, {*mixed, unknownShape(), longs({})}),
                              "Incompatible shapes during merge: [2] vs. [1]"));
        // Unset elements: the first dimension from the element shape, or from leading_dims.
        auto r = reserve(elementShape({2, 3}), 3);
        CHECK_EMPTY(check(run(v2, {*r, unknownShape(), longs({})}), {6, 3}, std::vector<float>(18, 0)));
        auto u = reserve(unknownShape(), 3);
        CHECK_EMPTY(check(run(v2, {*u, elementShape({-1, 3}), longs({2, 3, 5})}), {10, 3}, std::vector<float>(30, 0)));
        auto one = setItem(*u, 1, floats({3, 2}, {2, 3, 4, 5, 6, 7}));
        CHECK_EMPTY(check(run(v2, {*one, elementShape({-1, 2}), longs({2, 3, 4})}), {9, 2},
                          {0, 0, 0, 0, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0}));
        CHECK_EMPTY(failsWith(run(v2, {*reserve(elementShape({-1, 3}), 3), unknownShape(), longs({})}),
                              "List contains uninitialized tensor at index 0 but leading_dims has only 0 elements."));
        CHECK_EMPTY(
            failsWith(run(v2, {*empty(unknownShape()), unknownShape(), longs({})}),
                      "All except the first dimension must be fully defined when concating an empty tensor list."));
        CHECK_EMPTY(failsWith(run(v2, {*pushBack(*empty(unknownShape()), scalar(1)), unknownShape(), longs({})}),
                              "Concat saw a scalar shape at index 0 but requires at least vectors."));
        // TensorListConcat (V1) takes the element shape from its attr.
        auto v1 = m_h->run(node("TensorListConcat", "DT_FLOAT",
                                "attr { key: 'element_shape' value { shape { dim { "
                                "size: -1 } dim { size: 2 } } } }"),
                           {*l});
        QVERIFY2(v1, v1 ? "" : v1.error().toString().c_str());
        CHECK_EMPTY(check((*v1)[0], {3, 2}, {0, 1, 2, 3, 4, 5}));

        const std::string split = node("TensorListSplit", "DT_FLOAT", kShapeInt32);
        auto s = run(split, {floats({5}, {1, 2, 3, 4, 5}), unknownShape(), longs({3, 2})});
        QVERIFY2(s, s ? "" : s.error().toString().c_str());
        QCOMPARE(*length(*s), 2);
        CHECK_EMPTY(check(getItem(*s, 0, unknownShape()), {3}, {1, 2, 3}));
        CHECK_EMPTY(check(getItem(*s, 1, unknownShape()), {2}, {4, 5}));
        CHECK_EMPTY(check(stackAll(*run(split, {floats({2, 2}, {1, 2, 3, 4}), unknownShape(), longs({1, 1})})),
                          {2, 1, 2}, {1, 2, 3, 4}));
        CHECK_EMPTY(failsWith(run(split, {floats({2}, {1, 2}), unknownShape(), longs({1, -1})}),
                              "Invalid value in lengths: -1"));
        CHECK_EMPTY(failsWith(run(split, {floats({2}, {1, 2}), unknownShape(), longs({3})}),
                              "Attempting to slice [0, 3] from tensor with length 2"));
        CHECK_EMPTY(failsWith(run(split, {floats({2}, {1, 2}), unknownShape(), longs({1})}),
                              "Unused values in tensor. Length of tensor: 2 Values used: 1"));
        CHECK_EMPTY(failsWith(run(split, {floats({2}, {1, 2}), elementShape({}), longs({1, 1})}),
                              "TensorListSplit requires element_shape to be at least of rank 1, but saw: []"));
        CHECK_EMPTY(failsWith(run(split, {floats({2, 1}, {1, 2}), elementShape({1}), longs({1, 1})}),
                              "tensor shape [2,1] is not compatible with element_shape [1]"));
    }

    /// testResizeGrow / Shrink / WithInvalidSizeFails, testElementShape, TensorListConcatLists.
    void resizeElementShapeConcatLists()
    {
        auto l = fromTensor(floats({2}, {1, 2}), elementShape({}));
        auto grown = run(node("TensorListResize", ""), {*l, index(4)});
        QCOMPARE(*length(*grown), 4);
        CHECK_EMPTY(check(stackAll(*grown), {4}, {1, 2, 0, 0}));
        CHECK_EMPTY(check(stackAll(*run(node("TensorListResize", ""), {*l, index(1)})), {1}, {1}));
        CHECK_EMPTY(failsWith(run(node("TensorListResize", ""), {*l, index(-1)}),
                              "TensorListSlice expects size to be non-negative. Got: -1"));

        auto unknown = run(node("TensorListElementShape", "", kShapeInt32), {*empty(unknownShape())});
        QVERIFY(unknown && unknown->rank() == 0 && unknown->scalar<std::int32_t>() == -1);
        auto partial = run(node("TensorListElementShape", "", typeAttr("shape_type", "DT_INT64")),
                           {*empty(elementShape({-1, 2}))});
        QVERIFY(partial);
        QCOMPARE(valuesOf<std::int64_t>(*partial), (std::vector<std::int64_t>{-1, 2}));

        // testConcat: batches of two lists, concatenated position by position.
        auto l1 = fromTensor(floats({1}, {-1}), elementShape({}));
        Tensor a = *Tensor::allocate(m_h->allocator(), tf::DT_VARIANT, TensorShape{2});
        Tensor b = *Tensor::allocate(m_h->allocator(), tf::DT_VARIANT, TensorShape{2});
        a.values<Variant>()[0] = l->scalar<Variant>();
        a.values<Variant>()[1] = l1->scalar<Variant>();
        b.values<Variant>()[0] = l1->scalar<Variant>();
        b.values<Variant>()[1] = l->scalar<Variant>();
        auto ab = run(node("TensorListConcatLists"), {a, b});
        QVERIFY2(ab, ab ? "" : ab.error().toString().c_str());
        Tensor first = *tensor_list::listTensor(m_h->allocator(), *ab->values<Variant>()[0].as<TensorList>());
        Tensor second = *tensor_list::listTensor(m_h->allocator(), *ab->values<Variant>()[1].as<TensorList>());
        CHECK_EMPTY(check(stackAll(first), {3}, {1, 2, -1}));
        CHECK_EMPTY(check(stackAll(second), {3}, {-1, 1, 2}));
        b.values<Variant>()[0] = fromTensor(ints({1}, {1}), elementShape({}), "DT_INT32")->scalar<Variant>();
        CHECK_EMPTY(failsWith(run(node("TensorListConcatLists"), {a, b}), "input_b[0].dtype != element_dtype."));
    }

    /// testAddN, testAddTensorListsFailsIfLeadingDimsMismatch, testZerosLike(Uninitialized).
    void addNAndZerosLike()
    {
        const std::string addN = "op: 'AddN' attr { key: 'N' value { i: 3 } } " + typeAttr("T", "DT_VARIANT");
        auto sum = run(addN, {*fromTensor(floats({2}, {1, 2}), elementShape({})),
                              *fromTensor(floats({2}, {3, 4}), elementShape({})),
                              *fromTensor(floats({2}, {5, 6}), elementShape({}))});
        QVERIFY2(sum, sum ? "" : sum.error().toString().c_str());
        CHECK_EMPTY(check(stackAll(*sum), {2}, {9, 12}));
        const std::string add2 = "op: 'AddN' attr { key: 'N' value { i: 2 } } " + typeAttr("T", "DT_VARIANT");
        CHECK_EMPTY(
            failsWith(run(add2, {*reserve(elementShape({}), 2), *reserve(elementShape({}), 3)}),
                      "Trying to add two lists of tensors with different lengths. One is 2 and the other is 3"));
        // An unset element plus a set one is the set one.
        auto half = setItem(*reserve(elementShape({}), 2), 1, scalar(5));
        CHECK_EMPTY(
            check(stackAll(*run(add2, {*half, *fromTensor(floats({2}, {1, 2}), elementShape({}))})), {2}, {1, 7}));

        const std::string zerosLike = "op: 'ZerosLike' " + typeAttr("T", "DT_VARIANT");
        auto z = run(zerosLike, {*fromTensor(floats({3}, {1, 2, 3}), elementShape({}))});
        QVERIFY2(z, z ? "" : z.error().toString().c_str());
        CHECK_EMPTY(check(stackAll(*z), {3}, {0, 0, 0}));
        auto zu = run(zerosLike, {*setItem(*reserve(unknownShape(), 3), 0, floats({2}, {1, 1}))});
        auto zl = tensor_list::listFromTensor(*zu);
        QVERIFY(zl);
        QVERIFY(TensorList::isSet((*zl)->element(0)) && !TensorList::isSet((*zl)->element(1)));
        CHECK_EMPTY(check(stackAll(*zu), {3, 2}, std::vector<float>(6, 0)));
    }

    /// A StatelessWhile over lists as TensorFlow 2's map_fn writes it (element list from
    /// TensorListFromTensor, result list from TensorListReserve, GetItem and SetItem in the body,
    /// TensorListStack after the loop), run in a session: x*x + 1 for x = [1, 2, 3, 4].
    void whileLoopOverLists()
    {
        const std::string text = mapLibrary("DT_FLOAT") + R"pb(
          node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }
          node { name: 'scalar_shape' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }
                 attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 0 } } } } } }
          node { name: 'n' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }
                 attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 4 } } } }
          node { name: 'zero' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }
                 attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 0 } } } }
          node { name: 'elements' op: 'TensorListFromTensor' input: 'x' input: 'scalar_shape'
                 attr { key: 'element_dtype' value { type: DT_FLOAT } }
                 attr { key: 'shape_type' value { type: DT_INT32 } } }
          node { name: 'results' op: 'TensorListReserve' input: 'scalar_shape' input: 'n'
                 attr { key: 'element_dtype' value { type: DT_FLOAT } }
                 attr { key: 'shape_type' value { type: DT_INT32 } } }
          node { name: 'loop' op: 'StatelessWhile' input: 'zero' input: 'n' input: 'elements' input: 'results'
                 attr { key: 'T' value { list { type: DT_INT32 type: DT_INT32 type: DT_VARIANT type: DT_VARIANT } } }
                 attr { key: 'cond' value { func { name: 'map_cond' } } }
                 attr { key: 'body' value { func { name: 'map_body' } } } }
          node { name: 'stacked' op: 'TensorListStack' input: 'loop:3' input: 'scalar_shape'
                 attr { key: 'element_dtype' value { type: DT_FLOAT } } attr { key: 'num_elements' value { i: 4 } } }
        )pb";
        tf::GraphDef graph;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(text, &graph));
        SessionOptions options;
        options.ops = &m_registries->ops;
        options.kernels = &m_registries->kernels;
        Session session(options);
        Status s = session.create(graph);
        QVERIFY2(s.isOk(), s.toString().c_str());
        std::vector<Tensor> out;
        s = session.run({{"x", floats({4}, {1, 2, 3, 4})}}, {"stacked", "loop:0"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        CHECK_EMPTY(check(out[0], {4}, {2, 5, 10, 17}));
        QCOMPARE(out[1].scalar<std::int32_t>(), 4);
        // The stack's num_elements is checked: a shorter input fails naming the op.
        s = session.run({{"x", floats({3}, {1, 2, 3})}}, {"stacked"}, {}, &out);
        QVERIFY(!s.isOk());
    }

    /// The list gradients against central differences (float64), through lists read and written in
    /// several ways; AddN sums the gradient lists of a list read twice; and through map_fn's
    /// StatelessWhile over lists (SymbolicGradient of the loop runs the body's list gradients).
    void gradientsMatchFiniteDifferences()
    {
        struct Case {
            const char* name;
            GradientCheckGraph build;
        };
        auto c = [](GraphBuilder& b, std::vector<std::int64_t> v) {
            return *ops::constantInts(b, v, TensorShape{static_cast<std::int64_t>(v.size())}, tf::DT_INT32, "c");
        };
        auto i32 = [](GraphBuilder& b, std::int64_t v) {
            return *ops::constantInts(b, {v}, TensorShape::scalar(), tf::DT_INT32, "i");
        };
        auto f64 = [](const std::string& key) { return AttrMap{{key, attr::type(tf::DT_DOUBLE)}}; };
        auto first = [](Expected<Operation> op, int i = 0) -> Expected<Output> {
            if (!op)
                return unexpected(op.error());
            return op->output(i);
        };
        const std::vector<Case> cases = {
            {"stack(from_tensor(x))^2",
             [&](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                 auto l = first(b.op("TensorListFromTensor", {xs[0], c(b, {})}));
                 auto s = first(b.op("TensorListStack", {*l, c(b, {})}, f64("element_dtype")));
                 return first(b.op("Mul", {*s, *s}));
             }},
            {"get(set(from_tensor(x), 0, y), 0)^2 + get(.., 1)^2",
             [&](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                 auto l = first(b.op("TensorListFromTensor", {xs[0], c(b, {})}));
                 auto l2 = first(b.op("TensorListSetItem", {*l, i32(b, 0), xs[1]}));
                 auto e0 = first(b.op("TensorListGetItem", {*l2, i32(b, 0), c(b, {})}, f64("element_dtype")));
                 auto e1 = first(b.op("TensorListGetItem", {*l2, i32(b, 1), c(b, {})}, f64("element_dtype")));
                 auto s0 = first(b.op("Mul", {*e0, *e0}));
                 auto s1 = first(b.op("Mul", {*e1, *e1}));
                 return first(b.op("AddV2", {*s0, *s1}));
             }},
            {"gather(scatter(x, [1, 0]), [0, 1]) * x",
             [&](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                 auto l = first(b.op("TensorListScatterV2", {xs[0], c(b, {1, 0}), c(b, {}), i32(b, -1)}));
                 auto g = first(b.op("TensorListGather", {*l, c(b, {0, 1}), c(b, {})}, f64("element_dtype")));
                 return first(b.op("Mul", {*g, xs[0]}));
             }},
            {"pop(push(push(empty, x), y)) products",
             [&](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                 auto e = first(b.op("EmptyTensorList", {c(b, {2}), i32(b, -1)}, f64("element_dtype")));
                 auto p1 = first(b.op("TensorListPushBack", {*e, xs[0]}));
                 auto p2 = first(b.op("TensorListPushBack", {*p1, xs[1]}));
                 auto popped = b.op("TensorListPopBack", {*p2, c(b, {2})}, f64("element_dtype"));
                 if (!popped)
                     return unexpected(popped.error());
                 auto rest = first(b.op("TensorListStack", {popped->output(0), c(b, {2})}, f64("element_dtype")));
                 auto flat = first(b.op("Reshape", {*rest, c(b, {2})}));
                 return first(b.op("Mul", {*flat, popped->output(1)}));
             }},
            {"concat(split(x, [1, 2])) * x",
             [&](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                 auto lengths = *ops::constantInts(b, {1, 2}, TensorShape{2}, tf::DT_INT64, "lengths");
                 auto l = first(b.op("TensorListSplit", {xs[0], i32(b, -1), lengths}));
                 auto none = *ops::constantInts(b, {}, TensorShape{0}, tf::DT_INT64, "leading");
                 auto cat = first(b.op("TensorListConcatV2", {*l, i32(b, -1), none}, f64("element_dtype")));
                 return first(b.op("Mul", {*cat, xs[0]}));
             }},
            {"stack(map_fn(e * e + 1 over x)) * x through a StatelessWhile",
             [&](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                 tf::GraphDef library;
                 if (!google::protobuf::TextFormat::ParseFromString(mapLibrary("DT_DOUBLE"), &library))
                     return unexpected(internalError("the map library does not parse"));
                 if (Status s = b.addFunctions(library.library()); !s.isOk())
                     return unexpected(s);
                 auto elements = first(b.op("TensorListFromTensor", {xs[0], c(b, {})}));
                 auto results = first(b.op("TensorListReserve", {c(b, {}), i32(b, 3)}, f64("element_dtype")));
                 tf::AttrValue cond;
                 cond.mutable_func()->set_name("map_cond");
                 tf::AttrValue body;
                 body.mutable_func()->set_name("map_body");
                 auto loop = b.op("StatelessWhile", {OpInput({i32(b, 0), i32(b, 3), *elements, *results})},
                                  {{"cond", cond}, {"body", body}});
                 if (!loop)
                     return unexpected(loop.error());
                 auto stacked = first(b.op("TensorListStack", {loop->output(3), c(b, {})}, f64("element_dtype")));
                 return first(b.op("Mul", {*stacked, xs[0]}));
             }},
        };
        const std::vector<std::vector<Tensor>> inputs = {
            {floats({3}, {0.5f, -1.25f, 2})}, {floats({2}, {0.75f, -1.5f}), scalar(1.25f)},
            {floats({2}, {0.5f, -2})},        {floats({2}, {0.5f, -2}), floats({2}, {1.5f, 0.25f})},
            {floats({3}, {0.5f, -2, 1.5f})},  {floats({3}, {0.5f, -2, 1.5f})},
        };
        for (std::size_t k = 0; k < cases.size(); ++k) {
            std::vector<Tensor> xs;
            for (const Tensor& x : inputs[k]) {
                Tensor d = *Tensor::allocate(m_h->allocator(), tf::DT_DOUBLE, x.shape());
                for (std::int64_t i = 0; i < x.numElements(); ++i)
                    d.values<double>()[static_cast<std::size_t>(i)] = x.values<float>()[static_cast<std::size_t>(i)];
                xs.push_back(d);
            }
            GradientCheckOptions options;
            options.delta = 1e-6;
            auto jacobians = computeGradient(m_registries->ops, m_registries->kernels, xs, cases[k].build, options);
            const std::string name = cases[k].name;
            QVERIFY2(jacobians, (name + ": " + (jacobians ? "" : jacobians.error().toString())).c_str());
            for (const Jacobians& j : *jacobians) {
                QVERIFY2(j.maxError() < 1e-6, (name + ": max error " + std::to_string(j.maxError())).c_str());
                // Every x reaches y: a gradient that lost its way would be all zeros.
                double largest = 0;
                for (double v : j.theoretical)
                    largest = std::max(largest, std::abs(v));
                QVERIFY2(largest > 0.1, (name + ": the symbolic gradient is zero").c_str());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestTensorListKernels)
#include "test_tensor_list_kernels.moc"
