//! A model's `model.safetensors`, read tensor by tensor as the encoder
//! asks for them (candle's [`SimpleBackend`]) instead of whole.
//!
//! Why not candle's own loaders: `from_buffered_safetensors` needs the
//! whole file in memory and then copies every tensor out of it (two
//! copies of 91 MB for all-MiniLM-L6-v2), and the memory-mapped one is
//! `unsafe`, which this workspace forbids. Here each tensor is read once,
//! straight into the vector the tensor keeps, and only the tensors the
//! encoder asks for; of the word table (half of all-MiniLM-L6-v2's file)
//! an encoder for one text reads only its rows ([`Weights::with_rows`]).
//!
//! The header is checked against the file before anything is read: every
//! tensor lies inside the data, and its size is its shape times its type.
//! A file changed on disk while it is read gives an error or other
//! numbers, never a read outside the file.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use candle_core::{DType, Device, Shape, Tensor};
use candle_nn::var_builder::SimpleBackend;
use safetensors::tensor::{Dtype, Metadata, TensorInfo};

use crate::error::ModelError;
use crate::read::open_regular;

/// The largest header accepted: a few hundred bytes a tensor
/// (all-MiniLM-L6-v2's is 10 kB); the format's own bound, 100 MB, is a
/// lot of JSON to parse from a stranger.
const MAX_HEADER: u64 = 4 << 20;
/// Bytes of the data read for the fingerprint, and how many places.
const SAMPLE_BYTES: u64 = 4096;
const SAMPLES: u64 = 64;
/// An open `model.safetensors`: its checked header, and the file.
#[derive(Clone)]
pub(crate) struct Weights {
    inner: Arc<Inner>,
    /// A table (by name) given as these of its rows only, in this order.
    rows: Option<Arc<(String, Vec<u32>)>>,
}

struct Inner {
    path: PathBuf,
    file: Mutex<File>,
    header: Vec<u8>,
    metadata: Metadata,
    /// Where the data starts in the file, and its length.
    data_start: u64,
    data_len: u64,
}

impl Weights {
    /// Opens `path` and checks its header against its length.
    pub(crate) fn open(path: &Path) -> Result<Self, ModelError> {
        let read_error = |source| ModelError::Read {
            path: path.to_owned(),
            source,
        };
        let invalid = |why: String| ModelError::Invalid {
            path: path.to_owned(),
            why,
        };
        let (mut file, meta) = open_regular(path).map_err(read_error)?;
        let mut length = [0u8; 8];
        file.read_exact(&mut length)
            .map_err(|_| invalid("shorter than a safetensors header".to_owned()))?;
        let header_len = u64::from_le_bytes(length);
        if header_len > MAX_HEADER || 8 + header_len > meta.len() {
            return Err(invalid(format!(
                "its header claims {header_len} bytes in a file of {}",
                meta.len()
            )));
        }
        let mut header = vec![0u8; usize::try_from(header_len).unwrap_or(0)];
        file.read_exact(&mut header).map_err(read_error)?;
        let metadata: Metadata = serde_json::from_slice(&header)
            .map_err(|e| invalid(format!("its header is not safetensors' ({e})")))?;
        let data_start = 8 + header_len;
        let data_len = meta.len() - data_start;
        for (name, info) in metadata.tensors() {
            check_tensor(&name, info, data_len).map_err(invalid)?;
        }
        Ok(Self {
            inner: Arc::new(Inner {
                path: path.to_owned(),
                file: Mutex::new(file),
                header,
                metadata,
                data_start,
                data_len,
            }),
            rows: None,
        })
    }

