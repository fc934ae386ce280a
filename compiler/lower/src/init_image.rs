//! The initial bytes of a static object as lowering builds them from its initializer: only
//! the prefix up to the last nonzero byte is held (`GlobalData::init` is zero past its end),
//! so a large zero-initialized object (`static char h[1ULL << 40];`) costs nothing at
//! compile time.
//!
//! Invariants: every write lies inside the object (`size`); the held prefix never grows past
//! `MAX_INIT_BYTES`, a write that would need more is an error for the caller to report.

/// The most initialized (nonzero) bytes ompcc writes into one device object.
pub(crate) const MAX_INIT_BYTES: u64 = 256 << 20;

pub(crate) struct InitImage {
    bytes: Vec<u8>,
    size: u64,
}

impl InitImage {
    /// An all-zero object of `size` bytes.
    pub(crate) fn new(size: u64) -> InitImage {
        InitImage {
            bytes: Vec::new(),
            size,
        }
    }

    /// Writes `data` at byte `at`. Zero bytes past the held prefix need no storage.
    pub(crate) fn write(&mut self, at: u64, data: &[u8]) -> Result<(), String> {
        let end = at
            .checked_add(data.len() as u64)
            .filter(|&e| e <= self.size)
            .ok_or("value out of range")?;
        let held = self.bytes.len() as u64;
        let Some(last) = data.iter().rposition(|&b| b != 0) else {
            // All zero: clear what the prefix holds of it.
            if at < held {
                let stop = end.min(held) as usize;
                self.bytes[at as usize..stop].fill(0);
            }
            return Ok(());
        };
        let need = at + last as u64 + 1;
        self.reserve(need, at)?;
        let n = (need.max(end.min(self.bytes.len() as u64)) - at) as usize;
        self.bytes[at as usize..at as usize + n].copy_from_slice(&data[..n]);
        Ok(())
    }

    /// Sets or clears bit `bit` (counted from the object's start, little-endian in bytes).
    pub(crate) fn set_bit(&mut self, bit: u64, on: bool) -> Result<(), String> {
        let byte = bit / 8;
        if byte >= self.size {
            return Err("bitfield out of range".into());
        }
        if on {
            self.reserve(byte + 1, byte)?;
            self.bytes[byte as usize] |= 1 << (bit % 8);
        } else if let Some(b) = self.bytes.get_mut(byte as usize) {
            *b &= !(1 << (bit % 8));
        }
        Ok(())
    }

    /// Grows the held prefix to `need` bytes (a nonzero byte goes at `at`).
    fn reserve(&mut self, need: u64, at: u64) -> Result<(), String> {
        if need <= self.bytes.len() as u64 {
            return Ok(());
        }
        if need > MAX_INIT_BYTES {
            return Err(format!(
                "a nonzero value lies {at} bytes into it, past the {} MiB of initialized data \
                 ompcc writes into a device image",
                MAX_INIT_BYTES >> 20
            ));
        }
        self.bytes.resize(need as usize, 0);
        Ok(())
    }

    /// The bytes up to the last nonzero one.
    pub(crate) fn into_bytes(mut self) -> Vec<u8> {
        let keep = self
            .bytes
            .iter()
            .rposition(|&b| b != 0)
            .map_or(0, |i| i + 1);
        self.bytes.truncate(keep);
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_only_the_nonzero_prefix() {
        let mut img = InitImage::new(1 << 40);
        img.write(8, &[0, 0, 0, 0]).unwrap();
        assert!(img.bytes.is_empty());
        img.write(4, &[1, 2, 0, 0]).unwrap();
        assert_eq!(img.bytes, [0, 0, 0, 0, 1, 2]);
        // an override with zeros clears held bytes
        img.write(4, &[0, 9, 0, 0]).unwrap();
        assert_eq!(img.into_bytes(), [0, 0, 0, 0, 0, 9]);
    }

    #[test]
    fn bits_and_bounds() {
        let mut img = InitImage::new(4);
        img.set_bit(9, true).unwrap();
        assert_eq!(img.bytes, [0, 2]);
        img.set_bit(9, false).unwrap();
        img.set_bit(30, false).unwrap();
        assert_eq!(img.into_bytes(), Vec::<u8>::new());
        let mut img = InitImage::new(4);
        assert!(img.write(2, &[1, 1, 1]).is_err());
        assert!(img.set_bit(32, true).is_err());
        let mut big = InitImage::new(1 << 40);
        assert!(big.write(1 << 39, &[1]).is_err());
        assert!(big.write(1 << 39, &[0]).is_ok());
    }
}
