//! LiteRT 2.3.0 without a delegate (`BuiltinOpResolverWithoutDefaultDelegates`, the kernels
//! registered in `tensorflow/lite/core/kernels/register.cc`): the operator × type variants
//! whose arena layout — tensor lifetimes, in-place sharing, kernel temporaries and reserved
//! tensor indices (`analysis/litert/prepare.rs`) — a model reproduces offset for offset
//! against `oracle_litert.py`. Every other builtin operator or type variant is not modelled.

use super::Verified;

/// The custom operators the builtin resolver registers (`register.cc`'s `AddCustom`); any
/// other custom operator is "unresolved" and the interpreter refuses the model (measured:
/// audio_preprocessor_int8's SignalWindow, person_detect_vela's ethos-u).
pub const CUSTOM_REGISTERED: &[&str] =
    &["Mfcc", "AudioSpectrogram", "TFLite_Detection_PostProcess"];

/// The verified operator × type variants and the models (`sample_models/`, `sample_models/ops/`,
/// `../shared/models`) that verify them, at most six each.
pub const VERIFIED: &[Verified] = &[
    Verified {
        op: "ABS",
        types: "float32",
        by: &["abs_f32"],
    },
    Verified {
        op: "ABS",
        types: "int16",
        by: &["abs_int16"],
    },
    Verified {
        op: "ABS",
        types: "int8",
        by: &["abs_int8"],
    },
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
        types: "int16",
        by: &[
            "add_broadcast_int16",
            "add_int16",
            "quantize_int16",
            "var_handle_int16",
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
        op: "ADD_N",
        types: "float32",
        by: &["add_n_f32"],
    },
    Verified {
        op: "ARG_MAX",
        types: "float32",
        by: &["arg_max_f32"],
    },
    Verified {
        op: "ARG_MAX",
        types: "int8",
        by: &["arg_max_int8"],
    },
    Verified {
        op: "ARG_MIN",
        types: "float32",
        by: &["arg_min_f32"],
    },
    Verified {
        op: "ARG_MIN",
        types: "int8",
        by: &["arg_min_int8"],
    },
    Verified {
        op: "ASSIGN_VARIABLE",
        types: "resource",
        by: &["var_handle_f32", "var_handle_int16", "var_handle_int8"],
    },
    Verified {
        op: "ATAN2",
        types: "float32",
        by: &["atan2_f32"],
    },
    Verified {
        op: "AVERAGE_POOL_2D",
        types: "float32",
        by: &["average_pool_2d_f32"],
    },
    Verified {
        op: "AVERAGE_POOL_2D",
        types: "int16",
        by: &["average_pool_2d_int16"],
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
        op: "BATCH_MATMUL",
        types: "float32",
        by: &["batch_matmul_adj_y_f32", "batch_matmul_f32"],
    },
    Verified {
        op: "BATCH_MATMUL",
        types: "int16",
        by: &["batch_matmul_adj_y_int16", "batch_matmul_int16"],
    },
    Verified {
        op: "BATCH_MATMUL",
        types: "int8",
        by: &["batch_matmul_adj_y_int8", "batch_matmul_int8"],
    },
    Verified {
        op: "BATCH_TO_SPACE_ND",
        types: "float32",
        by: &["batch_to_space_nd_f32"],
    },
    Verified {
        op: "BATCH_TO_SPACE_ND",
        types: "int16",
        by: &["batch_to_space_nd_int16"],
    },
    Verified {
        op: "BATCH_TO_SPACE_ND",
        types: "int8",
        by: &["batch_to_space_nd_int8"],
    },
    Verified {
        op: "BROADCAST_TO",
        types: "float32",
        by: &["broadcast_to_f32"],
    },
    Verified {
        op: "BROADCAST_TO",
        types: "int16",
        by: &["broadcast_to_int16"],
    },
    Verified {
        op: "BROADCAST_TO",
        types: "int8",
        by: &["broadcast_to_int8"],
    },
    Verified {
        op: "CALL_ONCE",
        types: "none",
        by: &["var_handle_f32", "var_handle_int16", "var_handle_int8"],
    },
    Verified {
        op: "CAST",
        types: "float32",
        by: &["cast_f32"],
    },
    Verified {
        op: "CAST",
        types: "int32",
        by: &["cast_i32"],
    },
    Verified {
        op: "CEIL",
        types: "float32",
        by: &["ceil_f32"],
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
        types: "int16",
        by: &["concatenation_int16"],
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
        types: "int16",
        by: &["conv_2d_int16", "conv_2d_stride2_int16"],
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
        op: "CONV_3D",
        types: "float32",
        by: &["conv_3d_f32"],
    },
    Verified {
        op: "COS",
        types: "float32",
        by: &["cos_f32"],
    },
    Verified {
        op: "CUMSUM",
        types: "float32",
        by: &["cumsum_f32"],
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
        types: "int16",
        by: &["depthwise_conv_2d_int16"],
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
        op: "DEPTH_TO_SPACE",
        types: "float32",
        by: &["depth_to_space_f32"],
    },
    Verified {
        op: "DEPTH_TO_SPACE",
        types: "int8",
        by: &["depth_to_space_int8"],
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
        types: "int16",
        by: &["quantize_int16"],
    },
    Verified {
        op: "DEQUANTIZE",
        types: "int8",
        by: &[
            "quantize_int8",
            "test_conv_model",
            "topk_v2_int8",
            "var_handle_int8",
        ],
    },
    Verified {
        op: "DIV",
        types: "float32",
        by: &["div_f32"],
    },
    Verified {
        op: "DIV",
        types: "int8",
        by: &["div_int8"],
    },
    Verified {
        op: "ELU",
        types: "float32",
        by: &["elu_f32"],
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
        op: "EXP",
        types: "float32",
        by: &["exp_f32"],
    },
    Verified {
        op: "EXP",
        types: "int16",
        by: &["exp_int16"],
    },
    Verified {
        op: "EXP",
        types: "int8",
        by: &["exp_int8"],
    },
    Verified {
        op: "EXPAND_DIMS",
        types: "float32",
        by: &["expand_dims_dynbatch_f32"],
    },
    Verified {
        op: "EXPAND_DIMS",
        types: "int16",
        by: &["expand_dims_dynbatch_int16"],
    },
    Verified {
        op: "EXPAND_DIMS",
        types: "int8",
        by: &["expand_dims_dynbatch_int8"],
    },
    Verified {
        op: "FLOOR",
        types: "float32",
        by: &["floor_f32"],
    },
    Verified {
        op: "FLOOR_DIV",
        types: "float32",
        by: &["floor_div_f32"],
    },
    Verified {
        op: "FLOOR_MOD",
        types: "float32",
        by: &["floor_mod_f32"],
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
        types: "int16",
        by: &["fully_connected_int16"],
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
        op: "GATHER",
        types: "float32",
        by: &["gather_f32"],
    },
    Verified {
        op: "GATHER",
        types: "int16",
        by: &["gather_int16"],
    },
    Verified {
        op: "GATHER",
        types: "int8",
        by: &["gather_int8"],
    },
    Verified {
        op: "GATHER_ND",
        types: "float32",
        by: &["gather_nd_f32"],
    },
    Verified {
        op: "GATHER_ND",
        types: "int16",
        by: &["gather_nd_int16"],
    },
    Verified {
        op: "GATHER_ND",
        types: "int8",
        by: &["gather_nd_int8"],
    },
    Verified {
        op: "GELU",
        types: "float32",
        by: &["gelu_approx_f32", "gelu_f32"],
    },
    Verified {
        op: "GELU",
        types: "int16",
        by: &["gelu_approx_int16", "gelu_int16"],
    },
    Verified {
        op: "GELU",
        types: "int8",
        by: &["gelu_approx_int8", "gelu_int8"],
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
        op: "HARD_SWISH",
        types: "int8",
        by: &["hard_swish_int8"],
    },
    Verified {
        op: "L2_NORMALIZATION",
        types: "float32",
        by: &["l2_normalization_f32"],
    },
    Verified {
        op: "L2_NORMALIZATION",
        types: "int8",
        by: &["l2_normalization_int8"],
    },
    Verified {
        op: "LEAKY_RELU",
        types: "float32",
        by: &["leaky_relu_f32"],
    },
    Verified {
        op: "LEAKY_RELU",
        types: "int16",
        by: &["leaky_relu_int16"],
    },
    Verified {
        op: "LEAKY_RELU",
        types: "int8",
        by: &["leaky_relu_int8"],
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
        op: "LOCAL_RESPONSE_NORMALIZATION",
        types: "float32",
        by: &["local_response_normalization_f32"],
    },
    Verified {
        op: "LOG",
        types: "float32",
        by: &["log_f32"],
    },
    Verified {
        op: "LOG",
        types: "int16",
        by: &["log_int16"],
    },
    Verified {
        op: "LOG",
        types: "int8",
        by: &["log_int8"],
    },
    Verified {
        op: "LOGICAL_AND",
        types: "bool",
        by: &["logical_and_bool"],
    },
    Verified {
        op: "LOGICAL_NOT",
        types: "bool",
        by: &["logical_not_bool"],
    },
    Verified {
        op: "LOGICAL_OR",
        types: "bool",
        by: &["logical_or_bool"],
    },
    Verified {
        op: "LOGISTIC",
        types: "float32",
        by: &["logistic_f32", "mp_hand_landmark_lite"],
    },
    Verified {
        op: "LOGISTIC",
        types: "int16",
        by: &["logistic_int16"],
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
        op: "LOG_SOFTMAX",
        types: "float32",
        by: &["log_softmax_f32"],
    },
    Verified {
        op: "LOG_SOFTMAX",
        types: "int8",
        by: &["log_softmax_int8"],
    },
    Verified {
        op: "MAXIMUM",
        types: "float32",
        by: &["maximum_f32"],
    },
    Verified {
        op: "MAXIMUM",
        types: "int16",
        by: &["maximum_int16"],
    },
    Verified {
        op: "MAXIMUM",
        types: "int8",
        by: &["maximum_int8"],
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
        types: "int16",
        by: &["max_pool_2d_int16"],
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
        types: "int16",
        by: &["mean_int16"],
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
        op: "MINIMUM",
        types: "float32",
        by: &["minimum_f32"],
    },
    Verified {
        op: "MINIMUM",
        types: "int16",
        by: &["minimum_int16"],
    },
    Verified {
        op: "MINIMUM",
        types: "int8",
        by: &["minimum_int8"],
    },
    Verified {
        op: "MIRROR_PAD",
        types: "float32",
        by: &["mirror_pad_f32"],
    },
    Verified {
        op: "MIRROR_PAD",
        types: "int16",
        by: &["mirror_pad_int16"],
    },
    Verified {
        op: "MIRROR_PAD",
        types: "int8",
        by: &["mirror_pad_int8"],
    },
    Verified {
        op: "MUL",
        types: "float32",
        by: &[
            "mobilenet_v3_small_f32",
            "mul_f32",
            "var_handle_f32",
            "while_loop_f32",
        ],
    },
    Verified {
        op: "MUL",
        types: "int16",
        by: &["mul_int16", "var_handle_int16"],
    },
    Verified {
        op: "MUL",
        types: "int8",
        by: &[
            "efficientnet_b0_int8",
            "mul_int8",
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
            "var_handle_int8",
        ],
    },
    Verified {
        op: "NEG",
        types: "float32",
        by: &["neg_f32"],
    },
    Verified {
        op: "NOT_EQUAL",
        types: "float32",
        by: &["not_equal_f32"],
    },
    Verified {
        op: "ONE_HOT",
        types: "int32",
        by: &["one_hot_i32"],
    },
    Verified {
        op: "PACK",
        types: "float32",
        by: &["pack_f32"],
    },
    Verified {
        op: "PACK",
        types: "int16",
        by: &["pack_int16"],
    },
    Verified {
        op: "PACK",
        types: "int8",
        by: &["pack_int8"],
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
        types: "int16",
        by: &["pad_int16"],
    },
    Verified {
        op: "PAD",
        types: "int8",
        by: &["nasnet_cells_int8", "nasnet_mobile_int8", "pad_int8"],
    },
    Verified {
        op: "PADV2",
        types: "float32",
        by: &["padv2_f32"],
    },
    Verified {
        op: "PADV2",
        types: "int8",
        by: &["padv2_int8"],
    },
    Verified {
        op: "POW",
        types: "float32",
        by: &["pow_f32"],
    },
    Verified {
        op: "PRELU",
        types: "float32",
        by: &["mp_palm_detection_lite", "prelu_f32"],
    },
    Verified {
        op: "PRELU",
        types: "int8",
        by: &["prelu_int8"],
    },
    Verified {
        op: "QUANTIZE",
        types: "float32",
        by: &[
            "quantize_int16",
            "quantize_int8",
            "test_conv_model",
            "var_handle_int8",
        ],
    },
    Verified {
        op: "QUANTIZE",
        types: "int16",
        by: &[
            "concatenation_int16",
            "keyword_scrambled",
            "maximum_int16",
            "minimum_int16",
            "pack_int16",
        ],
    },
    Verified {
        op: "READ_VARIABLE",
        types: "resource",
        by: &["var_handle_f32", "var_handle_int16", "var_handle_int8"],
    },
    Verified {
        op: "REDUCE_ANY",
        types: "bool",
        by: &["reduce_any_bool"],
    },
    Verified {
        op: "REDUCE_MAX",
        types: "float32",
        by: &["reduce_max_f32"],
    },
    Verified {
        op: "REDUCE_MAX",
        types: "int16",
        by: &["reduce_max_int16"],
    },
    Verified {
        op: "REDUCE_MAX",
        types: "int8",
        by: &["reduce_max_int8"],
    },
    Verified {
        op: "REDUCE_MIN",
        types: "float32",
        by: &["reduce_min_f32"],
    },
    Verified {
        op: "REDUCE_MIN",
        types: "int16",
        by: &["reduce_min_int16"],
    },
    Verified {
        op: "REDUCE_MIN",
        types: "int8",
        by: &["reduce_min_int8"],
    },
    Verified {
        op: "REDUCE_PROD",
        types: "float32",
        by: &["reduce_prod_f32"],
    },
    Verified {
        op: "REDUCE_PROD",
        types: "int16",
        by: &["reduce_prod_int16"],
    },
    Verified {
        op: "REDUCE_PROD",
        types: "int8",
        by: &["reduce_prod_int8"],
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
        types: "int16",
        by: &["relu_int16"],
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
        types: "int16",
        by: &["relu6_int16"],
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
        types: "int16",
        by: &["reshape_int16"],
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
        types: "int16",
        by: &["resize_bilinear_int16"],
    },
    Verified {
        op: "RESIZE_BILINEAR",
        types: "int8",
        by: &["resize_bilinear_int8"],
    },
    Verified {
        op: "RESIZE_NEAREST_NEIGHBOR",
        types: "float32",
        by: &["resize_nearest_neighbor_f32"],
    },
    Verified {
        op: "RESIZE_NEAREST_NEIGHBOR",
        types: "int16",
        by: &["resize_nearest_neighbor_int16"],
    },
    Verified {
        op: "RESIZE_NEAREST_NEIGHBOR",
        types: "int8",
        by: &["resize_nearest_neighbor_int8"],
    },
    Verified {
        op: "REVERSE_V2",
        types: "float32",
        by: &["reverse_v2_f32"],
    },
    Verified {
        op: "REVERSE_V2",
        types: "int16",
        by: &["reverse_v2_int16"],
    },
    Verified {
        op: "REVERSE_V2",
        types: "int8",
        by: &["reverse_v2_int8"],
    },
    Verified {
        op: "ROUND",
        types: "float32",
        by: &["round_f32"],
    },
    Verified {
        op: "RSQRT",
        types: "float32",
        by: &["rsqrt_f32"],
    },
    Verified {
        op: "RSQRT",
        types: "int16",
        by: &["rsqrt_int16"],
    },
    Verified {
        op: "RSQRT",
        types: "int8",
        by: &["rsqrt_int8"],
    },
    Verified {
        op: "SCATTER_ND",
        types: "int32",
        by: &["scatter_nd_f32", "scatter_nd_int8"],
    },
    Verified {
        op: "SELECT",
        types: "bool",
        by: &["select_f32", "select_int16", "select_int8"],
    },
    Verified {
        op: "SELECT_V2",
        types: "bool",
        by: &["select_v2_f32", "select_v2_int8"],
    },
    Verified {
        op: "SHAPE",
        types: "float32",
        by: &["shape_dynbatch_f32"],
    },
    Verified {
        op: "SIGN",
        types: "float32",
        by: &["sign_f32"],
    },
    Verified {
        op: "SIN",
        types: "float32",
        by: &["sin_f32"],
    },
    Verified {
        op: "SLICE",
        types: "float32",
        by: &["slice_f32"],
    },
    Verified {
        op: "SLICE",
        types: "int16",
        by: &["slice_int16"],
    },
    Verified {
        op: "SLICE",
        types: "int8",
        by: &["slice_int8"],
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
        op: "SPACE_TO_BATCH_ND",
        types: "float32",
        by: &["space_to_batch_nd_f32"],
    },
    Verified {
        op: "SPACE_TO_BATCH_ND",
        types: "int16",
        by: &["space_to_batch_nd_int16"],
    },
    Verified {
        op: "SPACE_TO_BATCH_ND",
        types: "int8",
        by: &["space_to_batch_nd_int8"],
    },
    Verified {
        op: "SPACE_TO_DEPTH",
        types: "float32",
        by: &["space_to_depth_f32"],
    },
    Verified {
        op: "SPACE_TO_DEPTH",
        types: "int8",
        by: &["space_to_depth_int8"],
    },
    Verified {
        op: "SPLIT",
        types: "int32",
        by: &["split_f32", "split_int16", "split_int8"],
    },
    Verified {
        op: "SPLIT_V",
        types: "float32",
        by: &["split_v_f32"],
    },
    Verified {
        op: "SPLIT_V",
        types: "int16",
        by: &["split_v_int16"],
    },
    Verified {
        op: "SPLIT_V",
        types: "int8",
        by: &["split_v_int8"],
    },
    Verified {
        op: "SQRT",
        types: "float32",
        by: &["sqrt_f32"],
    },
    Verified {
        op: "SQRT",
        types: "int8",
        by: &["sqrt_int8"],
    },
    Verified {
        op: "SQUARE",
        types: "float32",
        by: &["square_f32"],
    },
    Verified {
        op: "SQUARED_DIFFERENCE",
        types: "float32",
        by: &["squared_difference_f32"],
    },
    Verified {
        op: "SQUARED_DIFFERENCE",
        types: "int16",
        by: &["squared_difference_int16"],
    },
    Verified {
        op: "SQUARED_DIFFERENCE",
        types: "int8",
        by: &["squared_difference_int8"],
    },
    Verified {
        op: "SQUEEZE",
        types: "float32",
        by: &["squeeze_dynbatch_f32"],
    },
    Verified {
        op: "SQUEEZE",
        types: "int16",
        by: &["squeeze_dynbatch_int16"],
    },
    Verified {
        op: "SQUEEZE",
        types: "int8",
        by: &["squeeze_dynbatch_int8"],
    },
    Verified {
        op: "STRIDED_SLICE",
        types: "float32",
        by: &["lstm_f32", "strided_slice_f32", "strided_slice_strided_f32"],
    },
    Verified {
        op: "STRIDED_SLICE",
        types: "int16",
        by: &["strided_slice_int16", "strided_slice_strided_int16"],
    },
    Verified {
        op: "STRIDED_SLICE",
        types: "int8",
        by: &[
            "nasnet_cells_int8",
            "nasnet_mobile_int8",
            "strided_slice_int8",
            "strided_slice_strided_int8",
        ],
    },
    Verified {
        op: "SUB",
        types: "float32",
        by: &["sub_f32"],
    },
    Verified {
        op: "SUB",
        types: "int16",
        by: &["sub_int16"],
    },
    Verified {
        op: "SUB",
        types: "int8",
        by: &["sub_int8"],
    },
    Verified {
        op: "SUM",
        types: "float32",
        by: &["sum_f32"],
    },
    Verified {
        op: "SUM",
        types: "int16",
        by: &["sum_int16"],
    },
    Verified {
        op: "SUM",
        types: "int8",
        by: &["sum_int8"],
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
        types: "int16",
        by: &["tanh_int16"],
    },
    Verified {
        op: "TANH",
        types: "int8",
        by: &["tanh_int8"],
    },
    Verified {
        op: "TILE",
        types: "float32",
        by: &["tile_f32"],
    },
    Verified {
        op: "TILE",
        types: "int16",
        by: &["tile_int16"],
    },
    Verified {
        op: "TILE",
        types: "int8",
        by: &["tile_int8"],
    },
    Verified {
        op: "TOPK_V2",
        types: "float32",
        by: &["topk_v2_f32"],
    },
    Verified {
        op: "TOPK_V2",
        types: "int8",
        by: &["topk_v2_int8"],
    },
    Verified {
        op: "TRANSPOSE",
        types: "float32",
        by: &["transpose_f32"],
    },
    Verified {
        op: "TRANSPOSE",
        types: "int16",
        by: &["transpose_int16"],
    },
    Verified {
        op: "TRANSPOSE",
        types: "int8",
        by: &["transpose_int8"],
    },
    Verified {
        op: "TRANSPOSE_CONV",
        types: "int16",
        by: &["transpose_conv_int16"],
    },
    Verified {
        op: "TRANSPOSE_CONV",
        types: "int8",
        by: &["transpose_conv_int8"],
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
        op: "UNPACK",
        types: "float32",
        by: &["unpack_f32"],
    },
    Verified {
        op: "UNPACK",
        types: "int16",
        by: &["unpack_int16"],
    },
    Verified {
        op: "UNPACK",
        types: "int8",
        by: &["unpack_int8"],
    },
    Verified {
        op: "VAR_HANDLE",
        types: "none",
        by: &["var_handle_f32", "var_handle_int16", "var_handle_int8"],
    },
    Verified {
        op: "WHILE",
        types: "int32",
        by: &["while_loop_f32"],
    },
];
