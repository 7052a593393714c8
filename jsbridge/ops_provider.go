package jsbridge

import (
	"encoding/json"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/provider"
)

// toProviderPayload is what tg.toProvider sends: the target, the options,
// and, for a tool list (handle 0), the tools as refs ({"$tool": id} or
// {"$callable": id}).
type toProviderPayload struct {
	Target       string            `json:"target"`
	Strict       bool              `json:"strict"`
	GeminiLegacy bool              `json:"geminiLegacy"`
	ToolSearch   string            `json:"toolSearch"`
	Tools        []json.RawMessage `json:"tools"`
}

// toProviderResult is {tools, report}. What a branch's export changes for
// the JS evaluator reaches JS through the match answers (precheckable,
// ops_branch.go), not here.
type toProviderResult struct {
	Tools  json.RawMessage       `json:"tools"`
	Report provider.ExportReport `json:"report"`
}

// opToProvider exports a branch (handle ≠ 0: provider.ExportManager, which
// has the branch remember names and strict restores) or a list of tools
// (handle 0: provider.ExportTools) to a provider's format.
func opToProvider(b *Bridge, handle int64, payload []byte) (any, error) {
	var p toProviderPayload
	if err := decodeStrict(payload, &p, "toProvider options"); err != nil {
		return nil, err
	}
	opts := &provider.ExportOptions{Strict: p.Strict, GeminiLegacy: p.GeminiLegacy, ToolSearch: p.ToolSearch}
	if handle != 0 {
		m, err := b.branch(handle)
		if err != nil {
			return nil, err
		}
		ex, err := provider.ExportManager(m, p.Target, opts)
		if err != nil {
			return nil, err
		}
		return toProviderResult{Tools: ex.Tools, Report: ex.Report}, nil
	}
	tools := make([]*core.Tool, 0, len(p.Tools))
	for _, raw := range p.Tools {
		v, err := b.convertRef(raw, func(t *core.Tool) (any, error) { return t, nil })
		if err != nil {
			return nil, err
		}
		t, ok := v.(*core.Tool)
		if !ok {
			return nil, core.Errorf(core.CodeUnsupportedType, "", "toProvider: want a Tool or a function, got %T", v)
		}
		tools = append(tools, t)
	}
	ex, err := provider.ExportTools(tools, p.Target, opts)
	if err != nil {
		return nil, err
	}
	return toProviderResult{Tools: ex.Tools, Report: ex.Report}, nil
}
