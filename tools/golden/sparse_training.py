#!/usr/bin/python3
"""Golden values for the sparse updates (tests/engine/training/test_sparse_updates.cpp), NumPy only.

1. Kernel cases: Scatter{Update,Add,Sub,Mul,Div} and SparseApply{Momentum,Adagrad,RMSProp,
   CenteredRMSProp} on a [5, 3] float32 variable with repeated indices, processed one index after
   the other in the order given (TensorFlow's CPU kernels), in float64 then rounded to float32.
2. Embedding training: a 1000 x 16 table t[i, j] = float32(0.5 * sin(0.37 * i + 0.11 * j)),
   ids [2, 5] with repeats, loss = 0.5 * sum((lookup(ids) - target)^2), three steps of each
   optimizer as TensorFlow 1.15 applies IndexedSlices (repeats summed first, GradientDescent via
   ScatterSub, Adam's dense decay then scatter_add). Only the rows looked up are stored.
3. Adam and LazyAdam (tf.contrib.opt.LazyAdamOptimizer) on the same table when the ids change from
   step to step: Adam decays every row's moments every step (so a row looked up once keeps moving),
   LazyAdam updates the moments and values of the rows a step looks up, and nothing else.
Writes tests/data/golden/sparse_training.json. Run: /usr/bin/python3 tools/golden/sparse_training.py
"""
import json
import os
import numpy as np

from golden import GOLDEN

rng = np.random.RandomState(20261129)
ROWS, COLS = 5, 3
INDICES = [1, 3, 1, 0, 3, 1]


def var_init(scale=1.0, offset=0.0):
    return (rng.uniform(-1, 1, size=(ROWS, COLS)) * scale + offset).astype(np.float32)


def f32(a):
    return np.asarray(a, dtype=np.float32)


def flat(a):
    return [float(x) for x in np.asarray(a, dtype=np.float64).ravel()]


cases = []


def add_case(op, variables, others, expected, attrs=None, error=None):
    cases.append({"op": op, "variables": [{"shape": list(v.shape), "values": flat(v)} for v in variables],
                  "inputs": others, "expected": [flat(e) for e in expected], "attrs": attrs or {}})


def tensor(kind, a):
    a = np.asarray(a)
    return {"kind": kind, "shape": list(a.shape), "values": [float(x) for x in a.ravel()]}


idx = np.array(INDICES, dtype=np.int32)
n = len(INDICES)

# Scatter*: updates [n, COLS].
for name, fn in [("Update", lambda p, u: u), ("Add", lambda p, u: p + u), ("Sub", lambda p, u: p - u),
                 ("Mul", lambda p, u: p * u), ("Div", lambda p, u: p / u)]:
    var = var_init()
    upd = f32(rng.uniform(0.5, 2.0, size=(n, COLS)) * rng.choice([-1, 1], size=(n, COLS)))
    out = var.copy()
    for i, r in enumerate(INDICES):
        out[r] = f32(fn(out[r].astype(np.float64), upd[i].astype(np.float64)))
    add_case("Scatter" + name, [var], [tensor("i32", idx), tensor("f32", upd)], [out])
# A scalar update applies to every named row.
var = var_init()
out = var.copy()
for r in INDICES:
    out[r] = f32(out[r].astype(np.float64) + 0.5)
add_case("ScatterAdd", [var], [tensor("i32", idx), tensor("f32", np.float32(0.5))], [out])

grad = f32(rng.uniform(-1, 1, size=(n, COLS)))

# SparseApplyMomentum(var, accum, lr, grad, indices, momentum).
for nesterov in (False, True):
    var, acc = var_init(), var_init(0.5)
    lr, mom = 0.1, 0.9
    v, a = var.astype(np.float64), acc.astype(np.float64)
    for i, r in enumerate(INDICES):
        g = grad[i].astype(np.float64)
        a[r] = a[r] * mom + g
        v[r] = v[r] - (g * lr + a[r] * mom * lr) if nesterov else v[r] - lr * a[r]
    add_case("SparseApplyMomentum", [var, acc],
             [tensor("f32", np.float32(lr)), tensor("f32", grad), tensor("i32", idx), tensor("f32", np.float32(mom))],
             [f32(v), f32(a)], {"use_nesterov": nesterov})

