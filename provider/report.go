package provider

// MCP names the MCP tool format ({name, description, inputSchema})
// as an export target; the other targets are the Provider* request shapes
// of core/request.go (openai-chat, openai-responses, anthropic, gemini).
const MCP = "mcp"

// ChangeKind names one kind of change an export made so a tool fits its
// target. The set is closed; docs/providers.md says when each is made.
type ChangeKind string

// The kinds of change an export reports.
const (
	// ChangeNameRewritten: the registered name breaks the target's name rule
	// and was rewritten; ExportReport.Names maps it back.
	ChangeNameRewritten ChangeKind = "name-rewritten"
	// ChangeNullRemoved: a key whose value was null (LionAGI writes
	// "description": null) was left out, as no provider accepts it.
	ChangeNullRemoved ChangeKind = "null-removed"
	// ChangeKeywordDropped: a keyword the target does not accept was left out.
	ChangeKeywordDropped ChangeKind = "keyword-dropped"
	// ChangeKeywordDescribed: a keyword the target does not accept was left
	// out and its meaning written into the node's description.
	ChangeKeywordDescribed ChangeKind = "keyword-described"
	// ChangeRefInlined: a $ref was replaced by the schema it points to.
	ChangeRefInlined ChangeKind = "ref-inlined"
	// ChangeUnionFlattened: a union was rewritten into a form the target
	// accepts (a type array to nullable, oneOf to anyOf, ...).
	ChangeUnionFlattened ChangeKind = "union-flattened"
	// ChangeEnumStringified: non-string enum values were written as strings.
	ChangeEnumStringified ChangeKind = "enum-stringified"
	// ChangeStrictClosed: strict mode set additionalProperties false on an
	// object.
	ChangeStrictClosed ChangeKind = "strict-closed"
	// ChangeStrictRequired: strict mode listed an optional property in
	// required and made it nullable; a null for it is removed on the way
	// back, before validation.
	ChangeStrictRequired ChangeKind = "strict-required"
	// ChangeStrictRefused: strict mode cannot express the schema; the tool
	// was exported without strict, and Message says why.
	ChangeStrictRefused ChangeKind = "strict-refused"
	// ChangeSchemaRefused: the target cannot express the schema at all (a
	// $ref cycle for Gemini's legacy subset); the parameters were replaced
	// by the loosest schema the target accepts, and Message says why.
	ChangeSchemaRefused ChangeKind = "schema-refused"
	// ChangeTypeSet: the parameters schema's root had no "type" (or a type
	// list holding "object"); "type": "object" was set, as every target
	// wants an object schema there.
	ChangeTypeSet ChangeKind = "type-set"
	// ChangeBooleanSchema: a property's schema was a boolean (true: any
	// value, false: none); it was written as the equivalent object schema
	// ({} or {"not": {}}), as providers want an object there.
	ChangeBooleanSchema ChangeKind = "boolean-schema"
	// ChangeKeywordRewritten: a keyword was written as an equivalent the
	// target accepts (const as a one-value enum, a missing type inferred
	// from the node's other keywords, examples as example, a tuple's item
	// schemas as one items schema).
	ChangeKeywordRewritten ChangeKind = "keyword-rewritten"
	// ChangePropertyNameRefused: a property name breaks the target's rule
	// for property names (Anthropic's ^[a-zA-Z0-9_.-]{1,64}$, Gemini
	// legacy's for the arguments' own names). Nothing was changed: toolgate
	// does not rename properties; the entry warns that the provider may
	// refuse the tool.
	ChangePropertyNameRefused ChangeKind = "property-name-refused"
	// ChangeToolLeftOut: the tool is not exported at all, as no call of it
	// can succeed; Message says why. No export makes it today: the MCP tools
	// that require tasks, which it once stood for, are called as tasks
	// (docs/mcp-tasks.md). The kind stays for readers of older reports.
	ChangeToolLeftOut ChangeKind = "tool-left-out"
	// ChangeExamplesFolded: the tool's input examples were written into its
	// description ("Examples of valid arguments: {…}; {…}"), as the target
	// has no field for them (every target but anthropic, which gets
	// input_examples); Keyword is "inputExamples".
	ChangeExamplesFolded ChangeKind = "examples-folded"
	// ChangeExamplesLeftOut: some of the tool's input examples were not
	// folded into its description, as they would take a description that
	// fits 1,024 characters past it (openai-chat and openai-responses:
	// OpenAI's limit until 2025, still enforced by OpenAI-compatible
	// servers); Message says how many, Keyword is "inputExamples".
	ChangeExamplesLeftOut ChangeKind = "examples-left-out"
	// ChangeToolDeferred: the tool is deferred (core.Manager.Defer) and not
	// revealed yet, so it is left out of the list the model sees until a
	// search reveals it; with the provider's native tool search it is
	// exported with the target's deferred-loading flag instead (Keyword
	// "defer_loading"), and toolgate's own search tool is left out (Keyword
	// "toolSearch").
	ChangeToolDeferred ChangeKind = "tool-deferred"
)

// Change is one change an export made to one tool.
type Change struct {
	// Tool is the registered name of the tool changed.
	Tool string `json:"tool"`
	// Path is a JSON Pointer into the tool's parameters schema ("" for the
	// tool itself or its name).
	Path string `json:"path"`
	// Kind says what was done.
	Kind ChangeKind `json:"kind"`
	// Keyword is the schema keyword concerned, when there is one.
	Keyword string `json:"keyword,omitempty"`
	// Message says it in a sentence a person reads.
	Message string `json:"message"`
}

// ExportReport lists every change an export made, so a user sees what a
// provider would have refused before it does.
type ExportReport struct {
	// Target is the format written.
	Target string `json:"target"`
	// Strict is whether strict mode was asked for.
	Strict bool `json:"strict"`
	// Changes lists the changes in tool order, then schema order.
	Changes []Change `json:"changes"`
	// Names maps every exported name to the registered name it stands for.
	Names map[string]string `json:"names"`
}
