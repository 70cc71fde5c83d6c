#!/usr/bin/python3
"""Reference values for tf.losses, tf.nn's cross entropies, the regularizers and tf.metrics,
computed with NumPy from the formulas TensorFlow 1.15 documents (never with TensorStudio).

Writes tests/data/golden/losses_metrics.json: {"cases": {name: {"arrays": {key: {"shape", "values"}},
"expected": {key: [values]}}}}; the tests under tests/engine/losses and tests/engine/metrics
build the graphs, feed the arrays and compare with the expected values.

Run with /usr/bin/python3 tools/golden/losses_metrics.py.
"""
import json
import os
import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "tests", "data", "golden", "losses_metrics.json")
rng = np.random.RandomState(20261121)
cases = {}


def arr(a):
    a = np.asarray(a)
    return {"shape": list(a.shape), "values": [float(x) for x in a.reshape(-1)]}


def add(name, arrays, expected):
    assert name not in cases
    cases[name] = {"arrays": {k: arr(v) for k, v in arrays.items()},
                   "expected": {k: [float(x) for x in np.asarray(v, dtype=np.float64).reshape(-1)]
                                for k, v in expected.items()}}


f32 = lambda a: np.asarray(a, dtype=np.float32)

# --- reductions of compute_weighted_loss ------------------------------------------------------------


def reduce(losses, weights, reduction):
    losses = losses.astype(np.float64)
    w = np.broadcast_to(np.asarray(weights, dtype=np.float64), losses.shape)
    weighted = losses * w
    total = weighted.sum()
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return total
    if reduction == "mean":
        d = w.sum()
    elif reduction == "sum_over_batch_size":
        d = losses.size
    else:  # sum_by_nonzero_weights
        d = np.count_nonzero(w)
    return 0.0 if d == 0 else total / d


def softmax_xent(labels, logits):
    z = logits.astype(np.float64)
    z = z - z.max(axis=-1, keepdims=True)
    log_sm = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return -(labels * log_sm).sum(axis=-1)


def sigmoid_xent(labels, logits):
    x = logits.astype(np.float64)
    # log(1 + exp(-x)) * z + log(1 + exp(x)) * (1 - z), written stably
    return np.logaddexp(0, -x) * labels + np.logaddexp(0, x) * (1 - labels)


labels = f32(rng.uniform(-2, 2, (3, 4)))
preds = f32(rng.uniform(-2, 2, (3, 4)))
add("mse_default", {"labels": labels, "predictions": preds},
    {"loss": reduce((preds - labels) ** 2, 1.0, "sum_by_nonzero_weights")})
w_rows = f32([[0.0], [2.0], [0.5]])
add("mse_row_weights_nonzero", {"labels": labels, "predictions": preds, "weights": w_rows},
    {"loss": reduce((preds - labels) ** 2, w_rows, "sum_by_nonzero_weights")})
w_full = f32(rng.uniform(0, 2, (3, 4)))
add("absdiff_mean", {"labels": labels, "predictions": preds, "weights": w_full},
    {"loss": reduce(np.abs(preds - labels), w_full, "mean")})
err = np.abs(preds.astype(np.float64) - labels)
q = np.minimum(err, 1.0)
add("huber_sum", {"labels": labels, "predictions": preds},
    {"loss": reduce(0.5 * q * q + 1.0 * (err - q), 2.0, "sum")})
q = np.minimum(err, 0.5)
add("huber_delta_none", {"labels": labels, "predictions": preds},
    {"loss": reduce(0.5 * q * q + 0.5 * (err - q), 1.0, "none")})

bin_labels = f32(rng.randint(0, 2, (4, 3)))
logits = f32(rng.uniform(-3, 3, (4, 3)))
add("hinge_batch_size", {"labels": bin_labels, "logits": logits},
    {"loss": reduce(np.maximum(0, 1 - (2 * bin_labels - 1) * logits), 1.0, "sum_over_batch_size")})
