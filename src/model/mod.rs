//! `.tflite` bytes → an owned [`Model`]: subgraphs, tensors, operators, buffers, metadata.
//!
//! The one idea: nothing here trusts the file. The flatbuffer is verified before any field is
//! read, every tensor/buffer/opcode/subgraph index is checked, and sizes are computed in `u64`
//! with overflow checks, so a hostile file gives a [`ModelError`], never a panic or a huge
//! allocation. The field ids come from the format (DESIGN.md §5), see [`fb`].

mod fb;
pub mod ops;
pub mod patch;
pub mod types;

use std::path::Path;

pub use types::TensorType;

/// Why a model could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("cannot read the file: {0}")]
    Io(#[from] std::io::Error),
    #[error("the file is empty")]
    Empty,
    #[error("the file is too short to be a .tflite model ({0} bytes)")]
    TooShort(usize),
    #[error("not a .tflite model: the file identifier is {0:?}, expected \"TFL3\"")]
    Identifier(String),
    /// The verifier refused the flatbuffer (the sentence is `fb::verify_error_text`'s).
    #[error("{0}")]
    Flatbuffer(String),
    #[error("{0}")]
    Invalid(String),
}

/// An operator code: the builtin op, or a custom op's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperatorCode {
    /// The builtin operator code (the larger of `builtin_code` and `deprecated_builtin_code`).
    pub builtin: i32,
    pub custom: Option<String>,
    pub version: i32,
}

impl OperatorCode {
    /// The operator's name: `CONV_2D`, or the custom code for custom ops.
    pub fn name(&self) -> String {
        match (&self.custom, self.builtin) {
            (Some(c), ops::CUSTOM) => c.clone(),
            _ => ops::name(self.builtin)
                .map(str::to_owned)
                .unwrap_or_else(|| format!("BUILTIN_{}", self.builtin)),
        }
    }
}

/// The builtin options this tool reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Options {
    #[default]
    None,
    /// CONV_2D: `padding` (0 SAME, 1 VALID), strides, dilations, fused activation.
    Conv2D {
        padding: u8,
        stride_w: i32,
        stride_h: i32,
        dilation_w: i32,
        dilation_h: i32,
        activation: u8,
    },
    /// DEPTHWISE_CONV_2D: `padding`, strides, dilations, depth multiplier, fused activation.
    DepthwiseConv2D {
        padding: u8,
        stride_w: i32,
        stride_h: i32,
        dilation_w: i32,
        dilation_h: i32,
        depth_multiplier: i32,
        activation: u8,
    },
    /// MAX_POOL_2D, AVERAGE_POOL_2D, L2_POOL_2D: strides and window.
    Pool2D {
        stride_w: i32,
        stride_h: i32,
        filter_w: i32,
        filter_h: i32,
    },
    Reducer {
        keep_dims: bool,
    },
    While {
        cond_subgraph: i32,
        body_subgraph: i32,
    },
    If {
        then_subgraph: i32,
        else_subgraph: i32,
    },
    CallOnce {
        init_subgraph: i32,
    },
    Svdf {
        rank: i32,
    },
    FullyConnected {
        /// `fused_activation_function` (0: none).
        activation: u8,
        keep_num_dims: bool,
        /// `weights_format` (0: default, 1: shuffled 4x16 int8).
        weights_format: u8,
    },
    /// ADD, SUB, MUL, DIV: their fused activation (0: none).
    Binary {
        activation: u8,
    },
    StridedSlice {
        ellipsis_mask: i32,
        new_axis_mask: i32,
        shrink_axis_mask: i32,
        offset: bool,
    },
    /// VAR_HANDLE: the resource variable's `shared_name` (one variable per distinct name).
    VarHandle {
        shared_name: String,
    },
    /// SOFTMAX: `beta`, as the bits of an `f32` (`Options` is `Eq`).
    Softmax {
        beta_bits: u32,
    },
    /// LEAKY_RELU: `alpha`, as the bits of an `f32`.
    LeakyRelu {
        alpha_bits: u32,
    },
    /// CONCATENATION: the axis and the fused activation.
    Concatenation {
        axis: i32,
        activation: u8,
    },
    /// RESHAPE: `new_shape` (what a reshape without a shape input reshapes to).
    Reshape {
        new_shape: Vec<i32>,
    },
    /// SPACE_TO_DEPTH, DEPTH_TO_SPACE: the block size.
    BlockSize {
        block_size: i32,
    },
    /// SPLIT: the number of splits.
    Split {
        num_splits: i32,
    },
    /// TRANSPOSE_CONV: `padding` (0 SAME, 1 VALID), strides, fused activation.
    TransposeConv {
        padding: u8,
        stride_w: i32,
        stride_h: i32,
        activation: u8,
    },
    /// STABLEHLO_COMPOSITE: the composite's name (`StableHLOCompositeOptions`).
    Composite {
        name: String,
    },
    /// BATCH_MATMUL: whether the left / right operand is transposed.
    BatchMatMul {
        adj_x: bool,
        adj_y: bool,
    },
    /// STABLEHLO_REDUCE_WINDOW (`StablehloReduceWindowOptions`, second union): what sizes
    /// the kernel's temporaries (empty when the file leaves them out).
    StablehloReduceWindow {
        base_dilations: Vec<i64>,
        padding: Vec<i64>,
    },
    /// Some other options table (its union type).
    Other(u8),
}

