//! libstdc++'s `std::unordered_set<int>` iteration order, which decides the order of
//! LiteRT's allocation candidates (RUNTIME_RULES.md L7).

/// libstdc++'s `std::unordered_set<int>` iteration order: identity hash, singly linked list
/// where a key goes to the front of its bucket's run (or the list head when its bucket is
/// empty); 13 buckets to start, rehash to the next prime ≥ max(n+1, 2·buckets) when the size
/// would exceed the bucket count.
pub struct StdUnorderedSet {
    /// Keys in list order.
    list: Vec<usize>,
    buckets: usize,
}

impl Default for StdUnorderedSet {
    fn default() -> Self {
        Self::new()
    }
}

impl StdUnorderedSet {
    pub fn new() -> Self {
        StdUnorderedSet {
            list: Vec::new(),
            buckets: 13,
        }
    }

    pub fn insert(&mut self, key: usize) {
        if self.list.contains(&key) {
            return;
        }
        if self.list.len() + 1 > self.buckets {
            let n = next_prime((self.list.len() + 1).max(2 * self.buckets));
            let old = std::mem::take(&mut self.list);
            self.buckets = n;
            for k in old {
                self.link(k);
            }
        }
        self.link(key);
    }

    fn link(&mut self, key: usize) {
        let b = key % self.buckets;
        match self.list.iter().position(|&k| k % self.buckets == b) {
            Some(pos) => self.list.insert(pos, key),
            None => self.list.insert(0, key),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.list.iter().copied()
    }
}

fn next_prime(n: usize) -> usize {
    let is_prime = |p: usize| {
        (2..)
            .take_while(|d| d * d <= p)
            .all(|d| !p.is_multiple_of(d))
    };
    (n.max(2)..).find(|&p| is_prime(p)).unwrap_or(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unordered_set_puts_new_bucket_at_head_and_joins_existing_bucket_front() {
        let mut s = StdUnorderedSet::new();
        for k in [3, 5, 16] {
            s.insert(k);
        }
        // 3 then 5 at the head; 16 hashes to bucket 3 and goes before 3.
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![5, 16, 3]);
    }

    #[test]
    fn next_prime_is_the_smallest_prime_at_least_n() {
        assert_eq!(next_prime(26), 29);
        assert_eq!(next_prime(29), 29);
        assert_eq!(next_prime(58), 59);
    }
}