probs = f32(rng.uniform(0.02, 0.98, (4, 3)))
eps = 1e-7
ll = -bin_labels * np.log(probs.astype(np.float64) + eps) - (1 - bin_labels) * np.log(1 - probs.astype(np.float64) + eps)
add("log_loss_default", {"labels": bin_labels, "predictions": probs},
    {"loss": reduce(ll, 1.0, "sum_by_nonzero_weights")})

smooth = 0.1
sm_labels = bin_labels * (1 - smooth) + 0.5 * smooth
add("sigmoid_ce_smoothing", {"labels": bin_labels, "logits": logits},
    {"loss": reduce(sigmoid_xent(sm_labels, logits), 1.0, "sum_by_nonzero_weights")})
big = f32([[100.0, -100.0, 0.5], [-80.0, 60.0, -0.25]])
big_labels = f32([[1.0, 0.0, 0.3], [0.0, 1.0, 0.9]])
add("nn_sigmoid_ce_stable", {"labels": big_labels, "logits": big},
    {"loss": sigmoid_xent(big_labels, big)})

classes = 5
onehot = f32(np.eye(classes)[rng.randint(0, classes, 4)])
cls_logits = f32(rng.uniform(-3, 3, (4, classes)))
example_w = f32([1.0, 0.0, 2.0, 0.5])
smooth = 0.2
sm = onehot * (1 - smooth) + smooth / classes
add("softmax_ce_smoothing_weights", {"labels": onehot, "logits": cls_logits, "weights": example_w},
    {"loss": reduce(softmax_xent(sm, cls_logits), example_w, "sum_by_nonzero_weights")})
soft_labels = f32(rng.dirichlet(np.ones(3), (2, 2)))
logits3 = f32(rng.uniform(-2, 2, (2, 2, 3)))
add("nn_softmax_ce_v2_rank3", {"labels": soft_labels, "logits": logits3},
    {"loss": softmax_xent(soft_labels, logits3)})
ids = rng.randint(0, classes, 4)
add("sparse_softmax_ce", {"labels": ids.astype(np.float64), "logits": cls_logits},
    {"loss": reduce(softmax_xent(np.eye(classes)[ids], cls_logits), 1.0, "sum_by_nonzero_weights")})
ids3 = rng.randint(0, 3, (2, 2))
add("nn_sparse_softmax_ce_rank3", {"labels": ids3.astype(np.float64), "logits": logits3},
    {"loss": softmax_xent(np.eye(3)[ids3], logits3)})

weights_var = f32([[0.5, -1.5, 2.0], [-0.25, 1.0, -3.0]])
wv = weights_var.astype(np.float64)
add("regularizers", {"weights": weights_var},
    {"l1": 0.01 * np.abs(wv).sum(), "l2": 0.05 * (wv ** 2).sum() / 2,
     "l1_l2": 0.01 * np.abs(wv).sum() + 0.05 * (wv ** 2).sum() / 2, "l2_loss": (wv ** 2).sum() / 2})

# --- metrics: two update batches, then the value ----------------------------------------------------

v1, v2 = f32([1.0, 2.0, 3.0, 4.0]), f32([5.0, 6.0, 10.0, -1.0])
mw1, mw2 = f32([1.0, 0.0, 2.0, 1.0]), f32([0.5, 0.5, 0.0, 1.0])
add("metric_mean", {"values1": v1, "values2": v2, "weights1": mw1, "weights2": mw2},
    {"update1": [v1.mean()], "update2": [np.concatenate([v1, v2]).mean()],
     "weighted_update1": [(v1 * mw1).sum() / mw1.sum()],
     "weighted_update2": [((v1 * mw1).sum() + (v2 * mw2).sum()) / (mw1.sum() + mw2.sum())]})