#[derive(Clone, Debug)]
pub struct Tensor {
    pub name: String,
    pub shape: Vec<i32>,
    /// `shape_signature` when present (`-1` = dimension known only at run time).
    pub shape_signature: Option<Vec<i32>>,
    pub dtype: TensorType,
    pub buffer: u32,
    pub is_variable: bool,
    /// The tensor's buffer holds data: a constant, never in the arena.
    pub is_constant: bool,
    /// Bytes of the tensor (`None` for dynamic types: STRING, RESOURCE, VARIANT).
    pub bytes: Option<u64>,
    /// Quantization channels: the number of scales when the tensor has both scales and zero
    /// points (what TFLM copies into its quantization structs), else 0.
    pub quant_channels: usize,
}

impl Tensor {
    /// True when `shape_signature` has a dimension only known at run time.
    pub fn has_dynamic_dims(&self) -> bool {
        self.shape_signature
            .as_ref()
            .is_some_and(|s| s.iter().any(|&d| d < 0))
    }

    /// Element count of `shape` (already checked for overflow at load time).
    pub fn elements(&self) -> u64 {
        self.shape.iter().map(|&d| d.max(0) as u64).product()
    }

    pub fn shape_string(&self) -> String {
        let dims: Vec<String> = self.shape.iter().map(i32::to_string).collect();
        format!("[{}]", dims.join(", "))
    }
}

#[derive(Clone, Debug)]
pub struct Operator {
    pub opcode_index: u32,
    /// The builtin code of this operator (resolved through its operator code).
    pub builtin: i32,
    /// Tensor indices; `-1` marks an absent optional input.
    pub inputs: Vec<i32>,
    pub outputs: Vec<i32>,
    pub intermediates: Vec<i32>,
    pub options: Options,
    /// A custom operator's options (a FlexBuffer map), as stored.
    pub custom_options: Vec<u8>,
}

impl Operator {
    /// The subgraphs this operator calls, in the order the runtimes walk them
    /// (WHILE: cond, body; IF: then, else; CALL_ONCE: init).
    pub fn called_subgraphs(&self) -> Vec<usize> {
        called_subgraphs(self.builtin, &self.options)
            .into_iter()
            .map(|s| s as usize)
            .collect()
    }
}

/// Subgraph indices an op with these options calls, as stored in the file (unchecked).
fn called_subgraphs(builtin: i32, options: &Options) -> Vec<i32> {
    match *options {
        Options::While {
            cond_subgraph,
            body_subgraph,
        } if builtin == ops::WHILE => vec![cond_subgraph, body_subgraph],
        Options::If {
            then_subgraph,
            else_subgraph,
        } if builtin == ops::IF => vec![then_subgraph, else_subgraph],
        Options::CallOnce { init_subgraph } if builtin == ops::CALL_ONCE => vec![init_subgraph],
        _ => vec![],
    }
}

