//! Patching a model's flatbuffer, never rebuilding it.
//!
//! The operator order is rewritten in place: each subgraph's `operators` vector holds one
//! offset per operator, relative to its own slot, so permuting the operators rewrites those
//! slots only. Every other byte (buffers, alignment, unknown fields, metadata) stays as it is,
//! and the file keeps its size and its `TFL3` identifier.
//!
//! A TFLM offline plan (RUNTIME_RULES B.4: metadata `OfflineMemoryAllocation` naming a buffer of
//! int32 words) needs one more buffer and one more metadata entry, so the `buffers` and
//! `metadata` vectors grow. Flatbuffer offsets only point forward, so nothing can be appended
//! after the data it must refer to; instead a new root `Model` table, its two new vectors, the
//! new `Metadata` and `Buffer` tables and the words go *in front of* the whole original file,
//! which follows unchanged, shifted by a multiple of 16 so that every buffer keeps its
//! alignment. The new root refers forward to the original's subgraphs, operator codes and other
//! fields; the original root stays behind, unreferenced.

use super::ModelError;

fn u32_at(b: &[u8], pos: usize) -> Result<u32, ModelError> {
    b.get(pos..pos + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or_else(|| ModelError::Invalid(format!("offset {pos} is past the end of the file")))
}

/// A table's vtable position and length in bytes.
fn vtable(b: &[u8], table: usize) -> Result<(usize, usize), ModelError> {
    let soffset = u32_at(b, table)? as i32 as i64;
    let vtable = usize::try_from(table as i64 - soffset)
        .map_err(|_| ModelError::Invalid("a vtable lies before the file".into()))?;
    let vt_len = b
        .get(vtable..vtable + 2)
        .map(|s| u16::from_le_bytes([s[0], s[1]]) as usize)
        .ok_or_else(|| ModelError::Invalid("a vtable is past the end of the file".into()))?;
    Ok((vtable, vt_len))
}

fn vtable_len(b: &[u8], table: usize) -> Result<usize, ModelError> {
    Ok(vtable(b, table)?.1)
}

/// The position of a table's field `id` (its value's slot), if present.
fn field(b: &[u8], table: usize, id: usize) -> Result<Option<usize>, ModelError> {
    let (vtable, vt_len) = vtable(b, table)?;
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

/// The positions of the fields present in a table, by field id.
fn fields(b: &[u8], table: usize) -> Result<Vec<(usize, usize)>, ModelError> {
    let mut out = Vec::new();
    for id in 0..vtable_len(b, table)?.saturating_sub(4) / 2 {
        if let Some(pos) = field(b, table, id)? {
            out.push((id, pos));
        }
    }
    Ok(out)
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

/// The metadata name TFLM reads its offline plan from.
pub const OFFLINE_PLAN: &str = "OfflineMemoryAllocation";

/// `Model` field ids (schema.fbs): 0 `version` (a scalar), then offsets: 4 `buffers`,
/// 6 `metadata`; 8 and 9 are the external buffers, which this patch does not handle.
const MODEL_VERSION: usize = 0;
const MODEL_BUFFERS: usize = 4;
const MODEL_METADATA: usize = 6;
const MODEL_KNOWN_FIELDS: usize = 8;
/// Alignment of buffer data (schema: `data: [ubyte] (force_align: 16)`), and of the shift.
const DATA_ALIGN: usize = 16;

/// Where an offset written in the new front part points.
#[derive(Clone, Copy)]
enum Target {
    /// A position in the front part.
    Front(usize),
    /// A position in the original file.
    Original(usize),
}

/// A copy of `bytes` carrying `words` as TFLM's offline plan: the original file, shifted,
/// behind a new root whose `buffers` gain one buffer (the words) and whose `metadata` gain one
/// `OfflineMemoryAllocation` entry naming it (an earlier entry of that name is dropped).
pub fn add_offline_plan(bytes: &[u8], words: &[i32]) -> Result<Vec<u8>, ModelError> {
    let refuse = |why: &str| ModelError::Invalid(format!("cannot add an offline plan: {why}"));
    let root = u32_at(bytes, 0)? as usize;
    let model = fields(bytes, root)?;
    if model.iter().any(|&(id, _)| id >= MODEL_KNOWN_FIELDS) {
        return Err(refuse(
            "the Model table has fields this version does not know (external buffers?)",
        ));
    }
    let elements = |id: usize| -> Result<Vec<usize>, ModelError> {
        let Some(&(_, pos)) = model.iter().find(|f| f.0 == id) else {
            return Ok(Vec::new());
        };
        let vector = follow(bytes, pos)?;
        let n = u32_at(bytes, vector)? as usize;
        if n > bytes.len() / 4 {
            return Err(ModelError::Invalid(
                "a vector is longer than the file".into(),
            ));
        }
        (0..n).map(|k| follow(bytes, vector + 4 + 4 * k)).collect()
    };
    let buffers = elements(MODEL_BUFFERS)?;
    for &b in &buffers {
        // Buffer field 1, `offset`: data kept outside the flatbuffer at a file position, which
        // the shift would break.
        if let Some(pos) = field(bytes, b, 1)? {
            let lo = u64::from(u32_at(bytes, pos)?);
            let hi = u64::from(u32_at(bytes, pos + 4)?);
            if lo | hi << 32 > 1 {
                return Err(refuse("its buffers keep their data outside the flatbuffer"));
            }
        }
    }
    let mut metadata = Vec::new();
    for m in elements(MODEL_METADATA)? {
        let name = match field(bytes, m, 0)? {
            Some(pos) => {
                let s = follow(bytes, pos)?;
                let len = u32_at(bytes, s)? as usize;
                bytes.get(s + 4..s + 4 + len).unwrap_or_default()
            }
            None => &[][..],
        };
        if name != OFFLINE_PLAN.as_bytes() {
            metadata.push(m);
        }
    }

    let mut front: Vec<u8> = Vec::new();
    let mut fixups: Vec<(usize, Target)> = Vec::new();
    let pad = |front: &mut Vec<u8>, to: usize| front.resize(front.len().next_multiple_of(to), 0);
    let offset = |front: &mut Vec<u8>, fixups: &mut Vec<(usize, Target)>, to: Target| {
        fixups.push((front.len(), to));
        front.extend_from_slice(&[0; 4]);
    };
    let u16s = |front: &mut Vec<u8>, v: &[u16]| {
        for x in v {
            front.extend_from_slice(&x.to_le_bytes());
        }
    };
    front.extend_from_slice(&[0; 4]); // the root offset, set last
    front.extend_from_slice(bytes.get(4..8).unwrap_or(b"TFL3"));

    // The new Model: the original's fields, with buffers and metadata always present.
    let mut ids: Vec<usize> = model.iter().map(|f| f.0).collect();
    ids.extend([MODEL_BUFFERS, MODEL_METADATA]);
    ids.sort_unstable();
    ids.dedup();
    let slots = ids.last().map_or(0, |&m| m + 1);
    let vtable = front.len();
    let mut vt = vec![(4 + 2 * slots) as u16, (4 + 4 * ids.len()) as u16];
    vt.extend((0..slots).map(|id| {
        ids.iter()
            .position(|&x| x == id)
            .map_or(0, |k| (4 + 4 * k) as u16)
    }));
    u16s(&mut front, &vt);
    pad(&mut front, 4);
    let table = front.len();
    front.extend_from_slice(&((table - vtable) as i32).to_le_bytes());
    let (buffers_at, metadata_at) = (usize::MAX - 1, usize::MAX);
    for &id in &ids {
        match id {
            MODEL_VERSION => {
                let pos = model.iter().find(|f| f.0 == id).map(|f| f.1).unwrap_or(0);
                front.extend_from_slice(&u32_at(bytes, pos)?.to_le_bytes());
            }
            MODEL_BUFFERS => offset(&mut front, &mut fixups, Target::Front(buffers_at)),
            MODEL_METADATA => offset(&mut front, &mut fixups, Target::Front(metadata_at)),
            _ => {
                let pos = model.iter().find(|f| f.0 == id).map(|f| f.1).unwrap_or(0);
                let to = follow(bytes, pos)?;
                offset(&mut front, &mut fixups, Target::Original(to));
            }
        }
    }
    // Placeholders resolved once their targets are laid out.
    let mut marks = std::collections::HashMap::new();
    let (buffer_table, metadata_table, name_at, data_at) = (1usize, 2usize, 3usize, 4usize);

    marks.insert(buffers_at, front.len());
    front.extend_from_slice(&(buffers.len() as u32 + 1).to_le_bytes());
    for &b in &buffers {
        offset(&mut front, &mut fixups, Target::Original(b));
    }
    offset(&mut front, &mut fixups, Target::Front(buffer_table));

    marks.insert(metadata_at, front.len());
    front.extend_from_slice(&(metadata.len() as u32 + 1).to_le_bytes());
    for &m in &metadata {
        offset(&mut front, &mut fixups, Target::Original(m));
    }
    offset(&mut front, &mut fixups, Target::Front(metadata_table));

    // Metadata { name: string, buffer: uint }.
    let vt = front.len();
    u16s(&mut front, &[8, 12, 4, 8]);
    marks.insert(metadata_table, front.len());
    front.extend_from_slice(&((front.len() - vt) as i32).to_le_bytes());
    offset(&mut front, &mut fixups, Target::Front(name_at));
    front.extend_from_slice(&(buffers.len() as u32).to_le_bytes());

    // Buffer { data: [ubyte] }.
    let vt = front.len();
    u16s(&mut front, &[6, 8, 4]);
    pad(&mut front, 4);
    marks.insert(buffer_table, front.len());
    front.extend_from_slice(&((front.len() - vt) as i32).to_le_bytes());
    offset(&mut front, &mut fixups, Target::Front(data_at));

    marks.insert(name_at, front.len());
    front.extend_from_slice(&(OFFLINE_PLAN.len() as u32).to_le_bytes());
    front.extend_from_slice(OFFLINE_PLAN.as_bytes());
    front.push(0);

    // The words, their first byte 16-aligned.
    while !(front.len() + 4).is_multiple_of(DATA_ALIGN) {
        front.push(0);
    }
    marks.insert(data_at, front.len());
    front.extend_from_slice(&(4 * words.len() as u32).to_le_bytes());
    for w in words {
        front.extend_from_slice(&w.to_le_bytes());
    }
    pad(&mut front, DATA_ALIGN);

    let shift = front.len();
    for (pos, to) in fixups {
        let absolute = match to {
            Target::Front(mark) => marks[&mark],
            Target::Original(at) => shift + at,
        };
        let rel = u32::try_from(absolute - pos)
            .map_err(|_| refuse("the model is too large for 32-bit offsets"))?;
        front[pos..pos + 4].copy_from_slice(&rel.to_le_bytes());
    }
    front[0..4].copy_from_slice(&(table as u32).to_le_bytes());
    front.extend_from_slice(bytes);
    Ok(front)
}
