//! How `$VISUAL`/`$EDITOR` is told to open a file at a line, per editor
//! family (docs/decisions.md, "Opening a finding in $EDITOR"): `+LINE
//! file` for the vi, emacs and nano families, `-g file:LINE` for VS Code
//! and its forks, `file:LINE` for Sublime Text, Zed and Helix; any other
//! editor gets the file alone, since a wrong guess would open a new file
//! named `config.toml:12`.

/// The argument forms an editor understands for "this file at this line".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineForm {
    /// `editor +12 file`
    Plus,
    /// `editor -g file:12`
    Goto,
    /// `editor file:12`
    Suffix,
    /// The file alone.
    None,
}

/// The form `editor` (a command line such as `code -w` or
/// `/usr/bin/nvim`) takes, from its program's name.
pub fn line_form(editor: &str) -> LineForm {
    let program = editor
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .rsplit('/')
        .next()
        .unwrap_or_default();
    let program = program.strip_suffix(".exe").unwrap_or(program);
    match program {
        "vi" | "vim" | "nvim" | "gvim" | "view" | "vis" | "nano" | "pico" | "emacs"
        | "emacsclient" | "micro" | "kak" | "joe" | "jed" | "mg" | "ne" | "mcedit" => {
            LineForm::Plus
        }
        "code" | "code-insiders" | "codium" | "vscodium" | "cursor" | "windsurf" => LineForm::Goto,
        "subl" | "sublime_text" | "zed" | "zeditor" | "hx" | "helix" => LineForm::Suffix,
        _ => LineForm::None,
    }
}

/// The shell command (run as `sh -c CMD jp-kb FILE`) that opens `"$1"`
/// in `editor`, at `line` when given and the editor's form is known. The
/// path stays an argument, never part of the command text.
pub fn command(editor: &str, line: Option<u32>) -> String {
    match (line, line.map(|_| line_form(editor))) {
        (Some(n), Some(LineForm::Plus)) => format!("{editor} +{n} \"$1\""),
        (Some(n), Some(LineForm::Goto)) => format!("{editor} -g \"$1:{n}\""),
        (Some(n), Some(LineForm::Suffix)) => format!("{editor} \"$1:{n}\""),
        _ => format!("{editor} \"$1\""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_family_gets_its_own_line_argument() {
        assert_eq!(command("vim", Some(12)), "vim +12 \"$1\"");
        assert_eq!(command("/usr/bin/nvim", Some(3)), "/usr/bin/nvim +3 \"$1\"");
        assert_eq!(
            command("emacsclient -t", Some(7)),
            "emacsclient -t +7 \"$1\""
        );
        assert_eq!(command("code -w", Some(12)), "code -w -g \"$1:12\"");
        assert_eq!(command("zed --wait", Some(9)), "zed --wait \"$1:9\"");
        assert_eq!(command("hx", Some(4)), "hx \"$1:4\"");
        // Unknown editors and no line: the file alone.
        assert_eq!(command("my-editor", Some(12)), "my-editor \"$1\"");
        assert_eq!(command("vim", None), "vim \"$1\"");
    }
}
