package core

// The fast path's validator: arguments checked on their tokens (a
// jsontext.Tape over the JSON text the request carries) against a
// fastSchema, with the issues the validator would report, without building
// the value tree Normalize validates.

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// flagAlt marks a token whose literal was replaced by a lax conversion: its
// span is in fastRun.alt.
const flagAlt byte = 0x80

// fastRun is the state of one fast-path call, reused through a pool.
type fastRun struct {
	src  []byte        // the text the tape's spans point into
	tape jsontext.Tape // the request, or the arguments decoded from a string
	args jsontext.Tape // the arguments, when they came as a JSON string
	root int32         // the arguments object's token
	alt  []byte        // literals made by lax conversions
	text []byte        // the arguments decoded from a JSON string
	str  []byte        // scratch for decoded strings

	path   []int32 // where the value being checked is: key tokens, or -1-index
	issues []Issue
	convs  []Conversion
	bail   bool // the fast path cannot answer: use the full one

	out     []byte
	bigints []string
	keys    []int32 // the surviving top-level key tokens
}

// tok is token k of the tape being checked.
func (r *fastRun) tok(k int32) *jsontext.Token { return &r.tape.Tokens[k] }

// lit is the literal of token k.
func (r *fastRun) lit(k int32) []byte {
	t := &r.tape.Tokens[k]
	if t.Flags&flagAlt != 0 {
		return r.alt[t.Start:t.End]
	}
	return r.src[t.Start:t.End]
}

// strValue is the decoded value of string token k (valid until the next
// call).
func (r *fastRun) strValue(k int32) []byte {
	l := r.lit(k)
	if r.tok(k).Flags&jsontext.FlagEscaped == 0 {
		return l[1 : len(l)-1]
	}
	r.str = jsontext.AppendUnquoted(r.str[:0], l)
	return r.str
}

// pointer is the JSON pointer of the current path, with name appended when
// it is not nil.
func (r *fastRun) pointer(name []byte) string {
	var b []byte
	for _, p := range r.path {
		b = append(b, '/')
		if p < 0 {
			b = strconv.AppendInt(b, int64(-1-p), 10)
		} else {
			b = append(b, jsontext.Escape(string(r.strValue(p)))...)
		}
	}
	if name != nil {
		b = append(b, '/')
		b = append(b, jsontext.Escape(string(name))...)
	}
	return string(b)
}

// fail records an issue at the current path, as argumentIssues words it.
func (r *fastRun) fail(keyword, msg string) {
	p := r.pointer(nil)
	r.issues = append(r.issues, Issue{Path: p, Keyword: keyword, Message: describeField(p, "arguments") + ": " + msg})
}

// failKey records an issue about an object's key name.
func (r *fastRun) failKey(name []byte, keyword, msg string) {
	p := r.pointer(name)
	r.issues = append(r.issues, Issue{Path: p, Keyword: keyword, Message: describeField(p, "arguments") + msg})
}

// jsonTypeNames are the validator's names of the token kinds.
var jsonTypeNames = [...]string{
	jsontext.TokObject: "object", jsontext.TokArray: "array", jsontext.TokString: "string",
	jsontext.TokNumber: "number", jsontext.TokTrue: "boolean", jsontext.TokFalse: "boolean", jsontext.TokNull: "null",
}

// tokenKinds are the JSON Schema types of the token kinds.
var tokenKinds = [...]jsonKinds{
	jsontext.TokObject: kindObject, jsontext.TokArray: kindArray, jsontext.TokString: kindString,
	jsontext.TokNumber: kindNumber, jsontext.TokTrue: kindBoolean, jsontext.TokFalse: kindBoolean, jsontext.TokNull: kindNull,
}

