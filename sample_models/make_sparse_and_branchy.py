#!/usr/bin/env python3
"""How sparse_conv_f16.tflite and branchy_gap_int8.tflite were made (tensorflow-cpu 2.21,
its TFLite converter; then ../shared/tools/oracle_litert.py and oracle_tflm.py for the JSON).

sparse_conv_f16: two convolutions and two dense layers whose weights are 80 % zeros,
converted with EXPERIMENTAL_SPARSITY and float16 weights, so that the constants are stored
sparse and run through DENSIFY -> DEQUANTIZE -> CONV_2D / FULLY_CONNECTED (RUNTIME_RULES L3:
DENSIFY's output is persistent RW, and the DEQUANTIZE after it keeps its output in the RW arena).

branchy_gap_int8: a random branchy int8 graph (seed 3 of the generator below) with odd
channel counts, so that tensor sizes are not multiples of 64; it is one where LiteRT's two gap
measures (RUNTIME_RULES A.3: compare the aligned gap, store the unaligned one) place three
tensors differently from a plain unaligned comparison.
"""
import numpy as np
import tensorflow as tf


def sparse_conv_f16():
    rng = np.random.default_rng(0)
    inp = tf.keras.Input((16, 16, 3), batch_size=1)
    x = tf.keras.layers.Conv2D(16, 3, padding="same", activation="relu")(inp)
    x = tf.keras.layers.Conv2D(16, 3, padding="same", activation="relu")(x)
    x = tf.keras.layers.MaxPooling2D(2)(x)
    x = tf.keras.layers.Flatten()(x)
    x = tf.keras.layers.Dense(32, activation="relu")(x)
    out = tf.keras.layers.Dense(10)(x)
    m = tf.keras.Model(inp, out)
    for layer in m.layers:
        w = layer.get_weights()
        if w:
            k = w[0]
            k[rng.random(k.shape) < 0.8] = 0
            layer.set_weights([k] + w[1:])
    c = tf.lite.TFLiteConverter.from_keras_model(m)
    c.optimizations = [tf.lite.Optimize.EXPERIMENTAL_SPARSITY, tf.lite.Optimize.DEFAULT]
    c.target_spec.supported_types = [tf.float16]
    return c.convert()


def branchy_int8(seed):
    rng = np.random.default_rng(seed)
    h = int(rng.integers(5, 12))
    inp = tf.keras.Input((h, h, 3), batch_size=1)
    nodes = [inp]
    for _ in range(int(rng.integers(6, 12))):
        kind = int(rng.integers(0, 4))
        src = nodes[int(rng.integers(0, len(nodes)))]
        ch = int(rng.integers(1, 23))
        if kind == 0:
            y = tf.keras.layers.Conv2D(ch, 3, padding="same", activation="relu")(src)
        elif kind == 1:
            y = tf.keras.layers.Conv2D(ch, 1, activation="relu")(src)
        elif kind == 2 and len(nodes) > 2:
            a = nodes[int(rng.integers(0, len(nodes)))]
            y = tf.keras.layers.Concatenate()([
                tf.keras.layers.Conv2D(ch, 1)(src),
                tf.keras.layers.Conv2D(int(rng.integers(1, 17)), 1)(a)])
        else:
            y = tf.keras.layers.DepthwiseConv2D(3, padding="same", activation="relu")(src)
        nodes.append(y)
    pooled = [tf.keras.layers.GlobalAveragePooling2D()(n) for n in nodes[-3:]]
    out = tf.keras.layers.Dense(5)(tf.keras.layers.Concatenate()(pooled))
    m = tf.keras.Model(inp, out)

    def rep():
        for _ in range(8):
            yield [rng.uniform(-1, 1, (1, h, h, 3)).astype(np.float32)]

    c = tf.lite.TFLiteConverter.from_keras_model(m)
    c.optimizations = [tf.lite.Optimize.DEFAULT]
    c.representative_dataset = rep
    c.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    c.inference_input_type = tf.int8
    c.inference_output_type = tf.int8
    return c.convert()


if __name__ == "__main__":
    open("sparse_conv_f16.tflite", "wb").write(sparse_conv_f16())
    open("branchy_gap_int8.tflite", "wb").write(branchy_int8(3))
