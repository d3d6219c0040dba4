//! `print!`, `println!`, `eprint!` and `eprintln!` for the whole binary,
//! shadowing std's (macros defined before `mod cli` in `main.rs` win over
//! the prelude's in every module below). std's versions panic when the
//! stream is closed: `jp-kb sync | head` exited 101 with a backtrace after
//! the first file, leaving the others unwritten. These ignore a failed
//! write, so a command whose reader went away finishes its work (an edit
//! is saved and synced) and exits with the code it would have had, saying
//! nothing — what SIGPIPE does for a C tool, without dying half-way.
//! Call sites stay the plain macros; nothing can forget the rule.

use std::fmt::Arguments;
use std::io::Write;

macro_rules! print {
    ($($arg:tt)*) => {
        $crate::stdio::out(format_args!($($arg)*), false)
    };
}

macro_rules! println {
    () => {
        $crate::stdio::out(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::stdio::out(format_args!($($arg)*), true)
    };
}

// Unused today; defined so that a future `eprint!` is this one, not std's.
#[allow(unused_macros)]
macro_rules! eprint {
    ($($arg:tt)*) => {
        $crate::stdio::err(format_args!($($arg)*), false)
    };
}

macro_rules! eprintln {
    () => {
        $crate::stdio::err(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::stdio::err(format_args!($($arg)*), true)
    };
}

/// Writes to stdout; a closed or failing stdout is ignored.
pub fn out(args: Arguments<'_>, newline: bool) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_fmt(args);
    if newline {
        let _ = out.write_all(b"\n");
    }
}

/// Writes to stderr; a closed or failing stderr is ignored.
pub fn err(args: Arguments<'_>, newline: bool) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_fmt(args);
    if newline {
        let _ = err.write_all(b"\n");
    }
}
