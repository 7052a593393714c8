package jsbridge

import (
	"encoding/json"
	"sort"
	"strconv"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// maxSafeInteger is Number.MAX_SAFE_INTEGER: integers beyond ±(2^53−1) cross to
// JS as BigInt so that no value is ever silently rounded.
const maxSafeInteger = 1<<53 - 1

// appendJSArguments writes args as JSON for JS, top-level keys in their order.
// Integers outside the safe range are written as strings and their JSON
// pointers appended to bigints: the JS side turns them into BigInts.
func appendJSArguments(buf []byte, args *core.Arguments, bigints *[]string) []byte {
	buf = append(buf, '{')
	for i, k := range args.Keys {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = jsontext.AppendString(buf, k)
		buf = append(buf, ':')
		buf = appendJSValue(buf, args.Values[k], "/"+jsontext.Escape(k), bigints)
	}
	return append(buf, '}')
}

func appendJSValue(buf []byte, v any, path string, bigints *[]string) []byte {
	switch x := v.(type) {
	case nil:
		return append(buf, "null"...)
	case bool:
		return strconv.AppendBool(buf, x)
	case string:
		return jsontext.AppendString(buf, x)
	case json.Number:
		s := string(x)
		if isBigInteger(s) {
			*bigints = append(*bigints, path)
			return jsontext.AppendString(buf, s)
		}
		return append(buf, s...)
	case []any:
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSValue(buf, e, path+"/"+strconv.Itoa(i), bigints)
		}
		return append(buf, ']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf = append(buf, '{')
		for i, k := range keys {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = jsontext.AppendString(buf, k)
			buf = append(buf, ':')
			buf = appendJSValue(buf, x[k], path+"/"+jsontext.Escape(k), bigints)
		}
		return append(buf, '}')
	case *core.Arguments:
		return appendJSArguments(buf, x, bigints)
	default:
		data, err := json.Marshal(x)
		if err != nil {
			return append(buf, "null"...)
		}
		return append(buf, data...)
	}
}

// isBigInteger reports whether s is an integer literal outside ±(2^53−1).
func isBigInteger(s string) bool {
	if !jsontext.IsIntegerText(s) {
		return false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return true // does not even fit in 64 bits
	}
	return n > maxSafeInteger || n < -maxSafeInteger
}
