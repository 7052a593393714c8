package mcp

import (
	"encoding/json"
	"errors"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// maxResultDepth is the deepest nesting a result is rewritten through, as
// encoding/json's decoder bounds it: deeper text does not decode.
const maxResultDepth = 10000

// errResultDepth is rewriteJSON's refusal of text nested past maxResultDepth.
var errResultDepth = errors.New("nested too deeply")

// rewriteJSON writes the valid JSON raw again, compact, in the server's
// order: every object keeps its keys where the server put them (a
// repeated key at its first position with its last value, as JSON.parse
// reads it), numbers keep their spelling, and each string (keys too) is
// decoded and written again through fix (nil: unchanged), so invalid UTF-8
// and lone surrogates come out as encoding/json would write them. Go maps
// would sort the keys, and a model reads the JSON text (issue: results
// with sorted keys). It fails only on nesting deeper than maxResultDepth.
func rewriteJSON(raw json.RawMessage, fix func(string) string) (json.RawMessage, error) {
	return appendValue(make([]byte, 0, len(raw)), raw, fix, 0)
}

// appendValue appends the valid JSON value v (surrounding space allowed)
// as rewriteJSON writes it.
func appendValue(buf []byte, v []byte, fix func(string) string, depth int) ([]byte, error) {
	i := jsontext.SkipSpace(v, 0)
	if i >= len(v) {
		return buf, nil
	}
	switch v[i] {
	case '{':
		if depth >= maxResultDepth {
			return nil, errResultDepth
		}
		ms := members(v[i:])
		buf = append(buf, '{')
		for k, m := range ms {
			if k > 0 {
				buf = append(buf, ',')
			}
			buf = appendText(buf, m.Key, fix)
			buf = append(buf, ':')
			var err error
			if buf, err = appendValue(buf, m.Value, fix, depth+1); err != nil {
				return nil, err
			}
		}
		return append(buf, '}'), nil
	case '[':
		if depth >= maxResultDepth {
			return nil, errResultDepth
		}
		buf = append(buf, '[')
		j := jsontext.SkipSpace(v, i+1)
		for first := true; j < len(v) && v[j] != ']'; first = false {
			if v[j] == ',' {
				j = jsontext.SkipSpace(v, j+1)
			}
			end := jsontext.EndOfValue(v, j)
			if !first {
				buf = append(buf, ',')
			}
			var err error
			if buf, err = appendValue(buf, v[j:end], fix, depth+1); err != nil {
				return nil, err
			}
			j = jsontext.SkipSpace(v, end)
		}
		return append(buf, ']'), nil
	case '"':
		end := jsontext.EndOfString(v, i)
		return appendText(buf, jsontext.Unquote(v[i:end]), fix), nil
	}
	end := jsontext.EndOfValue(v, i)
	return append(buf, v[i:end]...), nil
}

// appendText appends s, passed through fix, as a JSON string.
func appendText(buf []byte, s string, fix func(string) string) []byte {
	if fix != nil {
		s = fix(s)
	}
	return jsontext.AppendString(buf, s)
}

// members splits the valid JSON object obj into its members in order, a
// repeated key at its first position with its last value (as
// jsontext.SplitValid, but in linear time: a server's object may hold
// many keys).
func members(obj []byte) []jsontext.Member {
	var ms []jsontext.Member
	at := map[string]int{}
	i := jsontext.SkipSpace(obj, 0) + 1
	for {
		i = jsontext.SkipSpace(obj, i)
		if obj[i] == '}' {
			return ms
		}
		if obj[i] == ',' {
			i = jsontext.SkipSpace(obj, i+1)
		}
		kend := jsontext.EndOfString(obj, i)
		key := jsontext.Unquote(obj[i:kend])
		i = jsontext.SkipSpace(obj, jsontext.SkipSpace(obj, kend)+1)
		vend := jsontext.EndOfValue(obj, i)
		if k, dup := at[key]; dup {
			ms[k].Value = obj[i:vend]
		} else {
			at[key] = len(ms)
			ms = append(ms, jsontext.Member{Key: key, Value: obj[i:vend]})
		}
		i = vend
	}
}
