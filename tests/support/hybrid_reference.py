#!/usr/bin/env python3
"""TFLite's hybrid kernels (float32 activations, int8 weights) worked through
in float32, one rounding per step, independently of Loupe's C++: the oracle
for the exact values the hybrid tests expect (tests/codegen/hybrid_*_test.cpp).

Every float32 step is computed in double and rounded to float32, which gives
the correctly rounded float32 result for +, -, * and / (double has more than
2 x 24 + 2 bits). Run it to print the tests' expected values:

    python3 tests/support/hybrid_reference.py
"""
import ctypes
import ctypes.util
import math
import os
import re
import struct

# The C library's expf and tanhf, which TFLite's LSTM calls (std::exp and
# std::tanh on floats) and Loupe's generated code links.
_libm = ctypes.CDLL(ctypes.util.find_library("m"))
_libm.expf.restype = _libm.tanhf.restype = ctypes.c_float
_libm.expf.argtypes = _libm.tanhf.argtypes = [ctypes.c_float]


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def round_half_away(x):
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


def symmetric(row):
    """SymmetricQuantizeFloats: scale, zero point 0 and the int8 values."""
    lo, hi = min(row), max(row)
    rng = max(abs(lo), abs(hi))
    if rng == 0:
        return 1.0, 0, [0] * len(row)
    scale = f32(rng / 127.0)
    inverse = f32(127.0 / rng)
    q = [max(-127, min(127, int(round_half_away(f32(x * inverse))))) for x in row]
    return scale, 0, q


def asymmetric(row):
    """AsymmetricQuantizeFloats: the scale and zero point in double, as TFLite."""
    lo, hi = min(row), max(row)
    rmin, rmax = min(lo, 0.0), max(hi, 0.0)
    if rmin == rmax:
        return 1.0, 0, [0] * len(row)
    scale_d = (rmax - rmin) / 255.0
    from_min = -128.0 - rmin / scale_d
    from_max = 127.0 - rmax / scale_d
    zp = from_min if (128.0 + abs(rmin / scale_d)) < (127.0 + abs(rmax / scale_d)) else from_max
    offset = -128 if zp <= -128 else (127 if zp >= 127 else int(round_half_away(zp)))
    scale = f32(scale_d)
    inverse = f32(1.0 / scale)
    q = [max(-128, min(127, int(round_half_away(f32(offset + f32(x * inverse)))))) for x in row]
    return scale, offset, q


def quantize_filter(values, rows):
    """Each row of `values` quantised symmetrically: round(f * 127 / max|row|)."""
    depth = len(values) // rows
    scales, q = [], []
    for r in range(rows):
        row = values[r * depth:(r + 1) * depth]
        top = max(abs(v) for v in row)
        scales.append(f32(top / 127.0))
        q += [int(round_half_away(v * 127.0 / top)) for v in row]
    return scales, q


def clamp_max_min(v, lo, hi):
    v = lo if v < lo else v
    return hi if hi < v else v


def conv2d(inp, in_shape, filt, f_shape, scales, bias, stride, pad, dilation=(1, 1),
           act=(-3.4028234663852886e38, 3.4028234663852886e38), out_size=None):
    """optimized_ops::HybridConv (one scale) or HybridConvPerChannel."""
    n_b, h, w, d = in_shape
    oc, kh, kw, _ = f_shape
    (sh, sw), (ph, pw), (dh, dw) = stride, pad, dilation
    per_channel = any(s != scales[0] for s in scales)
    oh = (h + 2 * ph - ((kh - 1) * dh + 1)) // sh + 1
    ow = (w + 2 * pw - ((kw - 1) * dw + 1)) // sw + 1
    if out_size:
        oh, ow = out_size
    out = []
    size = h * w * d
    for n in range(n_b):
        row = inp[n * size:(n + 1) * size]
        scale, offset, q = asymmetric(row) if per_channel else symmetric(row)
        batch_scale = scale if per_channel else f32(scale * scales[0])
        for oy in range(oh):
            for ox in range(ow):
                for c in range(oc):
                    acc = 0
                    for ky in range(kh):
                        iy = oy * sh - ph + ky * dh
                        for kx in range(kw):
                            ix = ox * sw - pw + kx * dw
                            if not (0 <= iy < h and 0 <= ix < w):
                                continue
                            for k in range(d):
                                acc += (filt[((c * kh + ky) * kw + kx) * d + k] *
                                        (q[(iy * w + ix) * d + k] - offset))
                    if per_channel:
                        v = f32(f32(acc * f32(scales[c] * scale)) + bias[c])
                        v = hi_lo(v, act)
                    else:
                        v = f32(f32(0.0 + f32(acc * batch_scale)) + bias[c])
                        v = clamp_max_min(v, act[0], act[1])
                    out.append(v)
    return out


