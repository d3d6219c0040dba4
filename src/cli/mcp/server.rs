//! The rmcp `ServerHandler`: each request loads the knowledge base as it is
//! on disk, calls the library's MCP functions (`jp_kb_core::internal::mcp`) and translates
//! their plain results into protocol types. No knowledge-base logic here.
//!
//! While the knowledge base cannot be loaded (no workspace, a broken
//! configuration) the server still answers: the instructions and every
//! `learn` call say what is wrong, every list is empty.

use std::sync::Arc;

use base64::Engine as _;
use jp_kb_core::KnowledgeBase;
use jp_kb_core::internal::mcp;
use jp_kb_core::mcp::{
    Body, InstructionsMode, KNOWLEDGE_PROMPT, KNOWLEDGE_PROMPT_DESCRIPTION, LearnTool,
    RESOURCE_TEMPLATE, ReadError, ResourceEntry, Workspace,
};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, DiscoverResult,
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, Implementation,
    InitializeRequestParams, InitializeResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, Prompt, PromptMessage,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate, Role, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::{Peer, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use jp_kb_core::internal::clients::jp::copy::{JpCopy, NOTHING_TO_LEARN, OLDER_SECTION_NOTE};

use super::usage::UsageLog;

/// The MCP server of one workspace.
#[derive(Debug, Clone)]
pub struct KbServer {
    workspace: Workspace,
    mode: InstructionsMode,
    /// The opt-in `search` tool (`--search`).
    search: Option<Arc<mcp::search::SearchService>>,
    /// The usage ledger's recorder; `None` with `--no-usage`.
    usage: Option<Arc<UsageLog>>,
    /// Started by JP (`--client jp`): the copy of the texts JP read before
    /// it started this server (`None` inside: JP loads no generated layer).
    jp: Option<Arc<Option<JpCopy>>>,
}

impl KbServer {
    pub fn new(workspace: Workspace, mode: InstructionsMode) -> Self {
        Self {
            workspace,
            mode,
            search: None,
            usage: None,
            jp: None,
        }
    }

    /// Started by JP, which read `copy` of the generated layer before it
    /// started this server: `learn` stays listed while that copy declares
    /// it, and its answers say when that copy is older than the
    /// knowledge base (`clients::jp::copy`).
    pub fn for_jp(mut self, copy: Option<JpCopy>) -> Self {
        self.jp = Some(Arc::new(copy));
        self
    }

    /// JP's copy, when JP started this server and loads a generated layer.
    fn jp_copy(&self) -> Option<&JpCopy> {
        self.jp.as_deref().and_then(Option::as_ref)
    }

    /// Records what is served in the usage ledger (contract §9).
    pub fn with_usage(mut self, usage: Option<Arc<UsageLog>>) -> Self {
        self.usage = usage;
        self
    }

    /// Queues the record of a `learn` answer; the knowledge base it was
    /// answered from goes with it (the recorder names the subjects off the
    /// answer's path).
    fn record_learn(
        &self,
        peer: &Peer<RoleServer>,
        kb: KnowledgeBase,
        arguments: Option<&serde_json::Map<String, serde_json::Value>>,
        answer: &jp_kb_core::Outcome,
    ) {
        let Some(usage) = &self.usage else {
            return;
        };
        if answer.is_error() {
            return;
        }
        if let Ok((topic, patterns)) = mcp::parse_learn_arguments(arguments) {
            usage.learn(peer, kb, topic, patterns, answer.text().to_owned());
        }
    }

    /// Adds the `search` tool.
    pub fn with_search(mut self) -> Self {
        self.search = Some(Arc::default());
        self
    }

    /// The knowledge base as it is on disk now, or what the server says
    /// while it cannot be loaded.
    fn current(&self) -> Result<KnowledgeBase, String> {
        self.workspace.load().map_err(|e| unavailable_text(&e))
    }

    fn load(&self) -> Result<KnowledgeBase, ErrorData> {
        self.current()
            .map_err(|text| ErrorData::internal_error(text, None))
    }

    /// The instructions in the server's mode; while the knowledge base
    /// cannot be loaded, what is wrong, in every mode: it is short, and
    /// the only place a person sees it before the first call.
    fn instructions(&self) -> Option<String> {
        match self.current() {
            Ok(kb) => mcp::instructions(&kb, self.mode),
            Err(text) => Some(text),
        }
    }
}

impl ServerHandler for KbServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_prompts()
            .enable_prompts_list_changed()
            .enable_resources()
            .enable_resources_list_changed()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        ServerConfig::new(capabilities).with_server_info(
            Implementation::new(mcp::SERVER_NAME, env!("CARGO_PKG_VERSION"))
                .with_title("jp-kb: the JP knowledge base"),
        )
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        result.instructions = self.instructions();
        Ok(result)
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let mut info = self.get_info();
        info.instructions = self.instructions();
        Ok(DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            info,
        ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let kb = match self.current() {
            Ok(kb) => kb,
            // `learn` stays listed, saying what is wrong: every call of it
            // is an error saying the same.
            Err(why) => {
                let tools = mcp::tool::unavailable_tool(&why).map(to_tool);
                return Ok(ListToolsResult::with_all_items(tools.into_iter().collect()));
            }
        };
        // JP aborts every query whose declared tool is not listed, and
        // what it declares may be older than the knowledge base (a copy
        // read before this server rewrote it, a conversation's own
        // configuration): for JP, `learn` stays, saying there is nothing
        // to learn now. JP offers the model only the tools it declares.
        let learn = mcp::learn_tool(&kb).or_else(|| {
            self.jp
                .as_ref()
                .and_then(|_| mcp::tool::unavailable_tool(NOTHING_TO_LEARN))
        });
        let mut tools: Vec<Tool> = learn.map(to_tool).into_iter().collect();
        if self.search.is_some() {
            let t = mcp::search::search_tool();
            tools.push(
                Tool::new(t.name, t.description, Arc::new(t.input_schema)).with_title(t.title),
            );
        }
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let search = self
            .search
            .as_ref()
            .filter(|_| request.name == mcp::search::SEARCH);
        if request.name != mcp::tool::LEARN && search.is_none() {
            return Err(ErrorData::invalid_params(
                format!("Unknown tool: {}", clip(&request.name)),
                None,
            ));
        }
        let outcome = match self.current() {
            Ok(kb) => {
                if let Some(service) = search {
                    service.call(&kb, request.arguments.as_ref())
                } else {
                    let outcome = mcp::call_learn(&kb, request.arguments.as_ref());
                    let older = self.jp_copy().is_some_and(|c| !c.is_current(&kb));
                    self.record_learn(&ctx.peer, kb, request.arguments.as_ref(), &outcome);
                    if older { with_note(&outcome) } else { outcome }
                }
            }
            Err(text) => jp_kb_core::Outcome::Error(text),
        };
        let content = vec![ContentBlock::text(outcome.text())];
        let result = if outcome.is_error() {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        };
        Ok(result.into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        if self.current().is_err() {
            return Ok(ListPromptsResult::with_all_items(Vec::new()));
        }
        let prompt = Prompt::new(KNOWLEDGE_PROMPT, Some(KNOWLEDGE_PROMPT_DESCRIPTION), None)
            .with_title("Knowledge base");
        Ok(ListPromptsResult::with_all_items(vec![prompt]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != KNOWLEDGE_PROMPT {
            return Err(ErrorData::invalid_params(
                format!(
                    "Unknown prompt: {} (the only prompt is `{KNOWLEDGE_PROMPT}`)",
                    clip(&request.name)
                ),
                None,
            ));
        }
        let kb = self.load()?;
        // An absent section is no message at all, as `jp-kb prompt` prints
        // nothing then.
        let text = mcp::knowledge_text(&kb);
        if let Some(usage) = &self.usage {
            usage.prompt(&context.peer, &kb, text.clone().unwrap_or_default());
        }
        let messages = text
            .map(|text| PromptMessage::new_text(Role::User, text))
            .into_iter()
            .collect();
        Ok(GetPromptResult::new(messages)
            .with_description(KNOWLEDGE_PROMPT_DESCRIPTION)
            .into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let Ok(kb) = self.current() else {
            return Ok(ListResourcesResult::with_all_items(Vec::new()));
        };
        let resources = mcp::list_resources(&kb)
            .into_iter()
            .map(to_resource)
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        if self.current().is_err() {
            return Ok(ListResourceTemplatesResult::with_all_items(Vec::new()));
        }
        let template = ResourceTemplate::new(RESOURCE_TEMPLATE, "subject")
            .with_title("Knowledge-base subject")
            .with_description(
                "A subject of a topic, by its slug. Hidden subjects are read by their exact slug; disabled ones never.",
            );
        Ok(ListResourceTemplatesResult::with_all_items(vec![template]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let kb = self.load()?;
        let content = mcp::read_resource(&kb, &request.uri).map_err(|e| read_error(&e))?;
        if let Some(usage) = &self.usage
            && let Some((topic, slug)) = mcp::parse_subject_uri(&request.uri)
        {
            // Only text is counted: a blob has no tokens.
            let text = content.body.as_text().unwrap_or_default().to_owned();
            usage.resource(&ctx.peer, &kb, topic, &slug, text);
        }
        let contents = match content.body {
            Body::Text(text) => ResourceContents::text(text, content.uri),
            Body::Blob(bytes) => ResourceContents::blob(
                base64::engine::general_purpose::STANDARD.encode(bytes),
                content.uri,
            ),
            other => {
                return Err(ErrorData::internal_error(
                    format!("a resource body this server cannot send: {other:?}"),
                    None,
                ));
            }
        }
        .with_mime_type(content.mime_type);
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}

/// `outcome` led by the note that JP's copy of the section is older.
fn with_note(outcome: &jp_kb_core::Outcome) -> jp_kb_core::Outcome {
    let text = format!("{OLDER_SECTION_NOTE}\n\n{}", outcome.text());
    if outcome.is_error() {
        jp_kb_core::Outcome::Error(text)
    } else {
        jp_kb_core::Outcome::Success(text)
    }
}

/// What the server says, in its instructions and in every `learn` call,
/// while the knowledge base cannot be loaded: the error (it names the file
/// and line, or the missing workspace and the command that makes one) and
/// how the server gets out of that state.
fn unavailable_text(err: &jp_kb_core::ConfigError) -> String {
    format!(
        "The jp-kb knowledge base is unavailable: {}\n\nFix that (`jp-kb check` lists every problem); this server reads the configuration again on every request, so no restart is needed.",
        jp_kb::hints::config_error(err)
    )
}

fn to_tool(tool: LearnTool) -> Tool {
    let hints = tool.hints;
    let annotations = ToolAnnotations::new()
        .read_only(hints.read_only)
        .destructive(hints.destructive)
        .idempotent(hints.idempotent)
        .open_world(hints.open_world);
    Tool::new(tool.name, tool.description, Arc::new(tool.input_schema))
        .with_title(tool.title)
        .with_annotations(annotations)
}

fn to_resource(entry: ResourceEntry) -> Resource {
    Resource::new(entry.uri, entry.name)
        .with_title(entry.title)
        .with_description(entry.description)
        .with_mime_type(entry.mime_type)
        .with_size(entry.size)
}

fn read_error(err: &ReadError) -> ErrorData {
    let message = clip(&err.to_string()).to_owned();
    match err {
        ReadError::InvalidUri(_) => ErrorData::invalid_params(message, None),
        e if e.is_not_found() => ErrorData::resource_not_found(message, None),
        _ => ErrorData::internal_error(message, None),
    }
}

/// Text a client sent, cut short enough to echo in an error.
fn clip(text: &str) -> &str {
    jp_kb_core::internal::mcp::tool::clip_to(text, 512)
}
