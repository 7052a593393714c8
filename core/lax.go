package core

// Pydantic v2's lax scalar conversions (string → integer, number or
// boolean; integer ↔ number; 0/1 → boolean), exact to the digit: the leaves
// of the coercion plan in coerce.go.

import (
	"encoding/json"
	"strings"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// fromString makes Pydantic's lax str → int / float / bool conversions when
// the schema accepts no string here. It returns false when nothing changes.
func (p *coercePlan) fromString(s string, st *coerceState) (any, bool) {
	k := p.kinds
	if k&kindString != 0 {
		return nil, false
	}
	var numText, to string
	if k&kindInteger != 0 {
		if t, ok := strAsInt(s); ok {
			numText, to = t, "integer"
		}
	}
	if to == "" && k&kindNumber != 0 {
		if t, ok := strAsFloat(s); ok {
			numText, to = floatText(t), "number"
		}
	}
	boolVal, boolOK := false, false
	if k&kindBoolean != 0 {
		boolVal, boolOK = strAsBool(s)
	}
	switch {
	case to != "" && boolOK:
		return nil, false // ambiguous: number or boolean
	case to != "":
		st.record("string", to)
		return json.Number(numText), true
	case boolOK:
		st.record("string", "boolean")
		return boolVal, true
	}
	return nil, false
}

// fromNumber makes Pydantic's lax number conversions: int → float (5 → 5.0)
// where only "number" is accepted, float with no fractional part → int where
// only "integer" is, and 0 / 1 → bool where only "boolean" is. It returns
// false when nothing changes.
func (p *coercePlan) fromNumber(n json.Number, st *coerceState) (any, bool) {
	k := p.kinds
	s := string(n)
	if jsontext.IsIntegerText(s) {
		switch {
		case k&kindInteger != 0:
			return nil, false
		case k&kindNumber != 0:
			st.record("integer", "number")
			return json.Number(floatText(s)), true
		case k&kindBoolean != 0:
			if b, ok := zeroOrOne(s); ok {
				st.record("integer", "boolean")
				return b, true
			}
		}
		return nil, false
	}
	switch {
	case k&kindNumber != 0:
		return nil, false
	case k&kindInteger != 0:
		if t, ok := numberAsInt(s); ok {
			st.record("number", "integer")
			return json.Number(t), true
		}
	case k&kindBoolean != 0:
		if t, ok := numberAsInt(s); ok {
			if b, ok := zeroOrOne(t); ok {
				st.record("number", "boolean")
				return b, true
			}
		}
	}
	return nil, false
}

// zeroOrOne maps an integer literal 0 (or -0) / 1 to false / true.
func zeroOrOne(s string) (bool, bool) {
	switch s {
	case "0", "-0":
		return false, true
	case "1":
		return true, true
	}
	return false, false
}

// maxIntDigits is Python's (and so Pydantic's) limit on the length of an
// integer parsed from a string.
const maxIntDigits = 4300

// strAsInt is pydantic-core's str_as_int: an optionally signed run of ASCII
// digits; else the same followed by "." and only zeros ("42.0", "42."); else
// digits separated by single underscores ("1_000"). No surrounding
// whitespace. It returns the canonical JSON integer text.
func strAsInt(s string) (string, bool) {
	if len(s) > maxIntDigits {
		return "", false
	}
	if t, ok := wholeDecimal(s); ok {
		return t, true
	}
	if strings.Contains(s, ".") {
		return "", false
	}
	if stripped, ok := stripUnderscores(s); ok {
		return wholeDecimal(stripped)
	}
	return "", false
}

// wholeDecimal reads [+-]digits, optionally followed by "." and only zeros,
// as a canonical JSON integer: no plus sign, no leading zeros, "-0" as "0".
func wholeDecimal(s string) (string, bool) {
	d, ok := jsontext.ParseDecimal(s, true)
	if !ok || d.Int == "" || d.Exp != "" || strings.Trim(d.Frac, "0") != "" {
		return "", false
	}
	d.Frac = ""
	return d.Integer(maxIntDigits)
}

// stripUnderscores is pydantic-core's strip_underscores: underscores are
// removed unless one leads, trails or two are adjacent.
func stripUnderscores(s string) (string, bool) {
	if !strings.Contains(s, "_") || strings.HasPrefix(s, "_") || strings.HasSuffix(s, "_") || strings.Contains(s, "__") {
		return "", false
	}
	return strings.ReplaceAll(s, "_", ""), true
}

// strAsFloat is pydantic-core's str_as_float (Rust's f64 parsing, then a
// retry without underscores), limited to finite values: "inf" and "nan" have
// no JSON form and are not converted. It returns a canonical JSON number
// literal with the string's exact digits (nothing is rounded to float64).
func strAsFloat(s string) (string, bool) {
	if t, ok := decimalLiteral(s); ok {
		return t, true
	}
	if stripped, ok := stripUnderscores(s); ok {
		return decimalLiteral(stripped)
	}
	return "", false
}

// decimalLiteral reads Rust's float text, [+-]?(digits[.digits?]|.digits)
// ([eE][+-]?digits)?, as a JSON number literal with the same digits,
// refusing one beyond MaxNumberExponent.
func decimalLiteral(s string) (string, bool) {
	d, ok := jsontext.ParseDecimal(s, true)
	if !ok || !d.ExponentWithin(MaxNumberExponent) {
		return "", false
	}
	return d.Canonical(), true
}

// floatText writes a number literal in float form: an integer literal gets
// ".0" (5 → 5.0), as Pydantic dumps a float.
func floatText(s string) string {
	if jsontext.IsIntegerText(s) {
		return s + ".0"
	}
	return s
}

// numberAsInt is pydantic-core's float_as_int for a JSON number literal: the
// exact integer when the value has no fractional part (5.0 → 5, 1e3 → 1000),
// computed from the digits so nothing is rounded. Integers of more than
// maxIntDigits digits are not converted.
func numberAsInt(s string) (string, bool) {
	d, ok := jsontext.ParseDecimal(s, false)
	if !ok {
		return "", false
	}
	return d.Integer(maxIntDigits)
}

// strAsBool is pydantic-core's str_as_bool: "0" / "1" exactly, and
// case-insensitively f, n, no, off, false / t, y, on, yes, true.
func strAsBool(s string) (bool, bool) {
	switch s {
	case "0":
		return false, true
	case "1":
		return true, true
	}
	if len(s) > 5 {
		return false, false
	}
	switch jsontext.LowerASCII(s) {
	case "f", "n", "no", "off", "false":
		return false, true
	case "t", "y", "on", "yes", "true":
		return true, true
	}
	return false, false
}
