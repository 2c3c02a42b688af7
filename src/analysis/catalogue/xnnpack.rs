//! The XNNPACK delegate of LiteRT 2.3.0 (`tensorflow/lite/delegates/xnnpack/
//! xnnpack_delegate.cc`, its `Visit*Node` checks; the values, rewrites and workspace in
//! `analysis/xnnpack.rs`): the operator × type variants whose delegation decision, runtime
//! values and workspace records, and the TFLite arena of what it leaves, a model reproduces
//! exactly against `oracle_xnnpack.py`. Every other variant is not modelled.

use super::Verified;

/// The verified operator × type variants and the models (`sample_models/`, `sample_models/ops/`,
/// `../shared/models`) that verify them, at most six each.
pub const VERIFIED: &[Verified] = &[
    Verified {
        op: "ADD",
        types: "float32",
        by: &[
            "add_broadcast_f32",
            "add_f32",
            "mobilenet_v3_small_f32",
            "mp_face_detection_short_range",
            "mp_hand_landmark_lite",
            "mp_palm_detection_lite",
        ],
    },
    Verified {
        op: "ADD",
        types: "int32",
        by: &["while_loop_f32"],
    },
    Verified {
        op: "ADD",
        types: "int8",
        by: &[
            "add_broadcast_int8",
            "add_int8",
            "efficientnet_b0_int8",
            "mobilenet_v2_int8",
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
        ],
    },
    Verified {
        op: "AVERAGE_POOL_2D",
        types: "float32",
        by: &["average_pool_2d_f32"],
    },
    Verified {
        op: "AVERAGE_POOL_2D",
        types: "int8",
        by: &[
            "average_pool_2d_int8",
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
        ],
    },
    Verified {
        op: "CONCATENATION",
        types: "float32",
        by: &[
            "concatenation_f32",
            "mp_face_detection_short_range",
            "mp_palm_detection_lite",
            "residual_branch_f32",
        ],
    },
    Verified {
        op: "CONCATENATION",
        types: "int8",
        by: &[
            "branchy_gap_int8",
            "concatenation_int8",
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
        ],
    },
    Verified {
        op: "CONV_2D",
        types: "float32",
        by: &[
            "conv_2d_f32",
            "conv_2d_stride2_f32",
            "mnist_conv_f32",
            "mobilenet_v3_small_f32",
            "mp_face_detection_short_range",
            "mp_hand_landmark_lite",
        ],
    },
    Verified {
        op: "CONV_2D",
        types: "hybrid",
        by: &["conv_dynamic_range"],
    },
    Verified {
        op: "CONV_2D",
        types: "int8",
        by: &[
            "branchy_gap_int8",
            "conv_2d_int8",
            "conv_2d_stride2_int8",
            "efficientnet_b0_int8",
            "mnist_conv_int8",
            "mobilenet_v2_int8",
        ],
    },
    Verified {
        op: "DENSIFY",
        types: "float16",
        by: &["sparse_conv_f16"],
    },
    Verified {
        op: "DEPTHWISE_CONV_2D",
        types: "float32",
        by: &[
            "depthwise_conv_2d_f32",
            "mobilenet_v3_small_f32",
            "mp_face_detection_short_range",
            "mp_hand_landmark_lite",
            "mp_palm_detection_lite",
            "residual_branch_f32",
        ],
    },
    Verified {
        op: "DEPTHWISE_CONV_2D",
        types: "hybrid",
        by: &["depthwise_dynamic_range"],
    },
    Verified {
        op: "DEPTHWISE_CONV_2D",
        types: "int8",
        by: &[
            "branchy_gap_int8",
            "depthwise_conv_2d_int8",
            "efficientnet_b0_int8",
            "micro_speech_quantized",
            "mobilenet_v2_int8",
            "nasnet_cells_int8",
        ],
    },
    Verified {
        op: "DEQUANTIZE",
        types: "float16",
        by: &[
            "dequantize_f16",
            "mp_face_detection_short_range",
            "mp_hand_landmark_lite",
            "mp_palm_detection_lite",
            "sparse_conv_f16",
        ],
    },
    Verified {
        op: "DEQUANTIZE",
        types: "int8",
        by: &["quantize_int8", "test_conv_model"],
    },
    Verified {
        op: "EQUAL",
        types: "float32",
        by: &["equal_f32"],
    },
    Verified {
        op: "EQUAL",
        types: "int8",
        by: &["equal_int8"],
    },
    Verified {
        op: "FULLY_CONNECTED",
        types: "float32",
        by: &[
            "dense_dynamic_range",
            "dequantize_f16",
            "fully_connected_f32",
            "lstm_f32",
            "mnist_conv_f32",
            "mp_hand_landmark_lite",
        ],
    },
    Verified {
        op: "FULLY_CONNECTED",
        types: "hybrid",
        by: &[
            "conv_dynamic_range",
            "dense_dynamic_range",
            "depthwise_dynamic_range",
        ],
    },
    Verified {
        op: "FULLY_CONNECTED",
        types: "int8",
        by: &[
            "branchy_gap_int8",
            "dtln_noise_suppression",
            "efficientnet_b0_int8",
            "fully_connected_int8",
            "hello_world_int8",
            "keyword_scrambled",
        ],
    },
    Verified {
        op: "GREATER",
        types: "float32",
        by: &["greater_f32"],
    },
    Verified {
        op: "GREATER",
        types: "int8",
        by: &["greater_int8"],
    },
    Verified {
        op: "GREATER_EQUAL",
        types: "float32",
        by: &["greater_equal_f32"],
    },
    Verified {
        op: "GREATER_EQUAL",
        types: "int8",
        by: &["greater_equal_int8"],
    },
    Verified {
        op: "HARD_SWISH",
        types: "float32",
        by: &["hard_swish_f32", "mobilenet_v3_small_f32"],
    },
    Verified {
        op: "LESS",
        types: "float32",
        by: &["less_f32"],
    },
    Verified {
        op: "LESS",
        types: "int32",
        by: &["while_loop_f32"],
    },
    Verified {
        op: "LESS",
        types: "int8",
        by: &["less_int8"],
    },
    Verified {
        op: "LESS_EQUAL",
        types: "float32",
        by: &["less_equal_f32"],
    },
    Verified {
        op: "LESS_EQUAL",
        types: "int8",
        by: &["less_equal_int8"],
    },
    Verified {
        op: "LOGISTIC",
        types: "float32",
        by: &["logistic_f32", "mp_hand_landmark_lite"],
    },
    Verified {
        op: "LOGISTIC",
        types: "int8",
        by: &[
            "dtln_noise_suppression",
            "efficientnet_b0_int8",
            "logistic_int8",
        ],
    },
    Verified {
        op: "MAX_POOL_2D",
        types: "float32",
        by: &[
            "max_pool_2d_f32",
            "mnist_conv_f32",
            "mp_face_detection_short_range",
            "mp_hand_landmark_lite",
            "mp_palm_detection_lite",
            "residual_branch_f32",
        ],
    },
    Verified {
        op: "MAX_POOL_2D",
        types: "int8",
        by: &[
            "max_pool_2d_int8",
            "mnist_conv_int8",
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
            "test_conv_model",
        ],
    },
    Verified {
        op: "MEAN",
        types: "float32",
        by: &[
            "depthwise_dynamic_range",
            "mean_f32",
            "mobilenet_v3_small_f32",
            "mp_hand_landmark_lite",
            "residual_branch_f32",
        ],
    },
    Verified {
        op: "MEAN",
        types: "int8",
        by: &[
            "branchy_gap_int8",
            "efficientnet_b0_int8",
            "mean_int8",
            "mobilenet_v2_int8",
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
        ],
    },
    Verified {
        op: "MUL",
        types: "float32",
        by: &["mobilenet_v3_small_f32", "mul_f32", "while_loop_f32"],
    },
    Verified {
        op: "MUL",
        types: "int8",
        by: &[
            "efficientnet_b0_int8",
            "mul_int8",
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
        ],
    },
    Verified {
        op: "NOT_EQUAL",
        types: "float32",
        by: &["not_equal_f32"],
    },
    Verified {
        op: "PAD",
        types: "float32",
        by: &[
            "mp_face_detection_short_range",
            "mp_palm_detection_lite",
            "pad_f32",
        ],
    },
    Verified {
        op: "PAD",
        types: "int8",
        by: &["nasnet_cells_int8", "nasnet_mobile_int8", "pad_int8"],
    },
    Verified {
        op: "PRELU",
        types: "float32",
        by: &["mp_palm_detection_lite", "prelu_f32"],
    },
    Verified {
        op: "QUANTIZE",
        types: "float32",
        by: &["quantize_int8", "test_conv_model"],
    },
    Verified {
        op: "QUANTIZE",
        types: "int16",
        by: &["keyword_scrambled"],
    },
    Verified {
        op: "RELU",
        types: "float32",
        by: &[
            "mp_face_detection_short_range",
            "relu_f32",
            "while_loop_f32",
        ],
    },
    Verified {
        op: "RELU",
        types: "int8",
        by: &["nasnet_cells_int8", "nasnet_mobile_int8", "relu_int8"],
    },
    Verified {
        op: "RELU6",
        types: "float32",
        by: &["relu6_f32"],
    },
    Verified {
        op: "RELU6",
        types: "int8",
        by: &["relu6_int8"],
    },
    Verified {
        op: "RELU_N1_TO_1",
        types: "float32",
        by: &["relu_n1_to_1_f32"],
    },
    Verified {
        op: "RELU_N1_TO_1",
        types: "int8",
        by: &["relu_n1_to_1_int8"],
    },
    Verified {
        op: "RESHAPE",
        types: "float32",
        by: &[
            "conv_dynamic_range",
            "mnist_conv_f32",
            "mobilenet_v3_small_f32",
            "mp_face_detection_short_range",
            "mp_palm_detection_lite",
            "reshape_f32",
        ],
    },
    Verified {
        op: "RESHAPE",
        types: "int8",
        by: &[
            "micro_speech_quantized",
            "mnist_conv_int8",
            "reshape_int8",
            "test_conv_model",
            "trained_lstm_int8",
        ],
    },
    Verified {
        op: "RESIZE_BILINEAR",
        types: "float32",
        by: &["mp_palm_detection_lite", "resize_bilinear_f32"],
    },
    Verified {
        op: "RESIZE_BILINEAR",
        types: "int8",
        by: &["resize_bilinear_int8"],
    },
    Verified {
        op: "SOFTMAX",
        types: "float32",
        by: &["mnist_conv_f32", "mobilenet_v3_small_f32", "softmax_f32"],
    },
    Verified {
        op: "SOFTMAX",
        types: "int16",
        by: &["softmax_int16"],
    },
    Verified {
        op: "SOFTMAX",
        types: "int8",
        by: &[
            "efficientnet_b0_int8",
            "keyword_scrambled",
            "micro_speech_quantized",
            "mnist_conv_int8",
            "mobilenet_v2_int8",
            "nasnet_cells_int8",
        ],
    },
    Verified {
        op: "STRIDED_SLICE",
        types: "int16",
        by: &["strided_slice_int16", "strided_slice_strided_int16"],
    },
    Verified {
        op: "SUB",
        types: "float32",
        by: &["sub_f32"],
    },
    Verified {
        op: "SUB",
        types: "int8",
        by: &["sub_int8"],
    },
    Verified {
        op: "SVDF",
        types: "int8",
        by: &["keyword_scrambled"],
    },
    Verified {
        op: "TANH",
        types: "float32",
        by: &["tanh_f32", "while_loop_f32"],
    },
    Verified {
        op: "TANH",
        types: "int8",
        by: &["tanh_int8"],
    },
    Verified {
        op: "UNIDIRECTIONAL_SEQUENCE_LSTM",
        types: "float32",
        by: &["lstm_f32"],
    },
    Verified {
        op: "UNIDIRECTIONAL_SEQUENCE_LSTM",
        types: "int8",
        by: &["dtln_noise_suppression", "trained_lstm_int8"],
    },
    Verified {
        op: "WHILE",
        types: "int32",
        by: &["while_loop_f32"],
    },
];
