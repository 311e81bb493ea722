//! The model's Markdown as safe HTML: model output is untrusted, so raw HTML is escaped (shown
//! as text), images become their alt text, and links keep only http(s) and mailto targets and
//! open with `rel="noopener noreferrer nofollow"`.

use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};
use pulldown_cmark_escape as escape;

/// The words of `markdown` without its markup (a scene as plain text, for a picture's prompt).
pub fn plain_text(markdown: &str) -> String {
    let mut text = String::new();
    for event in Parser::new_ext(markdown, Options::ENABLE_STRIKETHROUGH) {
        match event {
            Event::Text(words) | Event::Code(words) => text.push_str(&words),
            Event::SoftBreak | Event::HardBreak | Event::End(_) => text.push(' '),
            _ => {}
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Renders `markdown` to HTML that cannot run script or load anything.
pub fn render(markdown: &str) -> String {
    let mut in_image = 0usize;
    let events =
        Parser::new_ext(markdown, Options::ENABLE_STRIKETHROUGH).filter_map(|event| match event {
            Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
            Event::Start(Tag::Image { .. }) => {
                in_image += 1;
                None
            }
            Event::End(TagEnd::Image) => {
                in_image = in_image.saturating_sub(1);
                None
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                ..
            }) => {
                let href = match link_type {
                    // `<name@example.com>`: rendered as a mailto: link.
                    pulldown_cmark::LinkType::Email => format!("mailto:{dest_url}"),
                    _ => safe_url(dest_url).into_string(),
                };
                Some(Event::Html(link_tag(&href, &title).into()))
            }
            other if in_image > 0 => match other {
                Event::Text(text) => Some(Event::Text(text)),
                _ => None,
            },
            other => Some(other),
        });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

/// The opening tag of a link the model wrote: its target escaped, and nothing passed on to it
/// (no opener, no referrer, no endorsement).
fn link_tag(href: &str, title: &str) -> String {
    let mut tag = String::from("<a href=\"");
    let _ = escape::escape_href(&mut tag, href);
    tag.push('"');
    if !title.is_empty() {
        tag.push_str(" title=\"");
        let _ = escape::escape_html(&mut tag, title);
        tag.push('"');
    }
    tag.push_str(" rel=\"noopener noreferrer nofollow\">");
    tag
}

fn safe_url(url: CowStr<'_>) -> CowStr<'_> {
    let lower = url.trim().to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("mailto:")
    {
        url
    } else {
        CowStr::Borrowed("#")
    }
}

#[cfg(test)]
mod tests {
    use super::render;

    #[test]
    fn markdown_renders() {
        assert_eq!(
            render("**Run!** the *goblin*"),
            "<p><strong>Run!</strong> the <em>goblin</em></p>\n"
        );
    }

    #[test]
    fn raw_html_is_escaped_as_text() {
        let html = render("Hi <script>alert(1)</script>\n\n<img src=x onerror=alert(2)>");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(
            html.contains("&lt;img src=x onerror=alert(2)&gt;"),
            "{html}"
        );
    }

    #[test]
    fn script_links_and_images_are_defused() {
        let html = render("[click](javascript:alert(1)) ![a cat](https://example.com/cat.png)");
        assert!(
            html.contains("<a href=\"#\" rel=\"noopener noreferrer nofollow\">click</a>"),
            "{html}"
        );
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("a cat"), "{html}");
    }

    #[test]
    fn links_pass_nothing_on_and_cannot_break_out_of_their_tag() {
        let html = render(r#"[the guild](https://example.com/a"b "x\" onmouseover=\"y")"#);
        assert!(
            html.contains(r#"<a href="https://example.com/a%22b" title="x&quot; onmouseover=&quot;y" rel="noopener noreferrer nofollow">the guild</a>"#),
            "{html}"
        );
    }

    #[test]
    fn email_autolinks_stay_mailto_links() {
        let html = render("Write to <guild@example.com>");
        assert!(html.contains("href=\"mailto:guild@example.com\""), "{html}");
    }
}
