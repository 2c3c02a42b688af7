//! Custom operators' options: a FlexBuffer map in the flatbuffer (`custom_options`), read by
//! key. Only integer values are read; anything else, or bytes that are not a map, gives `None`.

use crate::model::Operator;

/// The integer stored under `key` in an operator's custom options.
pub fn int(op: &Operator, key: &str) -> Option<i64> {
    if op.custom_options.is_empty() {
        return None;
    }
    let root = flexbuffers::Reader::get_root(op.custom_options.as_slice()).ok()?;
    if root.flexbuffer_type() != flexbuffers::FlexBufferType::Map {
        return None;
    }
    let value = root.as_map().index(key).ok()?;
    value.flexbuffer_type().is_int().then(|| value.as_i64())
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