l1, p1 = f32([1, 2, 3, 4]), f32([1, 2, 0, 4])
l2, p2 = f32([5, 5, 0, 1]), f32([5, 0, 0, 0])
aw1, aw2 = f32([1, 1, 3, 0]), f32([2, 1, 1, 1])
c1, c2 = (l1 == p1).astype(np.float64), (l2 == p2).astype(np.float64)
add("metric_accuracy", {"labels1": l1, "predictions1": p1, "labels2": l2, "predictions2": p2,
                        "weights1": aw1, "weights2": aw2},
    {"update1": [c1.mean()], "update2": [np.concatenate([c1, c2]).mean()],
     "weighted_update2": [((c1 * aw1).sum() + (c2 * aw2).sum()) / (aw1.sum() + aw2.sum())]})

rl1, rp1 = f32(rng.uniform(-1, 1, (2, 3))), f32(rng.uniform(-1, 1, (2, 3)))
rl2, rp2 = f32(rng.uniform(-1, 1, (2, 3))), f32(rng.uniform(-1, 1, (2, 3)))
rw1, rw2 = f32([[1.0], [0.0]]), f32([[2.0], [1.0]])
e1, e2 = rp1.astype(np.float64) - rl1, rp2.astype(np.float64) - rl2
W1, W2 = np.broadcast_to(rw1, e1.shape), np.broadcast_to(rw2, e2.shape)
mae = (np.abs(e1) * W1).sum() + (np.abs(e2) * W2).sum()
mse = (e1 ** 2 * W1).sum() + (e2 ** 2 * W2).sum()
wsum = W1.sum() + W2.sum()
add("metric_errors", {"labels1": rl1, "predictions1": rp1, "labels2": rl2, "predictions2": rp2,
                      "weights1": rw1, "weights2": rw2},
    {"mae": [mae / wsum], "mse": [mse / wsum], "rmse": [np.sqrt(mse / wsum)],
     "mse_unweighted": [np.concatenate([e1, e2]).reshape(-1).__pow__(2).mean()]})

bl1, bp1 = np.array([1, 1, 0, 0, 1, 0]), np.array([1, 0, 1, 0, 1, 1])
bl2, bp2 = np.array([0, 1, 1, 1]), np.array([0, 1, 0, 1])
bw1, bw2 = f32([1, 2, 1, 1, 0, 3]), f32([1, 1, 2, 0.5])


def counts(l, p, w=None):
    w = np.ones(len(l)) if w is None else w
    tp = ((l == 1) & (p == 1)) * w
    fp = ((l == 0) & (p == 1)) * w
    fn = ((l == 1) & (p == 0)) * w
    return tp.sum(), fp.sum(), fn.sum()


tp1, fp1, fn1 = counts(bl1, bp1)
tp2, fp2, fn2 = counts(bl2, bp2)
wtp1, wfp1, wfn1 = counts(bl1, bp1, bw1)
wtp2, wfp2, wfn2 = counts(bl2, bp2, bw2)
add("metric_precision_recall", {"labels1": bl1, "predictions1": bp1, "labels2": bl2, "predictions2": bp2,
                                "weights1": bw1, "weights2": bw2},
    {"precision1": [tp1 / (tp1 + fp1)], "precision2": [(tp1 + tp2) / (tp1 + tp2 + fp1 + fp2)],
     "recall1": [tp1 / (tp1 + fn1)], "recall2": [(tp1 + tp2) / (tp1 + tp2 + fn1 + fn2)],
     "weighted_precision2": [(wtp1 + wtp2) / (wtp1 + wtp2 + wfp1 + wfp2)],
     "weighted_recall2": [(wtp1 + wtp2) / (wtp1 + wtp2 + wfn1 + wfn2)]})


