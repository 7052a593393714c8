package provider

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/toolgate/toolgate/core"
)

// examplesLead begins the sentence an export adds to a tool's description
// to carry its input examples where the target has no field for them.
const examplesLead = "Examples of valid arguments: "

// placeExamples puts the tool's input examples (core.Tool.InputExamples)
// where target reads them: Anthropic's input_examples field (written by
// writeTool), or, for every other target (OpenAI Chat and Responses, Gemini
// and MCP have no such field), a sentence after the description listing
// them as compact JSON, reported as a ChangeExamplesFolded change. Strict
// mode does not apply to them: they are text, so an example that leaves an
// optional argument out is still right.
func (it *exported) placeExamples(w *schemaWalk, target string) {
	examples := it.tool.InputExamples
	if len(examples) == 0 {
		return
	}
	if target == core.ProviderAnthropic {
		it.examples = examples
		return
	}
	it.description = foldExamples(it.description, examples)
	w.changes = append(w.changes, Change{Tool: w.tool, Path: "", Kind: ChangeExamplesFolded, Keyword: "inputExamples",
		Message: fmt.Sprintf("target %s has no field for input examples; the %d examples were added to the description", target, len(examples))})
}

// foldExamples returns description followed by the sentence listing
// examples ("Examples of valid arguments: {…}; {…}"), after a blank line
// when there is a description.
func foldExamples(description string, examples []json.RawMessage) string {
	var b bytes.Buffer
	if description != "" {
		b.WriteString(description)
		b.WriteString("\n\n")
	}
	b.WriteString(examplesLead)
	for i, ex := range examples {
		if i > 0 {
			b.WriteString("; ")
		}
		b.Write(ex)
	}
	return b.String()
}

// writeExamples writes Anthropic's input_examples member, when the tool
// has examples.
func writeExamples(b *bytes.Buffer, examples []json.RawMessage) {
	if len(examples) == 0 {
		return
	}
	b.WriteString(`,"input_examples":[`)
	for i, ex := range examples {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(ex)
	}
	b.WriteByte(']')
}
