"""Makes nasnet_cells_int8.tflite: a small NASNet-A (two normal cells per stage, 8 filters, 96x96
input, random weights), converted to int8 with tensorflow-cpu 2.21. Run in this folder."""
import numpy as np, tensorflow as tf
from keras.src.applications.nasnet import NASNet
tf.keras.utils.set_random_seed(0)
m = NASNet(input_shape=(96, 96, 3), penultimate_filters=192, num_blocks=2,
        stem_block_filters=16, skip_reduction=False, filter_multiplier=2, include_top=True,
        weights=None, classes=10, default_size=96)
rng = np.random.default_rng(0)
def rep():
    for _ in range(4):
        yield [rng.uniform(-1, 1, (1, 96, 96, 3)).astype(np.float32)]
c = tf.lite.TFLiteConverter.from_keras_model(m)
c.optimizations = [tf.lite.Optimize.DEFAULT]
c.representative_dataset = rep
c.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
c.inference_input_type = tf.int8
c.inference_output_type = tf.int8
open("nasnet_cells_int8.tflite", "wb").write(c.convert())
print("ok")