def auc(batches, n=200, curve="ROC", summation="trapezoidal"):
    """The thresholded AUC of tf.metrics.auc in float32 counts, float32 arithmetic as TF's graph."""
    th = [0.0 - 1e-7] + [(i + 1) * 1.0 / (n - 1) for i in range(n - 2)] + [1.0 + 1e-7]
    th = np.asarray(th, dtype=np.float32)
    tp = np.zeros(n, np.float32); fn = np.zeros(n, np.float32)
    tn = np.zeros(n, np.float32); fp = np.zeros(n, np.float32)
    for labels, preds, w in batches:
        w = np.ones(len(preds), np.float32) if w is None else w
        pos = preds[None, :] > th[:, None]
        lab = labels[None, :].astype(bool)
        tp += ((lab & pos) * w).sum(axis=1, dtype=np.float32)
        fn += ((lab & ~pos) * w).sum(axis=1, dtype=np.float32)
        tn += ((~lab & ~pos) * w).sum(axis=1, dtype=np.float32)
        fp += ((~lab & pos) * w).sum(axis=1, dtype=np.float32)
    e = np.float32(1e-6)
    rec = (tp + e) / (tp + fn + e)
    if curve == "ROC":
        x, y = fp / (fp + tn + e), rec
    else:
        x, y = rec, (tp + e) / (tp + fp + e)
    dx = x[:n - 1] - x[1:]
    if summation == "trapezoidal":
        h = (y[:n - 1] + y[1:]) / np.float32(2.0)
    elif summation == "minoring":
        h = np.minimum(y[:n - 1], y[1:])
    else:
        h = np.maximum(y[:n - 1], y[1:])
    return float((dx * h).astype(np.float64).sum())


al1, ap1 = rng.randint(0, 2, 8), f32(rng.uniform(0, 1, 8))
al2, ap2 = rng.randint(0, 2, 8), f32(rng.uniform(0, 1, 8))
aw1 = f32(rng.uniform(0, 2, 8))
aw2 = f32(rng.uniform(0, 2, 8))
add("metric_auc", {"labels1": al1, "predictions1": ap1, "labels2": al2, "predictions2": ap2,
                   "weights1": aw1, "weights2": aw2},
    {"roc1": [auc([(al1, ap1, None)])], "roc2": [auc([(al1, ap1, None), (al2, ap2, None)])],
     "pr2": [auc([(al1, ap1, None), (al2, ap2, None)], curve="PR")],
     "roc_minoring2": [auc([(al1, ap1, None), (al2, ap2, None)], summation="minoring")],
     "roc_weighted2": [auc([(al1, ap1, aw1), (al2, ap2, aw2)])],
     "roc_n10": [auc([(al1, ap1, None)], n=10)],
     "roc_n10_2": [auc([(al1, ap1, None), (al2, ap2, None)], n=10)]})

# Batches of different sizes (the batch dimension unknown while building).
rl1, rp1 = rng.randint(0, 2, 7), f32(rng.uniform(0, 1, 7))
rl2, rp2 = rng.randint(0, 2, 4), f32(rng.uniform(0, 1, 4))
add("metric_auc_ragged", {"labels1": rl1, "predictions1": rp1, "labels2": rl2, "predictions2": rp2},
    {"roc1": [auc([(rl1, rp1, None)])], "roc2": [auc([(rl1, rp1, None), (rl2, rp2, None)])]})

# --- mean_iou, mean_relative_error, mean_cosine_distance, percentage_below, *_at_* --------------------

def confusion(labels, predictions, n, w=None):
    cm = np.zeros((n, n), np.float64)
    w = np.ones(len(labels)) if w is None else w
    np.add.at(cm, (labels, predictions), w)
    return cm


def mean_iou(cm):
    rows, cols, diag = cm.sum(0).astype(np.float32), cm.sum(1).astype(np.float32), np.diag(cm).astype(np.float32)
    den = rows + cols - diag
    valid = np.float32((den != 0).sum())
    iou = diag / np.where(den > 0, den, np.float32(1))
    return float(iou.sum() / valid) if valid > 0 else 0.0


il1, ip1 = rng.randint(0, 4, (2, 3)), rng.randint(0, 4, (2, 3))
il2, ip2 = rng.randint(0, 3, (2, 3)), rng.randint(0, 3, (2, 3))
iw1, iw2 = f32(rng.uniform(0, 2, (2, 3))), f32(rng.uniform(0, 2, (2, 3)))
cm1 = confusion(il1.reshape(-1), ip1.reshape(-1), 5)
cm2 = cm1 + confusion(il2.reshape(-1), ip2.reshape(-1), 5)
wcm2 = confusion(il1.reshape(-1), ip1.reshape(-1), 5, iw1.reshape(-1)) + \
    confusion(il2.reshape(-1), ip2.reshape(-1), 5, iw2.reshape(-1))
