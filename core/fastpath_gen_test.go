package core

import (
	"encoding/json"
	"strings"

	"github.com/toolgate/toolgate/internal/fixture"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// schemaGen makes a parameters schema and an arguments object from fuzz
// bytes (and, past them, a deterministic sequence): the keywords the fast
// path covers, a few it declines, and arguments near what the schema wants.
type schemaGen struct {
	fixture.Choices
}

// n is a choice in [0, k).
func (g *schemaGen) n(k int) int {
	return g.N(k)
}

func (g *schemaGen) pick(xs ...string) string { return xs[g.n(len(xs))] }

var (
	genNames    = []string{"a", "b", "c", "n", "x y", "~1/", "é", "10", "9", "A"}
	genNumbers  = []string{"0", "1", "-1", "2.5", "0.1", "10", "1e2", "1E-3", "9007199254740993", "0.30", "100", "3", "-0"}
	genMultiple = []string{"1", "2", "0.5", "0.1", "3", "1e-2", "7"}
	genStrings  = []string{"a", "b", "é", "5", "true", "", "x y", "1"}
	genPatterns = []string{"^a", "b+", "^[0-9]+$", "é", ".", "^$"}
)

// schema makes a root object schema, sometimes with recursive $defs.
func (g *schemaGen) schema() []byte {
	root := g.object(0)
	if g.n(3) == 0 {
		root["$defs"] = map[string]any{"A": g.node(1), "B": g.node(2)}
	}
	if g.n(8) == 0 {
		root["additionalProperties"] = g.n(2) == 0
	}
	if g.n(4) == 0 {
		root["$schema"] = g.pick("http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema")
	}
	data, _ := jsontext.Marshal(root)
	return data
}

// literal is a JSON value for enum and const.
func (g *schemaGen) literal() any {
	switch g.n(6) {
	case 0:
		return json.Number(g.pick(genNumbers...))
	case 1:
		return nil
	case 2:
		return g.n(2) == 0
	case 3:
		return map[string]any{"a": json.Number("1")}
	case 4:
		return []any{json.Number("1"), "a"}
	}
	return g.pick(genStrings...)
}

// node makes one subschema.
func (g *schemaGen) node(depth int) any {
	choice := g.n(20)
	if depth >= 3 && choice >= 8 && choice < 14 {
		choice = g.n(8)
	}
	switch choice {
	case 0:
		return g.stringNode()
	case 1, 2:
		return g.numberNode(g.pick("integer", "number"))
	case 3:
		return map[string]any{"type": g.pick("boolean", "null")}
	case 4:
		return map[string]any{"type": []any{g.pick("string", "integer"), g.pick("null", "boolean", "number")}}
	case 5:
		return map[string]any{"enum": []any{g.literal(), g.literal(), g.literal()}}
	case 6:
		return map[string]any{"const": g.literal()}
	case 7:
		return g.untyped()
	case 8, 9:
		return g.arrayNode(depth)
	case 10, 11:
		return g.object(depth + 1)
	case 12:
		return map[string]any{g.pick("anyOf", "oneOf"): g.union(depth)}
	case 13:
		return map[string]any{"allOf": []any{g.node(depth + 1), g.node(depth + 1)}}
	case 14, 15:
		return map[string]any{"$ref": "#/$defs/" + g.pick("A", "B")}
	case 16:
		return g.n(3) != 0
	case 17:
		return map[string]any{g.pick("not", "propertyNames", "if"): g.node(depth + 1)}
	}
	return g.stringNode()
}

func (g *schemaGen) stringNode() map[string]any {
	n := map[string]any{"type": "string"}
	if g.n(2) == 0 {
		n["minLength"] = json.Number(g.pick("0", "1", "2"))
	}
	if g.n(3) == 0 {
		n["maxLength"] = json.Number(g.pick("1", "3", "2.0"))
	}
	if g.n(3) == 0 {
		n["pattern"] = g.pick(genPatterns...)
	}
	if g.n(4) == 0 {
		n["format"] = g.pick("email", "date-time", "uuid")
	}
	return n
}

func (g *schemaGen) numberNode(typ string) map[string]any {
	n := map[string]any{"type": typ}
	for _, kw := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
		if g.n(4) == 0 {
			n[kw] = json.Number(g.pick(genNumbers...))
		}
	}
	if g.n(4) == 0 {
		n["multipleOf"] = json.Number(g.pick(genMultiple...))
	}
	return n
}

