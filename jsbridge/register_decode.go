package jsbridge

import "bytes"

// The fastest reading of a tool reference, {"$tool":digits} exactly as
// JSON.stringify writes it: a branch of many tools reads one per tool.
// decodeRegisterTape and decodeRefTape (branch_decode.go) read the rest.

// toolRefPrefix starts a Tool reference as JSON.stringify writes it.
var toolRefPrefix = []byte(`{"$tool":`)

// toolRefID reads a reference written exactly {"$tool":digits} (at most
// 18 digits, no leading zero), the handle decodeStrict would read from it;
// false for any other text, which convertRef decodes the slow way.
func toolRefID(raw []byte) (int64, bool) {
	if !bytes.HasPrefix(raw, toolRefPrefix) || raw[len(raw)-1] != '}' {
		return 0, false
	}
	digits := raw[len(toolRefPrefix) : len(raw)-1]
	if len(digits) == 0 || len(digits) > 18 || digits[0] == '0' && len(digits) > 1 {
		return 0, false
	}
	var id int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		id = id*10 + int64(c-'0')
	}
	return id, true
}
