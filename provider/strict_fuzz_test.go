package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/fixture"
)

// FuzzStrictSchema: for random schemas (a structured generator driven by the
// fuzz input, and the input itself as a schema), strictSchema never panics;
// when it does not refuse, its output keeps the strict rules as
// checkStrictRules (written from OpenAI's rules, not from the transform)
// reads them, and for random arguments valid under the original schema the
// strict-filled arguments (every optional property present, null when it was
// left out) are valid under the output, and Apply gives the original
// arguments back exactly.
func FuzzStrictSchema(f *testing.F) {
	for _, s := range []string{"", "\x01\x02\x03", "\xff\x00\x10\x20\x30", "anyOf-branches", "refs-and-arrays-0123456789"} {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"type":"object","properties":{"a":{"type":"string"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if out, r, ch, err := strictSchema("t", data); err == nil && out != nil {
			checkStrictRules(t, out)
			require.NotNil(t, r)
		} else if err == nil {
			require.Len(t, ch, 1)
		}
		g := &fzGen{schemaGen: schemaGen{fixture.Choices{Src: data, Seed: uint64(len(data))}}}
		checkStrictRoundTrip(t, g)
	})
}

// TestStrictSchemaGenerated runs the fuzz property over generated schemas.
func TestStrictSchemaGenerated(t *testing.T) {
	for i := 0; i < 250; i++ {
		g := &fzGen{schemaGen: schemaGen{fixture.Choices{Seed: uint64(i) * 0x2545f4914f6cdd1d}}}
		checkStrictRoundTrip(t, g)
	}
}

func checkStrictRoundTrip(t *testing.T, g *fzGen) {
	root := g.root()
	params := []byte(g.render(root))
	out, r, ch, err := strictSchema("t", params)
	require.NoError(t, err, "%s", params)
	if out == nil {
		require.Nil(t, r)
		require.Len(t, ch, 1)
		require.Equal(t, ChangeStrictRefused, ch[0].Kind)
		return
	}
	checkStrictRules(t, out)
	orig, err := core.CompileSchema("t", params)
	require.NoError(t, err, "%s", params)
	strict, err := core.CompileSchema("t", out)
	require.NoError(t, err, "%s", out)
	for k := 0; k < 4; k++ {
		want, filled := g.value(root, 0)
		wantJSON, filledJSON := []byte(want), []byte(filled)
		require.Nil(t, validateValue(orig, "t", decodeLoose(t, wantJSON)), "generator: %s not valid under %s", wantJSON, params)
		require.Nil(t, validateValue(strict, "t", decodeLoose(t, filledJSON)), "%s not valid under the strict %s", filledJSON, out)
		args, err := core.DecodeArguments("t", filledJSON)
		require.NoError(t, err)
		back, err := r.Apply(args).MarshalJSON()
		require.NoError(t, err)
		wantArgs, err := core.DecodeArguments("t", wantJSON)
		require.NoError(t, err)
		wantBack, _ := wantArgs.MarshalJSON()
		require.Equal(t, string(wantBack), string(back), "schema %s\nstrict %s\nfilled %s", params, out, filledJSON)
	}
}

// validateValue is nil when v conforms to s, else the problems found or
// the error: core's own check (CompiledSchema.ValidateValue), without
// coercion.
func validateValue(s *core.CompiledSchema, tool string, v any) any {
	issues, err := s.ValidateValue(tool, v)
	switch {
	case err != nil:
		return err
	case issues != nil:
		return issues
	}
	return nil
}

func decodeLoose(t *testing.T, data []byte) any {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v))
	return v
}

// schemaGen is the choice source of core's generated schemas
// (core/fastpath_gen_test.go): choices from fuzz bytes and, past them, a
// deterministic sequence.
type schemaGen struct {
	fixture.Choices
}

// n is a choice in [0, k).
func (g *schemaGen) n(k int) int {
	return g.N(k)
}

// fzGen makes schemas for the round trip from a model it keeps, so that it
// can make arguments valid under them. Recursion (through a definition)
// only goes through optional properties and array items, so arguments are
// finite.
type fzGen struct {
	schemaGen
	defs []*fzNode
}

type fzNode struct {
	kind     string // string, integer, boolean, nullable, enum, object, array, anyOf, ref
	props    []fzProp
	closed   bool
	items    *fzNode
	branches []*fzNode
	def      int
	enum     []string // JSON texts
}

type fzProp struct {
	name     string
	node     *fzNode
	optional bool
}

var fzNames = []string{"a", "b", "c", "d", "x y", "~1/", "é"}

func (g *fzGen) root() *fzNode {
	g.defs = nil
	for i := g.n(3); i > 0; i-- {
		g.defs = append(g.defs, &fzNode{kind: "object"})
	}
	for _, d := range g.defs {
		*d = *g.object(2, true)
	}
	return g.object(0, false)
}

func (g *fzGen) object(depth int, inDef bool) *fzNode {
	o := &fzNode{kind: "object", closed: g.n(3) == 0}
	used := map[string]bool{}
	for i := g.n(4); i >= 0; i-- {
		name := fzNames[g.n(len(fzNames))]
		if used[name] {
			continue
		}
		used[name] = true
		opt := g.n(2) == 0
		o.props = append(o.props, fzProp{name: name, optional: opt, node: g.node(depth+1, opt)})
	}
	return o
}