#[derive(Clone, Debug, Default)]
pub struct Subgraph {
    pub name: String,
    pub tensors: Vec<Tensor>,
    pub inputs: Vec<usize>,
    pub outputs: Vec<usize>,
    pub operators: Vec<Operator>,
    /// One per tensor for a subgraph read from a file (empty for one built by hand): what the
    /// XNNPACK delegate's support rules read beyond type and shape.
    pub details: Vec<TensorDetail>,
}

impl Subgraph {
    /// The detail of tensor `t` (`None` when the subgraph has none, or for an index out of
    /// range).
    pub fn detail(&self, t: usize) -> Option<&TensorDetail> {
        self.details.get(t)
    }
}

/// Constants up to this size keep their bytes in [`TensorDetail::data`] (shapes, axes,
/// paddings, permutations, strides, scalars); larger ones (weights) do not.
pub const SMALL_CONSTANT_BYTES: usize = 1024;

/// A tensor's affine quantisation and, for a small constant, its bytes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TensorDetail {
    /// One scale (per tensor) or one per channel; empty without quantisation.
    pub scales: Vec<f32>,
    pub zero_points: Vec<i64>,
    pub quantized_dimension: i32,
    /// The data of a constant of at most [`SMALL_CONSTANT_BYTES`] bytes.
    pub data: Option<Vec<u8>>,
}

impl TensorDetail {
    /// The data as little-endian int32 words (`None` without data).
    pub fn i32_data(&self) -> Option<Vec<i32>> {
        let d = self.data.as_ref()?;
        Some(
            d.chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        )
    }

    /// The data as little-endian int64 words (`None` without data).
    pub fn i64_data(&self) -> Option<Vec<i64>> {
        let d = self.data.as_ref()?;
        Some(
            d.chunks_exact(8)
                .map(|c| i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
                .collect(),
        )
    }
}

#[derive(Clone, Debug)]
pub struct Signature {
    pub key: String,
    pub subgraph: u32,
}

/// A model read from a `.tflite` file, owning all it needs (no borrow of the file bytes).
#[derive(Clone, Debug, Default)]
pub struct Model {
    pub file_bytes: u64,
    pub version: u32,
    pub description: String,
    pub operator_codes: Vec<OperatorCode>,
    pub subgraphs: Vec<Subgraph>,
    /// Number of buffers in the file.
    pub buffer_count: usize,
    pub metadata_names: Vec<String>,
    pub signatures: Vec<Signature>,
    /// TFLM's `OfflineMemoryAllocation` offsets, one per tensor over all subgraphs
    /// (concatenated by subgraph); `-1` = plan online.
    pub offline_offsets: Option<Vec<i32>>,
}

impl Model {
    /// Tensor `t` of subgraph `si` (`None` for -1, an index out of range or no such
    /// subgraph).
    pub fn tensor(&self, si: usize, t: i32) -> Option<&Tensor> {
        self.subgraphs
            .get(si)?
            .tensors
            .get(usize::try_from(t).ok()?)
    }

