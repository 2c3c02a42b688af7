//! The XNNPACK values and runtime ops a partition becomes (`runtime`): the subgraph the
//! delegate's `Subgraph::Create` defines (its tensor loop, then each node's `Visit*Node` with
//! a subgraph), rewritten by `xnn_subgraph_optimize` as far as `rewrites` models it, then one
//! runtime op per remaining node.

use super::*;

/// One XNNPACK value the plan cares about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    pub id: u32,
    /// The model tensor it stands for (`None`: a value a rewrite made).
    pub tensor: Option<usize>,
    pub bytes: u64,
    /// Planned in the workspace (not external, not static).
    pub workspace: bool,
    /// The tensor's label, or what the rewrite made it for; ends with `[v<id>]`.
    pub name: String,
    /// A dynamically quantised value (`qduint8`): its batch rows, each with quantisation
    /// parameters (8 bytes) and a row sum (4 bytes) planned after the data, with 15 rows more
    /// (`XNN_EXTRA_QUANTIZATION_PARAMS`) and each part rounded on its own.
    pub quantised_rows: Option<u64>,
}

impl Value {
    /// Bytes XNNPACK plans for it on `platform` (`xnn_plan_memory`).
    pub fn planned_bytes(&self, platform: Platform) -> u64 {
        let extra = self.quantised_rows.map_or(0, |rows| {
            platform.rounded((rows + 15) * 8) + platform.rounded((rows + 15) * 4)
        });
        platform.rounded(self.bytes) + extra
    }
}

/// One op of a partition's runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Op {
    pub kind: &'static str,
    /// The TFLite node it came from.
    pub node: usize,
    /// "kind (node N OP)", for the op axis.
    pub label: String,
    /// Value ids read and written (static weights left out: they are never planned).
    pub inputs: Vec<u32>,
    pub outputs: Vec<u32>,
    /// Bytes of its own workspace (before rounding).
    pub workspace_bytes: u64,
}

/// A partition as XNNPACK runs it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Runtime {
    pub values: Vec<Value>,
    pub ops: Vec<Op>,
    /// Values in the id space (defined or not): op workspaces are numbered after them.
    pub num_values: u32,
    /// What of this runtime is not modelled, per node: "subgraph S node K (OP: what)".
    pub not_modelled: Vec<String>,
}

/// Where XNNPACK keeps a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Alloc {
    /// Data of the model (or unpacked once at prepare).
    Static,
    /// TFLite's memory: a partition input or output, or a resource variable.
    External,
    /// Planned in the workspace.
    Workspace,
}

/// A value of the XNNPACK subgraph.
#[derive(Clone, Debug)]
pub(super) struct XValue {
    pub(super) tensor: Option<usize>,
    pub(super) bytes: u64,
    pub(super) elements: u64,
    pub(super) rank: usize,
    pub(super) alloc: Alloc,
    /// `XNN_VALUE_FLAG_EXTERNAL_INPUT` / `_OUTPUT` (an external output counts one consumer
    /// more).
    pub(super) ext_in: bool,
    pub(super) ext_out: bool,
    /// A float value (the fusions that need fp32 or fp16 check it).
    pub(super) float: bool,
    /// An 8-bit value (what a lookup table maps).
    pub(super) bits8: bool,
    pub(super) name: String,
    pub(super) quantised_rows: Option<u64>,
    /// Cleared by a rewrite (`xnn_value_clear`).
    pub(super) cleared: bool,
}

/// What the rewrites need to know of a node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Role {
    /// Cleared by a rewrite (`xnn_node_clear`): an `invalid` op that keeps its index.
    Invalid,
    /// A unary clamp (RELU, RELU6, RELU_N1_TO_1, a fused activation, a MINIMUM or MAXIMUM
    /// with a static scalar).
    Clamp,
    /// A unary square (SQUARE, or MUL(x, x)).
    Square,
    Unary,
    /// A unary lookup table a fusion made (not a pure unary op any more).
    Lut,
    Binary(BinaryOp),
    /// A node with an activation of its own a clamp merges into (`has_clamp`): pools, fully
    /// connected, deconvolution.
    Clamped,
    /// A convolution or depthwise convolution: `same` when it keeps TensorFlow SAME padding.
    Conv {
        same: bool,
    },
    /// A constant pad; `spatial` when it pads only the height and width of a 4-D value.
    Pad {
        spatial: bool,
    },
    Copy,
    /// A static sum or mean (of a float input: `float`).
    SumOrMean {
        mean: bool,
    },
    /// A static reshape; `static_shape` when its new shape has no unknown dimension.
    Reshape {
        static_shape: bool,
    },
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BinaryOp {
    Mul,
    Min,
    Max,
    Other,
}

