//! A file's size as the player reads it, in mebibytes with one decimal, worked out in whole
//! numbers rather than by formatting a float in the browser.

/// Bytes in a mebibyte.
const MEBIBYTE: u64 = 1024 * 1024;

/// `bytes` in mebibytes with one decimal, rounded to the nearest tenth: `12.5`, `0.0`.
pub fn mebibytes(bytes: u64) -> String {
    let tenths = (bytes.saturating_mul(10) + MEBIBYTE / 2) / MEBIBYTE;
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// `bytes` in whole mebibytes, rounded down: a limit's size, such as `32`.
pub fn whole_mebibytes(bytes: usize) -> u64 {
    bytes as u64 / MEBIBYTE
}

/// A file's size as the browser gives it (a whole number of bytes, in a float).
pub fn file_bytes(size: f64) -> u64 {
    // A saturating cast: a size is never negative nor past 2^53.
    size as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_with_one_decimal() {
        assert_eq!(mebibytes(0), "0.0");
        assert_eq!(mebibytes(MEBIBYTE), "1.0");
        assert_eq!(mebibytes(33 * MEBIBYTE + MEBIBYTE / 2), "33.5");
        assert_eq!(mebibytes(MEBIBYTE * 12 + MEBIBYTE / 20 - 1), "12.0");
        assert_eq!(mebibytes(MEBIBYTE * 12 + MEBIBYTE / 20 + 1), "12.1");
        assert_eq!(whole_mebibytes(32 * 1024 * 1024), 32);
        assert_eq!(file_bytes(1_572_864.0), 1_572_864);
    }
}