    pub fn from_path(path: &Path) -> Result<Self, ModelError> {
        if path.is_dir() {
            return Err(ModelError::Invalid(
                "this is a directory, not a model file".into(),
            ));
        }
        let bytes = std::fs::read(path)?;
        Self::from_bytes(&bytes)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ModelError> {
        if bytes.is_empty() {
            return Err(ModelError::Empty);
        }
        if bytes.len() < 8 {
            return Err(ModelError::TooShort(bytes.len()));
        }
        let ident = &bytes[4..8];
        if ident != b"TFL3" {
            return Err(ModelError::Identifier(
                String::from_utf8_lossy(ident).escape_default().to_string(),
            ));
        }
        let opts = flatbuffers::VerifierOptions {
            max_tables: 10_000_000,
            max_apparent_size: usize::MAX,
            ..Default::default()
        };
        let fbm = flatbuffers::root_with_opts::<fb::Model>(&opts, bytes)
            .map_err(|e| ModelError::Flatbuffer(fb::verify_error_text(&e, bytes.len())))?;
        build(fbm, bytes)
    }

    pub fn tensor_count(&self) -> usize {
        self.subgraphs.iter().map(|s| s.tensors.len()).sum()
    }

    pub fn operator_count(&self) -> usize {
        self.subgraphs.iter().map(|s| s.operators.len()).sum()
    }

    /// The names tensors are shown with: the file's name, or for an unnamed tensor (TFLM's
    /// keyword model has no names at all) `#index · OP out` after the operator that produces
    /// it, `#index · input` for a subgraph input, else `#index`.
    pub fn tensor_labels(&self, subgraph: usize) -> Vec<String> {
        let Some(sg) = self.subgraphs.get(subgraph) else {
            return Vec::new();
        };
        let mut producer: Vec<Option<usize>> = vec![None; sg.tensors.len()];
        for (i, op) in sg.operators.iter().enumerate() {
            for &t in &op.outputs {
                if let Some(slot) = usize::try_from(t).ok().and_then(|t| producer.get_mut(t)) {
                    *slot = Some(i);
                }
            }
        }
        sg.tensors
            .iter()
            .enumerate()
            .map(|(t, tensor)| {
                if !tensor.name.is_empty() {
                    tensor.name.clone()
                } else if let Some(i) = producer[t] {
                    format!("#{t} · {} out", self.op_name(&sg.operators[i]))
                } else if sg.inputs.contains(&t) {
                    format!("#{t} · input")
                } else {
                    format!("#{t}")
                }
            })
            .collect()
    }

    /// Name of an operator's op (builtin name or custom code).
    pub fn op_name(&self, op: &Operator) -> String {
        self.operator_codes
            .get(op.opcode_index as usize)
            .map(OperatorCode::name)
            .unwrap_or_else(|| "?".into())
    }
}

/// Larger tensors are rejected: no device has that memory, and sums of sizes stay far from
/// `u64` overflow.
const MAX_TENSOR_BYTES: u64 = 1 << 48;

fn invalid(msg: String) -> ModelError {
    ModelError::Invalid(msg)
}

fn build(m: fb::Model<'_>, bytes: &[u8]) -> Result<Model, ModelError> {
    let operator_codes: Vec<OperatorCode> = m
        .operator_codes()
        .map(|codes| {
            codes
                .iter()
                .map(|c| OperatorCode {
                    builtin: c.builtin_code().max(c.deprecated_builtin_code() as i32),
                    custom: c.custom_code().map(str::to_owned),
                    version: c.version(),
                })
                .collect()
        })
        .unwrap_or_default();

    // Which buffers hold data (inline, or by offset/size past the flatbuffer in >2 GiB files).
    let mut buffer_has_data = Vec::new();
    let mut buffer_data: Vec<Option<&[u8]>> = Vec::new();
    if let Some(buffers) = m.buffers() {
        for b in buffers.iter() {
            let inline = b.data().map(|d| d.bytes()).filter(|d| !d.is_empty());
            let external = b.offset() > 1 && b.size() > 0;
            buffer_has_data.push(inline.is_some() || external);
            let ext_data = if external {
                let start = b.offset() as usize;
                bytes.get(start..start.saturating_add(b.size() as usize))
            } else {
                None
            };
            buffer_data.push(inline.or(ext_data));
        }
    }

    let fb_subgraphs = m
        .subgraphs()
        .ok_or_else(|| invalid("the model has no subgraphs".into()))?;
    if fb_subgraphs.is_empty() {
        return Err(invalid("the model has no subgraphs".into()));
    }
    let subgraph_count = fb_subgraphs.len();
    let mut subgraphs = Vec::with_capacity(subgraph_count);
    for (si, sg) in fb_subgraphs.iter().enumerate() {
        subgraphs.push(build_subgraph(
            si,
            sg,
            &operator_codes,
            &buffer_has_data,
            &buffer_data,
            subgraph_count,
        )?);
    }

    let mut metadata_names = Vec::new();
    let mut offline_offsets = None;
    if let Some(md) = m.metadata() {
        for entry in md.iter() {
            let name = entry.name().unwrap_or("").to_string();
            if name == "OfflineMemoryAllocation" {
                let data = buffer_data
                    .get(entry.buffer() as usize)
                    .copied()
                    .flatten()
                    .ok_or_else(|| {
                        invalid(
                            "metadata OfflineMemoryAllocation names a buffer with no data".into(),
                        )
                    })?;
                offline_offsets = Some(decode_offline_plan(data, &subgraphs)?);
            }
            metadata_names.push(name);
        }
    }
    let signatures = m
        .signature_defs()
        .map(|sigs| {
            sigs.iter()
                .map(|s| Signature {
                    key: s.signature_key().unwrap_or("").to_string(),
                    subgraph: s.subgraph_index(),
                })
                .collect()
        })
        .unwrap_or_default();

    Ok(Model {
        file_bytes: bytes.len() as u64,
        version: m.version(),
        description: m.description().unwrap_or("").to_string(),
        operator_codes,
        subgraphs,
        buffer_count: buffer_has_data.len(),
        metadata_names,
        signatures,
        offline_offsets,
    })
}

/// `[version, num_subgraphs, n, offset_0 .. offset_{n-1}]`, int32 little endian.
fn decode_offline_plan(data: &[u8], subgraphs: &[Subgraph]) -> Result<Vec<i32>, ModelError> {
    let words: Vec<i32> = data
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let n = *words.get(2).ok_or_else(|| {
        invalid("metadata OfflineMemoryAllocation is shorter than its header".into())
    })?;
    let total: usize = subgraphs.iter().map(|s| s.tensors.len()).sum();
    if n < 0 || n as usize != total || words.len() < 3 + total {
        return Err(invalid(format!(
            "metadata OfflineMemoryAllocation gives {n} offsets but the model has {total} tensors"
        )));
    }
    Ok(words[3..3 + total].to_vec())
}

fn build_subgraph(
    si: usize,
    sg: fb::SubGraph<'_>,
    operator_codes: &[OperatorCode],
    buffer_has_data: &[bool],
    buffer_data: &[Option<&[u8]>],
    subgraph_count: usize,
) -> Result<Subgraph, ModelError> {
    let mut tensors = Vec::new();
    let mut details = Vec::new();
    if let Some(ts) = sg.tensors() {
        for (ti, t) in ts.iter().enumerate() {
            let tensor = build_tensor(si, ti, t, buffer_has_data)?;
            details.push(tensor_detail(t, &tensor, buffer_data));
            tensors.push(tensor);
        }
    }
    let n = tensors.len();
    let index_list =
        |v: Option<flatbuffers::Vector<'_, i32>>, what: &str| -> Result<Vec<usize>, ModelError> {
            let mut out = Vec::new();
            for i in v.iter().flat_map(|v| v.iter()) {
                if i < 0 || i as usize >= n {
                    return Err(invalid(format!(
                        "subgraph {si} lists {what} tensor {i}, but it has {n} tensors"
                    )));
                }
                out.push(i as usize);
            }
            Ok(out)
        };
    let inputs = index_list(sg.inputs(), "input")?;
    let outputs = index_list(sg.outputs(), "output")?;

