//! Writing results: JSON text for the bindings, or a `serde_json::Value`
//! for Rust callers.

use serde::Serialize;
use serde_json::Value;

use furtive_core::Error;

/// What an export returns: JSON text ([`to_text`]) or a `Value`.
pub trait Output: Sized {
    /// `value` serialized.
    fn write<T: Serialize + ?Sized>(value: &T) -> Result<Self, Error>;
}

impl Output for Value {
    fn write<T: Serialize + ?Sized>(value: &T) -> Result<Value, Error> {
        serde_json::to_value(value).map_err(unwritable)
    }
}

impl Output for String {
    fn write<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
        to_text(value)
    }
}

/// A result as JSON text in ASCII: every character beyond U+007F written
/// as a `\u` escape, so `JSON.parse` reads the same values and the text
/// crosses into JavaScript on its fast path (V8's and `TextDecoder`'s
/// ASCII copy).
pub fn to_text<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
    let mut bytes = Vec::with_capacity(256);
    value
        .serialize(&mut serde_json::Serializer::with_formatter(
            &mut bytes,
            AsciiFormatter,
        ))
        .map_err(unwritable)?;
    String::from_utf8(bytes).map_err(|error| Error::InvalidInput {
        field: "output".into(),
        message: error.to_string(),
    })
}

/// A result serde cannot write (never the engine's own types).
fn unwritable(error: serde_json::Error) -> Error {
    Error::InvalidInput {
        field: "output".into(),
        message: error.to_string(),
    }
}

/// serde_json's compact formatter, non-ASCII characters escaped.
struct AsciiFormatter;

impl serde_json::ser::Formatter for AsciiFormatter {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        if fragment.is_ascii() {
            return writer.write_all(fragment.as_bytes());
        }
        for c in fragment.chars() {
            if c.is_ascii() {
                writer.write_all(&[c as u8])?;
            } else {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(writer, "\\u{unit:04x}")?;
                }
            }
        }
        Ok(())
    }
}
