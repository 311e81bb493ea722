//! Text-tools mode, for models without native tool calling: the tools are described
//! in the system prompt and the model calls them by writing
//! `<tool name="roll_dice">{"dice": "1d20", "reason": "Falling rocks"}</tool>` in its reply.
//!
//! [`TextTools`] wraps any [`LlmPort`]: it moves the tool definitions into the prompt (at the
//! end of the request's stable prefix, so the cached front holds them too), rewrites
//! earlier tool calls and results as text, and turns tags in the reply back into
//! [`ToolCall`]s, hiding them from the streamed text. A tag whose JSON is malformed still
//! becomes a call, so the rules reject it with a reason the model reads.

use futures::stream::{self, BoxStream, StreamExt};

use app::gm::llm::{
    FinishReason, LlmChunk, LlmError, LlmPort, LlmRequest, Message, ModelInfo, ToolCall,
    ToolChoice, ToolDefinition,
};

const OPEN: &str = "<tool";
const CLOSE: &str = "</tool>";
/// A tag longer than this is not a tool call; it is passed on as text.
const MAX_TAG_CHARS: usize = 4000;

/// Any model, with tools over plain text.
pub struct TextTools<P> {
    inner: P,
}

impl<P: LlmPort> TextTools<P> {
    /// Wraps `inner`.
    pub fn new(inner: P) -> Self {
        Self { inner }
    }
}

/// How to call tools, appended to the system prompt with each tool's description and schema.
fn tool_instructions(tools: &[ToolDefinition]) -> String {
    let mut text = String::from(
        "\n\nTools: to use one, write a tag on its own line and then stop, for example\n\
         <tool name=\"roll_dice\">{\"dice\": \"1d20+3\", \"reason\": \"Falling rocks\"}</tool>\n\
         The result comes back in the next message. The tools:",
    );
    for tool in tools {
        text.push_str(&format!(
            "\n- {}: {} Arguments (JSON schema): {}",
            tool.name, tool.description, tool.parameters
        ));
    }
    text
}

/// `<tool name="NAME">ARGUMENTS</tool>`.
fn tag(call: &ToolCall) -> String {
    format!("<tool name=\"{}\">{}</tool>", call.name, call.arguments)
}

/// The request as a model without tools sees it.
fn rewrite(mut request: LlmRequest) -> LlmRequest {
    let tools = std::mem::take(&mut request.tools);
    let mut messages: Vec<Message> = Vec::with_capacity(request.messages.len());
    for message in request.messages {
        match message {
            Message::Assistant {
                content,
                tool_calls,
            } if !tool_calls.is_empty() => {
                let mut text = content.as_deref().unwrap_or_default().to_owned();
                for call in &tool_calls {
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(&tag(call));
                }
                messages.push(Message::assistant(text));
            }
            Message::Tool { content, .. } => {
                let line = format!("[Tool result] {content}");
                match messages.last_mut() {
                    Some(Message::User { content: previous })
                        if previous.starts_with("[Tool result]") =>
                    {
                        *previous = format!("{previous}\n{line}").into();
                    }
                    _ => messages.push(Message::user(line)),
                }
            }
            other => messages.push(other),
        }
    }
    if !tools.is_empty() {
        let instructions = tool_instructions(&tools);
        match messages.first_mut() {
            Some(Message::System { content }) => {
                let at = request
                    .stable_prefix
                    .filter(|&at| content.is_char_boundary(at))
                    .unwrap_or(content.len());
                let (before, after) = content.split_at(at);
                *content = format!("{before}{instructions}{after}").into();
            }
            _ => messages.insert(0, Message::system(instructions.trim_start())),
        }
    }
    request.messages = messages;
    request
}

/// Finds tool tags in streamed text: text outside tags passes through as soon as it cannot be
/// the start of a tag; complete tags become calls.
#[derive(Debug, Default)]
pub struct TagScanner {
    pending: String,
    calls: Vec<ToolCall>,
}

impl TagScanner {
    /// Feeds more text; returns what can be shown now.
    pub fn push(&mut self, delta: &str) -> String {
        self.pending.push_str(delta);
        let mut shown = String::new();
        loop {
            match self.pending.find('<') {
                None => {
                    shown.push_str(&std::mem::take(&mut self.pending));
                    break;
                }
                Some(start) => {
                    shown.push_str(&self.pending[..start]);
                    self.pending.drain(..start);
                    let rest = self.pending.as_str();
                    if rest.len() < OPEN.len() && OPEN.starts_with(rest) {
                        break; // could still become `<tool`
                    }
                    if !rest.starts_with(OPEN) {
                        shown.push('<');
                        self.pending.drain(..1);
                        continue;
                    }
                    match rest.find(CLOSE) {
                        Some(end) => {
                            let tag_text: String =
                                self.pending.drain(..end + CLOSE.len()).collect();
                            match parse_tag(&tag_text, self.calls.len() + 1) {
                                Some(call) => self.calls.push(call),
                                None => shown.push_str(&tag_text),
                            }
                        }
                        None if rest.len() > MAX_TAG_CHARS => {
                            shown.push_str(&std::mem::take(&mut self.pending));
                        }
                        None => break, // wait for the rest of the tag
                    }
                }
            }
        }
        shown
    }

