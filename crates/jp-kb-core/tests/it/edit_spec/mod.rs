//! Helpers shared by the edit tests: the `.edit` spec format.
//!
//! One edit per file, as words on one line (double quotes group words and
//! understand `\n`, `\"`, `\\`). Lines starting with `#` are comments; a
//! line starting with `=> ` is the expected summary.
//!
//! ```text
//! add-learned TOPIC PATTERN...      rm-learned TOPIC PATTERN...
//! add-disabled TOPIC SLUG...        rm-disabled TOPIC SLUG...
//! replace-learned TOPIC PATTERN [WITH...]
//! add-topic ID SUBJECTS [title=T] [introduction=I] [description=D]
//! set TOPIC FIELD VALUE             unset TOPIC FIELD
//! rm-topic TOPIC
//! ```
#![allow(dead_code)]

use jp_kb_core::internal::edit::{Edit, FieldValue, TopicField};

pub struct Spec {
    pub edit: Edit,
    pub summary: Option<String>,
}

pub fn words(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            return Ok(out);
        }
        let mut word = String::new();
        while let Some(c) = chars.next() {
            match c {
                c if c.is_whitespace() => break,
                '"' => loop {
                    match chars.next() {
                        None => return Err(format!("unclosed quote in {line:?}")),
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some('n') => word.push('\n'),
                            Some('t') => word.push('\t'),
                            Some(c) => word.push(c),
                            None => return Err("dangling backslash".into()),
                        },
                        Some(c) => word.push(c),
                    }
                },
                c => word.push(c),
            }
        }
        out.push(word);
    }
}

pub fn parse_spec(text: &str) -> Result<Spec, String> {
    let mut edit = None;
    let mut summary = None;
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(s) = line.strip_prefix("=> ") {
            summary = Some(s.to_owned());
            continue;
        }
        if edit.is_some() {
            return Err("more than one edit line".into());
        }
        edit = Some(parse_edit(&words(line)?)?);
    }
    Ok(Spec {
        edit: edit.ok_or("no edit line")?,
        summary,
    })
}

pub fn parse_edit(w: &[String]) -> Result<Edit, String> {
    let (cmd, args) = w.split_first().ok_or("empty edit")?;
    let need = |n: usize| {
        if args.len() < n {
            Err(format!("`{cmd}` needs {n} arguments"))
        } else {
            Ok(())
        }
    };
    let topic = || args.first().cloned().unwrap_or_default();
    let rest = || args.iter().skip(1).cloned().collect::<Vec<_>>();
    let field = |name: &str| TopicField::from_key(name).ok_or(format!("unknown field {name}"));
    Ok(match cmd.as_str() {
        "add-learned" => Edit::AddLearned {
            topic: topic(),
            patterns: rest(),
        },
        "rm-learned" => Edit::RemoveLearned {
            topic: topic(),
            patterns: rest(),
        },
        "add-disabled" => Edit::AddDisabled {
            topic: topic(),
            slugs: rest(),
        },
        "rm-disabled" => Edit::RemoveDisabled {
            topic: topic(),
            slugs: rest(),
        },
        "replace-learned" => {
            need(2)?;
            Edit::ReplaceLearned {
                topic: topic(),
                pattern: args[1].clone(),
                with: args[2..].to_vec(),
            }
        }
        "add-topic" => {
            need(2)?;
            let mut e = (None, None, None);
            for a in &args[2..] {
                let (k, v) = a
                    .split_once('=')
                    .ok_or(format!("expected key=value, got {a}"))?;
                match k {
                    "title" => e.0 = Some(v.to_owned()),
                    "introduction" => e.1 = Some(v.to_owned()),
                    "description" => e.2 = Some(v.to_owned()),
                    _ => return Err(format!("unknown add-topic field {k}")),
                }
            }
            Edit::AddTopic {
                id: args[0].clone(),
                subjects: args[1].clone(),
                title: e.0,
                introduction: e.1,
                description: e.2,
            }
        }
        "set" => {
            need(3)?;
            let f = field(&args[1])?;
            let value = match (f, args[2].as_str()) {
                (TopicField::Enable, "true") => FieldValue::Bool(true),
                (TopicField::Enable, "false") => FieldValue::Bool(false),
                (_, v) => FieldValue::Text(v.to_owned()),
            };
            Edit::SetField {
                topic: topic(),
                field: f,
                value,
            }
        }
        "unset" => {
            need(2)?;
            Edit::UnsetField {
                topic: topic(),
                field: field(&args[1])?,
            }
        }
        "rm-topic" => {
            need(1)?;
            Edit::RemoveTopic { topic: topic() }
        }
        other => return Err(format!("unknown edit `{other}`")),
    })
}