    /// Feeds what identifies the weights to `hasher`: the header (every
    /// tensor's name, type, shape and place), the data's length and
    /// `SAMPLES` pieces spread over the data. Another model of the same
    /// shape differs in every tensor, so in the pieces, and this reads
    /// 256 kB instead of the whole file at each start.
    pub(crate) fn fingerprint(&self, hasher: &mut crc32fast::Hasher) -> Result<(), ModelError> {
        let inner = &self.inner;
        hasher.update(&(inner.header.len() as u64).to_le_bytes());
        hasher.update(&inner.header);
        hasher.update(&inner.data_len.to_le_bytes());
        let step = (inner.data_len / SAMPLES).max(1);
        let mut piece = Vec::new();
        for i in 0..SAMPLES {
            let at = i * step;
            let len = SAMPLE_BYTES.min(inner.data_len.saturating_sub(at));
            if len == 0 {
                break;
            }
            piece.resize(usize::try_from(len).unwrap_or(0), 0);
            self.read_at(at, &mut piece)?;
            hasher.update(&piece);
        }
        Ok(())
    }

    /// `buf.len()` bytes of the data from `offset`.
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<(), ModelError> {
        let inner = &self.inner;
        let read_error = |source| ModelError::Read {
            path: inner.path.clone(),
            source,
        };
        // A poisoned lock only means another read failed; the file
        // itself is fine to seek again.
        let mut file = inner
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        file.seek(SeekFrom::Start(inner.data_start + offset))
            .map_err(read_error)?;
        file.read_exact(buf).map_err(read_error)
    }

    /// These weights with the table `name` (a 2-D tensor) cut to its
    /// rows `rows`, in this order.
    pub(crate) fn with_rows(&self, name: String, rows: Vec<u32>) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            rows: Some(Arc::new((name, rows))),
        }
    }

    /// The tensor `name` as f32.
    fn tensor(&self, name: &str) -> Result<Tensor, ModelError> {
        let (values, shape) = match self.rows.as_deref() {
            Some((table, rows)) if table == name => self.row_values(name, rows)?,
            _ => self.values(name)?,
        };
        Tensor::from_vec(values, shape, &Device::Cpu).map_err(|e| self.invalid(e.to_string()))
    }

    /// Rows `rows` of the table `name`, in this order, as f32, and their
    /// shape.
    fn row_values(&self, name: &str, rows: &[u32]) -> Result<(Vec<f32>, Vec<usize>), ModelError> {
        let info = self.float_info(name)?;
        let [table_rows, width] = info.shape[..] else {
            return Err(self.invalid(format!("{name} is not a table")));
        };
        let row_bytes = width * bytes_of(info.dtype);
        let mut values = Vec::with_capacity(rows.len() * width);
        for &row in rows {
            let row = row as usize;
            if row >= table_rows {
                return Err(self.invalid(format!("word piece {row} is beyond {name}'s rows")));
            }
            let at = (info.data_offsets.0 + row * row_bytes) as u64;
            values.extend(self.read_values(info.dtype, at, row_bytes)?);
        }
        Ok((values, vec![rows.len(), width]))
    }

    /// The values of tensor `name`, as f32, and its shape.
    fn values(&self, name: &str) -> Result<(Vec<f32>, Vec<usize>), ModelError> {
        let info = self.float_info(name)?;
        let (start, end) = info.data_offsets;
        let values = self.read_values(info.dtype, start as u64, end - start)?;
        Ok((values, info.shape.clone()))
    }

    /// The shape of tensor `name`, when the file has it.
    pub(crate) fn shape(&self, name: &str) -> Option<&[usize]> {
        Some(&self.inner.metadata.info(name)?.shape)
    }

    /// Refuses tensor `name` unless it is of a float type read here.
    pub(crate) fn check_float(&self, name: &str) -> Result<(), String> {
        self.float_info(name).map(drop).map_err(|e| match e {
            ModelError::Invalid { why, .. } => why,
            other => other.to_string(),
        })
    }

    /// The header's entry for tensor `name`, a float tensor.
    fn float_info(&self, name: &str) -> Result<&TensorInfo, ModelError> {
        let info = self
            .inner
            .metadata
            .info(name)
            .ok_or_else(|| self.invalid(format!("it has no tensor {name}")))?;
        if !matches!(info.dtype, Dtype::F32 | Dtype::F16 | Dtype::BF16) {
            return Err(self.invalid(format!("tensor {name} is {}, not a float type", info.dtype)));
        }
        Ok(info)
    }

    fn invalid(&self, why: String) -> ModelError {
        ModelError::Invalid {
            path: self.inner.path.clone(),
            why,
        }
    }

    /// `len` bytes from `offset` of the data, of type `dtype`, as f32.
    fn read_values(&self, dtype: Dtype, offset: u64, len: usize) -> Result<Vec<f32>, ModelError> {
        if dtype == Dtype::F32 {
            // Read straight into the vector kept.
            let mut values = vec![0f32; len / 4];
            self.read_at(offset, bytemuck::cast_slice_mut(&mut values))?;
            if cfg!(target_endian = "big") {
                for v in &mut values {
                    *v = f32::from_bits(v.to_bits().swap_bytes());
                }
            }
            return Ok(values);
        }
        let mut bytes = vec![0u8; len];
        self.read_at(offset, &mut bytes)?;
        let elements = len / bytes_of(dtype).max(1);
        let candle_type = DType::try_from(dtype).map_err(|e| self.invalid(e.to_string()))?;
        Tensor::from_raw_buffer(&bytes, candle_type, &[elements], &Device::Cpu)
            .and_then(|t| t.to_dtype(DType::F32))
            .and_then(|t| t.to_vec1::<f32>())
            .map_err(|e| self.invalid(e.to_string()))
    }
}

