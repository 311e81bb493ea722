//! A stand-in environment for the tests of the `from_lookup` readers (here and in `config`).

/// A stand-in environment of `pairs`: each name's value, `None` for the names not among them.
pub(crate) fn fake_env<'a>(
    pairs: &'a [(&'a str, &'a str)],
) -> impl Fn(&str) -> Option<String> + 'a {
    move |name| {
        pairs
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| (*value).to_owned())
    }
}