/// A node of the XNNPACK subgraph.
#[derive(Clone, Debug)]
pub(super) struct XNode {
    pub(super) kind: &'static str,
    pub(super) role: Role,
    /// The TFLite node it came from.
    pub(super) node: usize,
    pub(super) inputs: Vec<u32>,
    pub(super) outputs: Vec<u32>,
    pub(super) workspace_bytes: u64,
}

impl XNode {
    pub(super) fn clear(&mut self) {
        self.kind = "invalid";
        self.role = Role::Invalid;
        self.inputs.clear();
        self.outputs.clear();
        self.workspace_bytes = 0;
    }

    pub(super) fn invalid(&self) -> bool {
        self.role == Role::Invalid
    }
}

/// The XNNPACK subgraph of one partition: values by id (`None`: an id no value holds).
#[derive(Clone, Debug, Default)]
pub(super) struct XGraph {
    pub(super) values: Vec<Option<XValue>>,
    pub(super) nodes: Vec<XNode>,
}

impl XGraph {
    pub(super) fn value(&self, v: u32) -> Option<&XValue> {
        self.values
            .get(v as usize)
            .and_then(Option::as_ref)
            .filter(|x| !x.cleared)
    }

    pub(super) fn push(&mut self, value: XValue) -> u32 {
        self.values.push(Some(value));
        (self.values.len() - 1) as u32
    }

    fn reserve(&mut self) -> u32 {
        self.values.push(None);
        (self.values.len() - 1) as u32
    }

    pub(super) fn is_static(&self, v: u32) -> bool {
        self.value(v).is_some_and(|x| x.alloc == Alloc::Static)
    }
}