/// A tensor that lies inside the data and whose size is its shape times
/// its type's (tensors the encoder never reads, such as integer position
/// ids, are checked too).
fn check_tensor(name: &str, info: &TensorInfo, data_len: u64) -> Result<(), String> {
    let (start, end) = info.data_offsets;
    let bits = info
        .shape
        .iter()
        .try_fold(info.dtype.bitsize(), |n, &d| n.checked_mul(d));
    let size = bits.filter(|b| b % 8 == 0).map(|b| b / 8);
    if start > end || end as u64 > data_len || size != Some(end - start) {
        return Err(format!(
            "tensor {name} ({} {:?}, bytes {start}..{end}) does not fit the file's {data_len} bytes of data",
            info.dtype, info.shape
        ));
    }
    Ok(())
}

impl SimpleBackend for Weights {
    fn get(
        &self,
        shape: Shape,
        name: &str,
        _: candle_nn::Init,
        dtype: DType,
        _: &Device,
    ) -> candle_core::Result<Tensor> {
        let tensor = self.get_unchecked(name, dtype, &Device::Cpu)?;
        if tensor.shape() != &shape {
            return Err(candle_core::Error::UnexpectedShape {
                msg: format!("tensor {name}"),
                expected: shape,
                got: tensor.shape().clone(),
            });
        }
        Ok(tensor)
    }

    fn get_unchecked(&self, name: &str, dtype: DType, _: &Device) -> candle_core::Result<Tensor> {
        self.tensor(name)
            .map_err(|e| candle_core::Error::Msg(e.to_string()))?
            .to_dtype(dtype)
    }

    fn contains_tensor(&self, name: &str) -> bool {
        self.inner.metadata.info(name).is_some()
    }
}

