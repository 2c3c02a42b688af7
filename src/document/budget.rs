//! A RAM budget: a byte count as people write it (`262144`, `256K`, `1M`), and what a plan
//! does against it.

/// The largest budget accepted (sizes stay far from `u64` overflow).
pub const MAX_BUDGET: u64 = 1 << 48;

/// Why a budget could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("a budget is a whole number of bytes, optionally with K, M or G (KiB, MiB, GiB), at most 2^48, not {0:?}")]
pub struct BudgetError(pub String);

/// Reads `N`, `NK`, `NM`, `NG` (binary units; `KiB`, `MiB`, `GiB`, `B` accepted too).
pub fn parse_budget(text: &str) -> Result<u64, BudgetError> {
    let err = || BudgetError(text.to_string());
    let t = text.trim();
    let digits_end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(digits_end);
    if digits.is_empty() {
        return Err(err());
    }
    let n: u64 = digits.parse().map_err(|_| err())?;
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        _ => return Err(err()),
    };
    n.checked_mul(scale)
        .filter(|&b| b <= MAX_BUDGET)
        .ok_or_else(err)
}

/// How an arena stands against a budget: fits with `spare` bytes left, or misses by `short`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Fits { spare: u64 },
    Misses { short: u64 },
}

impl Verdict {
    pub fn of(arena_bytes: u64, budget: u64) -> Self {
        if arena_bytes <= budget {
            Verdict::Fits {
                spare: budget - arena_bytes,
            }
        } else {
            Verdict::Misses {
                short: arena_bytes - budget,
            }
        }
    }

    pub fn fits(self) -> bool {
        matches!(self, Verdict::Fits { .. })
    }
}

/// A budget against the plans of one problem: the plan's arena is not all the RAM the runtime
/// needs; `outside_bytes` (TFLM's tail, LiteRT's persistent arena) comes on top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub bytes: u64,
    pub outside_bytes: u64,
}

impl Budget {
    /// The room left for the planned arena (the line drawn on arena axes).
    pub fn for_arena(&self) -> u64 {
        self.bytes.saturating_sub(self.outside_bytes)
    }

    /// How an arena plus what is outside it stands against the budget.
    pub fn verdict(&self, arena_bytes: u64) -> Verdict {
        Verdict::of(arena_bytes + self.outside_bytes, self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_read_bytes_and_binary_units() {
        assert_eq!(parse_budget("262144"), Ok(262144));
        assert_eq!(parse_budget("256K"), Ok(262144));
        assert_eq!(parse_budget("256KiB"), Ok(262144));
        assert_eq!(parse_budget(" 1M "), Ok(1 << 20));
        assert_eq!(parse_budget("2g"), Ok(2 << 30));
        assert_eq!(parse_budget("0"), Ok(0));
        assert_eq!(parse_budget("281474976710656"), Ok(1 << 48));
    }

    #[test]
    fn bad_budgets_are_refused() {
        for bad in [
            "12X",
            "-5",
            "",
            "K",
            "1.5M",
            "281474976710657",
            "99999999999999999999",
            "1 M M",
        ] {
            assert!(parse_budget(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_runtime_bytes_outside_the_plan_count_against_the_budget() {
        // TFLM's keyword model: tail 14480 B; 16 KiB leaves 1904 B for the head.
        let b = Budget {
            bytes: 16384,
            outside_bytes: 14480,
        };
        assert_eq!(b.for_arena(), 1904);
        assert_eq!(b.verdict(672), Verdict::Fits { spare: 1232 });
        assert_eq!(b.verdict(3568), Verdict::Misses { short: 1664 });
        let tight = Budget {
            bytes: 1000,
            outside_bytes: 14480,
        };
        assert_eq!(tight.for_arena(), 0);
        assert_eq!(tight.verdict(0), Verdict::Misses { short: 13480 });
    }

    #[test]
    fn verdicts_say_by_how_much() {
        assert_eq!(Verdict::of(100, 128), Verdict::Fits { spare: 28 });
        assert_eq!(Verdict::of(128, 128), Verdict::Fits { spare: 0 });
        assert_eq!(Verdict::of(200, 128), Verdict::Misses { short: 72 });
    }
}