add("metric_mean_iou", {"labels1": il1, "predictions1": ip1, "labels2": il2, "predictions2": ip2,
                        "weights1": iw1, "weights2": iw2},
    {"cm1": cm1, "cm2": cm2, "iou1": [mean_iou(cm1)], "iou2": [mean_iou(cm2)], "weighted_cm2": wcm2,
     "weighted_iou2": [mean_iou(wcm2)]})

rel1, rep1 = f32(rng.uniform(-2, 2, (3, 2))), f32(rng.uniform(-2, 2, (3, 2)))
rel2, rep2 = f32(rng.uniform(-2, 2, (3, 2))), f32(rng.uniform(-2, 2, (3, 2)))
rnorm = f32([[1.5, 0.0], [2.0, 0.5], [0.0, 3.0]])
rw1, rw2 = f32([1, 2, 0.5]), f32([0, 1, 3])


def relative(l, p):
    return np.where(rnorm == 0, 0.0, np.abs(l.astype(np.float64) - p) / np.where(rnorm == 0, 1, rnorm))


re1, re2 = relative(rel1, rep1), relative(rel2, rep2)
RW1, RW2 = np.broadcast_to(rw1[:, None], re1.shape), np.broadcast_to(rw2[:, None], re2.shape)
add("metric_relative_error", {"labels1": rel1, "predictions1": rep1, "labels2": rel2, "predictions2": rep2,
                              "normalizer": rnorm, "weights1": rw1, "weights2": rw2},
    {"update1": [re1.mean()], "update2": [np.concatenate([re1, re2]).mean()],
     "weighted2": [((re1 * RW1).sum() + (re2 * RW2).sum()) / (RW1.sum() + RW2.sum())]})


def unit(a):
    return (a / np.linalg.norm(a, axis=1, keepdims=True)).astype(np.float32)


cl1, cp1 = unit(rng.uniform(-1, 1, (4, 3))), unit(rng.uniform(-1, 1, (4, 3)))
cl2, cp2 = unit(rng.uniform(-1, 1, (2, 3))), unit(rng.uniform(-1, 1, (2, 3)))
cw1, cw2 = f32([[1], [0], [2], [1]]), f32([[0.5], [3]])
cd1, cd2 = (cl1.astype(np.float64) * cp1).sum(1), (cl2.astype(np.float64) * cp2).sum(1)
add("metric_cosine_distance", {"labels1": cl1, "predictions1": cp1, "labels2": cl2, "predictions2": cp2,
                               "weights1": cw1, "weights2": cw2},
    {"update1": [1 - cd1.mean()], "update2": [1 - np.concatenate([cd1, cd2]).mean()],
     "weighted2": [1 - ((cd1 * cw1[:, 0]).sum() + (cd2 * cw2[:, 0]).sum()) / (cw1.sum() + cw2.sum())]})

pv1, pv2 = f32(rng.uniform(0, 1, (2, 4))), f32(rng.uniform(0, 1, (2, 4)))
pw1, pw2 = f32(rng.uniform(0, 2, (2, 4))), f32(rng.uniform(0, 2, (2, 4)))
below1, below2 = (pv1 < 0.4).astype(np.float64), (pv2 < 0.4).astype(np.float64)
add("metric_percentage_below", {"values1": pv1, "values2": pv2, "weights1": pw1, "weights2": pw2},
    {"update1": [below1.mean()], "update2": [np.concatenate([below1, below2]).mean()],
     "weighted2": [((below1 * pw1).sum() + (below2 * pw2).sum()) / (pw1.sum() + pw2.sum())]})


