//! The browser's reader for the story's entries and the character's vitality, which the server
//! writes internally tagged (`{"kind": "scene", "html": …}`), the form the store keeps them in.
//!
//! serde reads an internally tagged enum by buffering the whole object first (its `Content`
//! path, some 4% of the browser's code), since the tag may come last. The server's serde always
//! writes the tag first, so the browser reads it without buffering: the first key must be the
//! tag, and the rest of the object is the variant's fields. In the wasm these enums derive the
//! externally tagged form, which this reader feeds; on the server (and in native tests) they keep
//! their internally tagged derive, so nothing stored or sent changes.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess,
    VariantAccess, Visitor,
};
use serde::Deserialize;

/// An enum the server writes internally tagged, under the key [`TagFirst::TAG`].
pub trait TagFirst: DeserializeOwned {
    /// The key of its tag: `kind`, `state`.
    const TAG: &'static str;
}

impl TagFirst for crate::campaign::story::StoryEntry {
    const TAG: &'static str = "kind";
}

impl TagFirst for crate::game::Vitality {
    const TAG: &'static str = "state";
}

/// One value of `T`, read tag first (a field's `deserialize_with`).
pub fn one<'de, D: Deserializer<'de>, T: TagFirst>(deserializer: D) -> Result<T, D::Error> {
    Tagged::<T>::deserialize(deserializer).map(|tagged| tagged.0)
}

/// A list of `T`, each read tag first (a field's `deserialize_with`).
pub fn many<'de, D: Deserializer<'de>, T: TagFirst>(deserializer: D) -> Result<Vec<T>, D::Error> {
    let list = Vec::<Tagged<T>>::deserialize(deserializer)?;
    Ok(list.into_iter().map(|tagged| tagged.0).collect())
}

/// A value of `T` read from an internally tagged object, tag first.
struct Tagged<T>(T);

impl<'de, T: TagFirst> Deserialize<'de> for Tagged<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_map(TaggedVisitor(PhantomData))
            .map(Tagged)
    }
}

/// Reads the tag, then hands the rest of the object to `T`'s externally tagged reader.
struct TaggedVisitor<T>(PhantomData<T>);

impl<'de, T: TagFirst> Visitor<'de> for TaggedVisitor<T> {
    type Value = T;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        write!(formatter, "an object whose first key is `{}`", T::TAG)
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<T, M::Error> {
        match map.next_key::<String>()? {
            Some(key) if key == T::TAG => {}
            _ => return Err(de::Error::missing_field(T::TAG)),
        }
        let variant = map.next_value::<String>()?;
        T::deserialize(Variant { variant, rest: map })
    }
}

/// The variant named by the tag, with the object's other fields.
struct Variant<M> {
    /// The tag's value: the variant's name.
    variant: String,
    /// The object's remaining fields.
    rest: M,
}

impl<'de, M: MapAccess<'de>> Deserializer<'de> for Variant<M> {
    type Error = M::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, M::Error> {
        visitor.visit_enum(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

impl<'de, M: MapAccess<'de>> EnumAccess<'de> for Variant<M> {
    type Error = M::Error;
    type Variant = Fields<M>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Fields<M>), M::Error> {
        let name = IntoDeserializer::<M::Error>::into_deserializer(self.variant.as_str());
        Ok((seed.deserialize(name)?, Fields(self.rest)))
    }
}

/// A variant's fields: the object's keys after the tag.
struct Fields<M>(M);

impl<'de, M: MapAccess<'de>> VariantAccess<'de> for Fields<M> {
    type Error = M::Error;

    fn unit_variant(mut self) -> Result<(), M::Error> {
        // Fields a unit variant does not have are passed over, as serde's own reader does.
        while self
            .0
            .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
            .is_some()
        {}
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, _seed: S) -> Result<S::Value, M::Error> {
        Err(de::Error::custom(
            "a tag-first enum has no newtype variants",
        ))
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        _visitor: V,
    ) -> Result<V::Value, M::Error> {
        Err(de::Error::custom("a tag-first enum has no tuple variants"))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, M::Error> {
        visitor.visit_map(self.0)
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    use super::*;

    /// Written as the server writes its enums.
    #[derive(Debug, PartialEq, Serialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Written {
        Scene { html: String, turn: u32 },
        Move { text: String, by: Option<String> },
        Quiet,
    }

    /// Read as the browser reads them: the same enum, externally tagged.
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Read {
        Scene {
            html: String,
            #[serde(default)]
            turn: u32,
        },
        Move {
            text: String,
            by: Option<String>,
        },
        Quiet,
    }

    impl TagFirst for Read {
        const TAG: &'static str = "kind";
    }

    fn read(json: &str) -> Result<Vec<Read>, serde_json::Error> {
        many(&mut serde_json::Deserializer::from_str(json))
    }

    #[test]
    fn what_the_server_writes_reads_back_without_buffering() {
        let written = [
            Written::Scene {
                html: "<p>Rain.</p>".into(),
                turn: 3,
            },
            Written::Move {
                text: "I wait".into(),
                by: Some("Ana".into()),
            },
            Written::Quiet,
        ];
        let json = serde_json::to_string(&written).unwrap();
        assert_eq!(
            read(&json).unwrap(),
            [
                Read::Scene {
                    html: "<p>Rain.</p>".into(),
                    turn: 3
                },
                Read::Move {
                    text: "I wait".into(),
                    by: Some("Ana".into())
                },
                Read::Quiet,
            ]
        );
    }

    #[test]
    fn a_variants_defaults_and_one_value_read_as_serde_would() {
        let one: Read = one(&mut serde_json::Deserializer::from_str(
            r#"{"kind":"scene","html":"x"}"#,
        ))
        .unwrap();
        assert_eq!(
            one,
            Read::Scene {
                html: "x".into(),
                turn: 0
            }
        );
    }

    #[test]
    fn a_tag_not_first_or_unknown_is_refused() {
        assert!(read(r#"[{"html":"x","kind":"scene"}]"#).is_err());
        assert!(read(r#"[{"kind":"song"}]"#).is_err());
        assert!(read(r#"[{"kind":"scene"}]"#).is_err());
    }

    #[test]
    fn the_server_writes_the_real_enums_tag_first() {
        use crate::campaign::story::StoryEntry;
        use crate::game::Vitality;

        // Natively both keep their internally tagged derive: what the store and the server
        // write. In the wasm, the same JSON goes through this reader.
        let entry = StoryEntry::Aside {
            text: "A word.".into(),
        };
        let json = serde_json::to_string(&entry).unwrap();
        assert!(json.starts_with(r#"{"kind":"aside""#), "{json}");
        let down = serde_json::to_string(&Vitality::DOWN).unwrap();
        assert!(down.starts_with(r#"{"state":"down""#), "{down}");
    }
}
