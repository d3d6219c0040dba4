//! jp-kb's file primitives, written once for every crate: they are its
//! security boundaries, and a fix to one copy of them once missed the
//! others.
//!
//! - [`open_regular`], [`open_append`]: a regular file opened without
//!   blocking (a FIFO never hangs; a directory, a socket or a device is
//!   refused and named in words, [`FileKind`]); a file jp-kb keeps itself
//!   is never opened through a link ([`Links::Refuse`]).
//! - [`read_regular`], [`RegularFile::read_to_vec`]: reads within a size
//!   bound; the error says the size and the limit ([`Refusal`], inside an
//!   `io::Error`, so callers keep their `io::Result`).
//! - [`lock_dir`]: a directory's writers' lock that only someone who may
//!   write there can hold, and that says who holds it.
//! - [`workspace_key`]: the one name of a workspace's per-user files.
//! - [`Beneath`]: reads and writes that stay beneath a root directory.
//!
//! What each OS gets (the repository's `docs/files.md` says it for users):
//!
//! | | Linux ≥ 5.6 | older Linux, macOS, BSDs | Windows |
//! | --- | --- | --- | --- |
//! | beneath a root | `openat2(RESOLVE_BENEATH)` | `cap-std`'s walk, one `O_NOFOLLOW` open per component | `cap-std`'s walk |
//! | absolute link inside the root | checked by `/proc/self/fd` | `F_GETPATH` (macOS); canonical path + inode | canonical path |
//! | no blocking on a FIFO | `O_NONBLOCK` | `O_NONBLOCK` | no FIFOs |
//! | the lock | `flock` on a 0600 lock file; holder from `/proc/locks` | the same; holder from the lock file | none (content check only) |

mod beneath;
mod holder;
mod key;
mod kind;
mod lock;
mod open;
mod refusal;

pub use beneath::{
    Beneath, BeneathError, create_new, open_checked, open_dir, open_regular_in, sync_dir,
};
pub use cap_std::fs::{Dir, Metadata, OpenOptions};
#[cfg(unix)]
pub use cap_std::fs::{MetadataExt, OpenOptionsExt};
pub use key::workspace_key;
pub use kind::FileKind;
pub use lock::{DirLock, Holder, LOCK_FILE, LockError, lock_dir};
pub use open::{
    Links, RegularFile, open_append, open_regular, open_regular_with, read_regular, read_within,
};
pub use refusal::{Refusal, human_size, refusal};