/// Bytes an element of `dtype` takes (whole bytes: only the float types
/// `Weights::tensor` reads get here).
fn bytes_of(dtype: Dtype) -> usize {
    dtype.bitsize() / 8
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use safetensors::tensor::{TensorView, serialize};

    use super::*;

    /// A safetensors file of a 4×3 word table (row r holds r.0, r.1, r.2),
    /// an f16 vector and integer position ids.
    fn file() -> (tempfile::TempDir, PathBuf, Vec<u8>) {
        let table: Vec<f32> = (0..4u8)
            .flat_map(|r| (0..3u8).map(move |c| f32::from(r) + f32::from(c) / 10.0))
            .collect();
        let table: Vec<u8> = table.iter().flat_map(|v| v.to_le_bytes()).collect();
        let half: Vec<u8> = [0x3c00u16, 0x4000]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let ids: Vec<u8> = [0i64, 1].iter().flat_map(|v| v.to_le_bytes()).collect();
        let tensors = [
            (
                "bert.embeddings.word_embeddings.weight",
                TensorView::new(Dtype::F32, vec![4, 3], &table).unwrap(),
            ),
            ("half", TensorView::new(Dtype::F16, vec![2], &half).unwrap()),
            ("ids", TensorView::new(Dtype::I64, vec![2], &ids).unwrap()),
        ];
        let bytes = serialize(tensors, None).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.safetensors");
        std::fs::write(&path, &bytes).unwrap();
        (dir, path, bytes)
    }

    fn values(t: &Tensor) -> Vec<f32> {
        t.flatten_all().unwrap().to_vec1().unwrap()
    }

    #[test]
    fn reads_tensors_as_f32() {
        let (_dir, path, _) = file();
        let weights = Weights::open(&path).unwrap();
        let name = "bert.embeddings.word_embeddings.weight";
        let whole = weights.tensor(name).unwrap();
        assert_eq!(whole.dims(), [4, 3]);
        // f16 comes as f32.
        assert_eq!(values(&weights.tensor("half").unwrap()), [1.0, 2.0]);
        // A table cut to some of its rows, in their order.
        let cut = weights.with_rows(name.to_owned(), vec![3, 0, 3]);
        let rows = cut.tensor(name).unwrap();
        assert_eq!(rows.dims(), [3, 3]);
        assert_eq!(values(&rows), [3.0, 3.1, 3.2, 0.0, 0.1, 0.2, 3.0, 3.1, 3.2]);
        let beyond = weights.with_rows(name.to_owned(), vec![4]);
        let err = beyond.tensor(name).unwrap_err().to_string();
        assert!(err.contains("word piece 4 is beyond"), "{err}");
        assert_eq!(weights.values("half").unwrap(), (vec![1.0, 2.0], vec![2]));
    }

    #[test]
    fn refuses_what_the_encoder_cannot_use() {
        let (_dir, path, _) = file();
        let weights = Weights::open(&path).unwrap();
        let err = weights.tensor("ids").unwrap_err().to_string();
        assert!(err.contains("tensor ids is I64, not a float type"), "{err}");
        let err = weights.tensor("nothing").unwrap_err().to_string();
        assert!(err.contains("it has no tensor nothing"), "{err}");
    }

    #[test]
    fn a_cut_or_lying_header_is_refused_at_open_naming_the_file() {
        let (dir, path, bytes) = file();
        for cut in [0, 7, 8, 20, bytes.len() - 1] {
            std::fs::write(&path, &bytes[..cut]).unwrap();
            let err = Weights::open(&path).err().expect("a cut file is refused");
            assert!(
                err.to_string().contains("model.safetensors"),
                "{cut}: {err}"
            );
        }
        // A header whose tensor reaches past the data (same length, so
        // the header's own length still holds).
        let at = bytes
            .windows(7)
            .position(|w| w == b"[64,68]")
            .expect("the fixture's last tensor is at [64,68]");
        let mut lying = bytes.clone();
        lying[at..at + 7].copy_from_slice(b"[64,99]");
        std::fs::write(&path, &lying).unwrap();
        let err = Weights::open(&path)
            .err()
            .expect("a lying header is refused");
        assert!(err.to_string().contains("not a usable model file"), "{err}");
        // Cut in the data: the header is fine, its last tensor is not there.
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        let err = Weights::open(&path).err().expect("cut data is refused");
        assert!(err.to_string().contains("does not fit"), "{err}");
        drop(dir);
    }

    #[test]
    fn the_fingerprint_changes_with_the_numbers_not_only_the_header() {
        let (_dir, path, mut bytes) = file();
        let print = |path: &Path| {
            let mut h = crc32fast::Hasher::new();
            Weights::open(path).unwrap().fingerprint(&mut h).unwrap();
            h.finalize()
        };
        let before = print(&path);
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert_ne!(print(&path), before);
    }
}
