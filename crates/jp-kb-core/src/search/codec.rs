//! Byte-level helpers of the segment format: a checksum, varints,
//! length-prefixed strings and a bounds-checked reader.

/// What is wrong with damaged bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Corrupt(pub &'static str);

/// The files' checksum: CRC-32 (`crc32fast`, SIMD where the machine has
/// it), which detects every single-bit and every burst error up to 32
/// bits, with the length mixed in so a truncation that happens to keep
/// the CRC is caught too. Stored in the files' 8-byte checksum field. It
/// catches a damaged or truncated file, not an attacker (the cache is the
/// user's own).
pub fn checksum(data: &[u8]) -> u64 {
    (data.len() as u64) << 32 | u64::from(crc32fast::hash(data))
}

#[allow(clippy::cast_possible_truncation)] // masked to 7 bits first
pub fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v & 0x7F) as u8 | 0x80);
        v >>= 7;
    }
    out.push((v & 0x7F) as u8);
}

pub fn read_varint(data: &[u8]) -> Option<(u64, &[u8])> {
    let mut v = 0u64;
    for (i, &b) in data.iter().enumerate().take(10) {
        v |= u64::from(b & 0x7F) << (7 * i);
        if b & 0x80 == 0 {
            return Some((v, &data[i + 1..]));
        }
    }
    None
}

pub fn put_string(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

pub struct Reader<'a> {
    pub data: &'a [u8],
    pub at: usize,
}

impl Reader<'_> {
    pub fn take(&mut self, n: usize) -> Result<&[u8], Corrupt> {
        let end = self.at.checked_add(n).ok_or(Corrupt("length"))?;
        let out = self.data.get(self.at..end).ok_or(Corrupt("truncated"))?;
        self.at = end;
        Ok(out)
    }
    pub fn u32(&mut self) -> Result<u32, Corrupt> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub fn u64(&mut self) -> Result<u64, Corrupt> {
        let b = self.take(8)?;
        Ok(u64::from_le_bytes([
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
        ]))
    }
    pub fn string(&mut self) -> Result<String, Corrupt> {
        let rest = self.data.get(self.at..).ok_or(Corrupt("truncated"))?;
        let (len, after) = read_varint(rest).ok_or(Corrupt("length"))?;
        self.at += rest.len() - after.len();
        let len = usize::try_from(len).map_err(|_| Corrupt("length"))?;
        let bytes = self.take(len)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| Corrupt("path"))
    }
}
