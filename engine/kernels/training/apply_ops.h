// The kernel templates of the dense Apply* optimizer ops, written once for both forms (ApplyX on ref
// variables, ResourceApplyX on resource variables; TensorFlow also shares one kernel class between
// them) and every device: the checks in TensorFlow's order and words here, the update itself from
// the form's device (apply_op_cpu.h on the CPU, register_training_kernels_cuda.cpp on a GPU).
#pragma once

#include "framework/kernel_registry.h"
#include "framework/op_kernel.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace tstudio::training {

/// "lr is not a scalar: [2]" (some TensorFlow kernels say "lr is not a scalar : [2]"; `separator`
/// carries that difference).
inline Status requireScalar(const Tensor& t, const std::string& name, const char* separator = ": ")
{
    if (t.rank() == 0)
        return Status::ok();
    return invalidArgumentError(name + " is not a scalar" + separator + t.shape().toString());
}

/// "var and grad do not have the same shape[2] [3]", spaced exactly as TensorFlow's StrCat.
inline Status requireSameShape(const Tensor& var, const Tensor& other, const std::string& otherName)
{
    if (var.shape() == other.shape())
        return Status::ok();
    return invalidArgumentError("var and " + otherName + " do not have the same shape" + var.shape().toString() + " " +
                                other.shape().toString());
}

/// The first non-ok status of a list, evaluated in order (TensorFlow's OP_REQUIRES sequence).
template <typename... Checks> Status firstError(Checks&&... checks)
{
    Status result;
    ((result.isOk() ? (result = checks(), 0) : 0), ...);
    return result;
}

/// A hyper-parameter input that must be a scalar: its index, name and requireScalar's separator.
struct ScalarInput {
    int index;
    const char* name;
    const char* separator = ": ";
};

/// A tensor that must have var's shape, and its name in the message.
struct SameShapeAsVar {
    const Tensor& tensor;
    const char* name;
};

/// The checks of most Apply* kernels, in TensorFlow's order: every listed input a scalar, then every
/// listed tensor the shape of var; the first failure.
inline Status checkScalarsThenShapes(const OpKernelContext& ctx, std::initializer_list<ScalarInput> scalars,
                                     const Tensor& var, std::initializer_list<SameShapeAsVar> sameShapes)
{
    for (const ScalarInput& in : scalars) {
        if (Status s = requireScalar(ctx.input(in.index), in.name, in.separator); !s.isOk())
            return s;
    }
    for (const SameShapeAsVar& t : sameShapes) {
        if (Status s = requireSameShape(var, t.tensor, t.name); !s.isOk())
            return s;
    }
    return Status::ok();
}

/// What the kernels of both forms share: attr failures kept for compute().
///
/// A form derives from this and provides `template <typename Body> Status run(OpKernelContext&,
/// std::initializer_list<int> inputs, Body&& body)`, which finds the variables of `inputs`, calls
/// `body(vars)` (where `vars[k]` is the Tensor of the k-th listed input; writing it updates the
/// variable) and returns its status or the form's own error; and `Updates`, its device's update
/// functions (`Updates::gradientDescent(ctx, var, alpha, delta)`, ..., each returning a Status, the
/// hyper-parameters passed as the scalar tensors the kernel received, in the device's memory).
class ApplyKernelBase : public OpKernel {
public:
    using OpKernel::OpKernel;

protected:
    /// Attr `name` as a bool, remembering the first failure for compute().
    bool boolAttr(OpKernelConstruction& c, const char* name)
    {
        auto value = attrBool(c.node(), name);
        if (!value) {
            if (m_init.isOk())
                m_init = value.error();
            return false;
        }
        return *value;
    }

    Status m_init;
};

// The kernels: the checks in TensorFlow's order and words (they look at shapes only, so the values
// may be in device memory), then the device's update. The variables are inputs 0..n-1 in both
// forms, so the other inputs have the same indices too.