# SparseApplyAdagrad(var, accum, lr, grad, indices).
var, acc = var_init(), var_init(0.2, 0.5)
lr = 0.1
v, a = var.astype(np.float64), acc.astype(np.float64)
for i, r in enumerate(INDICES):
    g = grad[i].astype(np.float64)
    a[r] += g * g
    v[r] -= lr * g / np.sqrt(a[r])
add_case("SparseApplyAdagrad", [var, acc],
         [tensor("f32", np.float32(lr)), tensor("f32", grad), tensor("i32", idx)], [f32(v), f32(a)])

# SparseApplyRMSProp(var, ms, mom, lr, rho, momentum, epsilon, grad, indices).
var, ms, mo = var_init(), var_init(0.2, 0.5), var_init(0.1)
lr, rho, momentum, eps = 0.01, 0.9, 0.5, 1e-7
v, s, m = var.astype(np.float64), ms.astype(np.float64), mo.astype(np.float64)
for i, r in enumerate(INDICES):
    g = grad[i].astype(np.float64)
    s[r] = s[r] * rho + g * g * (1 - rho)
    m[r] = m[r] * momentum + lr * g / np.sqrt(s[r] + eps)
    v[r] -= m[r]
scalars = [tensor("f32", np.float32(x)) for x in (lr, rho, momentum, eps)]
add_case("SparseApplyRMSProp", [var, ms, mo], scalars + [tensor("f32", grad), tensor("i32", idx)],
         [f32(v), f32(s), f32(m)])

# SparseApplyCenteredRMSProp(var, mg, ms, mom, lr, rho, momentum, epsilon, grad, indices).
var, mg, ms, mo = var_init(), var_init(0.1), var_init(0.2, 0.5), var_init(0.1)
v, g1, s, m = (x.astype(np.float64) for x in (var, mg, ms, mo))
for i, r in enumerate(INDICES):
    g = grad[i].astype(np.float64)
    s[r] = s[r] * rho + g * g * (1 - rho)
    g1[r] = g1[r] * rho + g * (1 - rho)
    m[r] = m[r] * momentum + lr * g / np.sqrt(s[r] - g1[r] * g1[r] + eps)
    v[r] -= m[r]
add_case("SparseApplyCenteredRMSProp", [var, mg, ms, mo], scalars + [tensor("f32", grad), tensor("i32", idx)],
         [f32(v), f32(g1), f32(s), f32(m)])

# --- Embedding training ---------------------------------------------------------------------------
VOCAB, DIM, STEPS = 1000, 16, 3
ids = np.array([[3, 17, 999, 3, 500], [17, 0, 3, 42, 998]], dtype=np.int32)
i_, j_ = np.meshgrid(np.arange(VOCAB), np.arange(DIM), indexing="ij")
table0 = (0.5 * np.sin(0.37 * i_ + 0.11 * j_)).astype(np.float32)
k_ = np.arange(ids.size * DIM).reshape(ids.shape + (DIM,))
target = (0.25 * np.cos(0.3 * k_)).astype(np.float32)
unique = sorted(set(ids.ravel().tolist()))


def summed_grad(table, step_ids=ids):
    g = table[step_ids].astype(np.float64) - target.astype(np.float64)  # d loss / d lookup
    out = np.zeros((VOCAB, DIM))
    np.add.at(out, step_ids.ravel(), g.reshape(-1, DIM))
    return out


def train(update):
    table = table0.astype(np.float64)
    state = {}
    for step in range(STEPS):
        g = summed_grad(f32(table))
        update(table, g, state, step)
        table = f32(table).astype(np.float64)
    return f32(table)


