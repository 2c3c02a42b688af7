//! Tensor element types and their sizes (DESIGN.md §5).

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TensorType {
    Float32,
    Float16,
    Int32,
    Uint8,
    Int64,
    String,
    Bool,
    Int16,
    Complex64,
    Int8,
    Float64,
    Complex128,
    Uint64,
    Resource,
    Variant,
    Uint32,
    Uint16,
    Int4,
    Bfloat16,
    Int2,
    Uint4,
    Float8E4m3fn,
    Float8E5m2,
}

/// How a type's elements pack into bytes.
enum Packing {
    /// Whole bytes per element.
    Bytes(u64),
    /// Elements per byte (sub-byte types), rounded up.
    PerByte(u64),
    /// Size known only at run time.
    Dynamic,
}

impl TensorType {
    pub fn from_code(code: i8) -> Option<Self> {
        use TensorType::*;
        Some(match code {
            0 => Float32,
            1 => Float16,
            2 => Int32,
            3 => Uint8,
            4 => Int64,
            5 => String,
            6 => Bool,
            7 => Int16,
            8 => Complex64,
            9 => Int8,
            10 => Float64,
            11 => Complex128,
            12 => Uint64,
            13 => Resource,
            14 => Variant,
            15 => Uint32,
            16 => Uint16,
            17 => Int4,
            18 => Bfloat16,
            19 => Int2,
            20 => Uint4,
            21 => Float8E4m3fn,
            22 => Float8E5m2,
            _ => return None,
        })
    }

    fn packing(self) -> Packing {
        use TensorType::*;
        match self {
            Uint8 | Bool | Int8 | Float8E4m3fn | Float8E5m2 => Packing::Bytes(1),
            Float16 | Int16 | Uint16 | Bfloat16 => Packing::Bytes(2),
            Float32 | Int32 | Uint32 => Packing::Bytes(4),
            Int64 | Complex64 | Float64 | Uint64 => Packing::Bytes(8),
            Complex128 => Packing::Bytes(16),
            Int4 | Uint4 => Packing::PerByte(2),
            Int2 => Packing::PerByte(4),
            String | Resource | Variant => Packing::Dynamic,
        }
    }

    /// True for types whose size is only known at run time (STRING, RESOURCE, VARIANT).
    pub fn is_dynamic(self) -> bool {
        matches!(self.packing(), Packing::Dynamic)
    }

    /// Bytes of `elements` elements: `Some(Ok(n))`, `None` for dynamic types, `Some(Err(()))`
    /// on overflow.
    pub fn bytes_for(self, elements: u64) -> Option<Result<u64, ()>> {
        match self.packing() {
            Packing::Bytes(b) => Some(elements.checked_mul(b).ok_or(())),
            Packing::PerByte(k) => Some(Ok(elements.div_ceil(k))),
            Packing::Dynamic => None,
        }
    }

    /// Bytes per element for whole-byte types (1 for sub-byte types, 0 for dynamic ones).
    pub fn element_bytes(self) -> u64 {
        match self.packing() {
            Packing::Bytes(b) => b,
            Packing::PerByte(_) => 1,
            Packing::Dynamic => 0,
        }
    }

    /// Lower-case name as the TFLite Python API prints it (`float32`, `int8`, ...).
    pub fn name(self) -> &'static str {
        use TensorType::*;
        match self {
            Float32 => "float32",
            Float16 => "float16",
            Int32 => "int32",
            Uint8 => "uint8",
            Int64 => "int64",
            String => "string",
            Bool => "bool",
            Int16 => "int16",
            Complex64 => "complex64",
            Int8 => "int8",
            Float64 => "float64",
            Complex128 => "complex128",
            Uint64 => "uint64",
            Resource => "resource",
            Variant => "variant",
            Uint32 => "uint32",
            Uint16 => "uint16",
            Int4 => "int4",
            Bfloat16 => "bfloat16",
            Int2 => "int2",
            Uint4 => "uint4",
            Float8E4m3fn => "float8_e4m3fn",
            Float8E5m2 => "float8_e5m2",
        }
    }
}
