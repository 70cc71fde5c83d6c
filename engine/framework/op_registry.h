// OpRegistry: the op definitions the engine knows, by op name, each with its GUI category and the
// slots that the shape-function and gradient registrations fill later.
#pragma once

#include "core/expected.h"
#include "framework/data_type.h"
#include "proto/op_def.pb.h"

#include <cstddef>
#include <functional>
#include <map>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio {

class OpDefBuilder;

/// Defined by the shape-inference work; until then a shape function cannot be called.
class ShapeInferenceContext;
/// Defined in autodiff/gradient_context.h.
class GradientContext;
/// Defined in function/function_library.h and function/function_instantiation.h.
class FunctionLibrary;
struct FunctionCallTarget;
struct FunctionBody;

/// Computes the output shapes of one node from its input shapes and attrs (TensorFlow's
/// OpShapeInferenceFn). A placeholder signature: the shape-inference work defines the context.
using ShapeFunction = std::function<Status(ShapeInferenceContext&)>;
/// Emits the ops computing the gradient of one node (TensorFlow's gradient registry); called by
/// addSymbolicGradients (autodiff/gradients.h).
using GradientFunction = std::function<Status(GradientContext&)>;
/// Builds the body SymbolicGradient runs for a library function: the function differentiated
/// (function/symbolic_gradient_body.h calls it). The autodiff fills it in registerAllGradients, so
/// the function runtime (runtime wing) never includes the autodiff (building wing).
using SymbolicGradientBodyFunction =
    std::function<Expected<FunctionBody>(const FunctionLibrary&, const FunctionCallTarget&, const std::vector<DataType>&)>;

/// The palette categories. A category is free text; these spellings keep the GUI's groups and
/// colours consistent. An empty category means "not classified".
namespace op_category {
inline constexpr std::string_view kMath = "Math";
inline constexpr std::string_view kArray = "Array";
inline constexpr std::string_view kNN = "NN";
inline constexpr std::string_view kState = "State";
inline constexpr std::string_view kControlFlow = "Control flow";
inline constexpr std::string_view kTraining = "Training";
inline constexpr std::string_view kRandom = "Random";
inline constexpr std::string_view kSummary = "Summary";
} // namespace op_category

/// Everything registered under one op name. The OpDef comes from the definition registration
/// (OpDefBuilder); shapeFunction and gradient are empty until their own registrations
/// (OpRegistry::setShapeFunction / setGradient) fill them. notDifferentiable marks an op
/// registered as having no gradient (TensorFlow's ops.NotDifferentiable): backprop stops there.
struct OpRegistration {
    tensorflow::OpDef opDef;
    std::string category;
    ShapeFunction shapeFunction;
    GradientFunction gradient;
    bool notDifferentiable = false;
};

/// The ops known to one engine instance. Not a singleton: the engine creates one and fills it with
/// explicit `registerXxxOps(OpRegistry&)` calls; tests make their own.
///
/// Threads: every member is internally synchronised, so registrations may come from several
/// threads. Fill the registry before sharing it for reads: a pointer returned by find/lookUp stays
/// valid for the registry's lifetime (entries are never removed), but reading an entry's
/// shapeFunction or gradient while another thread sets it is a data race.
class OpRegistry {
public:
    OpRegistry();
    ~OpRegistry();
    OpRegistry(const OpRegistry&) = delete;
    OpRegistry& operator=(const OpRegistry&) = delete;

    /// Registers an op definition after checking it with validateOpDef. Errors: InvalidArgument for
    /// a malformed OpDef; AlreadyExists when the name is taken ("Op 'MatMul' is already registered").
    Status registerOp(OpRegistration registration);
    /// Finalizes `builder` and registers the result; the builder's errors are returned unchanged.
    Status registerOp(const OpDefBuilder& builder);

    /// Attaches the shape function of a registered op. NotFound if the op is not registered,
    /// AlreadyExists if it already has one, InvalidArgument for an empty function.
    Status setShapeFunction(std::string_view opName, ShapeFunction function);
    /// Attaches the gradient function of a registered op; errors as setShapeFunction (AlreadyExists
    /// also when the op is registered as not differentiable).
    Status setGradient(std::string_view opName, GradientFunction function);
    /// Registers `opName` as having no gradient (ops.NotDifferentiable). NotFound if the op is not
    /// registered, AlreadyExists if it has a gradient or is marked already.
    Status setNotDifferentiable(std::string_view opName);
    /// Sets how SymbolicGradient differentiates a library function, replacing any earlier one.
    void setSymbolicGradientBody(SymbolicGradientBodyFunction function);
    /// That function; empty while no autodiff is registered.
    SymbolicGradientBodyFunction symbolicGradientBody() const;

    /// The registration of `opName`, or nullptr.
    const OpRegistration* find(std::string_view opName) const;
    /// The registration of `opName`, or NotFound "Op type not registered 'Foo'" (TensorFlow's words).
    Expected<const OpRegistration*> lookUp(std::string_view opName) const;

    /// Every registered op name, sorted (byte order, as std::string compares).
    std::vector<std::string> opNames() const;
    /// How many ops are registered.
    std::size_t size() const;

private:
    OpRegistration* findMutable(std::string_view opName);

    mutable std::shared_mutex m_mutex;
    // std::map never moves its elements, so pointers handed out stay valid as it grows.
    std::map<std::string, OpRegistration, std::less<>> m_ops;
    SymbolicGradientBodyFunction m_symbolicGradientBody;
};

} // namespace tstudio
