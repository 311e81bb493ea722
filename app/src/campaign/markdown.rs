//! The model's Markdown as safe HTML: model output is untrusted, so raw HTML is escaped (shown
//! as text), images become their alt text, and links keep only http(s) and mailto targets.

use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};

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
                id,
            }) => Some(Event::Start(Tag::Link {
                dest_url: match link_type {
                    // `<name@example.com>`: rendered as a mailto: link.
                    pulldown_cmark::LinkType::Email => dest_url,
                    _ => safe_url(dest_url),
                },
                link_type,
                title,
                id,
            })),
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
        assert!(html.contains("<a href=\"#\">click</a>"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("a cat"), "{html}");
    }

    #[test]
    fn email_autolinks_stay_mailto_links() {
        let html = render("Write to <guild@example.com>");
        assert!(html.contains("href=\"mailto:guild@example.com\""), "{html}");
    }
}