// check validates token k against n and reports whether n found nothing
// wrong; items says n is the "items" of an array (where the validator names
// a false schema "items").
func (r *fastRun) check(n *fastNode, k int32, items bool) bool {
	before := len(r.issues)
	if n.never {
		kw := "false"
		if items {
			kw = "items"
		}
		r.fail(kw, "not allowed")
		return false
	}
	kind := r.tok(k).Kind
	if n.hasType && !r.typeOK(n, k, kind) {
		sent := ""
		switch kind {
		case jsontext.TokString:
			sent = sentString(r.strValue(k))
		case jsontext.TokNumber:
			sent = sentNumber(r.lit(k))
		}
		r.fail("type", n.typeMsg+jsonTypeNames[kind]+sent+n.typeTail)
		return false
	}
	if n.hasConst && !r.equalsValue(k, &n.constant) {
		r.fail("const", n.constMsg)
	}
	if n.hasEnum && !r.inEnum(n, k) {
		r.fail("enum", n.enumMsg)
	}
	switch kind {
	case jsontext.TokObject:
		r.checkObject(n, k)
	case jsontext.TokArray:
		r.checkArray(n, k)
	case jsontext.TokString:
		r.checkString(n, k)
	case jsontext.TokNumber:
		r.checkNumber(n, k)
	}
	r.checkInPlace(n, k)
	if n.noEnum {
		r.fail("enum", "no value is allowed: enum is empty")
	}
	return len(r.issues) == before
}

// typeOK is the "type" check: an integer is a number without a fractional
// part, whatever its spelling.
func (r *fastRun) typeOK(n *fastNode, k int32, kind byte) bool {
	want := tokenKinds[kind]
	if n.kinds&want != 0 {
		return true
	}
	return kind == jsontext.TokNumber && n.kinds&kindInteger != 0 && parseDecimal(r.lit(k)).isInteger()
}

// checkInPlace applies "$ref", "allOf", "anyOf" and "oneOf" to token k.
func (r *fastRun) checkInPlace(n *fastNode, k int32) {
	if n.ref != nil {
		r.check(n.ref, k, false)
	}
	for _, a := range n.allOf {
		r.check(a, k, false)
	}
	if len(n.anyOf) > 0 {
		before := len(r.issues)
		for _, b := range n.anyOf {
			if r.check(b, k, false) {
				r.issues = r.issues[:before] // one branch holds: the others' failures are not reported
				break
			}
		}
	}
	if len(n.oneOf) > 0 {
		r.checkOneOf(n.oneOf, k)
	}
}

// checkOneOf is "oneOf": exactly one branch must hold.
func (r *fastRun) checkOneOf(branches []*fastNode, k int32) {
	before := len(r.issues)
	matched := -1
	for i, b := range branches {
		mark := len(r.issues)
		if !r.check(b, k, false) {
			continue
		}
		r.issues = r.issues[:mark]
		if matched >= 0 {
			r.issues = r.issues[:before]
			r.fail("oneOf", "valid against schemas at indexes "+strconv.Itoa(matched)+" and "+strconv.Itoa(i))
			return
		}
		matched = i
	}
	if matched >= 0 {
		r.issues = r.issues[:before]
	}
}

// checkCount applies min<What>/max<What> (a bound below 0 is absent) to
// count, the members or items of the value, with the validator's messages:
// "minimum 2 items required, but found 1 items" (rule is "items required"
// or "properties allowed").
func (r *fastRun) checkCount(count, min, max int, what, rule string) {
	noun, _, _ := strings.Cut(rule, " ")
	if min >= 0 && count < min {
		r.fail("min"+what, "minimum "+strconv.Itoa(min)+" "+rule+", but found "+strconv.Itoa(count)+" "+noun)
	}
	if max >= 0 && count > max {
		r.fail("max"+what, "maximum "+strconv.Itoa(max)+" "+rule+", but found "+strconv.Itoa(count)+" "+noun)
	}
}

// checkObject applies the object keywords.
func (r *fastRun) checkObject(n *fastNode, k int32) {
	t := r.tok(k)
	count := int(t.N)
	r.checkCount(count, n.minProperties, n.maxProps, "Properties", "properties allowed")
	var found uint64 // the properties present, by index (the first 64)
	if len(n.props) > 0 || n.additional != nil || n.noAdditional {
		found = r.checkMembers(n, k)
	}
	for i, name := range n.required {
		if p := n.requiredProp[i]; p >= 0 && p < 64 {
			if found&(1<<p) != 0 {
				continue
			}
		} else if r.member(k, name) >= 0 {
			continue
		}
		r.failKey([]byte(name), "required", n.requiredMsg[i])
	}
}

// checkMembers applies "properties" and "additionalProperties" to the
// members of object k, returning which properties it found.
func (r *fastRun) checkMembers(n *fastNode, k int32) uint64 {
	var found uint64
	t := r.tok(k)
	for key, m := k+1, int32(0); m < t.N; m++ {
		value := key + 1
		name := r.keyText(key)
		switch i := n.propNames.find(name); {
		case i >= 0:
			if i < 64 {
				found |= 1 << uint(i)
			}
			r.sub(n.props[i].node, value, key, false)
		case n.noAdditional:
			r.failKey(name, "additionalProperties", r.unknownKey(n, k, string(name)))
		case n.additional != nil:
			r.sub(n.additional, value, key, false)
		}
		key = r.tok(value).Next
	}
	return found
}

