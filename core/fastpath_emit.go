package core

// The fast path around the validator: the lax conversions made on the tape
// (through the same coercion plan, so the same conversions in the same
// order), the exponent bound on numbers, and the normalised arguments
// written straight out as the JSON the bridge hands JavaScript.

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// fastNormalize is Normalize on the tape: conversions, the number bound,
// validation and the surviving top-level keys (r.keys). It is false when
// the fast path cannot answer; otherwise err is what Normalize returns.
func (s *CompiledSchema) fastNormalize(r *fastRun, tool string, coerce CoerceMode) (bool, error) {
	p := s.parts()
	if coerce == CoerceLax {
		if plan := s.laxPlan(); plan != nil {
			r.convertObject(plan, r.root, true)
		}
	}
	if !r.numbersSafe() {
		r.path = r.path[:0]
		r.unsafeNumbers(r.root)
		return true, argumentsError(tool, sortIssues(r.issues))
	}
	r.path = r.path[:0]
	r.check(p.fast.root, r.root, false)
	if r.bail {
		return false, nil
	}
	if len(r.issues) > 0 {
		return true, argumentsError(tool, sortIssues(r.issues))
	}
	t := r.tok(r.root)
	for key, m := r.root+1, int32(0); m < t.N; m++ {
		if p.keepAllKeys || p.fast.known.find(r.keyText(key)) >= 0 || p.keepPattern(r.keyText(key)) {
			r.keys = append(r.keys, key)
		}
		key = r.tok(key + 1).Next
	}
	return true, nil
}

// keepPattern reports whether a key matches a top-level patternProperties.
func (p *schemaParts) keepPattern(k []byte) bool {
	for _, re := range p.patterns {
		if re.Match(k) {
			return true
		}
	}
	return false
}

// convertObject makes the plan's conversions in object k: the top level in
// the arguments' key order, nested objects in key order, as apply does.
func (r *fastRun) convertObject(p *coercePlan, k int32, top bool) {
	if p.props == nil && p.other == nil {
		return
	}
	t := r.tok(k)
	key := k + 1
	for m := int32(0); m < t.N; m++ {
		if !top {
			key = r.tape.Keys(r.src, k)[m]
		}
		if c := p.memberBytes(r.keyText(key)); c != nil {
			r.path = append(r.path, key)
			r.convert(c, key+1)
			r.path = r.path[:len(r.path)-1]
		}
		if top {
			key = r.tok(key + 1).Next
		}
	}
}

// convert makes the plan's conversions at token k and below.
func (r *fastRun) convert(p *coercePlan, k int32) {
	t := r.tok(k)
	switch t.Kind {
	case jsontext.TokObject:
		r.convertObject(p, k, false)
	case jsontext.TokArray:
		if p.prefix == nil && p.items == nil {
			return
		}
		for i, e := 0, k+1; i < int(t.N); i++ {
			if c := p.element(i); c != nil {
				r.path = append(r.path, int32(-1-i))
				r.convert(c, e)
				r.path = r.path[:len(r.path)-1]
			}
			e = r.tok(e).Next
		}
	case jsontext.TokString, jsontext.TokNumber:
		if p.scalarTarget() {
			r.convertScalar(p, k)
		}
	}
}

// convertScalar makes fromString's or fromNumber's conversion of token k,
// skipping (without allocating) the values that are already of a type the
// plan accepts.
func (r *fastRun) convertScalar(p *coercePlan, k int32) {
	t := r.tok(k)
	var nv any
	var changed bool
	st := &coerceState{}
	if t.Kind == jsontext.TokNumber {
		integer := t.Flags&jsontext.FlagInteger != 0
		if integer && p.kinds&kindInteger != 0 || !integer && p.kinds&kindNumber != 0 {
			return
		}
		st.path = r.pathTokens()
		nv, changed = p.fromNumber(json.Number(r.lit(k)), st)
	} else {
		if p.kinds&kindString != 0 {
			return
		}
		st.path = r.pathTokens()
		nv, changed = p.fromString(string(r.strValue(k)), st)
	}
	if !changed {
		return
	}
	r.convs = append(r.convs, st.convs...)
	switch v := nv.(type) {
	case json.Number:
		start := len(r.alt)
		r.alt = append(r.alt, v...)
		flags := flagAlt
		if jsontext.IsIntegerText(string(v)) {
			flags |= jsontext.FlagInteger
		}
		*t = jsontext.Token{Kind: jsontext.TokNumber, Flags: flags, Start: int32(start), End: int32(len(r.alt)), Next: t.Next}
	case bool:
		kind := jsontext.TokFalse
		if v {
			kind = jsontext.TokTrue
		}
		*t = jsontext.Token{Kind: kind, Flags: flagAlt, Next: t.Next}
	}
}