/// The values and runtime ops of `p`.
pub fn runtime(model: &Model, p: &Partition) -> Runtime {
    let si = p.subgraph;
    let sg = &model.subgraphs[si];
    let mut notes: Vec<String> = Vec::new();
    let mut note = |n: usize, what: &str| {
        notes.push(format!(
            "subgraph {si} node {n} ({}: {what})",
            model.op_name(&sg.operators[n])
        ));
    };
    let unpacking = static_unpack_nodes(model, si);
    let unpack = |n: usize| unpacking.get(n).copied().unwrap_or(false);
    // `f16_input_tensor_for_dequant_f32_tensor_`: every skipped fp16 DEQUANTIZE of the
    // subgraph (the delegate adds their fp16 inputs to every partition's tensors).
    let f16_skips: Vec<(i32, i32)> = (0..sg.operators.len())
        .filter(|&n| skipped_dequantize(model, si, n))
        .map(|n| (sg.operators[n].outputs[0], sg.operators[n].inputs[0]))
        .collect();
    let source = |t: i32| {
        f16_skips
            .iter()
            .find(|(out, _)| *out == t)
            .map_or(t, |(_, input)| *input)
    };
    // The tensor loop of `Subgraph::Create`: per node, the inputs XNNPACK reads (the others
    // are parameters) and the outputs.
    let mut set: Vec<usize> = Vec::new();
    for &n in p.nodes.iter().filter(|&&n| !unpack(n)) {
        let op = &sg.operators[n];
        let reads: Vec<i32> = match op.builtin {
            ops::EXPAND_DIMS
            | ops::MEAN
            | ops::PAD
            | ops::REDUCE_MAX
            | ops::REDUCE_MIN
            | ops::SUM
            | ops::RESHAPE
            | RESIZE_BILINEAR
            | STRIDED_SLICE
            | SLICE
            | TRANSPOSE => op.inputs.iter().take(1).copied().collect(),
            SPLIT => op.inputs.iter().skip(1).take(1).copied().collect(),
            ops::TRANSPOSE_CONV => op.inputs.iter().skip(1).copied().collect(),
            _ => op.inputs.clone(),
        };
        set.extend(
            reads
                .into_iter()
                .chain(op.outputs.iter().copied())
                .filter_map(|t| usize::try_from(t).ok()),
        );
    }
    for &(out, input) in &f16_skips {
        set.retain(|&t| t as i32 != out);
        if let Ok(i) = usize::try_from(input) {
            set.push(i);
        }
    }
    set.sort_unstable();
    set.dedup();

    // Quasi-static tensors: outputs of the nodes that unpack static data.
    let quasi = |t: usize| {
        p.nodes
            .iter()
            .any(|&n| unpack(n) && sg.operators[n].outputs.first() == Some(&(t as i32)))
    };
    let resource = |t: usize| sg.tensors[t].dtype == TensorType::Resource;
    // How the resource variables are used: read (external input), assigned (external output).
    let read = |t: usize| {
        p.nodes.iter().any(|&n| {
            sg.operators[n].builtin == ops::READ_VARIABLE
                && sg.operators[n].inputs.first() == Some(&(t as i32))
        })
    };
    let assigned = |t: usize| {
        p.nodes.iter().any(|&n| {
            sg.operators[n].builtin == ops::ASSIGN_VARIABLE
                && sg.operators[n].inputs.first() == Some(&(t as i32))
        })
    };
    let proxy = |t: usize| -> Option<usize> {
        p.nodes.iter().find_map(|&n| {
            let op = &sg.operators[n];
            let of = |k: usize| op.inputs.get(k).and_then(|&x| usize::try_from(x).ok());
            match op.builtin {
                ops::READ_VARIABLE if of(0) == Some(t) => {
                    op.outputs.first().and_then(|&x| usize::try_from(x).ok())
                }
                ops::ASSIGN_VARIABLE if of(0) == Some(t) => of(1),
                _ => None,
            }
        })
    };
    let labels = model.tensor_labels(si);
    let ext_out = |t: usize| p.outputs.contains(&t) && !quasi(t) && !resource(t);
    let ext_in = |t: usize| p.inputs.contains(&t) && !sg.tensors[t].is_constant && !quasi(t);
    let mut g = XGraph::default();
    let mut id_of: std::collections::HashMap<usize, u32> = Default::default();
    // Externals are numbered 0, 1, … in tensor order; the others from the set's size up
    // (`xnn_create_subgraph(tensors.size())`).
    g.values = vec![None; set.len()];
    let mut next_external = 0usize;
    for &t in &set {
        let tensor = &sg.tensors[t];
        let shape_of = |x: usize| &sg.tensors[x].shape;
        let (alloc, e_in, e_out, shape) = if resource(t) {
            let (r, a) = (read(t), assigned(t));
            let Some(px) = proxy(t).filter(|_| r || a) else {
                // A resource no node gives a type: not defined (`flags == 0`).
                continue;
            };
            (Alloc::External, r, a, shape_of(px))
        } else if tensor.is_constant || quasi(t) {
            (Alloc::Static, false, false, &tensor.shape)
        } else if ext_in(t) || ext_out(t) {
            (Alloc::External, ext_in(t), ext_out(t), &tensor.shape)
        } else {
            (Alloc::Workspace, false, false, &tensor.shape)
        };
        let dtype_of = if resource(t) {
            proxy(t).map_or(tensor.dtype, |px| sg.tensors[px].dtype)
        } else {
            tensor.dtype
        };
        let bytes = if resource(t) {
            proxy(t).and_then(|px| sg.tensors[px].bytes).unwrap_or(0)
        } else {
            tensor.bytes.unwrap_or(0)
        };
        let value = XValue {
            tensor: Some(t),
            bytes,
            elements: shape.iter().map(|&d| d.max(0) as u64).product(),
            rank: shape.len(),
            alloc,
            ext_in: e_in,
            ext_out: e_out,
            float: matches!(dtype_of, TensorType::Float32 | TensorType::Float16),
            bits8: matches!(dtype_of, TensorType::Int8 | TensorType::Uint8),
            name: labels[t].clone(),
            quantised_rows: None,
            cleared: false,
        };
        let id = if !resource(t) && (ext_in(t) || ext_out(t)) {
            let id = next_external;
            next_external += 1;
            g.values[id] = Some(value);
            id as u32
        } else {
            g.push(value)
        };
        id_of.insert(t, id);
    }
    let id = |t: i32| -> Option<u32> {
        let t = usize::try_from(source(t)).ok()?;
        id_of.get(&t).copied()
    };
    let value_like = |g: &XGraph, of: u32, name: String| -> XValue {
        let base = g.value(of).cloned();
        XValue {
            tensor: None,
            bytes: base.as_ref().map_or(0, |b| b.bytes),
            elements: base.as_ref().map_or(0, |b| b.elements),
            rank: base.as_ref().map_or(0, |b| b.rank),
            alloc: Alloc::Workspace,
            ext_in: false,
            ext_out: false,
            float: base.as_ref().is_some_and(|b| b.float),
            bits8: base.as_ref().is_some_and(|b| b.bits8),
            name,
            quantised_rows: None,
            cleared: false,
        }
    };
    let label_of = |t: i32| {
        usize::try_from(t)
            .ok()
            .and_then(|t| labels.get(t).cloned())
            .unwrap_or_default()
    };

    // The nodes, as each `Visit*Node` defines them.
    for &n in p.nodes.iter().filter(|&&n| !unpack(n)) {
        let op = &sg.operators[n];
        let ins: Vec<u32> = op.inputs.iter().filter_map(|&t| id(t)).collect();
        let outs: Vec<u32> = op.outputs.iter().filter_map(|&t| id(t)).collect();
        let first = op.inputs.first().copied().unwrap_or(-1);
        let x0 = id(first);
        let o0 = op.outputs.first().and_then(|&t| id(t));
        let one = |kind: &'static str, role: Role, inputs: Vec<u32>, outputs: Vec<u32>| XNode {
            kind,
            role,
            node: n,
            inputs,
            outputs,
            workspace_bytes: 0,
        };
        let first_only: Vec<u32> = x0.into_iter().collect();
        let node = match op.builtin {
            ops::RELU | RELU6 | RELU_N1_TO_1 => one("unary_elementwise", Role::Clamp, ins, outs),
            SQUARE => one("unary_elementwise", Role::Square, ins, outs),
            ABS
            | CEIL
            | COS
            | EXP
            | FLOOR
            | GELU
            | ops::HARD_SWISH
            | LOG
            | NEG
            | ROUND
            | RSQRT
            | SIN
            | SQRT
            | ELU
            | ops::LOGISTIC
            | ops::TANH
            | LEAKY_RELU
            | ops::QUANTIZE
            | ops::DEQUANTIZE => one("unary_elementwise", Role::Unary, ins, outs),
            ops::ADD
            | ops::SUB
            | ops::MUL
            | ops::DIV
            | ops::MAXIMUM
            | ops::MINIMUM
            | PRELU
            | SQUARED_DIFFERENCE => {
                let role = Role::Binary(match op.builtin {
                    ops::MUL => BinaryOp::Mul,
                    ops::MAXIMUM => BinaryOp::Max,
                    ops::MINIMUM => BinaryOp::Min,
                    _ => BinaryOp::Other,
                });
                if let (Options::Binary { activation: 1..=3 }, Some(o)) = (&op.options, o0) {
                    // A fused activation becomes a clamp node: the binary op writes a new
                    // value, the clamp reads it into the node's output (`xnn_insert_clamp_node`).
                    let inner = g.push(value_like(
                        &g,
                        o,
                        format!("{} before its clamp", label_of(op.outputs[0])),
                    ));
                    g.nodes
                        .push(one("binary_elementwise", role, ins, vec![inner]));
                    one("unary_elementwise", Role::Clamp, vec![inner], vec![o])
                } else {
                    one("binary_elementwise", role, ins, outs)
                }
            }
            ops::MAX_POOL_2D | ops::AVERAGE_POOL_2D => {
                let unit = matches!(
                    op.options,
                    Options::Pool2D {
                        filter_w: 1,
                        filter_h: 1,
                        ..
                    }
                );
                if unit {
                    // A 1x1 pool is a clamp of its activation's range, which XNNPACK then
                    // elides or turns into a copy (`spurious_clamps`): not modelled.
                    note(n, "a 1x1 pool becomes a clamp, then a copy or nothing");
                    one("unary_elementwise", Role::Clamp, ins, outs)
                } else if op.builtin == ops::MAX_POOL_2D {
                    one("max_pooling_2d", Role::Clamped, ins, outs)
                } else {
                    one("average_pooling_2d", Role::Clamped, ins, outs)
                }
            }
            ops::CONCATENATION => one("concatenate", Role::Other, ins, outs),
            ops::CONV_2D => {
                // SAME padding at stride 1 is made explicit (xnn_define_convolution_2d): only a
                // strided SAME convolution keeps the TensorFlow SAME flag.
                let same = matches!(op.options, Options::Conv2D { padding: 0, stride_w, stride_h, .. }
                    if (stride_w, stride_h) != (1, 1));
                let hybrid = dtype(model, si, first) == Some(TensorType::Float32)
                    && dtype(model, si, op.inputs.get(1).copied().unwrap_or(-1))
                        == Some(TensorType::Int8);
                if let Some(rows) = dynamic_range_conv(model, si, op) {
                    // Dynamic range: a convert op quantises the input into a value of its
                    // own (one byte an element, then the rows' parameters and sums); the
                    // filter is re-defined as a per-channel int8 value, one id more; the
                    // convolution reads the quantised value.
                    let mut q = value_like(
                        &g,
                        x0.unwrap_or(0),
                        format!("{} quantised", label_of(first)),
                    );
                    q.bytes = q.elements;
                    q.float = false;
                    q.bits8 = true;
                    q.quantised_rows = Some(rows);
                    let quantised = g.push(q);
                    g.reserve();
                    g.nodes.push(one(
                        "convert",
                        Role::Other,
                        first_only.clone(),
                        vec![quantised],
                    ));
                    let mut inputs = vec![quantised];
                    inputs.extend(ins.iter().skip(1));
                    one("convolution_2d", Role::Conv { same }, inputs, outs)
                } else {
                    if hybrid {
                        note(
                            n,
                            "a 1x1 dynamic-range convolution runs as a fully connected over \
                             every pixel, whose row tile depends on the CPU",
                        );
                    }
                    one("convolution_2d", Role::Conv { same }, ins, outs)
                }
            }
            ops::DEPTHWISE_CONV_2D => {
                let same = matches!(op.options, Options::DepthwiseConv2D { padding: 0, stride_w, stride_h, .. }
                    if (stride_w, stride_h) != (1, 1));
                one("depthwise_convolution_2d", Role::Conv { same }, ins, outs)
            }
            DEPTH_TO_SPACE => one("depth_to_space_2d", Role::Other, ins, outs),
            SPACE_TO_DEPTH => one("space_to_depth_2d", Role::Other, ins, outs),
            ops::FULLY_CONNECTED => {
                let keep_dims = matches!(
                    op.options,
                    Options::FullyConnected {
                        keep_num_dims: true,
                        ..
                    }
                );
                let low_bit = matches!(
                    dtype(model, si, op.inputs.get(1).copied().unwrap_or(-1)),
                    Some(TensorType::Int8 | TensorType::Int4 | TensorType::Int2)
                );
                let input_type = dtype(model, si, first);
                let dynamic = matches!(input_type, Some(TensorType::Float32 | TensorType::Float16))
                    && low_bit;
                let srq = input_type == Some(TensorType::Int8) && low_bit;
                let mut input = first_only.clone();
                if !keep_dims {
                    // The flattening reshape onto a new value of the input's bytes.
                    let flat = g.push(value_like(
                        &g,
                        x0.unwrap_or(0),
                        format!("{} flattened", label_of(first)),
                    ));
                    g.nodes.push(one(
                        "static_reshape",
                        Role::Reshape {
                            static_shape: false,
                        },
                        first_only.clone(),
                        vec![flat],
                    ));
                    input = vec![flat];
                }
                let row = dynamic_range_row(model, si, op);
                if dynamic {
                    // Dynamic range: the quantised row (the op's workspace) and the filter
                    // re-defined, two ids.
                    g.reserve();
                    g.reserve();
                    if row.is_none() {
                        note(
                            n,
                            "a dynamic-range fully connected over several rows pads them to \
                             the CPU's row tile",
                        );
                    }
                } else if srq {
                    // The int8 filter re-defined as a per-channel static value: an id.
                    g.reserve();
                }
                let mut inputs = input;
                inputs.extend(ins.iter().skip(1));
                let mut fc = one("fully_connected", Role::Clamped, inputs, outs);
                fc.workspace_bytes = row.map_or(0, |k| crate::analysis::round_up(k, 4) + 8);
                fc
            }
            ops::REDUCE_MAX | ops::REDUCE_MIN | ops::SUM | ops::MEAN => {
                let (kind, role) = match op.builtin {
                    ops::REDUCE_MAX => ("static_reduce_max", Role::Other),
                    ops::REDUCE_MIN => ("static_reduce_min", Role::Other),
                    ops::SUM => ("static_sum", Role::SumOrMean { mean: false }),
                    _ => ("static_mean", Role::SumOrMean { mean: true }),
                };
                let mut r = one(kind, role, first_only.clone(), outs);
                r.workspace_bytes = reduce_workspace(model, si, op);
                r
            }
            ops::PAD => {
                let spatial = dtype(model, si, first).is_some()
                    && sg
                        .tensors
                        .get(op.outputs[0] as usize)
                        .is_some_and(|t| t.shape.len() == 4)
                    && pad_amounts(model, si, op)
                        .is_some_and(|p| p.len() == 4 && p[0] == (0, 0) && p[3] == (0, 0));
                one(
                    "static_constant_pad",
                    Role::Pad { spatial },
                    first_only,
                    outs,
                )
            }
            ops::READ_VARIABLE | ops::ASSIGN_VARIABLE => {
                // A copy between the resource's value and the node's tensor.
                let (from, to) = if op.builtin == ops::READ_VARIABLE {
                    (x0, o0)
                } else {
                    (op.inputs.get(1).and_then(|&t| id(t)), x0)
                };
                one(
                    "copy",
                    Role::Copy,
                    from.into_iter().collect(),
                    to.into_iter().collect(),
                )
            }
            ops::VAR_HANDLE => continue,
            ops::RESHAPE => {
                let shape = reshape_target(model, si, op);
                let static_shape = shape.as_ref().is_some_and(|s| s.iter().all(|&d| d > 0));
                one(
                    "static_reshape",
                    Role::Reshape { static_shape },
                    first_only,
                    outs,
                )
            }
            RESIZE_BILINEAR => one("static_resize_bilinear_2d", Role::Other, first_only, outs),
            SLICE | STRIDED_SLICE => one("static_slice", Role::Other, first_only, outs),
            ops::SOFTMAX => one("softmax", Role::Other, ins, outs),
            SPLIT => one(
                "even_split",
                Role::Other,
                op.inputs.get(1).and_then(|&t| id(t)).into_iter().collect(),
                outs,
            ),
            TRANSPOSE => one("static_transpose", Role::Other, first_only, outs),
            ops::TRANSPOSE_CONV => {
                let inputs: Vec<u32> = [2, 1, 3]
                    .iter()
                    .filter_map(|&k| op.inputs.get(k).and_then(|&t| id(t)))
                    .collect();
                if dtype(model, si, op.inputs.get(2).copied().unwrap_or(-1))
                    == Some(TensorType::Float32)
                    && dtype(model, si, op.inputs.get(1).copied().unwrap_or(-1))
                        == Some(TensorType::Int8)
                {
                    note(n, "a dynamic-range transpose convolution is not modelled");
                }
                one("deconvolution_2d", Role::Clamped, inputs, outs)
            }
            ops::BATCH_MATMUL => {
                note(
                    n,
                    "batch matrix multiply: a dynamic right-hand side is packed into the op's \
                     workspace at a size that depends on the CPU's GEMM tile",
                );
                one("batch_matrix_multiply", Role::Other, ins, outs)
            }
            _ => {
                note(n, "its XNNPACK nodes are not modelled");
                one("unknown", Role::Other, ins, outs)
            }
        };
        g.nodes.push(node);
    }

    // A tensor whose shape an op computes from data at run time (a `-1` in its signature and
    // a producer with a non-constant integer input, e.g. a RESHAPE to a computed shape): its
    // shape in the file is a placeholder, and XNNPACK reshapes the runtime to the real one.
    let data_shaped = |t: usize| {
        sg.tensors[t].has_dynamic_dims()
            && sg.operators.iter().any(|op| {
                op.outputs.contains(&(t as i32))
                    && op.inputs.iter().any(|&i| {
                        tensor_of(model, si, i).is_some_and(|x| {
                            !x.is_constant
                                && matches!(x.dtype, TensorType::Int32 | TensorType::Int64)
                        })
                    })
            })
    };
    if let Some(&t) = set.iter().find(|&&t| data_shaped(t)) {
        if let Some(&n) = p.nodes.iter().find(|&&n| {
            let op = &sg.operators[n];
            op.inputs.iter().chain(&op.outputs).any(|&x| x == t as i32)
        }) {
            note(n, &format!("tensor {t} has a shape only known at run time"));
        }
    }

    // The rewrites of `xnn_subgraph_optimize`.
    optimize(&mut g);

    // The runtime: one op per node; values planned in the workspace are those of workspace
    // allocation still valid and used by an op.
    let used = |v: u32| {
        g.nodes
            .iter()
            .any(|x| x.inputs.contains(&v) || x.outputs.contains(&v))
    };
    let mut values: Vec<Value> = Vec::new();
    for (k, v) in g.values.iter().enumerate() {
        let Some(v) = v.as_ref().filter(|v| !v.cleared) else {
            continue;
        };
        let vid = k as u32;
        values.push(Value {
            id: vid,
            tensor: v.tensor,
            bytes: v.bytes,
            workspace: v.alloc == Alloc::Workspace && used(vid),
            name: format!("{} [v{vid}]", v.name),
            quantised_rows: v.quantised_rows,
        });
    }
    let planned = |v: &u32| !g.is_static(*v);
    let ops_out: Vec<Op> = g
        .nodes
        .iter()
        .map(|x| Op {
            kind: x.kind,
            node: x.node,
            label: format!(
                "{} (node {} {})",
                x.kind,
                x.node,
                model.op_name(&sg.operators[x.node])
            ),
            inputs: x.inputs.iter().copied().filter(planned).collect(),
            outputs: x.outputs.iter().copied().filter(planned).collect(),
            workspace_bytes: x.workspace_bytes,
        })
        .collect();
    Runtime {
        values,
        ops: ops_out,
        num_values: g.values.len() as u32,
        not_modelled: notes,
    }
}

