//! Rewriting a model's operator order in place: each subgraph's `operators` vector holds one
//! offset per operator, relative to its own slot, so permuting the operators rewrites those
//! slots only. Every other byte (buffers, alignment, unknown fields, metadata) stays as it is,
//! and the file keeps its size and its `TFL3` identifier.

use super::ModelError;

fn u32_at(b: &[u8], pos: usize) -> Result<u32, ModelError> {
    b.get(pos..pos + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or_else(|| ModelError::Invalid(format!("offset {pos} is past the end of the file")))
}

/// The position of a table's field `id` (its value's slot), if present.
fn field(b: &[u8], table: usize, id: usize) -> Result<Option<usize>, ModelError> {
    let soffset = u32_at(b, table)? as i32 as i64;
    let vtable = usize::try_from(table as i64 - soffset)
        .map_err(|_| ModelError::Invalid("a vtable lies before the file".into()))?;
    let vt_len = b
        .get(vtable..vtable + 2)
        .map(|s| u16::from_le_bytes([s[0], s[1]]) as usize)
        .ok_or_else(|| ModelError::Invalid("a vtable is past the end of the file".into()))?;
    let slot = 4 + 2 * id;
    if slot + 2 > vt_len {
        return Ok(None);
    }
    let off = b
        .get(vtable + slot..vtable + slot + 2)
        .map(|s| u16::from_le_bytes([s[0], s[1]]) as usize)
        .ok_or_else(|| ModelError::Invalid("a vtable is past the end of the file".into()))?;
    Ok((off != 0).then_some(table + off))
}

/// Follows the offset stored at `pos` (relative to `pos`).
fn follow(b: &[u8], pos: usize) -> Result<usize, ModelError> {
    Ok(pos + u32_at(b, pos)? as usize)
}

/// A copy of `bytes` with subgraph `s`'s operators in `orders[s]` (`None`: unchanged).
pub fn reorder_operators(
    bytes: &[u8],
    orders: &[Option<Vec<usize>>],
) -> Result<Vec<u8>, ModelError> {
    let mut out = bytes.to_vec();
    let root = u32_at(bytes, 0)? as usize;
    let Some(subgraphs) = field(bytes, root, 2)? else {
        return Ok(out);
    };
    let subgraphs = follow(bytes, subgraphs)?;
    let count = u32_at(bytes, subgraphs)? as usize;
    for (s, order) in orders.iter().enumerate().take(count) {
        let Some(order) = order else { continue };
        let table = follow(bytes, subgraphs + 4 + 4 * s)?;
        let Some(ops) = field(bytes, table, 3)? else {
            continue;
        };
        let ops = follow(bytes, ops)?;
        let n = u32_at(bytes, ops)? as usize;
        if order.len() != n {
            return Err(ModelError::Invalid(format!(
                "subgraph {s} has {n} operators, the order names {}",
                order.len()
            )));
        }
        let targets: Vec<usize> = (0..n)
            .map(|k| follow(bytes, ops + 4 + 4 * k))
            .collect::<Result<_, _>>()?;
        for (k, &from) in order.iter().enumerate() {
            let slot = ops + 4 + 4 * k;
            let target = *targets
                .get(from)
                .ok_or_else(|| ModelError::Invalid(format!("no operator {from}")))?;
            let rel = target
                .checked_sub(slot)
                .and_then(|d| u32::try_from(d).ok())
                .ok_or_else(|| {
                    ModelError::Invalid(
                        "an operator table lies before its slot: the order cannot be written in place"
                            .into(),
                    )
                })?;
            out[slot..slot + 4].copy_from_slice(&rel.to_le_bytes());
        }
    }
    Ok(out)
}
