"""Integer (int32, int16 unquantised) variants of everyday operators, and the shape
arithmetic a dynamic batch leaves in a converted model.

Shape arithmetic in real models runs on int32: MUL / DIV / MINIMUM / MAXIMUM of sizes,
STRIDED_SLICE and CONCATENATION of shape vectors, CAST between integer widths. With a
dynamic batch the converter keeps SHAPE -> STRIDED_SLICE -> PACK -> RESHAPE, where the
RESHAPE's shape is only known when the model runs.

Usage: python make_ops_int.py   (writes <op>_i32.tflite etc. beside this file; run the
three oracles of ../shared/tools on them afterwards)
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
I32 = tf.int32


def spec(shape, dt=tf.float32):
    return tf.TensorSpec(shape, dt)


MODELS = {
    # name: (function, input specs)
    "mul_i32": (lambda a, b: a * b, [spec([4, 32], I32), spec([4, 32], I32)]),
    "div_i32": (lambda a, b: tf.raw_ops.Div(x=a, y=b), [spec([4, 32], I32), spec([4, 32], I32)]),
    "minimum_i32": (lambda a, b: tf.minimum(a, b), [spec([4, 32], I32), spec([4, 32], I32)]),
    "maximum_i32": (lambda a, b: tf.maximum(a, b), [spec([4, 32], I32), spec([4, 32], I32)]),
    "concatenation_i32": (lambda a, b: tf.concat([a, b], axis=1),
                          [spec([4, 32], I32), spec([4, 16], I32)]),
    "strided_slice_i32": (lambda a: a[:, 2:30:3] + 1, [spec([4, 32], I32)]),
    "cast_i16": (lambda a: tf.cast(a, tf.int32) * 3, [spec([4, 32], tf.int16)]),
    "sub_i32": (lambda a, b: a - b, [spec([4, 32], I32), spec([4, 32], I32)]),
    # The dynamic-batch idiom: reshape to [batch, -1] with the batch read at run time.
    "dynamic_reshape_f32": (lambda x: tf.nn.relu(tf.reshape(
        x * 2.0, tf.stack([tf.shape(x)[0], -1])) + 1.0), [spec([None, 8, 16])]),
}


def convert(fn, specs):
    cf = tf.function(fn, input_signature=specs, autograph=False).get_concrete_function()
    conv = tf.lite.TFLiteConverter.from_concrete_functions([cf])
    return conv.convert()


if __name__ == "__main__":
    for name, (fn, specs) in MODELS.items():
        path = os.path.join(HERE, name + ".tflite")
        with open(path, "wb") as f:
            f.write(convert(fn, specs))
        print("wrote", path)
