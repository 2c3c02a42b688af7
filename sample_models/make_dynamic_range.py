#!/usr/bin/env python3
"""How dense_dynamic_range.tflite and conv_dynamic_range.tflite were made (tensorflow-cpu
2.21, its TFLite converter; then ../shared/tools/oracle_litert.py, oracle_tflm.py and
oracle_xnnpack.py for the JSON).

Both are converted with Optimize.DEFAULT and no representative dataset: dynamic-range
quantisation. The converter stores weights of more than 1024 elements as int8 and keeps
smaller ones float.

dense_dynamic_range: three dense layers on a (1, 100) input; 100x64 and 64x40 are int8
(FULLY_CONNECTED with float activations and int8 weights, which XNNPACK runs as dynamically
quantised rows), 40x10 stays float.

conv_dynamic_range: a 3x3 convolution (16x16x8 -> 14x14x32, int8 weights per channel) and a
dense layer (6272 -> 10, int8): LiteRT's hybrid convolution temporaries (a quantised im2col
and five more); XNNPACK quantises the convolution's input in a convert op of its own.

depthwise_dynamic_range: a 3x3 depthwise convolution over 12x12x128 (1152 int8 weights), a
global average pool and a dense layer: LiteRT's hybrid depthwise temporaries (the quantised
input, a scaling factor and an offset per batch).
"""
import tensorflow as tf


def convert(model, name):
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    with open(name, "wb") as f:
        f.write(converter.convert())


tf.keras.utils.set_random_seed(0)
inp = tf.keras.Input((100,), batch_size=1)
x = tf.keras.layers.Dense(64, activation="relu")(inp)
x = tf.keras.layers.Dense(40, activation="relu")(x)
convert(tf.keras.Model(inp, tf.keras.layers.Dense(10)(x)), "dense_dynamic_range.tflite")

tf.keras.utils.set_random_seed(0)
inp = tf.keras.Input((16, 16, 8), batch_size=1)
x = tf.keras.layers.Conv2D(32, 3, activation="relu")(inp)
x = tf.keras.layers.Flatten()(x)
convert(tf.keras.Model(inp, tf.keras.layers.Dense(10)(x)), "conv_dynamic_range.tflite")

tf.keras.utils.set_random_seed(0)
inp = tf.keras.Input((12, 12, 128), batch_size=1)
x = tf.keras.layers.DepthwiseConv2D(3, activation="relu")(inp)
x = tf.keras.layers.GlobalAveragePooling2D()(x)
convert(tf.keras.Model(inp, tf.keras.layers.Dense(10)(x)), "depthwise_dynamic_range.tflite")
