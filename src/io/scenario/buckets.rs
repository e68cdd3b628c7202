//! Choosing a scenario's queries by length bucket: [`BucketFilter`] and
//! [`Scenario::select`].

use std::str::FromStr;

use super::{Scenario, ScenarioQuery};
use crate::io::quote;

impl Scenario {
    /// The highest bucket of any query, `None` when there are no queries.
    pub fn max_bucket(&self) -> Option<u32> {
        self.queries.iter().map(|q| q.bucket).max()
    }

    /// The queries whose bucket passes `buckets`, in file order.
    pub fn select(&self, buckets: BucketFilter) -> Vec<&ScenarioQuery> {
        let keep: Box<dyn Fn(u32) -> bool> = match buckets {
            BucketFilter::All => Box::new(|_| true),
            BucketFilter::Range(lo, hi) => Box::new(move |b| lo <= b && b <= hi),
            BucketFilter::Top(n) => {
                let mut present: Vec<u32> = self.queries.iter().map(|q| q.bucket).collect();
                present.sort_unstable_by(|a, b| b.cmp(a));
                present.dedup();
                match (n as usize).checked_sub(1).and_then(|i| present.get(i)) {
                    Some(&lowest) => Box::new(move |b| b >= lowest),
                    None if n == 0 => Box::new(|_| false),
                    None => Box::new(|_| true),
                }
            }
        };
        self.queries.iter().filter(|q| keep(q.bucket)).collect()
    }
}

/// Which buckets of a scenario to run ([`Scenario::select`]).
///
/// Parses from `all`, `top:N` (the `N` highest buckets present), `A-B` (buckets
/// `A` to `B` inclusive) or `A` (bucket `A` only):
///
/// ```
/// use tierpath::io::BucketFilter;
/// assert_eq!("top:3".parse::<BucketFilter>().unwrap(), BucketFilter::Top(3));
/// assert_eq!("10-20".parse::<BucketFilter>().unwrap(), BucketFilter::Range(10, 20));
/// assert_eq!("7".parse::<BucketFilter>().unwrap(), BucketFilter::Range(7, 7));
/// assert!("top:x".parse::<BucketFilter>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BucketFilter {
    /// Every query.
    #[default]
    All,
    /// Queries in the `n` highest buckets present (the longest paths).
    Top(u32),
    /// Queries whose bucket lies in `lo..=hi`.
    Range(u32, u32),
}

/// A bucket filter that does not parse; the message names the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid bucket filter {}: {reason} (expected `all`, `top:N`, `A-B` or `A`)", quote(.text))]
pub struct BucketFilterError {
    /// The text that did not parse.
    pub text: String,
    /// Why.
    pub reason: String,
}

impl FromStr for BucketFilter {
    type Err = BucketFilterError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fail = |reason: &str| BucketFilterError {
            text: s.to_string(),
            reason: reason.to_string(),
        };
        let number = |t: &str| -> Result<u32, BucketFilterError> {
            let t = t.trim();
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(fail("not a whole number"));
            }
            t.parse().map_err(|_| fail("number too large"))
        };
        let t = s.trim();
        if t.eq_ignore_ascii_case("all") {
            return Ok(BucketFilter::All);
        }
        if let Some(n) = t
            .strip_prefix("top:")
            .or_else(|| t.strip_prefix("TOP:"))
            .or_else(|| t.strip_prefix("Top:"))
        {
            let n = number(n)?;
            if n == 0 {
                return Err(fail("top:0 selects nothing"));
            }
            return Ok(BucketFilter::Top(n));
        }
        if let Some((a, b)) = t.split_once('-') {
            let (a, b) = (number(a)?, number(b)?);
            if a > b {
                return Err(fail("the range is empty (first bucket above the last)"));
            }
            return Ok(BucketFilter::Range(a, b));
        }
        let a = number(t)?;
        Ok(BucketFilter::Range(a, a))
    }
}

impl std::fmt::Display for BucketFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BucketFilter::All => f.write_str("all"),
            BucketFilter::Top(n) => write!(f, "top:{n}"),
            BucketFilter::Range(a, b) if a == b => write!(f, "{a}"),
            BucketFilter::Range(a, b) => write!(f, "{a}-{b}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{TEST_SCEN, parse_scenario};
    use super::*;

    #[test]
    fn buckets() {
        let s = parse_scenario(TEST_SCEN.as_bytes(), "s.scen").unwrap();
        let lines = |f: BucketFilter| s.select(f).iter().map(|q| q.line).collect::<Vec<_>>();
        assert_eq!(lines(BucketFilter::All), vec![2, 4, 5, 6]);
        assert_eq!(lines(BucketFilter::Top(1)), vec![4, 6]);
        assert_eq!(lines(BucketFilter::Top(2)), vec![4, 5, 6]);
        assert_eq!(lines(BucketFilter::Top(9)), vec![2, 4, 5, 6]);
        assert_eq!(lines(BucketFilter::Top(0)), Vec::<usize>::new());
        assert_eq!(lines(BucketFilter::Range(0, 1)), vec![2, 5]);
        assert_eq!(lines(BucketFilter::Range(1, 1)), vec![5]);
        assert_eq!(lines(BucketFilter::Range(3, 9)), Vec::<usize>::new());
    }

    #[test]
    fn bucket_filter_parsing() {
        for (text, want) in [
            ("all", BucketFilter::All),
            (" ALL ", BucketFilter::All),
            ("top:5", BucketFilter::Top(5)),
            ("3-7", BucketFilter::Range(3, 7)),
            ("3 - 7", BucketFilter::Range(3, 7)),
            ("12", BucketFilter::Range(12, 12)),
        ] {
            assert_eq!(text.parse::<BucketFilter>().unwrap(), want, "{text}");
            assert_eq!(want.to_string().parse::<BucketFilter>().unwrap(), want);
        }
        for (text, needle) in [
            ("", "``: not a whole number"),
            ("top:", "`top:`: not a whole number"),
            ("top:0", "selects nothing"),
            ("top:-1", "not a whole number"),
            ("7-3", "`7-3`: the range is empty"),
            ("1-2-3", "not a whole number"),
            ("x", "`x`"),
            ("99999999999", "too large"),
        ] {
            let e = text.parse::<BucketFilter>().unwrap_err();
            assert!(e.to_string().contains(needle), "{text}: {e}");
            assert!(
                e.to_string()
                    .contains("expected `all`, `top:N`, `A-B` or `A`")
            );
        }
    }
}