template <typename T, template <typename> class Form> class ApplyGradientDescentOp : public Form<T> {
public:
    using Base = Form<T>;
    using Base::Base;

    Status compute(OpKernelContext& ctx) override
    {
        return this->run(ctx, {0}, [&](auto& vars) {
            Tensor& var = vars[0];
            const Tensor& alpha = ctx.input(1);
            const Tensor& delta = ctx.input(2);
            if (Status s = checkScalarsThenShapes(ctx, {{1, "alpha"}}, var, {{delta, "delta"}}); !s.isOk())
                return s;
            return Base::Updates::gradientDescent(ctx, var, alpha, delta);
        });
    }
};

template <typename T, template <typename> class Form> class ApplyMomentumOp : public Form<T> {
public:
    explicit ApplyMomentumOp(OpKernelConstruction& c) : Form<T>(c), m_useNesterov(this->boolAttr(c, "use_nesterov")) {}

    Status compute(OpKernelContext& ctx) override
    {
        return this->run(ctx, {0, 1}, [&](auto& vars) {
            Tensor& var = vars[0];
            Tensor& accum = vars[1];
            const Tensor& lr = ctx.input(2);
            const Tensor& grad = ctx.input(3);
            const Tensor& momentum = ctx.input(4);
            if (Status s = firstError([&] { return requireScalar(lr, "lr"); },
                                      [&] { return requireSameShape(var, accum, "accum"); },
                                      [&] { return requireSameShape(var, grad, "grad"); },
                                      [&] { return requireScalar(momentum, "momentum"); });
                !s.isOk())
                return s;
            return Form<T>::Updates::momentum(ctx, var, accum, lr, grad, momentum, m_useNesterov);
        });
    }

private:
    bool m_useNesterov;
};

template <typename T, template <typename> class Form> class ApplyAdamOp : public Form<T> {
public:
    explicit ApplyAdamOp(OpKernelConstruction& c) : Form<T>(c), m_useNesterov(this->boolAttr(c, "use_nesterov")) {}

    Status compute(OpKernelContext& ctx) override
    {
        return this->run(ctx, {0, 1, 2}, [&](auto& vars) {
            Tensor& var = vars[0];
            Tensor& m = vars[1];
            Tensor& v = vars[2];
            const Tensor& grad = ctx.input(9);
            if (Status s = checkScalarsThenShapes(ctx,
                                                  {{3, "beta1_power"},
                                                   {4, "beta2_power"},
                                                   {5, "lr", " : "},
                                                   {6, "beta1"},
                                                   {7, "beta2"},
                                                   {8, "epsilon"}},
                                                  var, {{m, "m"}, {v, "v"}, {grad, "grad"}});
                !s.isOk())
                return s;
            return Form<T>::Updates::adam(ctx, var, m, v, ctx.input(3), ctx.input(4), ctx.input(5), ctx.input(6),
                                          ctx.input(7), ctx.input(8), grad, m_useNesterov);
        });
    }

private:
    bool m_useNesterov;
};

template <typename T, template <typename> class Form> class ApplyRMSPropOp : public Form<T> {
public:
    using Base = Form<T>;
    using Base::Base;

    Status compute(OpKernelContext& ctx) override
    {
        return this->run(ctx, {0, 1, 2}, [&](auto& vars) {
            Tensor& var = vars[0];
            Tensor& ms = vars[1];
            Tensor& mom = vars[2];
            const Tensor& grad = ctx.input(7);
            if (Status s = checkScalarsThenShapes(ctx, {{3, "lr", " : "}, {4, "rho"}, {5, "momentum"}, {6, "epsilon"}},
                                                  var, {{ms, "ms"}, {mom, "mom"}, {grad, "grad"}});
                !s.isOk())
                return s;
            return Base::Updates::rmsProp(ctx, var, ms, mom, ctx.input(3), ctx.input(4), ctx.input(5), ctx.input(6),
                                          grad);
        });
    }
};

