//! Custom operators' options: a FlexBuffer map in the flatbuffer (`custom_options`), read by
//! key. Only integer (and boolean) values are read; anything else, or bytes that are not a
//! map, gives `None`.

use crate::model::Operator;

/// The integer stored under `key` in an operator's custom options.
pub fn int(op: &Operator, key: &str) -> Option<i64> {
    map_int(&op.custom_options, key.as_bytes())
}

// FlexBuffers, read with every offset checked: a hostile file must not panic the tool (the
// `flexbuffers` crate panics on some corrupted buffers, found by the bad-input property test).
//
// The buffer ends with the root value, its packed type (type << 2 | log2 of the child width)
// and the root's width. A map's value is an offset back to its values vector: `len` slots of
// the map's width, then `len` packed type bytes; before the values stand the offset to the
// keys vector, the keys' width and `len`. Keys are offsets to NUL-terminated strings.

const INT: u8 = 1;
const UINT: u8 = 2;
const INDIRECT_INT: u8 = 6;
const INDIRECT_UINT: u8 = 7;
const MAP: u8 = 9;
const BOOL: u8 = 26;

fn uint(buf: &[u8], pos: usize, width: usize) -> Option<u64> {
    let bytes = buf.get(pos..pos.checked_add(width)?)?;
    Some(match width {
        1 => bytes[0] as u64,
        2 => u16::from_le_bytes(bytes.try_into().ok()?) as u64,
        4 => u32::from_le_bytes(bytes.try_into().ok()?) as u64,
        8 => u64::from_le_bytes(bytes.try_into().ok()?),
        _ => return None,
    })
}

fn int_at(buf: &[u8], pos: usize, width: usize) -> Option<i64> {
    let v = uint(buf, pos, width)?;
    let shift = 64 - 8 * width as u32;
    Some(((v << shift) as i64) >> shift)
}

/// The position an offset stored at `pos` (`width` bytes) points back to.
fn back(buf: &[u8], pos: usize, width: usize) -> Option<usize> {
    pos.checked_sub(usize::try_from(uint(buf, pos, width)?).ok()?)
}

fn key_matches(buf: &[u8], at: usize, key: &[u8]) -> bool {
    buf.get(at..)
        .and_then(|rest| rest.iter().position(|&b| b == 0).map(|end| &rest[..end]))
        == Some(key)
}

fn map_int(buf: &[u8], key: &[u8]) -> Option<i64> {
    let root_width = *buf.last()? as usize;
    let packed = *buf.get(buf.len().checked_sub(2)?)?;
    let root = buf.len().checked_sub(2 + root_width)?;
    if packed >> 2 != MAP {
        return None;
    }
    let width = 1usize << (packed & 3);
    let values = back(buf, root, root_width)?;
    let len = usize::try_from(uint(buf, values.checked_sub(width)?, width)?).ok()?;
    let keys_width = usize::try_from(uint(buf, values.checked_sub(2 * width)?, width)?).ok()?;
    let keys = back(buf, values.checked_sub(3 * width)?, width)?;
    let types = values.checked_add(len.checked_mul(width)?)?;
    for k in 0..len.min(buf.len()) {
        let slot = keys.checked_add(k.checked_mul(keys_width)?)?;
        if !key_matches(buf, back(buf, slot, keys_width)?, key) {
            continue;
        }
        let value = values + k * width;
        let packed = *buf.get(types.checked_add(k)?)?;
        return match packed >> 2 {
            INT => int_at(buf, value, width),
            UINT | BOOL => uint(buf, value, width).and_then(|v| i64::try_from(v).ok()),
            INDIRECT_INT => int_at(buf, back(buf, value, width)?, 1 << (packed & 3)),
            INDIRECT_UINT => uint(buf, back(buf, value, width)?, 1 << (packed & 3))
                .and_then(|v| i64::try_from(v).ok()),
            _ => None,
        };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Options;

    fn op_with(options: Vec<u8>) -> Operator {
        Operator {
            opcode_index: 0,
            builtin: crate::model::ops::CUSTOM,
            inputs: vec![],
            outputs: vec![],
            intermediates: vec![],
            options: Options::None,
            custom_options: options,
        }
    }

    #[test]
    fn integers_of_every_width_and_sign_are_read() {
        let mut b = flexbuffers::Builder::default();
        let mut m = b.start_map();
        m.push("a", -3i8);
        m.push("b", 70000i32);
        m.push("c", -5_000_000_000i64);
        m.push("d", 200u8);
        m.push("e", true);
        m.end_map();
        let op = op_with(b.view().to_vec());
        assert_eq!(int(&op, "a"), Some(-3));
        assert_eq!(int(&op, "b"), Some(70000));
        assert_eq!(int(&op, "c"), Some(-5_000_000_000));
        assert_eq!(int(&op, "d"), Some(200));
        assert_eq!(int(&op, "e"), Some(1));
    }

    #[test]
    fn integers_are_read_by_key() {
        let mut b = flexbuffers::Builder::default();
        let mut m = b.start_map();
        m.push("fft_length", 512i32);
        m.push("T", 7i8);
        m.push("name", "window");
        m.end_map();
        let op = op_with(b.view().to_vec());
        assert_eq!(int(&op, "fft_length"), Some(512));
        assert_eq!(int(&op, "T"), Some(7));
        assert_eq!(int(&op, "name"), None, "not an integer");
        assert_eq!(int(&op, "missing"), None);
        assert_eq!(
            int(&op_with(vec![1, 2, 3]), "fft_length"),
            None,
            "not a map"
        );
        assert_eq!(int(&op_with(vec![]), "fft_length"), None);
    }
}