def sgd(t, g, st, step):
    t[unique] -= 0.1 * g[unique]


def momentum_update(t, g, st, step):
    a = st.setdefault("a", np.zeros_like(t))
    a[unique] = a[unique] * 0.9 + g[unique]
    t[unique] -= 0.1 * a[unique]


def adagrad(t, g, st, step):
    a = st.setdefault("a", np.full_like(t, 0.1))
    a[unique] += g[unique] ** 2
    t[unique] -= 0.1 * g[unique] / np.sqrt(a[unique])


def rmsprop(t, g, st, step):
    ms = st.setdefault("ms", np.ones_like(t))
    mo = st.setdefault("mo", np.zeros_like(t))
    ms[unique] = ms[unique] * 0.9 + g[unique] ** 2 * 0.1
    mo[unique] = mo[unique] * 0.0 + 0.01 * g[unique] / np.sqrt(ms[unique] + 1e-10)
    t[unique] -= mo[unique]


def adam(t, g, st, step):
    m = st.setdefault("m", np.zeros_like(t))
    v = st.setdefault("v", np.zeros_like(t))
    b1p, b2p = 0.9 ** (step + 1), 0.999 ** (step + 1)
    lr = 0.01 * np.sqrt(1 - b2p) / (1 - b1p)
    m *= 0.9
    m[unique] += 0.1 * g[unique]
    v *= 0.999
    v[unique] += 0.001 * g[unique] ** 2
    t -= lr * m / (np.sqrt(v) + 1e-8)


training = {}
for name, fn in [("sgd", sgd), ("momentum", momentum_update), ("adagrad", adagrad), ("rmsprop", rmsprop),
                 ("adam", adam)]:
    final = train(fn)
    training[name] = {"rows": unique, "values": [flat(final[r]) for r in unique]}

# --- Adam and LazyAdam with ids that change between steps ------------------------------------------
VARYING_IDS = [ids, np.array([[3, 7, 7, 250, 500], [1, 17, 998, 999, 0]], dtype=np.int32), ids]
varying_rows = sorted(set(np.concatenate([s.ravel() for s in VARYING_IDS]).tolist()))


def adam_varying(lazy):
    table = table0.astype(np.float64)
    m = np.zeros_like(table)
    v = np.zeros_like(table)
    for step, step_ids in enumerate(VARYING_IDS):
        g = summed_grad(f32(table), step_ids)
        u = sorted(set(step_ids.ravel().tolist()))
        b1p, b2p = 0.9 ** (step + 1), 0.999 ** (step + 1)
        lr = 0.01 * np.sqrt(1 - b2p) / (1 - b1p)
        if lazy:
            m[u] = 0.9 * m[u] + 0.1 * g[u]
            v[u] = 0.999 * v[u] + 0.001 * g[u] ** 2
            table[u] -= lr * m[u] / (np.sqrt(v[u]) + 1e-8)
        else:
            m *= 0.9
            m[u] += 0.1 * g[u]
            v *= 0.999
            v[u] += 0.001 * g[u] ** 2
            table -= lr * m / (np.sqrt(v) + 1e-8)
        table = f32(table).astype(np.float64)
    return f32(table)


varying = {"ids": [flat(s) for s in VARYING_IDS], "rows": varying_rows, "training": {}}
for name, lazy in [("adam", False), ("lazy_adam", True)]:
    final = adam_varying(lazy)
    varying["training"][name] = [flat(final[r]) for r in varying_rows]

doc = {"rtol": 1e-5, "atol": 1e-6, "cases": cases,
       "embedding": {"vocab": VOCAB, "dim": DIM, "steps": STEPS, "ids": ids.ravel().tolist(),
                     "ids_shape": list(ids.shape), "target": flat(target), "training": training,
                     "varying": varying}}
with open(os.path.join(GOLDEN, "sparse_training.json"), "w") as f:
    json.dump(doc, f, indent=0)
    f.write("\n")
print("wrote", len(cases), "kernel cases and", len(training), "training runs")