template <typename T, template <typename> class Form> class ApplyCenteredRMSPropOp : public Form<T> {
public:
    using Base = Form<T>;
    using Base::Base;

    Status compute(OpKernelContext& ctx) override
    {
        return this->run(ctx, {0, 1, 2, 3}, [&](auto& vars) {
            Tensor& var = vars[0];
            Tensor& mg = vars[1];
            Tensor& ms = vars[2];
            Tensor& mom = vars[3];
            const Tensor& grad = ctx.input(8);
            // TensorFlow's message for a mismatched mg prints ms's shape after var's; kept as is.
            auto mgCheck = [&] {
                if (var.shape() == mg.shape())
                    return Status::ok();
                return invalidArgumentError("var and mg do not have the same shape" + var.shape().toString() + " " +
                                            ms.shape().toString());
            };
            if (Status s = firstError([&] { return requireScalar(ctx.input(4), "lr", " : "); },
                                      [&] { return requireScalar(ctx.input(5), "rho"); },
                                      [&] { return requireScalar(ctx.input(6), "momentum"); },
                                      [&] { return requireScalar(ctx.input(7), "epsilon"); }, mgCheck,
                                      [&] { return requireSameShape(var, ms, "ms"); },
                                      [&] { return requireSameShape(var, mom, "mom"); },
                                      [&] { return requireSameShape(var, grad, "grad"); });
                !s.isOk())
                return s;
            return Base::Updates::centeredRmsProp(ctx, var, mg, ms, mom, ctx.input(4), ctx.input(5), ctx.input(6),
                                                  ctx.input(7), grad);
        });
    }
};

template <typename T, template <typename> class Form> class ApplyAdagradOp : public Form<T> {
public:
    explicit ApplyAdagradOp(OpKernelConstruction& c) : Form<T>(c), m_updateSlots(this->boolAttr(c, "update_slots")) {}

    Status compute(OpKernelContext& ctx) override
    {
        return this->run(ctx, {0, 1}, [&](auto& vars) {
            Tensor& var = vars[0];
            Tensor& accum = vars[1];
            const Tensor& lr = ctx.input(2);
            const Tensor& grad = ctx.input(3);
            if (Status s = checkScalarsThenShapes(ctx, {{2, "lr"}}, var, {{accum, "accum"}, {grad, "grad"}}); !s.isOk())
                return s;
            return Form<T>::Updates::adagrad(ctx, var, accum, lr, grad, m_updateSlots);
        });
    }

private:
    bool m_updateSlots;
};

template <typename T, template <typename> class Form> class ApplyAdadeltaOp : public Form<T> {
public:
    using Base = Form<T>;
    using Base::Base;

    Status compute(OpKernelContext& ctx) override
    {
        return this->run(ctx, {0, 1, 2}, [&](auto& vars) {
            Tensor& var = vars[0];
            Tensor& accum = vars[1];
            Tensor& accumUpdate = vars[2];
            const Tensor& grad = ctx.input(6);
            if (Status s = checkScalarsThenShapes(ctx, {{3, "lr"}, {4, "rho"}, {5, "epsilon"}}, var,
                                                  {{accum, "accum"}, {grad, "grad"}, {accumUpdate, "accum_update"}});
                !s.isOk())
                return s;
            return Base::Updates::adadelta(ctx, var, accum, accumUpdate, ctx.input(3), ctx.input(4), ctx.input(5),
                                           grad);
        });
    }
};

