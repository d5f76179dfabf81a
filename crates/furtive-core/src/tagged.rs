//! Internally tagged enums (`{"type": "enterStealth", ...}`) with an
//! externally tagged twin for reading with field paths.
//!
//! serde's derive reads an internally tagged enum by buffering the object,
//! which loses the path of a bad field inside it (`events[1].hider`). The
//! twin (`{"enterStealth": {...}}`), derived from the same variants, is
//! read without buffering, so `serde_path_to_error` names the field; the
//! JSON boundary moves the tag to the key and reads the twin.

/// Declares an internally tagged enum, derived both ways (`tag = "type"`,
/// optionally `deny_unknown_fields`), and its externally tagged twin
/// `by_name` with `From<by_name>`.
macro_rules! tagged_enum {
    (
        tag = $tag:literal, by_name = $by_name:ident $(, $deny:ident)?;
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$variant_meta:meta])*
                $variant:ident {
                    $( $(#[$field_meta:meta])* $field:ident : $type:ty ),* $(,)?
                }
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(serde::Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(tag = $tag, rename_all = "camelCase", rename_all_fields = "camelCase")]
        $( #[serde($deny)] )?
        pub enum $name {
            $(
                $(#[$variant_meta])*
                $variant { $( $(#[$field_meta])* $field: $type ),* },
            )*
        }

        #[doc = concat!("[`", stringify!($name), "`] keyed by its `", $tag, "`: `{\"name\": {...}}`, read with field paths.")]
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
        $( #[serde($deny)] )?
        pub enum $by_name {
            $( $variant { $( $(#[$field_meta])* $field: $type ),* }, )*
        }

        impl From<$by_name> for $name {
            fn from(value: $by_name) -> $name {
                match value {
                    $( $by_name::$variant { $($field),* } => $name::$variant { $($field),* }, )*
                }
            }
        }
    };
}
pub(crate) use tagged_enum;
