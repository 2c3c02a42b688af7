//! The `.tflite` flatbuffer tables this tool reads, written from the format's field ids
//! (DESIGN.md §5), read through `flatbuffers::Table` slots.
//!
//! Each table is a thin wrapper over `flatbuffers::Table` that implements `Follow` and
//! `Verifiable`. `flatbuffers::root` runs the verifier over every table and vector we follow
//! before any field is read, so the unchecked slot reads below never leave the buffer.

use flatbuffers::{
    Follow, ForwardsUOffset, InvalidFlatbuffer, Table, Vector, Verifiable, Verifier,
};

/// One sentence for a flatbuffer the verifier refused. The file already has `TFL3` as its
/// identifier, so it is a cut copy (an offset or a table reaches past the end) or not a model
/// at all; the verifier's own text (its first line, without its field trace) goes in
/// parentheses.
pub(super) fn verify_error_text(e: &InvalidFlatbuffer, file_bytes: usize) -> String {
    let detail = match e {
        InvalidFlatbuffer::RangeOutOfBounds { range, .. } if range.end > file_bytes => format!(
            "the model refers to bytes {}..{}, the file ends at byte {file_bytes}",
            range.start, range.end
        ),
        InvalidFlatbuffer::RangeOutOfBounds { range, .. } => {
            format!(
                "bytes {}..{} lie outside the flatbuffer",
                range.start, range.end
            )
        }
        InvalidFlatbuffer::SignedOffsetOutOfBounds { position, .. } => {
            format!("the table at byte {position} points outside the file of {file_bytes} bytes")
        }
        other => {
            let text = other.to_string();
            let first = text.lines().next().unwrap_or("").trim();
            format!(
                "the flatbuffer check says: {}",
                first.trim_end_matches(['.', ':'])
            )
        }
    };
    format!("the file is truncated or not a .tflite model ({detail})")
}

/// vtable slot of a field id.
const fn slot(id: u16) -> u16 {
    4 + 2 * id
}

type Tables<'a, T> = Vector<'a, ForwardsUOffset<T>>;

macro_rules! fb_table {
    ($name:ident, |$tv:ident| $verify:expr) => {
        #[derive(Clone, Copy)]
        #[allow(dead_code)]
        pub struct $name<'a>(Table<'a>);

        impl<'a> Follow<'a> for $name<'a> {
            type Inner = Self;
            unsafe fn follow(buf: &'a [u8], loc: usize) -> Self {
                // SAFETY: forwarded to `Table::follow`; callers reach here only through a
                // verified root.
                Self(unsafe { Table::follow(buf, loc) })
            }
        }

        impl Verifiable for $name<'_> {
            fn run_verifier(v: &mut Verifier, pos: usize) -> Result<(), InvalidFlatbuffer> {
                let $tv = v.visit_table(pos)?;
                let tv = $verify;
                tv.finish();
                Ok(())
            }
        }
    };
}

macro_rules! getter {
    ($fn:ident, $id:expr, $ty:ty) => {
        pub fn $fn(&self) -> Option<<$ty as Follow<'a>>::Inner> {
            // SAFETY: the field was checked by the verifier of this table.
            unsafe { self.0.get::<$ty>(slot($id), None) }
        }
    };
    ($fn:ident, $id:expr, $ty:ty, $default:expr) => {
        pub fn $fn(&self) -> $ty {
            // SAFETY: the field was checked by the verifier of this table.
            unsafe { self.0.get::<$ty>(slot($id), Some($default)) }.unwrap_or($default)
        }
    };
}

fb_table!(Model, |tv| tv
    .visit_field::<u32>("version", slot(0), false)?
    .visit_field::<ForwardsUOffset<Tables<OperatorCode>>>("operator_codes", slot(1), false)?
    .visit_field::<ForwardsUOffset<Tables<SubGraph>>>("subgraphs", slot(2), false)?
    .visit_field::<ForwardsUOffset<&str>>("description", slot(3), false)?
    .visit_field::<ForwardsUOffset<Tables<Buffer>>>("buffers", slot(4), false)?
    .visit_field::<ForwardsUOffset<Vector<i32>>>("metadata_buffer", slot(5), false)?
    .visit_field::<ForwardsUOffset<Tables<Metadata>>>("metadata", slot(6), false)?
    .visit_field::<ForwardsUOffset<Tables<SignatureDef>>>(
        "signature_defs",
        slot(7),
        false
    )?);

