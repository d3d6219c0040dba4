//! Why a file was not read: carried inside an [`std::io::Error`] (so
//! every caller's `io::Result` stays as it is) and found again with
//! [`refusal`] by a caller that words it its own way.

use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::kind::FileKind;

/// A file jp-kb will not read or write, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Not a regular file (checked before it is opened, and on the open
    /// file).
    NotRegular(FileKind),
    /// A symbolic link where jp-kb keeps a file of its own (the usage
    /// ledger): never followed.
    Link,
    /// A symbolic link to nothing.
    DanglingLink(PathBuf),
    /// Larger than the caller's bound (`size` as the file said).
    TooLarge { size: u64, limit: u64 },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotRegular(kind) => write!(f, "is {kind}, not a regular file"),
            Self::Link => f.write_str("is a symbolic link; jp-kb never follows one here"),
            Self::DanglingLink(target) => write!(
                f,
                "is a symbolic link to {}, which does not exist \
                 (create its target, or remove the link)",
                target.display()
            ),
            Self::TooLarge { size, limit } => write!(
                f,
                "is {}, larger than the {} jp-kb reads here",
                human_size(*size),
                human_size(*limit)
            ),
        }
    }
}

impl std::error::Error for Refusal {}

impl From<Refusal> for io::Error {
    fn from(refusal: Refusal) -> Self {
        let kind = match refusal {
            Refusal::TooLarge { .. } => io::ErrorKind::InvalidData,
            _ => io::ErrorKind::InvalidInput,
        };
        io::Error::new(kind, refusal)
    }
}

/// The refusal inside `err`, if it is one.
pub fn refusal(err: &io::Error) -> Option<&Refusal> {
    err.get_ref()?.downcast_ref::<Refusal>()
}

/// A size as a person reads it: "3.0 GiB", "600 MiB", "4.5 MiB",
/// "12 KiB", "512 bytes".
pub fn human_size(bytes: u64) -> String {
    const KIB: u64 = 1 << 10;
    const MIB: u64 = 1 << 20;
    const GIB: u64 = 1 << 30;
    #[allow(clippy::cast_precision_loss, reason = "one decimal shown")]
    let scaled = |unit: u64| bytes as f64 / unit as f64;
    match bytes {
        b if b >= GIB => format!("{:.1} GiB", scaled(GIB)),
        b if b >= 10 * MIB => format!("{:.0} MiB", scaled(MIB)),
        b if b >= MIB => format!("{:.1} MiB", scaled(MIB)),
        b if b >= 10 * KIB => format!("{:.0} KiB", scaled(KIB)),
        b if b >= KIB => format!("{:.1} KiB", scaled(KIB)),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_a_person_would_say_them() {
        assert_eq!(human_size(3 << 30), "3.0 GiB");
        assert_eq!(human_size(600 << 20), "600 MiB");
        assert_eq!(human_size(16 << 20), "16 MiB");
        assert_eq!(human_size((9 << 20) + (1 << 19)), "9.5 MiB");
        assert_eq!(human_size(512), "512 bytes");
    }

    #[test]
    fn a_refusal_survives_the_trip_through_io_error() {
        let err: io::Error = Refusal::TooLarge {
            size: 3 << 30,
            limit: 1 << 30,
        }
        .into();
        assert_eq!(
            err.to_string(),
            "is 3.0 GiB, larger than the 1.0 GiB jp-kb reads here"
        );
        assert!(matches!(refusal(&err), Some(Refusal::TooLarge { .. })));
        assert!(refusal(&io::Error::other("x")).is_none());
    }
}
