#!/usr/bin/env python3
"""Build NASNet-Mobile (random init, no weights download) and convert it to a
full-integer (int8 in/out) .tflite with a seeded random representative dataset.

Usage: python make_nasnet_mobile.py [OUT.tflite]
"""
import os
import random
import sys

import numpy as np
import tensorflow as tf

SEED = 0
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "nasnet_mobile_int8.tflite")

random.seed(SEED)
np.random.seed(SEED)
tf.random.set_seed(SEED)
tf.keras.utils.set_random_seed(SEED)   # python, numpy and tf seeds (keras 3)

model = tf.keras.applications.NASNetMobile(
    weights=None, input_shape=(224, 224, 3), classes=1000)

rng = np.random.default_rng(SEED)
REP = [rng.uniform(-1.0, 1.0, size=(1, 224, 224, 3)).astype(np.float32)
       for _ in range(8)]


def representative_dataset():
    for x in REP:
        yield [x]


conv = tf.lite.TFLiteConverter.from_keras_model(model)
conv.optimizations = [tf.lite.Optimize.DEFAULT]
conv.representative_dataset = representative_dataset
conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
conv.inference_input_type = tf.int8
conv.inference_output_type = tf.int8
tfl = conv.convert()

with open(OUT, "wb") as f:
    f.write(tfl)
print(f"wrote {OUT}: {len(tfl)} bytes, keras params {model.count_params()}")
