"""Streaming models with several resource variables (the microWakeWord idiom).

A streaming convolution keeps the last frames of its input in a tf.Variable ring buffer:
each call concatenates the state with the new frame, convolves the window, and assigns the
newest frames back. Two such layers of different widths give two variables of different
sizes (two VAR_HANDLE shared names), read and assigned in subgraph 0 and initialised in a
CALL_ONCE subgraph. Variants: f32 and int8 (full-integer; the variables stay float or int8
as the converter decides).

Usage: python make_streaming.py   (writes streaming_vars_<variant>.tflite beside this file;
run the three oracles of ../shared/tools on them afterwards)
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


class Streaming(tf.Module):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(7)
        # Ring buffers: 2 past frames of 8 channels, 4 past frames of 6 channels.
        self.s1 = tf.Variable(np.zeros([1, 2, 8], np.float32), name="stream1")
        self.s2 = tf.Variable(np.zeros([1, 4, 6], np.float32), name="stream2")
        self.w1 = tf.constant(rng.standard_normal([3, 8, 6]).astype(np.float32) * 0.3)
        self.w2 = tf.constant(rng.standard_normal([5, 6, 4]).astype(np.float32) * 0.3)

    @tf.function(input_signature=[tf.TensorSpec([1, 1, 8], tf.float32)])
    def __call__(self, frame):
        win1 = tf.concat([self.s1.read_value(), frame], axis=1)  # 1x3x8
        self.s1.assign(win1[:, 1:, :])
        y1 = tf.nn.relu(tf.nn.conv1d(win1, self.w1, 1, "VALID"))  # 1x1x6
        win2 = tf.concat([self.s2.read_value(), y1], axis=1)  # 1x5x6
        self.s2.assign(win2[:, 1:, :])
        return tf.nn.conv1d(win2, self.w2, 1, "VALID")  # 1x1x4


def convert(variant):
    tf.keras.utils.set_random_seed(0)
    mod = Streaming()
    cf = mod.__call__.get_concrete_function()
    conv = tf.lite.TFLiteConverter.from_concrete_functions([cf], mod)
    conv.experimental_enable_resource_variables = True
    if variant == "int8":
        def rep():
            rng = np.random.default_rng(1)
            for _ in range(16):
                yield [rng.standard_normal([1, 1, 8]).astype(np.float32)]
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
        conv.representative_dataset = rep
        conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        conv.inference_input_type = tf.int8
        conv.inference_output_type = tf.int8
    return conv.convert()


if __name__ == "__main__":
    for v in ("f32", "int8"):
        path = os.path.join(HERE, "streaming_vars_%s.tflite" % v)
        with open(path, "wb") as f:
            f.write(convert(v))
        print("wrote", path)