// sub checks token k, at path segment seg (a key token, or -1-index),
// against n; a subschema that is only a "type" the token has is passed
// without a call.
func (r *fastRun) sub(n *fastNode, k, seg int32, items bool) {
	if n.typeOnly && (!n.hasType || n.kinds&tokenKinds[r.tok(k).Kind] != 0) {
		return
	}
	r.path = append(r.path, seg)
	r.check(n, k, items)
	r.path = r.path[:len(r.path)-1]
}

// unknownKey is the message tail of key name that object k's schema n
// does not declare (unknownKeyText over the declared names, in order).
func (r *fastRun) unknownKey(n *fastNode, k int32, name string) string {
	declared := make([]string, len(n.props))
	for i, p := range n.props {
		declared[i] = p.name
	}
	return unknownKeyText(name, declared, func(d string) bool { return r.member(k, d) >= 0 })
}

// member finds the value token of key name in object k, -1 if absent.
func (r *fastRun) member(k int32, name string) int32 {
	t := r.tok(k)
	if t.N <= 8 {
		for key, m := k+1, int32(0); m < t.N; m++ {
			kt := r.tok(key)
			if int(kt.End-kt.Start) == len(name)+2 && string(r.src[kt.Start+1:kt.End-1]) == name {
				return key + 1
			}
			key = r.tok(key + 1).Next
		}
		return -1
	}
	order := r.tape.Keys(r.src, k)
	lo, hi := 0, len(order)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if string(r.keyText(order[m])) < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(order) && string(r.keyText(order[lo])) == name {
		return order[lo] + 1
	}
	return -1
}

// keyText is a key's bytes (keys on a tape are never escaped).
func (r *fastRun) keyText(key int32) []byte {
	t := r.tok(key)
	return r.src[t.Start+1 : t.End-1]
}

// maxFastUnique is the longest array whose uniqueItems the fast path
// checks (pairwise); a longer one goes the full way.
const maxFastUnique = 64

// checkArray applies the array keywords.
func (r *fastRun) checkArray(n *fastNode, k int32) {
	t := r.tok(k)
	count := int(t.N)
	r.checkCount(count, n.minItems, n.maxItems, "Items", "items required")
	if n.unique && count > 1 {
		r.checkUnique(k, count)
	}
	if len(n.prefix) == 0 && n.items == nil {
		return
	}
	for i, e := 0, k+1; i < count; i++ {
		var c *fastNode
		if i < len(n.prefix) {
			c = n.prefix[i]
		} else if c = n.items; c == nil {
			break
		}
		r.sub(c, e, int32(-1-i), i >= len(n.prefix))
		e = r.tok(e).Next
	}
}

// checkUnique is "uniqueItems": the first pair (by the later index, then
// the earlier) of equal items is reported.
func (r *fastRun) checkUnique(k int32, count int) {
	if count > maxFastUnique {
		r.bail = true
		return
	}
	var items [maxFastUnique]int32
	for i, e := 0, k+1; i < count; i++ {
		items[i] = e
		e = r.tok(e).Next
	}
	for i := 1; i < count; i++ {
		for j := 0; j < i; j++ {
			if r.equalTokens(items[i], items[j]) {
				r.fail("uniqueItems", "items at index "+strconv.Itoa(j)+" and "+strconv.Itoa(i)+" are equal")
				return
			}
		}
	}
}

// checkString applies the string keywords (lengths in code points).
func (r *fastRun) checkString(n *fastNode, k int32) {
	if n.minLength < 0 && n.maxLength < 0 && n.pattern == nil {
		return
	}
	s := r.strValue(k)
	if n.minLength >= 0 || n.maxLength >= 0 {
		length := len(s)
		if r.tok(k).Flags&(jsontext.FlagNonASCII|jsontext.FlagEscaped) != 0 {
			length = utf8.RuneCount(s)
		}
		if n.minLength >= 0 && length < n.minLength {
			r.fail("minLength", "length must be >= "+strconv.Itoa(n.minLength)+", but got "+strconv.Itoa(length))
		}
		if n.maxLength >= 0 && length > n.maxLength {
			r.fail("maxLength", "length must be <= "+strconv.Itoa(n.maxLength)+", but got "+strconv.Itoa(length))
		}
	}
	if n.pattern != nil && !n.pattern.Match(r.strValue(k)) {
		r.fail("pattern", n.patternMsg)
	}
}

