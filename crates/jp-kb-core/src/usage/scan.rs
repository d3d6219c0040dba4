//! The fast path of reading a ledger: a line as jp-kb writes it (keys it
//! knows, strings without escapes) is read by hand, borrowing from the
//! line; anything else goes through serde ([`Entry::parse`]), so a
//! foreign or newer line still reads. On a million records serde's
//! derived parser was most of `jp-kb usage`'s time (perf: 2.3 s, of which
//! half in deserialisation and its allocations).

use super::record::{Entry, Kind};
use super::text::Text;

/// One line's fields, borrowed. `patterns` are not kept: no tally needs
/// them.
#[derive(Debug, Default)]
pub(super) struct View<'a> {
    pub t: u64,
    pub day: Option<&'a str>,
    pub kind: Option<Kind>,
    pub topic: &'a str,
    pub slugs: Vec<&'a str>,
    pub preloaded: Vec<&'a str>,
    pub tokens: u64,
    pub session: Option<&'a str>,
    pub client: Option<&'a str>,
    pub version: Option<&'a str>,
    pub loads: Option<u64>,
    pub sessions: Option<u64>,
    pub clients: Vec<&'a str>,
}

impl<'a> View<'a> {
    /// Empties the view for the next line, keeping its vectors' memory.
    pub fn clear(&mut self) {
        self.t = 0;
        self.day = None;
        self.kind = None;
        self.topic = "";
        self.slugs.clear();
        self.preloaded.clear();
        self.tokens = 0;
        self.session = None;
        self.client = None;
        self.version = None;
        self.loads = None;
        self.sessions = None;
        self.clients.clear();
    }

    /// Reads `line` into the view; `false` when it is not a plain line of
    /// jp-kb's (the caller falls back to serde). The line is already
    /// checked UTF-8 (once per block: per string it was a seventh of the
    /// read), so slicing it at ASCII quotes needs no check.
    pub fn read(&mut self, line: &'a str) -> bool {
        self.clear();
        let mut p = Parser { s: line, i: 0 };
        p.read_into(self).is_some() && p.i == line.len() && self.kind.is_some()
    }

    /// The view of an entry serde parsed.
    pub fn of_entry(&mut self, e: &'a Entry<'_>) {
        let all = |v: &'a [Text<'_>], out: &mut Vec<&'a str>| {
            out.extend(v.iter().map(Text::as_str));
        };
        self.clear();
        self.t = e.t;
        self.day = e.day.as_ref().map(Text::as_str);
        self.kind = Some(e.kind);
        self.topic = e.topic.as_str();
        all(&e.slugs, &mut self.slugs);
        all(&e.preloaded, &mut self.preloaded);
        self.tokens = e.tokens;
        self.session = e.session.as_ref().map(Text::as_str);
        self.client = e.client.as_ref().map(Text::as_str);
        self.version = e.version.as_ref().map(Text::as_str);
        self.loads = e.loads;
        self.sessions = e.sessions;
        all(&e.clients, &mut self.clients);
    }
}

struct Parser<'a> {
    s: &'a str,
    i: usize,
}

impl<'a> Parser<'a> {
    fn eat(&mut self, b: u8) -> Option<()> {
        (self.s.as_bytes().get(self.i) == Some(&b)).then(|| self.i += 1)
    }

    /// A string without escapes (a backslash sends the line to serde).
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        let len = self.s.as_bytes()[start..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        self.i = start + len;
        self.eat(b'"')?;
        // Both ends are ASCII quotes: character boundaries.
        self.s.get(start..start + len)
    }

    fn number(&mut self) -> Option<u64> {
        let start = self.i;
        let mut n: u64 = 0;
        while let Some(d) = self.s.as_bytes().get(self.i).filter(|b| b.is_ascii_digit()) {
            n = n.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
            self.i += 1;
        }
        (self.i > start).then_some(n)
    }

    fn strings(&mut self, out: &mut Vec<&'a str>) -> Option<()> {
        self.eat(b'[')?;
        if self.eat(b']').is_some() {
            return Some(());
        }
        loop {
            out.push(self.string()?);
            if self.eat(b']').is_some() {
                return Some(());
            }
            self.eat(b',')?;
        }
    }

    fn read_into(&mut self, v: &mut View<'a>) -> Option<()> {
        self.eat(b'{')?;
        let mut ignored = Vec::new();
        loop {
            let key = self.string()?;
            self.eat(b':')?;
            match key {
                "t" => v.t = self.number()?,
                "tokens" => v.tokens = self.number()?,
                "loads" => v.loads = Some(self.number()?),
                "sessions" => v.sessions = Some(self.number()?),
                "day" => v.day = Some(self.string()?),
                "topic" => v.topic = self.string()?,
                "session" => v.session = Some(self.string()?),
                "client" => v.client = Some(self.string()?),
                "version" => v.version = Some(self.string()?),
                "kind" => v.kind = Some(kind(self.string()?)),
                "slugs" => self.strings(&mut v.slugs)?,
                "preloaded" => self.strings(&mut v.preloaded)?,
                "clients" => self.strings(&mut v.clients)?,
                "patterns" => {
                    ignored.clear();
                    self.strings(&mut ignored)?;
                }
                _ => return None,
            }
            if self.eat(b'}').is_some() {
                return Some(());
            }
            self.eat(b',')?;
        }
    }
}

fn kind(s: &str) -> Kind {
    match s {
        "learn" => Kind::Learn,
        "list" => Kind::List,
        "resource" => Kind::Resource,
        "prompt" => Kind::Prompt,
        _ => Kind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_serde_reads() {
        let mut e = Entry::record(
            7,
            Kind::Learn,
            "p".into(),
            "s".into(),
            ("c".into(), "1".into()),
        );
        e.slugs = vec!["a/b".to_owned().into(), "c".to_owned().into()];
        e.patterns = vec!["a/*".to_owned().into()];
        e.preloaded = vec!["d".to_owned().into()];
        e.tokens = 12;
        let line = e.to_line();
        let line = line.trim_end();
        let mut fast = View::default();
        assert!(fast.read(line));
        let parsed = Entry::parse(line.as_bytes()).unwrap();
        let mut slow = View::default();
        slow.of_entry(&parsed);
        assert_eq!(format!("{fast:?}"), format!("{slow:?}"));
    }

    #[test]
    fn leaves_anything_unusual_to_serde() {
        let mut v = View::default();
        for line in [
            r#"{"t":1,"kind":"learn","topic":"a\"b"}"#,
            r#"{"t":1,"kind":"learn","topic":"p","new":1}"#,
            r#"{"t":1, "kind":"learn","topic":"p"}"#,
            r#"{"t":1,"topic":"p"}"#,
            r#"{"t":1,"kind":"learn","topic":"p"} x"#,
            r#"{"t":99999999999999999999999,"kind":"learn","topic":"p"}"#,
            "",
        ] {
            assert!(!v.read(line), "{line}");
        }
        assert!(v.read(r#"{"t":1,"kind":"list","topic":"é"}"#));
        assert_eq!(v.topic, "é");
    }
}