/// The op workspace of a static reduction (`reshape_reduce_nd`): for a non-fp32 input, one
/// accumulator per output element (4 bytes for a sum or a mean, the data's own size for a
/// minimum or maximum) plus `XNN_EXTRA_BYTES`; fp32 reductions accumulate in the output.
fn reduce_workspace(model: &Model, si: usize, op: &Operator) -> u64 {
    let first = op.inputs.first().copied().unwrap_or(-1);
    let Some(ty) = dtype(model, si, first) else {
        return 0;
    };
    if ty == TensorType::Float32 {
        return 0;
    }
    let outputs = op
        .outputs
        .first()
        .and_then(|&t| tensor_of(model, si, t))
        .map_or(0, |t| t.elements());
    let minmax = matches!(op.builtin, ops::REDUCE_MAX | ops::REDUCE_MIN);
    let accumulator = match (minmax, ty) {
        (false, _) => 4,
        (true, TensorType::Float16) => 2,
        (true, _) => 1,
    };
    outputs * accumulator + EXTRA_BYTES
}

/// The new shape a RESHAPE defines (-1 stays -1), when known.
fn reshape_target(model: &Model, si: usize, op: &Operator) -> Option<Vec<i32>> {
    match op.inputs.get(1) {
        Some(&s) if s >= 0 => model.subgraphs[si]
            .detail(usize::try_from(s).ok()?)?
            .i32_data(),
        _ => match &op.options {
            Options::Reshape { new_shape } => Some(new_shape.clone()),
            _ => None,
        },
    }
}