    /// Ends the text: returns what was still held back and the calls found.
    pub fn finish(mut self) -> (String, Vec<ToolCall>) {
        (std::mem::take(&mut self.pending), self.calls)
    }
}

/// Parses `<tool name="NAME">ARGUMENTS</tool>` (whitespace tolerated, single or double quotes).
fn parse_tag(tag_text: &str, number: usize) -> Option<ToolCall> {
    let inner = tag_text.strip_prefix(OPEN)?.strip_suffix(CLOSE)?;
    let (head, arguments) = inner.split_once('>')?;
    let head = head.trim();
    let value = head
        .strip_prefix("name")?
        .trim_start()
        .strip_prefix('=')?
        .trim();
    let name = value.trim_matches(|c| c == '"' || c == '\'').trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some(ToolCall {
        id: format!("text_call_{number}"),
        name: name.to_owned(),
        arguments: arguments.trim().to_owned(),
    })
}

impl<P: LlmPort> LlmPort for TextTools<P> {
    fn model_info(&self) -> ModelInfo {
        self.inner.model_info()
    }

    fn stream(&self, request: LlmRequest) -> BoxStream<'_, Result<LlmChunk, LlmError>> {
        let offered_tools = !request.tools.is_empty() && request.tool_choice == ToolChoice::Auto;
        let inner = self.inner.stream(rewrite(request));
        let state = (inner, Some(TagScanner::default()));
        stream::unfold(state, move |(mut inner, mut scanner)| async move {
            let active = scanner.as_mut()?;
            loop {
                match inner.next().await {
                    Some(Ok(LlmChunk::Text(delta))) => {
                        let shown = active.push(&delta);
                        if !shown.is_empty() {
                            return Some((Ok(vec![LlmChunk::Text(shown)]), (inner, scanner)));
                        }
                    }
                    Some(Ok(passed @ (LlmChunk::ToolCall(_) | LlmChunk::Retrying { .. }))) => {
                        return Some((Ok(vec![passed]), (inner, scanner)));
                    }
                    Some(Ok(LlmChunk::Done {
                        finish_reason,
                        usage,
                    })) => {
                        let (rest, calls) = scanner.take()?.finish();
                        let mut chunks = Vec::new();
                        if !rest.is_empty() {
                            chunks.push(LlmChunk::Text(rest));
                        }
                        let called = offered_tools && !calls.is_empty();
                        if offered_tools {
                            chunks.extend(calls.into_iter().map(LlmChunk::ToolCall));
                        }
                        chunks.push(LlmChunk::Done {
                            finish_reason: if called {
                                FinishReason::ToolCalls
                            } else {
                                finish_reason
                            },
                            usage,
                        });
                        return Some((Ok(chunks), (inner, None)));
                    }
                    Some(Err(error)) => return Some((Err(error), (inner, None))),
                    None => return None,
                }
            }
        })
        .flat_map(|batch| match batch {
            Ok(chunks) => stream::iter(chunks.into_iter().map(Ok)).boxed(),
            Err(error) => stream::iter([Err(error)]).boxed(),
        })
        .boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use proptest::prelude::*;

    /// Text made mostly of a tag's characters, with anything mixed in.
    fn hostile() -> impl Strategy<Value = String> {
        prop_oneof![
            3 => proptest::string::string_regex(
                "(<tool name=\"roll_dice\">|</tool>|[{}\":, a-z0-9<>/]){0,40}"
            )
            .unwrap(),
            1 => any::<String>(),
        ]
    }

    proptest! {
        // A fuzz target run as a property (`FUZZ_CASES` inputs; the test command runs 2,000).
        #![proptest_config(ProptestConfig {
            cases: std::env::var("FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(2_000),
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        #[test]
        fn the_tag_scanner_reads_the_same_whatever_the_chunking(
            text in hostile(),
            cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..6),
        ) {
            let mut whole = TagScanner::default();
            let mut shown_whole = whole.push(&text);
            let (rest, calls_whole) = whole.finish();
            shown_whole.push_str(&rest);

            let mut at: Vec<usize> = cuts.iter().map(|cut| cut.index(text.len() + 1)).collect();
            at.retain(|&i| text.is_char_boundary(i));
            at.sort_unstable();
            let mut pieces = TagScanner::default();
            let (mut shown, mut from) = (String::new(), 0);
            for cut in at.into_iter().chain([text.len()]) {
                shown.push_str(&pieces.push(&text[from..cut]));
                from = cut;
            }
            let (rest, calls) = pieces.finish();
            shown.push_str(&rest);
            prop_assert_eq!(shown, shown_whole);
            prop_assert_eq!(calls, calls_whole);
        }
    }
    use app::gm::scripted::{ScriptedLlm, Step};

