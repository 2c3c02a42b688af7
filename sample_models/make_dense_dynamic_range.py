#!/usr/bin/env python3
"""How dense_dynamic_range.tflite was made (tensorflow-cpu 2.21, its TFLite converter; then
../shared/tools/oracle_litert.py, oracle_tflm.py and oracle_xnnpack.py for the JSON).

Three dense layers on a (1, 100) input, converted with Optimize.DEFAULT and no representative
dataset: dynamic-range quantisation. The converter stores weights of more than 1024 elements
as int8 (100x64 and 64x40: FULLY_CONNECTED with float activations and int8 weights, which
XNNPACK runs as dynamically quantised) and keeps the smaller 40x10 float.
"""
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
inp = tf.keras.Input((100,), batch_size=1)
x = tf.keras.layers.Dense(64, activation="relu")(inp)
x = tf.keras.layers.Dense(40, activation="relu")(x)
out = tf.keras.layers.Dense(10)(x)
converter = tf.lite.TFLiteConverter.from_keras_model(tf.keras.Model(inp, out))
converter.optimizations = [tf.lite.Optimize.DEFAULT]
with open("dense_dynamic_range.tflite", "wb") as f:
    f.write(converter.convert())