// node makes a subschema; mayRecurse allows a $ref (which may recurse).
func (g *fzGen) node(depth int, mayRecurse bool) *fzNode {
	k := g.n(10)
	if depth > 3 && k >= 5 {
		k = g.n(5)
	}
	switch k {
	case 0:
		return &fzNode{kind: "string"}
	case 1:
		return &fzNode{kind: "integer"}
	case 2:
		return &fzNode{kind: "nullable"}
	case 3:
		return &fzNode{kind: "enum", enum: [][]string{{`"p"`, `"q"`}, {`1`, `2`}, {`"p"`, `null`}}[g.n(3)]}
	case 4:
		return &fzNode{kind: "boolean"}
	case 5, 6:
		return g.object(depth, false)
	case 7:
		return &fzNode{kind: "array", items: g.node(depth+1, true)}
	case 8:
		n := &fzNode{kind: "anyOf"}
		for i := g.n(2) + 1; i >= 0; i-- {
			n.branches = append(n.branches, g.node(depth+1, false))
		}
		if g.n(4) == 0 { // two branches of one shape: refused when nulls could be told from neither
			n.branches = append(n.branches, n.branches[0])
		}
		return n
	}
	if mayRecurse && len(g.defs) > 0 {
		return &fzNode{kind: "ref", def: g.n(len(g.defs))}
	}
	return &fzNode{kind: "string"}
}

func (g *fzGen) render(n *fzNode) string {
	var b strings.Builder
	g.write(&b, n)
	s := b.String()
	if len(g.defs) > 0 && strings.HasPrefix(s, "{") {
		var defs []string
		for i, d := range g.defs {
			var db strings.Builder
			g.write(&db, d)
			defs = append(defs, fmt.Sprintf(`"D%d":%s`, i, db.String()))
		}
		s = `{"$defs":{` + strings.Join(defs, ",") + `},` + s[1:]
	}
	return s
}

func (g *fzGen) write(b *strings.Builder, n *fzNode) {
	switch n.kind {
	case "string":
		b.WriteString([]string{`{"type":"string"}`, `{"type":"string","minLength":1,"pattern":"^s"}`, `{"type":"string","format":"date","x-ui":"text"}`}[g.n(3)])
	case "integer", "boolean":
		fmt.Fprintf(b, `{"type":%q}`, n.kind)
	case "nullable":
		b.WriteString(`{"type":["string","null"],"description":"maybe"}`)
	case "enum":
		fmt.Fprintf(b, `{"enum":[%s]}`, strings.Join(n.enum, ","))
	case "array":
		b.WriteString(`{"type":"array","items":`)
		g.write(b, n.items)
		b.WriteString(`}`)
	case "anyOf":
		b.WriteString(`{"anyOf":[`)
		for i, br := range n.branches {
			if i > 0 {
				b.WriteString(",")
			}
			g.write(b, br)
		}
		b.WriteString(`]}`)
	case "ref":
		fmt.Fprintf(b, `{"$ref":"#/$defs/D%d"}`, n.def)
	case "object":
		g.writeObject(b, n)
	}
}

func (g *fzGen) writeObject(b *strings.Builder, n *fzNode) {
	b.WriteString(`{"type":"object","properties":{`)
	var req []string
	for i, p := range n.props {
		if i > 0 {
			b.WriteString(",")
		}
		name, _ := json.Marshal(p.name)
		b.Write(name)
		b.WriteString(":")
		g.write(b, p.node)
		if !p.optional {
			req = append(req, string(name))
		}
	}
	fmt.Fprintf(b, `},"required":[%s]`, strings.Join(req, ","))
	if n.closed {
		b.WriteString(`,"additionalProperties":false`)
	}
	b.WriteString(`}`)
}

// acceptsNull reports whether the model accepts null.
func (g *fzGen) acceptsNull(n *fzNode) bool {
	switch n.kind {
	case "nullable":
		return true
	case "enum":
		return n.enum[len(n.enum)-1] == "null"
	case "anyOf":
		for _, b := range n.branches {
			if g.acceptsNull(b) {
				return true
			}
		}
	}
	return false
}

// value makes arguments valid under n (want) and the same filled as strict
// mode makes a model send them (every property present, null for one left
// out). An optional property that accepts null is always present: strict
// mode cannot tell its absence from a null.
func (g *fzGen) value(n *fzNode, depth int) (want, filled string) {
	switch n.kind {
	case "string":
		return `"s"`, `"s"`
	case "integer":
		return `7`, `7`
	case "boolean":
		return `true`, `true`
	case "nullable":
		v := []string{`null`, `"m"`}[g.n(2)]
		return v, v
	case "enum":
		v := n.enum[g.n(len(n.enum))]
		return v, v
	case "ref":
		return g.value(g.defs[n.def], depth+1)
	case "anyOf":
		return g.value(n.branches[g.n(len(n.branches))], depth+1)
	case "array":
		var w, f []string
		for i := g.n(3); i > 0 && depth < 6; i-- {
			a, b := g.value(n.items, depth+1)
			w, f = append(w, a), append(f, b)
		}
		return "[" + strings.Join(w, ",") + "]", "[" + strings.Join(f, ",") + "]"
	}
	var w, f []string
	for _, p := range n.props {
		name, _ := json.Marshal(p.name)
		if p.optional && !g.acceptsNull(p.node) && (depth >= 6 || g.n(2) == 0) {
			f = append(f, string(name)+":null")
			continue
		}
		a, b := g.value(p.node, depth+1)
		w, f = append(w, string(name)+":"+a), append(f, string(name)+":"+b)
	}
	return "{" + strings.Join(w, ",") + "}", "{" + strings.Join(f, ",") + "}"
}