def at_thresholds(batches, n=200):
    """tp, fn, tn, fp at tf.metrics' thresholds, float32 counts (kepsilon 1e-7)."""
    th = np.asarray([0.0 - 1e-7] + [(i + 1) * 1.0 / (n - 1) for i in range(n - 2)] + [1.0 + 1e-7], np.float32)
    counts = [np.zeros(n, np.float32) for _ in range(4)]
    for labels, preds, w in batches:
        w = np.ones(len(preds), np.float32) if w is None else w
        pos = preds[None, :] > th[:, None]
        lab = labels[None, :].astype(bool)
        for k, cond in enumerate([lab & pos, lab & ~pos, ~lab & ~pos, ~lab & pos]):
            counts[k] += (cond * w).sum(axis=1, dtype=np.float32)
    return counts


def sensitivity_at_specificity(batches, specificity, n=200):
    tp, fn, tn, fp = at_thresholds(batches, n)
    e = np.float32(1e-7)
    spec = tn / (tn + fp + e)
    i = int(np.argmin(np.abs(spec - np.float32(specificity))))  # the first on ties
    return float(tp[i] / (tp[i] + fn[i] + e))


def specificity_at_sensitivity(batches, sensitivity, n=200):
    tp, fn, tn, fp = at_thresholds(batches, n)
    e = np.float32(1e-7)
    sens = tp / (tp + fn + e)
    d = np.abs(sens - np.float32(sensitivity))
    i = int(np.nonzero(d == d.min())[0][-1])  # the last on ties
    return float(tn[i] / (tn[i] + fp[i] + e))


# Predictions that lean towards the labels, so that the rates move with the threshold.
sl1, sl2 = rng.randint(0, 2, 10), rng.randint(0, 2, 10)
sp1, sp2 = f32(0.35 * sl1 + rng.uniform(0, 0.65, 10)), f32(0.35 * sl2 + rng.uniform(0, 0.65, 10))
sw1, sw2 = f32(rng.uniform(0, 2, 10)), f32(rng.uniform(0, 2, 10))
one = [(sl1, sp1, None)]
both = [(sl1, sp1, None), (sl2, sp2, None)]
weighted = [(sl1, sp1, sw1), (sl2, sp2, sw2)]
add("metric_at_rates", {"labels1": sl1, "predictions1": sp1, "labels2": sl2, "predictions2": sp2,
                        "weights1": sw1, "weights2": sw2},
    {"sens_at_spec_1": [sensitivity_at_specificity(one, 0.95)],
     "sens_at_spec_2": [sensitivity_at_specificity(both, 0.95)],
     "sens_at_spec_weighted2": [sensitivity_at_specificity(weighted, 0.9)],
     "sens_at_spec_n10_2": [sensitivity_at_specificity(both, 0.97, 10)],
     "spec_at_sens_1": [specificity_at_sensitivity(one, 0.95)],
     "spec_at_sens_2": [specificity_at_sensitivity(both, 0.95)],
     "spec_at_sens_weighted2": [specificity_at_sensitivity(weighted, 0.9)],
     "spec_at_sens_n10_2": [specificity_at_sensitivity(both, 0.97, 10)]})

# --- sampled losses (nn_impl.py: nce_loss, sampled_softmax_loss) --------------------------------------
# The sampler's outputs are given (sampled_values), so the values are fixed; logits as
# _compute_sampled_logits builds them, then sigmoid / softmax cross entropy.
srng = np.random.RandomState(20261127)


def sampled_logits(w, bias, labels, x, sampled, true_q, sampled_q, remove_hits):
    w, bias, x = w.astype(np.float64), bias.astype(np.float64), x.astype(np.float64)
    num_true = labels.shape[1]
    true_logits = np.einsum("bd,btd->bt", x, w[labels]) + bias[labels] - np.log(true_q.astype(np.float64))
    s_logits = x @ w[sampled].T + bias[sampled]
    if remove_hits:
        position = {int(c): j for j, c in enumerate(sampled)}  # the last position of a repeated class
        for i in range(labels.shape[0]):
            for c in labels[i]:
                if int(c) in position:
                    s_logits[i, position[int(c)]] += -np.finfo(np.float32).max
    s_logits = s_logits - np.log(sampled_q.astype(np.float64))
    logits = np.concatenate([true_logits, s_logits], 1)
    targets = np.concatenate([np.full(true_logits.shape, 1.0 / num_true), np.zeros(s_logits.shape)], 1)
    return logits, targets


