//! MiniMalloc's CSV problem format: `id,lower,upper,size[,alignment]`, half-open times.
//!
//! Times are compressed to their event order when read (conflicts depend only on the order of
//! the `lower`/`upper` values), so planners and views work on a compact axis; the real values
//! are kept in `Problem::step_values`.

use super::{Buffer, BufferKind, Problem};

#[derive(Debug, thiserror::Error)]
pub enum CsvError {
    #[error("cannot read the file: {0}")]
    Io(#[from] std::io::Error),
    #[error("line {line}: {msg}")]
    Line { line: usize, msg: String },
    #[error("{0}")]
    Header(String),
    #[error("the file has a header but no buffer rows below it, so nothing to plan")]
    NoRows,
}

/// Sizes and alignments above this are rejected (sums of sizes stay far from overflow).
const MAX_BYTES: u64 = 1 << 48;

/// One row as read, with its original values.
#[derive(Clone, Debug, PartialEq)]
pub struct CsvRow {
    pub id: String,
    pub lower: u64,
    pub upper: u64,
    pub size: u64,
    pub alignment: Option<u64>,
}

/// Reads a MiniMalloc CSV into its rows and a problem on compressed time.
pub fn read_problem(text: &str) -> Result<(Vec<CsvRow>, Problem), CsvError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, header) = lines
        .next()
        .ok_or_else(|| CsvError::Header("the file is empty".into()))?;
    let cols: Vec<String> = header.split(',').map(|c| c.trim().to_lowercase()).collect();
    let col = |name: &str| cols.iter().position(|c| c == name);
    let (Some(ci), Some(cl), Some(cu), Some(cs)) =
        (col("id"), col("lower"), col("upper"), col("size"))
    else {
        return Err(CsvError::Header(format!(
            "the header must name the columns id,lower,upper,size[,alignment], not {header:?}"
        )));
    };
    let ca = col("alignment");
    let mut rows = Vec::new();
    for (n, line) in lines {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        let num = |c: usize, what: &str| -> Result<u64, CsvError> {
            f.get(c)
                .ok_or_else(|| CsvError::Line {
                    line: n + 1,
                    msg: format!("missing the {what} column"),
                })?
                .parse::<u64>()
                .map_err(|_| CsvError::Line {
                    line: n + 1,
                    msg: format!("{what} is not a non-negative integer"),
                })
        };
        let row = CsvRow {
            id: f.get(ci).copied().unwrap_or("").to_string(),
            lower: num(cl, "lower")?,
            upper: num(cu, "upper")?,
            size: num(cs, "size")?,
            alignment: match ca {
                Some(c) if f.get(c).is_some_and(|s| !s.is_empty()) => Some(num(c, "alignment")?),
                _ => None,
            },
        };
        if row.upper <= row.lower {
            return Err(CsvError::Line {
                line: n + 1,
                msg: format!(
                    "upper ({}) must be greater than lower ({})",
                    row.upper, row.lower
                ),
            });
        }
        if row.size > MAX_BYTES || row.alignment.is_some_and(|a| a > MAX_BYTES) {
            return Err(CsvError::Line {
                line: n + 1,
                msg: "size or alignment above 2^48 bytes".into(),
            });
        }
        if row.alignment == Some(0) {
            return Err(CsvError::Line {
                line: n + 1,
                msg: "alignment must be at least 1".into(),
            });
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(CsvError::NoRows);
    }
    // Compress: the distinct lower and upper values cut time into steps `[v_k, v_(k+1))`;
    // `[lower, upper)` covers the steps between its two values, so two buffers share a step
    // exactly when their intervals intersect.
    let mut values: Vec<u64> = rows.iter().flat_map(|r| [r.lower, r.upper]).collect();
    values.sort_unstable();
    values.dedup();
    let buffers = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let first = values.partition_point(|&v| v < r.lower) as u32;
            let last = (values.partition_point(|&v| v < r.upper) as u32)
                .saturating_sub(1)
                .max(first);
            Buffer {
                tensor: i,
                subgraph: 0,
                name: r.id.clone(),
                kind: BufferKind::Activation,
                size_bytes: r.size,
                first,
                last,
                alignment: r.alignment.unwrap_or(1),
                fixed_offset: None,
            }
        })
        .collect();
    let mut problem = Problem::from_buffers(buffers);
    problem.step_values = values;
    Ok((rows, problem))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_without_rows_is_refused() {
        for text in [
            "id,lower,upper,size\n",
            "id,lower,upper,size,alignment\n\n  \n",
        ] {
            assert!(
                matches!(read_problem(text), Err(CsvError::NoRows)),
                "{text:?}"
            );
        }
        let (rows, p) = read_problem("id,lower,upper,size\nx,0,3,8\n").unwrap();
        assert_eq!(
            (rows.len(), p.buffers.len(), p.buffers[0].size_bytes),
            (1, 1, 8)
        );
    }
}