impl<'a> Model<'a> {
    getter!(version, 0, u32, 0);
    getter!(
        operator_codes,
        1,
        ForwardsUOffset<Tables<'a, OperatorCode<'a>>>
    );
    getter!(subgraphs, 2, ForwardsUOffset<Tables<'a, SubGraph<'a>>>);
    getter!(description, 3, ForwardsUOffset<&'a str>);
    getter!(buffers, 4, ForwardsUOffset<Tables<'a, Buffer<'a>>>);
    getter!(metadata, 6, ForwardsUOffset<Tables<'a, Metadata<'a>>>);
    getter!(
        signature_defs,
        7,
        ForwardsUOffset<Tables<'a, SignatureDef<'a>>>
    );
}

fb_table!(SubGraph, |tv| tv
    .visit_field::<ForwardsUOffset<Tables<Tensor>>>("tensors", slot(0), false)?
    .visit_field::<ForwardsUOffset<Vector<i32>>>("inputs", slot(1), false)?
    .visit_field::<ForwardsUOffset<Vector<i32>>>("outputs", slot(2), false)?
    .visit_field::<ForwardsUOffset<Tables<Operator>>>("operators", slot(3), false)?
    .visit_field::<ForwardsUOffset<&str>>("name", slot(4), false)?);

impl<'a> SubGraph<'a> {
    getter!(tensors, 0, ForwardsUOffset<Tables<'a, Tensor<'a>>>);
    getter!(inputs, 1, ForwardsUOffset<Vector<'a, i32>>);
    getter!(outputs, 2, ForwardsUOffset<Vector<'a, i32>>);
    getter!(operators, 3, ForwardsUOffset<Tables<'a, Operator<'a>>>);
    getter!(name, 4, ForwardsUOffset<&'a str>);
}

fb_table!(Tensor, |tv| tv
    .visit_field::<ForwardsUOffset<Vector<i32>>>("shape", slot(0), false)?
    .visit_field::<i8>("type", slot(1), false)?
    .visit_field::<u32>("buffer", slot(2), false)?
    .visit_field::<ForwardsUOffset<&str>>("name", slot(3), false)?
    .visit_field::<ForwardsUOffset<QuantizationParameters>>("quantization", slot(4), false)?
    .visit_field::<bool>("is_variable", slot(5), false)?
    .visit_field::<ForwardsUOffset<Vector<i32>>>(
        "shape_signature",
        slot(7),
        false
    )?);

impl<'a> Tensor<'a> {
    getter!(shape, 0, ForwardsUOffset<Vector<'a, i32>>);
    getter!(tensor_type, 1, i8, 0);
    getter!(buffer, 2, u32, 0);
    getter!(name, 3, ForwardsUOffset<&'a str>);
    getter!(quantization, 4, ForwardsUOffset<QuantizationParameters<'a>>);
    getter!(is_variable, 5, bool, false);
    getter!(shape_signature, 7, ForwardsUOffset<Vector<'a, i32>>);
}

fb_table!(QuantizationParameters, |tv| tv
    .visit_field::<ForwardsUOffset<Vector<f32>>>("scale", slot(2), false)?
    .visit_field::<ForwardsUOffset<Vector<i64>>>("zero_point", slot(3), false)?
    .visit_field::<i32>("quantized_dimension", slot(6), false)?);

impl<'a> QuantizationParameters<'a> {
    getter!(scale, 2, ForwardsUOffset<Vector<'a, f32>>);
    getter!(zero_point, 3, ForwardsUOffset<Vector<'a, i64>>);
    getter!(quantized_dimension, 6, i32, 0);
}

fb_table!(Operator, |tv| {
    let tv = tv
        .visit_field::<u32>("opcode_index", slot(0), false)?
        .visit_field::<ForwardsUOffset<Vector<i32>>>("inputs", slot(1), false)?
        .visit_field::<ForwardsUOffset<Vector<i32>>>("outputs", slot(2), false)?
        .visit_field::<u8>("builtin_options_type", slot(3), false)?
        .visit_field::<ForwardsUOffset<Vector<u8>>>("custom_options", slot(5), false)?
        .visit_field::<ForwardsUOffset<Vector<i32>>>("intermediates", slot(8), false)?;
    // The options union: every member this tool reads is a table of scalars; the others are
    // checked as tables too (their fields are never read).
    tv.visit_union::<u8, _>(
        "builtin_options_type",
        slot(3),
        "builtin_options",
        slot(4),
        false,
        |_kind, v, pos| <ForwardsUOffset<ScalarTable>>::run_verifier(v, pos),
    )?
    // The second options union (StableHLO ops): checked as tables the same way.
    .visit_union::<u8, _>(
        "builtin_options_2_type",
        slot(11),
        "builtin_options_2",
        slot(12),
        false,
        |_kind, v, pos| <ForwardsUOffset<ScalarTable>>::run_verifier(v, pos),
    )?
});

impl<'a> Operator<'a> {
    getter!(opcode_index, 0, u32, 0);
    getter!(inputs, 1, ForwardsUOffset<Vector<'a, i32>>);
    getter!(outputs, 2, ForwardsUOffset<Vector<'a, i32>>);
    getter!(builtin_options_type, 3, u8, 0);
    getter!(builtin_options, 4, ForwardsUOffset<ScalarTable<'a>>);
    getter!(custom_options, 5, ForwardsUOffset<Vector<'a, u8>>);
    getter!(intermediates, 8, ForwardsUOffset<Vector<'a, i32>>);
    getter!(builtin_options_2_type, 11, u8, 0);
    getter!(builtin_options_2, 12, ForwardsUOffset<ScalarTable<'a>>);
}

/// A table of which only scalar fields are read (the builtin options). The verifier checks the
/// table header and vtable; each scalar read is checked against the buffer length on access.
#[derive(Clone, Copy)]
pub struct ScalarTable<'a>(Table<'a>);

impl<'a> Follow<'a> for ScalarTable<'a> {
    type Inner = Self;
    unsafe fn follow(buf: &'a [u8], loc: usize) -> Self {
        // SAFETY: reached only through a verified root.
        Self(unsafe { Table::follow(buf, loc) })
    }
}

impl Verifiable for ScalarTable<'_> {
    fn run_verifier(v: &mut Verifier, pos: usize) -> Result<(), InvalidFlatbuffer> {
        // Table header and vtable in range; scalar reads check their own bounds.
        v.visit_table(pos)?.finish();
        Ok(())
    }
}

impl ScalarTable<'_> {
    /// Reads a 32-bit integer field with bounds checks (returns `default` when absent or when
    /// the four bytes do not fit in the buffer).
    pub fn i32_field(&self, id: u16, default: i32) -> i32 {
        let vt = self.0.vtable();
        let off = vt.get(slot(id)) as usize;
        if off == 0 {
            return default;
        }
        let pos = self.0.loc().saturating_add(off);
        match self.0.buf().get(pos..pos.saturating_add(4)) {
            Some(b) => i32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            None => default,
        }
    }

    /// The bytes of a vector (or string) field of `width`-byte elements, bounds-checked
    /// (`None` when absent or out of the buffer).
    fn vector_bytes(&self, id: u16, width: usize) -> Option<&[u8]> {
        let vt = self.0.vtable();
        let off = vt.get(slot(id)) as usize;
        if off == 0 {
            return None;
        }
        let buf = self.0.buf();
        let word = |at: usize| -> Option<usize> {
            let b = buf.get(at..at.checked_add(4)?)?;
            Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        };
        let pos = self.0.loc().checked_add(off)?;
        let start = pos.checked_add(word(pos)?)?;
        let len = word(start)?.checked_mul(width)?;
        let from = start.checked_add(4)?;
        buf.get(from..from.checked_add(len)?)
    }

    /// Reads a string field with bounds checks (`None` when absent or out of the buffer).
    pub fn str_field(&self, id: u16) -> Option<String> {
        self.vector_bytes(id, 1)
            .map(|b| String::from_utf8_lossy(b).into_owned())
    }

    /// Reads a vector-of-int32 field with bounds checks (`None` when absent or out of the
    /// buffer).
    pub fn i32_vec_field(&self, id: u16) -> Option<Vec<i32>> {
        let bytes = self.vector_bytes(id, 4)?;
        Some(
            bytes
                .chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        )
    }

    /// Reads a vector-of-int64 field with bounds checks (`None` when absent or out of the
    /// buffer).
    pub fn i64_vec_field(&self, id: u16) -> Option<Vec<i64>> {
        let bytes = self.vector_bytes(id, 8)?;
        Some(
            bytes
                .chunks_exact(8)
                .map(|c| i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
                .collect(),
        )
    }

    /// Reads a one-byte field (enums, bools) with bounds checks.
    pub fn u8_field(&self, id: u16, default: u8) -> u8 {
        let vt = self.0.vtable();
        let off = vt.get(slot(id)) as usize;
        if off == 0 {
            return default;
        }
        let pos = self.0.loc().saturating_add(off);
        self.0.buf().get(pos).copied().unwrap_or(default)
    }
}

fb_table!(OperatorCode, |tv| tv
    .visit_field::<i8>("deprecated_builtin_code", slot(0), false)?
    .visit_field::<ForwardsUOffset<&str>>("custom_code", slot(1), false)?
    .visit_field::<i32>("version", slot(2), false)?
    .visit_field::<i32>("builtin_code", slot(3), false)?);

impl<'a> OperatorCode<'a> {
    getter!(deprecated_builtin_code, 0, i8, 0);
    getter!(custom_code, 1, ForwardsUOffset<&'a str>);
    getter!(version, 2, i32, 1);
    getter!(builtin_code, 3, i32, 0);
}

fb_table!(Buffer, |tv| tv
    .visit_field::<ForwardsUOffset<Vector<u8>>>("data", slot(0), false)?
    .visit_field::<u64>("offset", slot(1), false)?
    .visit_field::<u64>("size", slot(2), false)?);

impl<'a> Buffer<'a> {
    getter!(data, 0, ForwardsUOffset<Vector<'a, u8>>);
    getter!(offset, 1, u64, 0);
    getter!(size, 2, u64, 0);
}

fb_table!(Metadata, |tv| tv
    .visit_field::<ForwardsUOffset<&str>>("name", slot(0), false)?
    .visit_field::<u32>("buffer", slot(1), false)?);

impl<'a> Metadata<'a> {
    getter!(name, 0, ForwardsUOffset<&'a str>);
    getter!(buffer, 1, u32, 0);
}

fb_table!(SignatureDef, |tv| tv
    .visit_field::<ForwardsUOffset<Tables<TensorMap>>>("inputs", slot(0), false)?
    .visit_field::<ForwardsUOffset<Tables<TensorMap>>>("outputs", slot(1), false)?
    .visit_field::<ForwardsUOffset<&str>>("signature_key", slot(2), false)?
    .visit_field::<u32>("subgraph_index", slot(4), false)?);

impl<'a> SignatureDef<'a> {
    getter!(signature_key, 2, ForwardsUOffset<&'a str>);
    getter!(subgraph_index, 4, u32, 0);
}

// SignatureDef's tensor maps are verified but not read.
fb_table!(TensorMap, |tv| tv
    .visit_field::<ForwardsUOffset<&str>>("name", slot(0), false)?
    .visit_field::<u32>("tensor_index", slot(1), false)?);