    let mut operators = Vec::new();
    if let Some(ops_fb) = sg.operators() {
        for (oi, op) in ops_fb.iter().enumerate() {
            let opcode_index = op.opcode_index();
            let code = operator_codes.get(opcode_index as usize).ok_or_else(|| {
                invalid(format!(
                    "subgraph {si} operator {oi} uses operator code {opcode_index}, but the model has {}",
                    operator_codes.len()
                ))
            })?;
            let list = |v: Option<flatbuffers::Vector<'_, i32>>, what: &str, optional: bool| {
                let mut out = Vec::new();
                for i in v.iter().flat_map(|v| v.iter()) {
                    let ok = (i >= 0 && (i as usize) < n) || (optional && i == -1);
                    if !ok {
                        return Err(invalid(format!(
                            "subgraph {si} operator {oi} has {what} tensor {i}, but the subgraph has {n} tensors"
                        )));
                    }
                    out.push(i);
                }
                Ok(out)
            };
            let options = read_options(op);
            let called = called_subgraphs(code.builtin, &options);
            for c in called {
                if c < 0 || c as usize >= subgraph_count || c as usize == si {
                    return Err(invalid(format!(
                        "subgraph {si} operator {oi} calls subgraph {c}, which is not a valid subgraph"
                    )));
                }
            }
            operators.push(Operator {
                opcode_index,
                builtin: code.builtin,
                inputs: list(op.inputs(), "input", true)?,
                outputs: list(op.outputs(), "output", true)?,
                intermediates: list(op.intermediates(), "intermediate", true)?,
                options,
                custom_options: op
                    .custom_options()
                    .map(|v| v.bytes().to_vec())
                    .unwrap_or_default(),
            });
        }
    }
    Ok(Subgraph {
        name: sg.name().unwrap_or("").to_string(),
        tensors,
        inputs,
        outputs,
        operators,
        details,
    })
}

