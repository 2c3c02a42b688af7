//! The XNNPACK delegate of LiteRT 2.3.0 (`tensorflow/lite/delegates/xnnpack/
//! xnnpack_delegate.cc`, its `Visit*Node` checks; the values, rewrites and workspace in
//! `analysis/xnnpack.rs`): the operator × type variants whose delegation decision, runtime
//! values and workspace records, and the TFLite arena of what it leaves, a model reproduces
//! exactly against `oracle_xnnpack.py`. Every other variant is not modelled.

use super::Verified;

/// The verified operator × type variants and the models (`sample_models/`, `../shared/models`)
/// that verify them.
pub const VERIFIED: &[Verified] = &[
    Verified {
        op: "ADD",
        types: "float32",
        by: &[
            "residual_branch_f32",
            "while_loop_f32",
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
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
            "efficientnet_b0_int8",
            "mobilenet_v2_int8",
        ],
    },
    Verified {
        op: "AVERAGE_POOL_2D",
        types: "int8",
        by: &["nasnet_cells_int8", "nasnet_mobile_int8"],
    },
    Verified {
        op: "CONCATENATION",
        types: "float32",
        by: &[
            "residual_branch_f32",
            "mp_face_detection_short_range",
            "mp_palm_detection_lite",
        ],
    },
    Verified {
        op: "CONCATENATION",
        types: "int8",
        by: &[
            "branchy_gap_int8",
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
        ],
    },
    Verified {
        op: "CONV_2D",
        types: "float32",
        by: &[
            "mnist_conv_f32",
            "residual_branch_f32",
            "sparse_conv_f16",
            "mobilenet_v3_small_f32",
            "mp_face_detection_short_range",
            "mp_hand_landmark_lite",
            "mp_palm_detection_lite",
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
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
            "efficientnet_b0_int8",
            "mnist_conv_int8",
            "mobilenet_v2_int8",
            "test_conv_model",
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
            "residual_branch_f32",
            "mobilenet_v3_small_f32",
            "mp_face_detection_short_range",
            "mp_hand_landmark_lite",
            "mp_palm_detection_lite",
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
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
            "efficientnet_b0_int8",
            "mobilenet_v2_int8",
            "micro_speech_quantized",
            "network_tester_model",
        ],
    },
    Verified {
        op: "DEQUANTIZE",
        types: "float16",
        by: &[
            "sparse_conv_f16",
            "mp_face_detection_short_range",
            "mp_hand_landmark_lite",
            "mp_palm_detection_lite",
        ],
    },
    Verified {
        op: "DEQUANTIZE",
        types: "int8",
        by: &["test_conv_model"],
    },
    Verified {
        op: "FULLY_CONNECTED",
        types: "float32",
        by: &[
            "dense_dynamic_range",
            "lstm_f32",
            "mnist_conv_f32",
            "residual_branch_f32",
            "sparse_conv_f16",
            "while_loop_f32",
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
            "hello_world_int8",
            "keyword_scrambled",
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
            "efficientnet_b0_int8",
            "mnist_conv_int8",
            "mobilenet_v2_int8",
            "dtln_noise_suppression",
            "micro_speech_quantized",
            "test_conv_model",
            "trained_lstm_int8",
        ],
    },
    Verified {
        op: "HARD_SWISH",
        types: "float32",
        by: &["mobilenet_v3_small_f32"],
    },
    Verified {
        op: "LESS",
        types: "int32",
        by: &["while_loop_f32"],
    },
    Verified {
        op: "LOGISTIC",
        types: "float32",
        by: &["mp_hand_landmark_lite"],
    },
    Verified {
        op: "LOGISTIC",
        types: "int8",
        by: &["efficientnet_b0_int8", "dtln_noise_suppression"],
    },
    Verified {
        op: "MAX_POOL_2D",
        types: "float32",
        by: &[
            "mnist_conv_f32",
            "residual_branch_f32",
            "sparse_conv_f16",
            "mp_face_detection_short_range",
            "mp_hand_landmark_lite",
            "mp_palm_detection_lite",
        ],
    },
    Verified {
        op: "MAX_POOL_2D",
        types: "int8",
        by: &[
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
            "mnist_conv_int8",
            "test_conv_model",
        ],
    },
    Verified {
        op: "MEAN",
        types: "float32",
        by: &[
            "depthwise_dynamic_range",
            "residual_branch_f32",
            "mobilenet_v3_small_f32",
            "mp_hand_landmark_lite",
        ],
    },
    Verified {
        op: "MEAN",
        types: "int8",
        by: &[
            "branchy_gap_int8",
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
            "efficientnet_b0_int8",
            "mobilenet_v2_int8",
        ],
    },
    Verified {
        op: "MUL",
        types: "float32",
        by: &["while_loop_f32", "mobilenet_v3_small_f32"],
    },
    Verified {
        op: "MUL",
        types: "int8",
        by: &[
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
            "efficientnet_b0_int8",
        ],
    },
    Verified {
        op: "PAD",
        types: "float32",
        by: &["mp_face_detection_short_range", "mp_palm_detection_lite"],
    },
    Verified {
        op: "PAD",
        types: "int8",
        by: &["nasnet_cells_int8", "nasnet_mobile_int8"],
    },
    Verified {
        op: "PRELU",
        types: "float32",
        by: &["mp_palm_detection_lite"],
    },
    Verified {
        op: "QUANTIZE",
        types: "float32",
        by: &["test_conv_model"],
    },
    Verified {
        op: "QUANTIZE",
        types: "int16",
        by: &["keyword_scrambled"],
    },
    Verified {
        op: "RELU",
        types: "float32",
        by: &["while_loop_f32", "mp_face_detection_short_range"],
    },
    Verified {
        op: "RELU",
        types: "int8",
        by: &["nasnet_cells_int8", "nasnet_mobile_int8"],
    },
    Verified {
        op: "RESHAPE",
        types: "float32",
        by: &[
            "conv_dynamic_range",
            "mnist_conv_f32",
            "sparse_conv_f16",
            "mobilenet_v3_small_f32",
            "mp_face_detection_short_range",
            "mp_palm_detection_lite",
        ],
    },
    Verified {
        op: "RESHAPE",
        types: "int8",
        by: &[
            "mnist_conv_int8",
            "micro_speech_quantized",
            "test_conv_model",
            "trained_lstm_int8",
        ],
    },
    Verified {
        op: "RESIZE_BILINEAR",
        types: "float32",
        by: &["mp_palm_detection_lite"],
    },
    Verified {
        op: "SOFTMAX",
        types: "float32",
        by: &["mnist_conv_f32", "mobilenet_v3_small_f32"],
    },
    Verified {
        op: "SOFTMAX",
        types: "int8",
        by: &[
            "keyword_scrambled",
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
            "efficientnet_b0_int8",
            "mnist_conv_int8",
            "mobilenet_v2_int8",
            "micro_speech_quantized",
            "trained_lstm_int8",
        ],
    },
    Verified {
        op: "STRIDED_SLICE",
        types: "float32",
        by: &["lstm_f32"],
    },
    Verified {
        op: "STRIDED_SLICE",
        types: "int8",
        by: &["nasnet_cells_int8", "nasnet_mobile_int8"],
    },
    Verified {
        op: "SVDF",
        types: "int8",
        by: &["keyword_scrambled"],
    },
    Verified {
        op: "TANH",
        types: "float32",
        by: &["while_loop_f32"],
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