def hi_lo(v, act):
    v = act[1] if act[1] < v else v
    return act[0] if v < act[0] else v


def fully_connected(inp, filt, units, scales, bias, asym):
    """EvalHybridDense with the optimized kernels' per-channel scales."""
    depth = len(filt) // units
    out = []
    for b in range(len(inp) // depth):
        row = inp[b * depth:(b + 1) * depth]
        scale, offset, q = asymmetric(row) if asym else symmetric(row)
        for u in range(units):
            dot = sum(filt[u * depth + k] * q[k] for k in range(depth))
            dot -= sum(filt[u * depth:(u + 1) * depth]) * offset
            unit_scale = scales[u] if len(scales) > 1 else scales[0]
            out.append(f32(bias[u] + f32(dot * f32(scale * unit_scale))))
    return out


def batch_matmul(lhs, lhs_batches, rows, depth, rhs, rhs_batches, cols, scales, asym,
                 adj_y=False):
    """reference_ops::BatchMatMul (hybrid): lhs [lhs_batches, rows, depth] float,
    rhs [rhs_batches, depth, cols] (or [.., cols, depth] with adj_y) int8, one
    batch dimension broadcast between them."""
    def w(m, k, c):
        base = m * depth * cols
        return rhs[base + c * depth + k] if adj_y else rhs[base + k * cols + c]
    out = []
    for b in range(max(lhs_batches, rhs_batches)):
        lb = b if lhs_batches > 1 else 0
        m = b if rhs_batches > 1 else 0
        for a in range(rows):
            start = (lb * rows + a) * depth
            scale, offset, q = (asymmetric if asym else symmetric)(lhs[start:start + depth])
            if len(scales) == 1:
                scale = f32(scale * scales[0])
            for c in range(cols):
                total = sum(w(m, k, c) * q[k] for k in range(depth))
                col_sum = sum(w(m, k, c) for k in range(depth))
                total = int(f32(f32(total) - f32(col_sum * float(offset))))
                s = f32(scale * scales[c]) if len(scales) > 1 else scale
                out.append(f32(0.0 + f32(s * total)))
    return out


def svdf(steps, batches, input_size, feature, time, units, rank, memory, asym):
    """EvalHybridSVDF over a sequence of inputs (the state carried from step to
    step, starting at 0); feature and time as float values, quantised here per
    tensor. The outputs of every step."""
    filters = units * rank
    f_scale, f_q = quantize_filter([f32(v) for v in feature], 1)
    t_scale, t_q = quantize_filter([f32(v) for v in time], 1)
    t_float = [f32(q * t_scale[0]) for q in t_q]
    sums = [sum(f_q[f * input_size:(f + 1) * input_size]) for f in range(filters)]
    state = [0.0] * (batches * memory * filters)
    outputs = []
    for x in steps:
        state = state[1:] + [state[-1]]
        for b in range(batches):
            row = [f32(v) for v in x[b * input_size:(b + 1) * input_size]]
            scale, offset, q = (asymmetric if asym else symmetric)(row)
            scale = f32(scale * f_scale[0])
            for f in range(filters):
                dot = sum(f_q[f * input_size + k] * q[k] for k in range(input_size))
                dot -= sums[f] * offset
                state[(b * filters + f) * memory + memory - 1] = f32(0.0 + f32(dot * scale))
        out = []
        for b in range(batches):
            filter_sums = []
            for f in range(filters):
                acc = 0.0
                for m in range(memory):
                    acc = f32(acc + f32(t_float[f * memory + m] *
                                        state[(b * filters + f) * memory + m]))
                filter_sums.append(acc)
            for u in range(units):
                acc = 0.0
                for r in range(rank):
                    acc = f32(acc + filter_sums[u * rank + r])
                out.append(acc)
        outputs.append(out)
    return outputs


def lstm(steps, batches, inputs, cells, weights, biases, asym, cell_clip=0.0):
    """EvalHybrid of lstm_eval.cc, time-major: `steps` rows of batches x inputs;
    weights [gate][recurrent] float values quantised per tensor here,
    biases [gate]. The output of every step."""
    quant = [[quantize_filter([f32(v) for v in weights[g][r]], 1) for r in (0, 1)]
             for g in range(4)]
    hidden = [0.0] * (batches * cells)
    cell = [0.0] * (batches * cells)
    outputs = []
    for x in steps:
        x = [f32(v) for v in x]
        rows = []
        for values, depth in ((x, inputs), (hidden, cells)):
            if all(v == 0 for v in values):
                rows.append(None)
                continue
            rows.append([(asymmetric if asym else symmetric)(values[b * depth:(b + 1) * depth])
                         for b in range(batches)])
        gates = []
        for g in range(4):
            gate = []
            for b in range(batches):
                for u in range(cells):
                    v = f32(biases[g][u])
                    for r, depth in ((0, inputs), (1, cells)):
                        if rows[r] is None:
                            continue
                        scale, offset, q = rows[r][b]
                        w_scale, w_q = quant[g][r]
                        w = w_q[u * depth:(u + 1) * depth]
                        dot = sum(w[k] * q[k] for k in range(depth)) - sum(w) * offset
                        v = f32(v + f32(dot * f32(scale * w_scale[0])))
                    gate.append(_libm.tanhf(v) if g == 2 else
                                f32(1.0 / f32(1.0 + _libm.expf(-v))))
            gates.append(gate)
        for i in range(batches * cells):
            c = f32(gates[1][i] * cell[i])
            c = f32(c + f32(gates[2][i] * gates[0][i]))
            if cell_clip > 0:
                c = max(min(cell_clip, c), -cell_clip)
            cell[i] = c
            hidden[i] = f32(gates[3][i] * _libm.tanhf(c))
        outputs.append(list(hidden))
    return outputs


def header_arrays(path):
    """The `inline const std::vector<float> NAME = {...};` arrays of a header."""
    text = open(path).read()
    arrays = {}
    for name, body in re.findall(r"std::vector<float> (k\w+) = \{(.*?)\};", text, re.S):
        arrays[name] = [float(v) for v in body.replace("\n", " ").split(",") if v.strip()]
    return arrays


def show(name, values):
    print(name + " = {" + ", ".join(repr(v) + "f" for v in values) + "};")


if __name__ == "__main__":
    # TFLite's fully_connected_test.cc hybrid case (weights 1..10 per unit),
    # per tensor and with per-channel scales 10, 20 and 5 / 127.
    fc_in = [1, 2, 3, 4, 5, 6, 7, 8, -9, -10, 1, 2, 3, 4, 5, 6, 7, -8, 9, -10]
    fc_q = [int(round_half_away(v * 127.0 / 10.0)) for _ in range(3) for v in range(1, 11)]
    for asym in (False, True):
        kind = "Asymmetric" if asym else "Symmetric"
        show("kFc" + kind, fully_connected(fc_in, fc_q, 3, [f32(10 / 127.0)], [1, 2, 3], asym))
        show("kFcPerChannel" + kind,
             fully_connected(fc_in, fc_q, 3, [f32(10 / 127.0), f32(20 / 127.0), f32(5 / 127.0)],
                             [1, 2, 3], asym))
    # TFLite's batch_matmul_test.cc hybrid cases.
    bmm_w = [v for v in range(1, 11) for _ in range(3)]  # rows of three
    bmm_scales, bmm_q = quantize_filter(bmm_w, 1)
    bmm_in = [1, 2, 3, 4, 5, 6, 7, 8, -9, -10, 1, 2, 3, 4, 5, 6, 7, -8, 9, -10,
              11, 12, 13, 14, 15, 16, 17, 18, -19, -20, 11, 12, 13, 14, 15, 16, 17, -18, 19, -20]
    show("kBmmSimpleSymmetric", batch_matmul(bmm_in[20:], 1, 2, 10, bmm_q, 1, 3, bmm_scales,
                                             False))
    for asym in (False, True):
        kind = "Asymmetric" if asym else "Symmetric"
        show("kBmmBroadcastWeights" + kind,
             batch_matmul(bmm_in, 2, 2, 10, bmm_q, 1, 3, bmm_scales, asym))
    two_w = [1, -3, 1, 2, -2, 2, 3, -1, 3, 4, 0, 4, 5, 1, 5, 6, 2, 6, 7, 3,
             7, 8, 4, 8, 9, 5, 9, 10, 6, 10, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4,
             4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10, 10]
    two_scales, two_q = quantize_filter(two_w, 1)
    show("kBmmBroadcastInputsSymmetric",
         batch_matmul(bmm_in[:20], 1, 2, 10, two_q, 2, 3, two_scales, False))
    adj_w = [1, 2, 3] * 8
    adj_scales, adj_q = quantize_filter(adj_w, 1)
    show("kBmmAdjYAsymmetric", batch_matmul([11, 12, 13] * 6, 1, 6, 3, adj_q, 1, 8, adj_scales,
                                            True, adj_y=True))
    # Per-channel: the simple case's weights with scales 10, 20 and 5 / 127.
    pc = [f32(10 / 127.0), f32(20 / 127.0), f32(5 / 127.0)]
    for asym in (False, True):
        kind = "Asymmetric" if asym else "Symmetric"
        show("kBmmPerChannel" + kind, batch_matmul(bmm_in[20:], 1, 2, 10, bmm_q, 1, 3, pc, asym))

    # TFLite's svdf_test.cc hybrid cases: the last step's outputs.
    svdf_data = header_arrays(os.path.join(os.path.dirname(__file__), "hybrid_svdf_model.h"))
    svdf_steps = [svdf_data["kSvdfInput"][i * 6:(i + 1) * 6] for i in range(10)]
    for rank in (1, 2):
        for asym in (False, True):
            outs = svdf(svdf_steps, 2, 3, svdf_data["kFeatureRank%d" % rank],
                        svdf_data["kTimeRank%d" % rank], 4, rank, 10, asym)
            golden = svdf_data["kGoldenRank%d" % rank]
            worst = max(abs(o - g) for i, out in enumerate(outs)
                        for o, g in zip(out, golden[i * 8:(i + 1) * 8]))
            show("kSvdfRank%d%sLastStep" % (rank, "Asymmetric" if asym else "Symmetric"),
                 outs[-1])
            print("  // largest difference from TFLite's golden over the ten steps: %g" % worst)

    # TFLite's unidirectional_sequence_lstm_test.cc hybrid case.
    lstm_data = header_arrays(os.path.join(os.path.dirname(__file__), "hybrid_lstm_model.h"))
    names = ["Input", "Forget", "Cell", "Output"]
    lstm_weights = [[lstm_data["kInputTo" + n], lstm_data["kRecurrentTo" + n]] for n in names]
    lstm_biases = [[0.0] * 4, lstm_data["kForgetBias"], [0.0] * 4, [0.0] * 4]
    seq = lstm_data["kSequence"]
    for asym in (False, True):
        outs = lstm([seq[i * 2:(i + 1) * 2] for i in range(3)], 1, 2, 4, lstm_weights,
                    lstm_biases, asym)
        flat = [v for out in outs for v in out]
        worst = max(abs(a - b) for a, b in zip(flat, lstm_data["kGolden"]))
        show("kLstm" + ("Asymmetric" if asym else "Symmetric"), flat)
        print("  // largest difference from TFLite's golden: %g" % worst)
    # Two batches (the sequence and its negation), cell clip 0.5.
    two = [seq[i * 2:(i + 1) * 2] + [-v for v in seq[i * 2:(i + 1) * 2]] for i in range(3)]
    outs = lstm(two, 2, 2, 4, lstm_weights, lstm_biases, True, cell_clip=0.5)
    show("kLstmTwoBatchesClipped", [v for out in outs for v in out])

    # TFLite's conv_test.cc hybrid cases.
    simple_in = [1, 1, 1, 1, 2, 2, 2, 2, 1, 2, 3, 4, 1, 2, 3, 4]
    simple_f = [1, 2, 3, 4, -1, 1, -1, 1, -1, -1, 1, 1]
    scales, q = quantize_filter(simple_f, 1)
    show("kConvSimple", conv2d(simple_in, (2, 2, 4, 1), q, (3, 2, 2, 1), scales, [1, 2, 3],
                               (2, 2), (0, 0)))
    show("kConvDilated", conv2d(simple_in, (2, 2, 4, 1), q, (3, 2, 2, 1), scales, [1, 2, 3],
                                (1, 1), (0, 0), (1, 2)))
    channels_in = [0.5] * 8 + [1] * 8 + [0.5, 0.5, 1, 1, 1.5, 1.5, 2, 2] * 2
    pw_scales, pw_q = quantize_filter([1, 2], 1)
    show("kConvPointwise", conv2d(channels_in, (2, 2, 4, 2), pw_q, (1, 1, 1, 2), pw_scales,
                                  [0], (1, 1), (0, 0)))
    channels_f = [1, 1, 2, 2, 3, 3, 4, 4, -1, -1, 1, 1, -1, -1, 1, 1, -1, -1, -1, -1, 1, 1, 1, 1]
    pt_scales, pt_q = quantize_filter(channels_f, 1)
    show("kConvEqualScales", conv2d(channels_in, (2, 2, 4, 2), pt_q, (3, 2, 2, 2), pt_scales * 3,
                                    [1, 2, 3], (2, 2), (0, 0)))
    pc_scales, pc_q = quantize_filter(channels_f, 3)
    show("kConvPerChannel", conv2d(channels_in, (2, 2, 4, 2), pc_q, (3, 2, 2, 2), pc_scales,
                                   [1, 2, 3], (2, 2), (0, 0)))
    # SAME padding, stride (h 2, w 1) on 2x4 with a 2x2 filter: pad bottom/right.
    show("kConvPerChannelPadded", conv2d(channels_in, (2, 2, 4, 2), pc_q, (3, 2, 2, 2),
                                         pc_scales, [1, 2, 3], (2, 1), (0, 0),
                                         out_size=(1, 4)))
    pcd_scales, pcd_q = quantize_filter(simple_f, 3)
    show("kConvPerChannelDilated", conv2d(simple_in, (2, 2, 4, 1), pcd_q, (3, 2, 2, 1),
                                          pcd_scales, [1, 2, 3], (1, 1), (0, 0), (1, 2)))
