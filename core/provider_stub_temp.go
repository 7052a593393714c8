package core

import "encoding/json"

// This file is a stand-in until the strict helper's core/provider_strict*.go
// and core/provider_gemini*.go land (branch wt/strict); it is deleted then.

// StrictRestore undoes what the strict transform did to a tool's arguments
// (the stand-in does nothing).
type StrictRestore struct{}

// Apply returns args without the nulls the strict transform introduced (the
// stand-in returns args unchanged); a nil receiver returns args unchanged.
func (r *StrictRestore) Apply(args *Arguments) *Arguments { return args }

func strictSchema(_ string, params json.RawMessage) (json.RawMessage, *StrictRestore, []Change, error) {
	return params, nil, nil, nil
}

func geminiLegacySchema(_ string, params json.RawMessage) (json.RawMessage, []Change, error) {
	return params, nil, nil
}