// checkNumber applies the number keywords, exactly.
func (r *fastRun) checkNumber(n *fastNode, k int32) {
	if len(n.bounds) == 0 && n.multipleOf == nil {
		return
	}
	text := r.lit(k)
	v := parseDecimal(text)
	for i := range n.bounds {
		b := &n.bounds[i]
		c := cmpDecimal(v, b.dec)
		var ok bool
		switch b.keyword {
		case "minimum":
			ok = c >= 0
		case "exclusiveMinimum":
			ok = c > 0
		case "maximum":
			ok = c <= 0
		default:
			ok = c < 0
		}
		if !ok {
			r.fail(b.keyword, b.msg+string(text))
		}
	}
	if m := n.multipleOf; m != nil && !multipleOf(v, m.dec) {
		r.fail("multipleOf", string(text)+m.msg)
	}
}

// inEnum reports whether token k equals one of n's enum values.
func (r *fastRun) inEnum(n *fastNode, k int32) bool {
	for i := range n.enum {
		if r.equalsValue(k, &n.enum[i]) {
			return true
		}
	}
	return false
}

// equalsValue compares token k with a schema value, as the validator does
// (numbers by value, objects whatever their key order).
func (r *fastRun) equalsValue(k int32, l *fastLit) bool {
	t := r.tok(k)
	switch v := l.value.(type) {
	case string:
		return t.Kind == jsontext.TokString && bytes.Equal(r.strValue(k), l.str)
	case nil:
		return t.Kind == jsontext.TokNull
	case bool:
		return v && t.Kind == jsontext.TokTrue || !v && t.Kind == jsontext.TokFalse
	}
	if l.num != nil {
		return t.Kind == jsontext.TokNumber && cmpDecimal(parseDecimal(r.lit(k)), parseDecimal(l.num)) == 0
	}
	return r.equalsComposite(k, l.value)
}

// equalsComposite compares token k with an object or array of the schema.
func (r *fastRun) equalsComposite(k int32, v any) bool {
	t := r.tok(k)
	switch x := v.(type) {
	case []any:
		if t.Kind != jsontext.TokArray || int(t.N) != len(x) {
			return false
		}
		e := k + 1
		for _, item := range x {
			lit := newFastLit(item)
			if !r.equalsValue(e, &lit) {
				return false
			}
			e = r.tok(e).Next
		}
		return true
	case map[string]any:
		if t.Kind != jsontext.TokObject || int(t.N) != len(x) {
			return false
		}
		for name, item := range x {
			m := r.member(k, name)
			lit := newFastLit(item)
			if m < 0 || !r.equalsValue(m, &lit) {
				return false
			}
		}
		return true
	}
	return false
}

// equalTokens compares two values of the tape, as the validator does.
func (r *fastRun) equalTokens(a, b int32) bool {
	ta, tb := r.tok(a), r.tok(b)
	ka, kb := ta.Kind, tb.Kind
	if ka != kb {
		return false
	}
	switch ka {
	case jsontext.TokString:
		if (ta.Flags|tb.Flags)&jsontext.FlagEscaped == 0 {
			return bytes.Equal(r.lit(a), r.lit(b))
		}
		x := append([]byte(nil), r.strValue(a)...)
		return bytes.Equal(x, r.strValue(b))
	case jsontext.TokNumber:
		return cmpDecimal(parseDecimal(r.lit(a)), parseDecimal(r.lit(b))) == 0
	case jsontext.TokArray:
		if ta.N != tb.N {
			return false
		}
		for i, x, y := int32(0), a+1, b+1; i < ta.N; i++ {
			if !r.equalTokens(x, y) {
				return false
			}
			x, y = r.tok(x).Next, r.tok(y).Next
		}
		return true
	case jsontext.TokObject:
		if ta.N != tb.N {
			return false
		}
		for key, m := a+1, int32(0); m < ta.N; m++ {
			other := r.member(b, string(r.keyText(key)))
			if other < 0 || !r.equalTokens(key+1, other) {
				return false
			}
			key = r.tok(key + 1).Next
		}
		return true
	}
	return true
}