// pathTokens is the current path as pointer tokens.
func (r *fastRun) pathTokens() []string {
	out := make([]string, len(r.path))
	for i, p := range r.path {
		if p < 0 {
			out[i] = strconv.Itoa(int(-1 - p))
		} else {
			out[i] = string(r.strValue(p))
		}
	}
	return out
}

// numbersSafe reports whether every number of the arguments has its
// exponent within MaxNumberExponent (numbersSafe of the value tree). Lax
// conversions never make a number past it, so a text whose numbers have
// no exponent (and few fraction digits) needs no look.
func (r *fastRun) numbersSafe() bool {
	if !r.tape.Exponents {
		return true
	}
	for k := r.root; k < r.tok(r.root).Next; k++ {
		t := r.tok(k)
		if t.Kind == jsontext.TokNumber && t.Flags&jsontext.FlagInteger == 0 && !exponentWithin(r.lit(k), MaxNumberExponent) {
			return false
		}
	}
	return true
}

// exponentWithin is Decimal.ExponentWithin for a JSON number literal.
func exponentWithin(s []byte, limit int) bool {
	i := 0
	for i < len(s) && s[i] != '.' && s[i] != 'e' && s[i] != 'E' {
		i++
	}
	frac := 0
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			frac++
		}
	}
	e, neg := 0, false
	if i < len(s) {
		i++ // e or E
		if s[i] == '+' || s[i] == '-' {
			neg = s[i] == '-'
			i++
		}
		for sat := limit + frac + 1; i < len(s) && e <= sat; i++ {
			e = min(e*10+int(s[i]-'0'), sat)
		}
	}
	if neg {
		e = -e
	}
	net := e - frac
	return net >= -limit && net <= limit
}

// unsafeNumbers lists the numbers past the bound, as unsafeNumbers does.
func (r *fastRun) unsafeNumbers(k int32) {
	t := r.tok(k)
	switch t.Kind {
	case jsontext.TokNumber:
		if t.Flags&jsontext.FlagInteger == 0 && !exponentWithin(r.lit(k), MaxNumberExponent) {
			p := r.pointer(nil)
			r.issues = append(r.issues, Issue{Path: p, Keyword: "maxExponent",
				Message: fmt.Sprintf("%s: the number %s has a decimal exponent beyond ±%d", describeField(p, "arguments"), clipText(string(r.lit(k)), 40), MaxNumberExponent)})
		}
	case jsontext.TokObject:
		for key, m := k+1, int32(0); m < t.N; m++ {
			r.path = append(r.path, key)
			r.unsafeNumbers(key + 1)
			r.path = r.path[:len(r.path)-1]
			key = r.tok(key + 1).Next
		}
	case jsontext.TokArray:
		for i, e := 0, k+1; i < int(t.N); i++ {
			r.path = append(r.path, int32(-1-i))
			r.unsafeNumbers(e)
			r.path = r.path[:len(r.path)-1]
			e = r.tok(e).Next
		}
	}
}