fn tensor_detail(
    t: fb::Tensor<'_>,
    tensor: &Tensor,
    buffer_data: &[Option<&[u8]>],
) -> TensorDetail {
    let q = t.quantization();
    let data = if tensor.is_constant {
        buffer_data
            .get(tensor.buffer as usize)
            .copied()
            .flatten()
            .filter(|d| d.len() <= SMALL_CONSTANT_BYTES)
            .map(<[u8]>::to_vec)
    } else {
        None
    };
    TensorDetail {
        scales: q
            .and_then(|q| q.scale())
            .map_or_else(Vec::new, |s| s.iter().collect()),
        zero_points: q
            .and_then(|q| q.zero_point())
            .map_or_else(Vec::new, |z| z.iter().collect()),
        quantized_dimension: q.map_or(0, |q| q.quantized_dimension()),
        data,
    }
}

fn build_tensor(
    si: usize,
    ti: usize,
    t: fb::Tensor<'_>,
    buffer_has_data: &[bool],
) -> Result<Tensor, ModelError> {
    let name = t.name().unwrap_or("").to_string();
    let shape: Vec<i32> = t.shape().map(|s| s.iter().collect()).unwrap_or_default();
    let code = t.tensor_type();
    let dtype = TensorType::from_code(code).ok_or_else(|| {
        invalid(format!(
            "subgraph {si} tensor {ti} ({name}) has unknown tensor type {code}"
        ))
    })?;
    if let Some(&d) = shape.iter().find(|&&d| d < 0) {
        return Err(invalid(format!(
            "subgraph {si} tensor {ti} ({name}) has a negative dimension {d} in its shape"
        )));
    }
    let mut elements: u64 = 1;
    for &d in &shape {
        elements = elements.checked_mul(d as u64).ok_or_else(|| {
            invalid(format!(
                "subgraph {si} tensor {ti} ({name}) has a shape whose element count overflows"
            ))
        })?;
    }
    let bytes = dtype.bytes_for(elements).transpose().map_err(|()| {
        invalid(format!(
            "subgraph {si} tensor {ti} ({name}) has a shape whose byte size overflows"
        ))
    })?;
    if bytes.is_some_and(|b| b > MAX_TENSOR_BYTES) {
        return Err(invalid(format!(
            "subgraph {si} tensor {ti} ({name}) would take more than 2^48 bytes"
        )));
    }
    let buffer = t.buffer();
    if buffer as usize >= buffer_has_data.len().max(1) {
        return Err(invalid(format!(
            "subgraph {si} tensor {ti} ({name}) uses buffer {buffer}, but the model has {} buffers",
            buffer_has_data.len()
        )));
    }
    let is_constant = buffer > 0
        && buffer_has_data
            .get(buffer as usize)
            .copied()
            .unwrap_or(false);
    Ok(Tensor {
        name,
        shape,
        shape_signature: t.shape_signature().map(|s| s.iter().collect()),
        dtype,
        buffer,
        is_variable: t.is_variable(),
        is_constant,
        bytes,
        quant_channels: t
            .quantization()
            .filter(|q| q.zero_point().is_some_and(|z| !z.is_empty()))
            .and_then(|q| q.scale())
            .map_or(0, |s| s.len()),
    })
}