// untyped is a subschema of assertions without "type".
func (g *schemaGen) untyped() map[string]any {
	n := map[string]any{}
	for _, kw := range []string{"minLength", "minimum", "minItems", "maxProperties", "required"} {
		if g.n(3) == 0 {
			if kw == "required" {
				n[kw] = []any{g.pick(genNames...)}
			} else {
				n[kw] = json.Number(g.pick("0", "1", "2"))
			}
		}
	}
	return n
}

func (g *schemaGen) arrayNode(depth int) map[string]any {
	n := map[string]any{"type": "array"}
	if g.n(3) != 0 {
		n["items"] = g.node(depth + 1)
	}
	if g.n(4) == 0 {
		n["prefixItems"] = []any{g.node(depth + 1), g.node(depth + 1)}
	}
	if g.n(3) == 0 {
		n["minItems"] = json.Number(g.pick("0", "1", "2"))
	}
	if g.n(4) == 0 {
		n["maxItems"] = json.Number(g.pick("1", "2", "3"))
	}
	if g.n(3) == 0 {
		n["uniqueItems"] = g.n(3) != 0
	}
	return n
}

// object makes an object subschema.
func (g *schemaGen) object(depth int) map[string]any {
	n := map[string]any{"type": "object"}
	props := map[string]any{}
	var required []any
	for i := g.n(5); i > 0; i-- {
		name := g.pick(genNames...)
		props[name] = g.node(depth + 1)
		if g.n(2) == 0 {
			required = append(required, name)
		}
	}
	if g.n(6) == 0 {
		required = append(required, g.pick(genNames...))
	}
	n["properties"] = props
	if required != nil {
		n["required"] = required
	}
	switch g.n(6) {
	case 0:
		n["additionalProperties"] = false
	case 1:
		n["additionalProperties"] = g.node(depth + 1)
	case 2:
		n["minProperties"] = json.Number(g.pick("1", "2"))
	}
	return n
}

// union makes anyOf/oneOf branches: Optional[X], disjoint types, or
// overlapping ones (which the fast path declines).
func (g *schemaGen) union(depth int) []any {
	switch g.n(4) {
	case 0:
		return []any{g.node(depth + 1), map[string]any{"type": "null"}}
	case 1:
		return []any{map[string]any{"type": "string"}, map[string]any{"type": g.pick("integer", "number")}}
	case 2:
		return []any{g.stringNode(), g.numberNode("integer"), g.object(depth + 1)}
	}
	return []any{g.node(depth + 1), g.node(depth + 1)}
}

var (
	genArgStrings = []string{`"a"`, `"5"`, `"5.0"`, `"1_000"`, `"true"`, `"yes"`, `"0"`, `"1"`, `"abc"`, `""`, `"2.5"`,
		`"1e2"`, `" 5"`, `"-0"`, `"\u00e9"`, `"\ud800"`, `"a\"b"`, `"\n"`, `"é\u2028"`, `"x y"`, `"metric"`, `"b"`}
	genArgNumbers = []string{"0", "1", "-1", "5", "2.5", "1.0", "-0", "1e2", "1e400", "1e1001", "1.5e1001", "10",
		"9007199254740993", "-9007199254740993", "12345678901234567890", "0.5e+01", "100", "3", "0.1", "1E-3"}
)

// arguments makes an arguments object.
func (g *schemaGen) arguments() []byte {
	var b strings.Builder
	g.object1(&b, 0, true)
	return []byte(b.String())
}

func (g *schemaGen) object1(b *strings.Builder, depth int, top bool) {
	b.WriteByte('{')
	seen := map[string]bool{}
	n := g.n(6)
	if !top {
		n = g.n(3)
	}
	for i := 0; i < n; i++ {
		name := g.pick(genNames...)
		if seen[name] {
			continue
		}
		seen[name] = true
		if len(seen) > 1 {
			b.WriteString(g.pick(",", ", "))
		}
		b.Write(jsontext.AppendString(nil, name))
		b.WriteString(g.pick(":", " : "))
		g.value(b, depth+1)
	}
	b.WriteByte('}')
}

func (g *schemaGen) value(b *strings.Builder, depth int) {
	choice := g.n(9)
	if depth >= 4 && choice >= 6 {
		choice = g.n(6)
	}
	switch choice {
	case 0, 1:
		b.WriteString(g.pick(genArgStrings...))
	case 2, 3:
		b.WriteString(g.pick(genArgNumbers...))
	case 4:
		b.WriteString(g.pick("true", "false"))
	case 5:
		b.WriteString("null")
	case 6, 7:
		b.WriteByte('[')
		for i, n := 0, g.n(4); i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			g.value(b, depth+1)
		}
		b.WriteByte(']')
	default:
		g.object1(b, depth, false)
	}
}
