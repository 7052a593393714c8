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

// openAIDescriptionChars is the longest function description OpenAI's
// APIs took until 2025 ("string too long. Expected a string with maximum
// length 1024"), counted in UTF-16 units as JavaScript and OpenAI count;
// OpenAI-compatible servers still enforce it.
const openAIDescriptionChars = 1024

// placeExamples puts the tool's input examples (core.Tool.InputExamples)
// where target reads them: Anthropic's input_examples field (written by
// writeTool), or, for every other target (OpenAI Chat and Responses, Gemini
// and MCP have no such field), a sentence after the description listing
// them as compact JSON, reported as a ChangeExamplesFolded change. Strict
// mode does not apply to them: they are text, so an example that leaves an
// optional argument out is still right. For the OpenAI targets a
// description that fits openAIDescriptionChars is kept within it: the
// examples that would pass it are left out (the first ones kept), reported
// as a ChangeExamplesLeftOut change.
func (it *exported) placeExamples(w *schemaWalk, target string) {
	examples := it.tool.InputExamples
	if len(examples) == 0 {
		return
	}
	if target == core.ProviderAnthropic {
		it.examples = examples
		return
	}
	kept := examples
	if (target == core.ProviderOpenAIChat || target == core.ProviderOpenAIResponses) && utf16Len(it.description) <= openAIDescriptionChars {
		for len(kept) > 0 && utf16Len(foldExamples(it.description, kept)) > openAIDescriptionChars {
			kept = kept[:len(kept)-1]
		}
	}
	if len(kept) > 0 {
		it.description = foldExamples(it.description, kept)
		w.changes = append(w.changes, Change{Tool: w.tool, Path: "", Kind: ChangeExamplesFolded, Keyword: "inputExamples",
			Message: fmt.Sprintf("target %s has no field for input examples; %d of the tool's %d examples were added to the description", target, len(kept), len(examples))})
	}
	if left := len(examples) - len(kept); left > 0 {
		w.changes = append(w.changes, Change{Tool: w.tool, Path: "", Kind: ChangeExamplesLeftOut, Keyword: "inputExamples",
			Message: fmt.Sprintf("%d of the tool's %d input examples were left out: with them the description would pass %d characters, the longest OpenAI-compatible servers accept", left, len(examples), openAIDescriptionChars)})
	}
}

// utf16Len is the length of s in UTF-16 units (JavaScript's length).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
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