fn read_options(op: fb::Operator<'_>) -> Options {
    // STABLEHLO_COMPOSITE's options are in the second union (StableHLOCompositeOptions, 21).
    if let (21, Some(t)) = (op.builtin_options_2_type(), op.builtin_options_2()) {
        return Options::Composite {
            name: t.str_field(0).unwrap_or_default(),
        };
    }
    // STABLEHLO_REDUCE_WINDOW's options (StablehloReduceWindowOptions, 13).
    if let (13, Some(t)) = (op.builtin_options_2_type(), op.builtin_options_2()) {
        return Options::StablehloReduceWindow {
            base_dilations: t.i64_vec_field(2).unwrap_or_default(),
            padding: t.i64_vec_field(4).unwrap_or_default(),
        };
    }
    let Some(t) = op.builtin_options() else {
        return Options::None;
    };
    match op.builtin_options_type() {
        1 => Options::Conv2D {
            padding: t.u8_field(0, 0),
            stride_w: t.i32_field(1, 0),
            stride_h: t.i32_field(2, 0),
            dilation_w: t.i32_field(4, 1),
            dilation_h: t.i32_field(5, 1),
            activation: t.u8_field(3, 0),
        },
        2 => Options::DepthwiseConv2D {
            padding: t.u8_field(0, 0),
            stride_w: t.i32_field(1, 0),
            stride_h: t.i32_field(2, 0),
            dilation_w: t.i32_field(5, 1),
            dilation_h: t.i32_field(6, 1),
            depth_multiplier: t.i32_field(3, 0),
            activation: t.u8_field(4, 0),
        },
        5 => Options::Pool2D {
            stride_w: t.i32_field(1, 0),
            stride_h: t.i32_field(2, 0),
            filter_w: t.i32_field(3, 0),
            filter_h: t.i32_field(4, 0),
        },
        6 => Options::Svdf {
            rank: t.i32_field(0, 0),
        },
        8 => Options::FullyConnected {
            activation: t.u8_field(0, 0),
            keep_num_dims: t.u8_field(2, 0) != 0,
            weights_format: t.u8_field(1, 0),
        },
        9 => Options::Softmax {
            beta_bits: t.i32_field(0, 0) as u32,
        },
        10 => Options::Concatenation {
            axis: t.i32_field(0, 0),
            activation: t.u8_field(1, 0),
        },
        17 => Options::Reshape {
            new_shape: t.i32_vec_field(0).unwrap_or_default(),
        },
        19 | 94 => Options::BlockSize {
            block_size: t.i32_field(0, 0),
        },
        35 => Options::Split {
            num_splits: t.i32_field(0, 0),
        },
        49 => Options::TransposeConv {
            padding: t.u8_field(0, 0),
            stride_w: t.i32_field(1, 0),
            stride_h: t.i32_field(2, 0),
            activation: t.u8_field(3, 0),
        },
        75 => Options::LeakyRelu {
            alpha_bits: t.i32_field(0, 0) as u32,
        },
        101 => Options::BatchMatMul {
            adj_x: t.u8_field(0, 0) != 0,
            adj_y: t.u8_field(1, 0) != 0,
        },
        // ADD, MUL, SUB and DIV: their fused activation is field 0.
        11 | 21 | 28 | 29 => Options::Binary {
            activation: t.u8_field(0, 0),
        },
        32 => Options::StridedSlice {
            ellipsis_mask: t.i32_field(2, 0),
            new_axis_mask: t.i32_field(3, 0),
            shrink_axis_mask: t.i32_field(4, 0),
            offset: t.u8_field(5, 0) != 0,
        },
        27 => Options::Reducer {
            keep_dims: t.u8_field(0, 0) != 0,
        },
        92 => Options::If {
            then_subgraph: t.i32_field(0, 0),
            else_subgraph: t.i32_field(1, 0),
        },
        93 => Options::While {
            cond_subgraph: t.i32_field(0, 0),
            body_subgraph: t.i32_field(1, 0),
        },
        103 => Options::CallOnce {
            init_subgraph: t.i32_field(0, 0),
        },
        111 => Options::VarHandle {
            shared_name: t.str_field(1).unwrap_or_default(),
        },
        other => Options::Other(other),
    }
}
