//! `y`: copies what has the focus (a slug, the prompt, the learn output,
//! the finding under the cursor) to the clipboard with an OSC 52 escape
//! sequence, which the terminal carries out, so it works over SSH. Inside
//! tmux the plain sequence is written too: tmux takes it into a paste
//! buffer and on to the outer terminal when `set-clipboard` is `on` (its
//! default, `external`, passes it on only), with no DCS passthrough (off
//! by default since tmux 3.3).

use std::io::Write;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use super::app::App;
use super::effect::Effect;
use super::pane::Focus;
use super::pane::Tab;
use super::tree::RowKind;
use jp_kb_core::display::clean_name;

/// The most bytes of text one OSC 52 sequence carries through tmux:
/// tmux (3.3a, measured) drops a sequence whose body (`52;c;` and the
/// base64) reaches 1 MiB, so base64's 4 bytes per 3 leave 786,426 bytes
/// of text (docs/decisions.md). Above it `y` refuses and names the CLI.
pub const MOST: usize = 786_426;

/// `bytes` for a person: `812 bytes`, `312 KiB`, `4.4 MiB`.
pub fn size(bytes: usize) -> String {
    const KIB: usize = 1024;
    if bytes < KIB {
        format!("{bytes} bytes")
    } else if bytes < KIB * KIB {
        format!("{} KiB", bytes.div_ceil(KIB))
    } else {
        // One decimal: tenths of a MiB, rounded up (never less than it is).
        let tenths = (bytes * 10).div_ceil(KIB * KIB);
        format!("{}.{} MiB", tenths / 10, tenths % 10)
    }
}

/// Why `what` of `bytes` is not copied, with the CLI that copies it
/// (`None` when it fits).
fn too_big(what: &str, bytes: usize, cli: &str) -> Option<String> {
    (bytes > MOST).then(|| {
        format!(
            "not copied: {what} is {}, over the {} an OSC 52 copy carries (tmux drops it); use `{cli} | xclip -selection clipboard` or `{cli} > file`",
            size(bytes),
            size(MOST)
        )
    })
}

/// The escape sequence that puts `text` (its exact bytes) on the
/// clipboard: `ESC ] 52 ; c ; base64 BEL`.
pub fn sequence(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", STANDARD.encode(text.as_bytes()))
}

/// Writes the sequence for `text` to `out` and flushes it.
pub fn write(out: &mut impl Write, text: &str) -> std::io::Result<()> {
    out.write_all(sequence(text).as_bytes())?;
    out.flush()
}

/// What `y` copies where the focus is, as an effect (and a status
/// message saying what was copied).
pub fn copy(app: &mut App) -> Vec<Effect> {
    let (what, text) = match app.focus {
        Focus::Topics => ("the topic id", app.topic_state().map(|t| t.id().to_owned())),
        Focus::Subjects => ("the slug", selected_slug(app)),
        Focus::Preview => match app.preview.tab {
            Tab::Prompt if app.preview.prompt_client.is_none() => {
                let bytes = app
                    .loaded
                    .model
                    .as_ref()
                    .and_then(|m| m.prompt.as_ref())
                    .map(|p| p.bytes);
                if let Some(why) =
                    bytes.and_then(|b| too_big("the <knowledge> section", b, "jp-kb prompt"))
                {
                    app.set_status(why, true);
                    return Vec::new();
                }
                let size = bytes
                    .map(|b| format!("{}, ", self::size(b)))
                    .unwrap_or_default();
                app.set_status(
                    format!("copied the <knowledge> section ({size}OSC 52)"),
                    false,
                );
                return vec![Effect::CopyPrompt];
            }
            Tab::Prompt => {
                app.set_status(
                    "a client view is not copied: c back to the RFD view copies the prompt",
                    true,
                );
                return Vec::new();
            }
            Tab::Learn => ("the learn output", learn_output(app)),
            Tab::Tool => (
                "the tool definition",
                app.loaded.model.as_ref().and_then(|m| m.tool.clone()),
            ),
            Tab::Config => ("the config file", config_text(app)),
            Tab::Findings => ("the finding", finding_text(app)),
            Tab::Subject => ("the slug", selected_slug(app)),
        },
    };
    if let Some(text) = text.filter(|t| !t.is_empty()) {
        if let Some(why) = too_big(what, text.len(), "jp-kb learn") {
            app.set_status(why, true);
            return Vec::new();
        }
        app.set_status(
            format!("copied {what} ({}, OSC 52)", size(text.len())),
            false,
        );
        vec![Effect::Copy(text)]
    } else {
        let thing = what.strip_prefix("the ").unwrap_or(what);
        app.set_status(format!("nothing to copy: no {thing}"), true);
        Vec::new()
    }
}

/// The selected subject's slug, or `dir/**` on a directory row.
fn selected_slug(app: &App) -> Option<String> {
    match app.selected_row()?.kind {
        RowKind::Subject(i) => app.subject(i).map(|s| s.slug().to_owned()),
        RowKind::Dir(dir) => Some(format!("{}/**", dir.slug_prefix)),
    }
}

fn learn_output(app: &App) -> Option<String> {
    Some(
        app.loaded
            .cache
            .learn
            .get(&app.learn_key()?)?
            .text()
            .to_owned(),
    )
}

fn config_text(app: &App) -> Option<String> {
    let file = app.shown_target()?;
    app.loaded.model.as_ref()?.config_texts.get(&file).cloned()
}

/// The finding under the cursor, as `jp-kb check` names one:
/// `file:line:column: severity CODE: message`, then its hint; cleaned
/// as the tab shows it (a hostile file name cannot smuggle escapes into
/// the clipboard).
fn finding_text(app: &App) -> Option<String> {
    let f = crate::tui::findings::shown::current(app)?;
    let head = format!(
        "{} {}: {}",
        f.severity.as_str(),
        f.code.as_str(),
        clean_name(&f.message)
    );
    let mut text = match crate::tui::findings::text::location(f) {
        Some(place) => format!("{place}: {head}"),
        None => head,
    };
    if let Some(hint) = &f.hint {
        text.push_str("\nhint: ");
        text.push_str(&clean_name(hint));
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_base64_of_the_exact_bytes() {
        assert_eq!(sequence("tar"), "\x1b]52;c;dGFy\x07");
        // Line breaks and non-ASCII bytes are carried exactly.
        assert_eq!(sequence("é\n"), "\x1b]52;c;w6kK\x07");
        let mut out = Vec::new();
        write(&mut out, "a b").unwrap_or_default();
        assert_eq!(out, b"\x1b]52;c;YSBi\x07");
    }
}
