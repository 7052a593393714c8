package provider

import (
	"bytes"
	"encoding/json"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// What schema generators write that tells a provider nothing: the
// "$schema" dialect URI (zod 4 and most MCP servers write it on every
// tool) and the safe-integer bounds zod 4 gives every .int(). Every
// provider export leaves them out, each with a ChangeKeywordDropped
// change; the MCP export keeps them, as an MCP inputSchema is the tool's
// own JSON Schema and "$schema" declares its dialect there.
// docs/provider-transforms.md says why for each target.

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER (2^53 - 1): zod 4
// writes "minimum": -maxSafeInteger and "maximum": maxSafeInteger on an
// integer schema that declares no bound of its own.
const maxSafeInteger = "9007199254740991"

// generatedKeys returns, for a schema node of a provider export, the keys
// of the members to leave out, each already reported: "$schema", and
// zod's safe-integer bounds on an integer node (a "minimum" of exactly
// -2^53+1, a "maximum" of exactly 2^53-1; any other bound is the user's and
// stays). It returns nil for the MCP export, and for a node without them.
func (w *schemaWalk) generatedKeys(members []jsontext.Member, path string) map[string]bool {
	if !w.provider {
		return nil
	}
	var drop map[string]bool
	leave := func(key string) {
		if drop == nil {
			drop = map[string]bool{}
		}
		drop[key] = true
	}
	integer := false
	for _, m := range members {
		if m.Key == "type" {
			integer = typeHasInteger(m.Value)
		}
	}
	for _, m := range members {
		switch {
		case m.Key == "$schema" && !jsontext.Absent(m.Value):
			leave(m.Key)
			w.change(jsontext.Join(path, m.Key), ChangeKeywordDropped, m.Key,
				"%q (the JSON Schema dialect, %s) tells a provider nothing and Gemini refuses it; it was left out of the provider's copy (toolgate still validates with the schema as registered)", m.Key, bytes.TrimSpace(m.Value))
		case integer && (m.Key == "minimum" && safeIntegerBound(m.Value, true) || m.Key == "maximum" && safeIntegerBound(m.Value, false)):
			leave(m.Key)
			w.change(jsontext.Join(path, m.Key), ChangeKeywordDropped, m.Key,
				"%s %s is zod's safe-integer default for .int(), not a bound the tool chose; it was left out of the provider's copy (toolgate still enforces it)", m.Key, bytes.TrimSpace(m.Value))
		}
	}
	return drop
}

// typeHasInteger reports whether a "type" value is "integer" or a list
// holding it.
func typeHasInteger(raw json.RawMessage) bool {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return one == "integer"
	}
	var list []string
	if json.Unmarshal(raw, &list) != nil {
		return false
	}
	for _, t := range list {
		if t == "integer" {
			return true
		}
	}
	return false
}

// safeIntegerBound reports whether raw is the number -(2^53-1) (neg) or
// 2^53-1, however it is written (9007199254740991.0 counts, 9007199254740990
// does not).
func safeIntegerBound(raw json.RawMessage, neg bool) bool {
	d, ok := jsontext.ParseDecimal(string(bytes.TrimSpace(raw)), false)
	if !ok || d.Neg != neg {
		return false
	}
	n, ok := d.Integer(len(maxSafeInteger) + 1)
	if neg {
		n = trimMinus(n)
	}
	return ok && n == maxSafeInteger
}

// trimMinus drops a leading "-".
func trimMinus(s string) string {
	if len(s) > 0 && s[0] == '-' {
		return s[1:]
	}
	return s
}
