// Package provider is toolgate's side of the model providers' formats: it
// exports tools in a provider's format (openai-chat, openai-responses,
// anthropic, gemini, mcp) with a report of every change made so they fit
// (the target's name rules, the null and root clean-up, OpenAI's strict
// transform, Gemini's legacy subset), and it writes a call's outcome back
// as the provider's tool-result message, with a failure text a model can
// act on.
//
// It builds on core and imports nothing else of toolgate but internal/;
// core never imports it. Reading a provider's calls, one or a whole
// response, is request parsing and stays in core (core.ParseRequest,
// core.ParseToolCalls). An export of a registry (ExportManager) tells the
// registry what to remember (core.Manager.RememberExport): the exported
// names and strict mode's argument restores, so a call that comes back
// under an exported name, with the nulls strict mode made the model send,
// still matches its tool.
//
// A short tour:
//
//	ex, _ := provider.ExportManager(m, core.ProviderOpenAIChat, &provider.ExportOptions{Strict: true})
//	// ex.Tools is the provider's tools list; ex.Report lists every change.
//
//	calls, _ := core.ParseToolCalls(response) // every tool call of the model's response
//	var results []*provider.ToolResult
//	for _, call := range calls {
//		fc, err := m.Invoke(ctx, call)
//		if err != nil {
//			results = append(results, provider.ErrorToolResult(err))
//			continue
//		}
//		r, _ := provider.ResultOf(fc)
//		results = append(results, r)
//	}
//	next, _ := provider.FormatToolResults(core.ProviderOpenAIChat, results) // the next message
package provider
