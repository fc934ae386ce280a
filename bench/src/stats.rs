//! Small statistics for the result tables.

use std::time::Duration;

/// Geometric mean of positive values; `None` when empty or a value is not positive.
pub fn geomean(values: &[f64]) -> Option<f64> {
    if values.is_empty() || values.iter().any(|v| !(*v > 0.0 && v.is_finite())) {
        return None;
    }
    let log_sum: f64 = values.iter().map(|v| v.ln()).sum();
    Some((log_sum / values.len() as f64).exp())
}

/// Median of durations (the upper one of an even count); zero when empty.
pub fn median(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted.get(sorted.len() / 2).copied().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geomean_of_ratios() {
        let g = geomean(&[2.0, 8.0]).unwrap();
        assert!((g - 4.0).abs() < 1e-12);
        assert_eq!(geomean(&[]), None);
        assert_eq!(geomean(&[1.0, 0.0]), None);
    }

    #[test]
    fn median_picks_the_middle() {
        let ms = |v: u64| Duration::from_millis(v);
        assert_eq!(median(&[ms(5), ms(1), ms(3)]), ms(3));
        assert_eq!(median(&[]), Duration::ZERO);
    }
}