template <typename T, template <typename> class Form> class ApplyFtrlOp : public Form<T> {
public:
    using Base = Form<T>;
    using Base::Base;

    Status compute(OpKernelContext& ctx) override
    {
        return this->run(ctx, {0, 1, 2}, [&](auto& vars) {
            Tensor& var = vars[0];
            Tensor& accum = vars[1];
            Tensor& linear = vars[2];
            const Tensor& grad = ctx.input(3);
            const Tensor& lr = ctx.input(4);
            const Tensor& l1 = ctx.input(5);
            const Tensor& l2 = ctx.input(6);
            const Tensor& lrPower = ctx.input(7);
            const T zero(0);
            // TensorFlow words these four checks by the value's condition but prints the shape.
            auto check = [](const Tensor& t, auto condition, const std::string& what) {
                if (t.rank() == 0 && condition(t.scalar<T>()))
                    return Status::ok();
                return invalidArgumentError(what + t.shape().toString());
            };
            if (Status s = firstError([&] { return requireSameShape(var, accum, "accum"); },
                                      [&] { return requireSameShape(var, linear, "linear"); },
                                      [&] { return requireSameShape(var, grad, "grad"); },
                                      [&] {
                                          return check(
                                              lr, [&](T x) { return x > zero; }, "lr is not a positive scalar: ");
                                      },
                                      [&] {
                                          return check(
                                              l1, [&](T x) { return x >= zero; },
                                              "l1 regularization strength is not a non-negative scalar: ");
                                      },
                                      [&] {
                                          return check(
                                              l2, [&](T x) { return x >= zero; },
                                              "l2 regularization strength is not a non-negative scalar: ");
                                      },
                                      [&] {
                                          return check(
                                              lrPower, [&](T x) { return x <= zero; },
                                              "lr_power is not a non-positive scalar: ");
                                      });
                !s.isOk())
                return s;
            return Base::Updates::ftrl(ctx, var, accum, linear, grad, lr, l1, l2, lrPower);
        });
    }
};

template <template <typename, template <typename> class> class Kernel, template <typename> class Form, typename... Ts>
Status addForTypes(KernelRegistry& registry, const std::string& deviceType, const std::string& op,
                   const std::vector<std::string>& hostArgs)
{
    Status status;
    ((status = status.isOk()
                   ? registry.add<Kernel<Ts, Form>>(KernelDef{op, deviceType, {{"T", {kDataTypeOf<Ts>}}}, hostArgs})
                   : status),
     ...);
    return status;
}

/// Registers the kernels of `Form` on `deviceType` as `<prefix>GradientDescent`, `<prefix>Momentum`,
/// `<prefix>Adam`, `<prefix>RMSProp`, `<prefix>CenteredRMSProp`, `<prefix>Adagrad`, `<prefix>Adadelta` and,
/// with `withFtrl`, `<prefix>Ftrl`, each for half, float and double (TensorFlow 1.15 registers both forms
/// together, with these dtypes; its GPU has no Ftrl kernel, whose checks read the hyper-parameters'
/// values). With `variablesInHostMemory` the variable inputs (the resource form's handles) are host memory.
template <template <typename> class Form>
Status addApplyKernels(KernelRegistry& registry, const std::string& deviceType, const std::string& prefix,
                       bool variablesInHostMemory, bool withFtrl = true)
{
    using Registration =
        Status (*)(KernelRegistry&, const std::string&, const std::string&, const std::vector<std::string>&);
    struct Entry {
        const char* op;
        Registration add;
        std::vector<std::string> variables;
    };
    const Entry kernels[] = {
        {"GradientDescent", addForTypes<ApplyGradientDescentOp, Form, Eigen::half, float, double>, {"var"}},
        {"Momentum", addForTypes<ApplyMomentumOp, Form, Eigen::half, float, double>, {"var", "accum"}},
        {"Adam", addForTypes<ApplyAdamOp, Form, Eigen::half, float, double>, {"var", "m", "v"}},
        {"RMSProp", addForTypes<ApplyRMSPropOp, Form, Eigen::half, float, double>, {"var", "ms", "mom"}},
        {"CenteredRMSProp",
         addForTypes<ApplyCenteredRMSPropOp, Form, Eigen::half, float, double>,
         {"var", "mg", "ms", "mom"}},
        {"Adagrad", addForTypes<ApplyAdagradOp, Form, Eigen::half, float, double>, {"var", "accum"}},
        {"Adadelta", addForTypes<ApplyAdadeltaOp, Form, Eigen::half, float, double>, {"var", "accum", "accum_update"}},
        {"Ftrl", addForTypes<ApplyFtrlOp, Form, Eigen::half, float, double>, {"var", "accum", "linear"}},
    };
    for (const Entry& e : kernels) {
        if (!withFtrl && std::string(e.op) == "Ftrl")
            continue;
        const std::vector<std::string> hostArgs = variablesInHostMemory ? e.variables : std::vector<std::string>{};
        if (Status s = e.add(registry, deviceType, prefix + e.op, hostArgs); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio::training