def sigmoid(z):
    with np.errstate(over="ignore"):  # exp(FLT_MAX) is inf: the sigmoid of a removed hit is 0
        return 1.0 / (1.0 + np.exp(-z))


def nce(logits, targets):
    loss = np.maximum(logits, 0) - logits * targets + np.log1p(np.exp(-np.abs(logits)))
    return loss.sum(1), sigmoid(logits) - targets


def sampled_softmax(logits, targets):
    shifted = logits - logits.max(1, keepdims=True)
    log_softmax = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
    return -(targets * log_softmax).sum(1), np.exp(log_softmax) - targets


def input_grad(dlogits, w, labels, sampled):
    """d sum(loss) / d inputs: each logit is inputs . w[class] (+ terms without inputs)."""
    w = w.astype(np.float64)
    num_true = labels.shape[1]
    g = np.einsum("bt,btd->bd", dlogits[:, :num_true], w[labels])
    return g + dlogits[:, num_true:] @ w[sampled]


for name, labels, sampled in [("sampled_true1", np.array([[1], [4], [7]]), np.array([2, 4, 9, 0])),
                              ("sampled_true2", np.array([[1, 3], [4, 0], [7, 7]]), np.array([2, 3, 5, 9, 3]))]:
    w = f32(srng.normal(0, 1, [10, 4]))
    bias = f32(srng.normal(0, 0.5, [10]))
    x = f32(srng.normal(0, 1, [3, 4]))
    true_q = f32(srng.uniform(0.05, 0.9, labels.shape))
    sampled_q = f32(srng.uniform(0.05, 0.9, sampled.shape))
    expected = {}
    for key, fn, hits in [("nce", nce, False), ("nce_hits", nce, True), ("softmax", sampled_softmax, True),
                          ("softmax_no_hits", sampled_softmax, False)]:
        logits, targets = sampled_logits(w, bias, labels, x, sampled, true_q, sampled_q, hits)
        loss, dlogits = fn(logits, targets)
        expected[key] = loss
        expected[key + "_dinputs"] = input_grad(dlogits, w, labels, sampled)
    add(name, {"weights": w, "biases": bias, "labels": labels, "inputs": x, "sampled": sampled,
               "true_expected_count": true_q, "sampled_expected_count": sampled_q}, expected)

# --- sequence losses (contrib.seq2seq.sequence_loss, contrib.legacy_seq2seq) ---------------------------
logits = f32(srng.normal(0, 1.5, [2, 3, 5]))
targets = srng.randint(0, 5, [2, 3])
weights = f32([[1.0, 0.5, 0.0], [2.0, 1.0, 1.0]])
lse = np.log(np.exp(logits.astype(np.float64)).sum(2))
xent = lse - np.take_along_axis(logits.astype(np.float64), targets[..., None], 2)[..., 0]
wx = xent * weights
nonzero = (weights != 0).astype(np.float64)
per_example = wx.sum(1) / (weights.astype(np.float64).sum(1) + 1e-12)
add("sequence_loss", {"logits": logits, "targets": targets, "weights": weights},
    {"mean": [wx.sum() / weights.sum()],
     "sum_sum": [wx.sum() / nonzero.sum()],
     "avg_time": wx.sum(1) / weights.sum(1),
     "avg_batch": wx.sum(0) / weights.sum(0),
     "sum_time": wx.sum(1) / nonzero.sum(1),
     "sum_batch": wx.sum(0) / nonzero.sum(0),
     "none": wx,
     "by_example": per_example,
     "by_example_sum": wx.sum(1),
     "legacy": [per_example.sum() / 2],
     "legacy_no_batch_avg": [per_example.sum()]})

with open(OUT, "w") as f:
    json.dump({"generator": "tools/golden/losses_metrics.py", "numpy": np.__version__, "cases": cases}, f,
              indent=1)
    f.write("\n")
print(f"losses_metrics: {len(cases)} cases")