    fn scan(pieces: &[&str]) -> (String, Vec<ToolCall>) {
        let mut scanner = TagScanner::default();
        let mut shown: String = pieces.iter().map(|piece| scanner.push(piece)).collect();
        let (rest, calls) = scanner.finish();
        shown.push_str(&rest);
        (shown, calls)
    }

    #[test]
    fn a_tag_split_across_chunks_becomes_a_call_and_leaves_the_text() {
        let (shown, calls) = scan(&[
            "The goblin lunges. <to",
            "ol name=\"roll_dice\">{\"dice\": \"1d20+3\",",
            " \"reason\": \"Goblin attack\"}</tool> Then",
        ]);
        assert_eq!(shown, "The goblin lunges.  Then");
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].name, "roll_dice");
        assert_eq!(
            calls[0].arguments,
            r#"{"dice": "1d20+3", "reason": "Goblin attack"}"#
        );
    }

    #[test]
    fn whitespace_and_single_quotes_are_tolerated() {
        let (_, calls) = scan(&["<tool  name = 'get_character_stats' >\n{}\n</tool>"]);
        assert_eq!(calls[0].name, "get_character_stats");
        assert_eq!(calls[0].arguments, "{}");
    }

    #[test]
    fn other_angle_brackets_are_text_and_bad_json_is_still_a_call() {
        let (shown, calls) = scan(&[
            "a < b <i>x</i> ",
            "<tool name=\"roll_dice\">{dice: 1d20</tool>",
        ]);
        assert_eq!(shown, "a < b <i>x</i> ");
        assert_eq!(calls[0].arguments, "{dice: 1d20");
    }

    #[test]
    fn an_unclosed_tag_is_given_back_as_text_at_the_end() {
        let (shown, calls) = scan(&["Hello <tool name=\"x\">{"]);
        assert_eq!(shown, "Hello <tool name=\"x\">{");
        assert!(calls.is_empty());
    }

    #[test]
    fn the_rewritten_request_has_no_native_tools_and_describes_them() {
        let request = LlmRequest {
            messages: vec![
                Message::system("Rules."),
                Message::user("I attack."),
                Message::Assistant {
                    content: None,
                    tool_calls: vec![ToolCall {
                        id: "c1".into(),
                        name: "roll_dice".into(),
                        arguments: "{}".into(),
                    }],
                },
                Message::tool("c1", "Rolled 1d20: [4] = 4"),
            ],
            tools: app::gm::tools::definitions().into(),
            ..LlmRequest::default()
        };
        let rewritten = rewrite(request);
        assert!(rewritten.tools.is_empty());
        let Message::System { content } = &rewritten.messages[0] else {
            panic!("system first")
        };
        assert!(content.contains("<tool name=\"roll_dice\">"));
        assert!(content.contains("- change_inventory:"));
        assert_eq!(
            rewritten.messages[2],
            Message::assistant("<tool name=\"roll_dice\">{}</tool>")
        );
        assert_eq!(
            rewritten.messages[3],
            Message::user("[Tool result] Rolled 1d20: [4] = 4")
        );
    }

    #[tokio::test]
    async fn a_text_tool_roll_in_a_scripted_reply_is_parsed() {
        let llm = TextTools::new(ScriptedLlm::from_steps(vec![Step::text(
            "The roof groans! <tool name=\"roll_dice\">{\"dice\": \"1d20+3\", \"reason\": \"Falling rocks\"}</tool>",
        )]));
        let request = LlmRequest {
            messages: vec![Message::user("I wait.")],
            tools: app::gm::tools::definitions().into(),
            ..LlmRequest::default()
        };
        let reply = llm.complete(request).await.unwrap();
        assert_eq!(reply.text, "The roof groans! ");
        assert_eq!(reply.finish_reason, FinishReason::ToolCalls);
        assert_eq!(reply.tool_calls[0].name, "roll_dice");
        let command = app::gm::tools::parse_call(&reply.tool_calls[0]).unwrap();
        assert!(matches!(
            command,
            app::gm::tools::ToolCommand::RollDice { .. }
        ));
    }
}