// emit writes the surviving arguments into r.out as the bridge writes them
// for JavaScript (appendJSArguments): top-level keys in their order, nested
// objects with their keys sorted, strings as encoding/json writes them,
// numbers as their literal, and each integer beyond ±(2^53−1) as a string
// whose pointer is added to r.bigints.
func (r *fastRun) emit() {
	r.out = append(r.out[:0], '{')
	r.path = r.path[:0]
	runStart, runEnd := int32(-1), int32(-1) // a run of members copied as they are
	for i, key := range r.keys {
		kt, vt := r.tok(key), r.tok(key+1)
		if vt.Start == kt.End+1 && r.verbatim(key) && r.verbatim(key+1) {
			if runStart >= 0 && kt.Start == runEnd+1 {
				runEnd = vt.End // the comma between is in the run
				continue
			}
			r.out = r.flush(runStart, runEnd, i)
			runStart, runEnd = kt.Start, vt.End
			continue
		}
		r.out = r.flush(runStart, runEnd, i)
		runStart = -1
		r.appendKey(key)
		r.path = append(r.path, key)
		r.emitValue(key + 1)
		r.path = r.path[:0]
	}
	r.out = append(r.flush(runStart, runEnd, 0), '}')
}

// flush writes the run of members being copied, then the comma before
// member i.
func (r *fastRun) flush(start, end int32, i int) []byte {
	out := r.out
	if start >= 0 {
		out = append(out, r.src[start:end]...)
	}
	if i > 0 {
		out = append(out, ',')
	}
	return out
}

// verbatim reports whether token k is written as it is in the text.
func (r *fastRun) verbatim(k int32) bool {
	t := r.tok(k)
	if len(r.convs) > 0 {
		return false
	}
	switch t.Kind {
	case jsontext.TokString:
		return t.Flags&(jsontext.FlagEscaped|jsontext.FlagLineSep) == 0
	case jsontext.TokNumber:
		return t.Flags&jsontext.FlagLong == 0
	case jsontext.TokObject, jsontext.TokArray:
		return t.Flags&jsontext.FlagRewrite == 0
	}
	return true
}

// appendKey writes a key and its colon.
func (r *fastRun) appendKey(key int32) {
	if r.tok(key).Flags&jsontext.FlagLineSep != 0 {
		r.out = jsontext.AppendQuoted(r.out, r.keyText(key))
	} else {
		r.out = append(r.out, r.lit(key)...)
	}
	r.out = append(r.out, ':')
}

// emitValue writes the value at token k: a container whose text is
// already what the writer would write (no FlagRewrite, no conversion made)
// is copied as it is.
func (r *fastRun) emitValue(k int32) {
	t := r.tok(k)
	if t.Kind <= jsontext.TokArray && r.verbatim(k) {
		r.out = append(r.out, r.src[t.Start:t.End]...)
		return
	}
	switch t.Kind {
	case jsontext.TokString:
		if t.Flags&(jsontext.FlagEscaped|jsontext.FlagLineSep) == 0 {
			r.out = append(r.out, r.lit(k)...)
		} else {
			r.out = jsontext.AppendQuoted(r.out, r.strValue(k))
		}
	case jsontext.TokNumber:
		text := r.lit(k)
		if t.Flags&jsontext.FlagInteger != 0 && (t.Flags&flagAlt != 0 || t.Flags&jsontext.FlagLong != 0) && jsontext.BigInteger(text) {
			r.bigints = append(r.bigints, r.pointer(nil))
			r.out = append(append(append(r.out, '"'), text...), '"')
		} else {
			r.out = append(r.out, text...)
		}
	case jsontext.TokTrue:
		r.out = append(r.out, "true"...)
	case jsontext.TokFalse:
		r.out = append(r.out, "false"...)
	case jsontext.TokNull:
		r.out = append(r.out, "null"...)
	case jsontext.TokObject:
		r.out = append(r.out, '{')
		for i, key := range r.tape.Keys(r.src, k) {
			if i > 0 {
				r.out = append(r.out, ',')
			}
			r.appendKey(key)
			r.path = append(r.path, key)
			r.emitValue(key + 1)
			r.path = r.path[:len(r.path)-1]
		}
		r.out = append(r.out, '}')
	case jsontext.TokArray:
		r.out = append(r.out, '[')
		for i, e := 0, k+1; i < int(t.N); i++ {
			if i > 0 {
				r.out = append(r.out, ',')
			}
			r.path = append(r.path, int32(-1-i))
			r.emitValue(e)
			r.path = r.path[:len(r.path)-1]
			e = r.tok(e).Next
		}
		r.out = append(r.out, ']')
	}
}
