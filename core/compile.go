package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// numberInRange reports whether a number literal (JSON, or the lax float
// text of a coercion) has a decimal exponent, net of its fraction digits,
// within ±MaxNumberExponent.
func numberInRange(s string) bool {
	d, ok := jsontext.ParseDecimal(s, true)
	return ok && d.ExponentWithin(MaxNumberExponent)
}

// schemaBaseURL is the URI a schema document is compiled under. The .invalid
// top-level domain never resolves, and nothing is ever fetched anyway.
const schemaBaseURL = "https://toolgate.invalid/parameters.json"

// errRefRefused is the cause of every refused load of a schema document.
var errRefRefused = errors.New("toolgate never loads schemas from files or the network")

// CompiledSchema is a parameters JSON Schema compiled once, ready to validate.
// It is immutable and safe for concurrent use.
type CompiledSchema struct {
	raw  json.RawMessage
	doc  any            // the schema, decoded with UseNumber
	full *fullValidator // the validator's compile, at once or deferred

	required    []string
	hasRequired bool
	properties  []string

	lazy *lazyParts // the fast path, the lax plan and the root's keys, built on first need
}

// schemaParts is what validation needs beyond the document: built from it
// on first need (parts), never at compile, since most tools of a cold
// workload are validated once or never.
type schemaParts struct {
	keepAllKeys bool                // the root view mentions additionalProperties
	knownKeys   map[string]struct{} // top-level property names of the root view
	patterns    []*regexp.Regexp    // top-level patternProperties of the root view

	fast *fastSchema // the fast path's validator; nil when it declined the schema
}

// lazyParts holds a CompiledSchema's parts and coercion plan once built
// (under a mutex: a CompiledSchema is used concurrently).
type lazyParts struct {
	ready atomic.Pointer[schemaParts]
	plan  atomic.Pointer[planSlot]
	mu    sync.Mutex
}

// planSlot holds a coercion plan once built (nil: none to make).
type planSlot struct{ plan *coercePlan }

// parts returns the schema's parts, building them now if no one has: the
// fast path's program, the coercion plan and what survives at the top
// level. A build that panics stores nothing (the panic goes on to the
// caller's recover), so a later call tries again.
func (s *CompiledSchema) parts() *schemaParts {
	if p := s.lazy.ready.Load(); p != nil {
		return p
	}
	s.lazy.mu.Lock()
	defer s.lazy.mu.Unlock()
	if p := s.lazy.ready.Load(); p != nil {
		return p
	}
	p := buildParts(s.doc)
	s.lazy.ready.Store(p)
	return p
}

// buildParts builds the parts of a compiled document.
func buildParts(doc any) *schemaParts {
	p := &schemaParts{fast: compileFast(doc)}
	p.keepAllKeys, p.knownKeys, p.patterns = newPlanBuilder(doc).rootKeys()
	if p.fast != nil {
		p.fast.known = nameIndex(sortedKeys(p.knownKeys))
	}
	return p
}

// laxPlan returns the schema's coercion plan (nil when it asks for no
// conversion), building it now if no one has: only lax coercion reads it,
// so a tool with coerce "none" never builds one.
func (s *CompiledSchema) laxPlan() *coercePlan {
	if slot := s.lazy.plan.Load(); slot != nil {
		return slot.plan
	}
	s.lazy.mu.Lock()
	defer s.lazy.mu.Unlock()
	if slot := s.lazy.plan.Load(); slot != nil {
		return slot.plan
	}
	plan := newPlanBuilder(s.doc).build([]string{""})
	indexPlans(plan, map[*coercePlan]bool{})
	s.lazy.plan.Store(&planSlot{plan})
	return plan
}

// CompileSchema compiles a parameters JSON Schema. It never reads files or
// URLs: a $ref outside the document is an invalid-schema error.
//
// The default draft is 2020-12 (as MCP specifies for schemas without
// "$schema"); "$schema" may name draft-04, -06, -07 or 2019-09 instead. Any
// other "$schema" needs a metaschema from outside and is refused.
//
// "format" is an annotation only, never asserted, whatever the draft and
// whether or not "$schema" is present: it is 2020-12's default, and Pydantic
// models (the typed path this mirrors) accept values that the RFC formats
// refuse (a date-time without offset, a UUID without dashes). Use "pattern"
// to enforce a shape.
//
// Regular expressions are RE2 (Go's regexp): ECMAScript-only syntax such as
// look-ahead "(?=a)", look-behind or back-references is refused with a
// message saying so.
//
// Also refused with invalid-schema: more than MaxSchemaBytes, nesting deeper
// than MaxSchemaDepth, invalid UTF-8 or JSON, an escaped lone surrogate
// (keyword "loneSurrogate"), trailing data, a repeated key in
// any object, a number beyond MaxNumberExponent, a root that is neither an
// object nor a boolean, and anything the draft's metaschema rejects. Issues
// point into the schema.
func CompileSchema(tool string, schema json.RawMessage) (*CompiledSchema, error) {
	return compileSchemaSafely(tool, schema, nil)
}

// compileSchemaSafely is compileParsed with CompileSchema's recover.
func compileSchemaSafely(tool string, schema json.RawMessage, tp *jsontext.Tape) (cs *CompiledSchema, err error) {
	defer func() {
		if r := recover(); r != nil {
			cs = nil
			err = Errorf(CodeInvalidSchema, tool, "parameters schema could not be compiled: %s", clipText(fmt.Sprint(r), MaxErrorMessageBytes))
		}
	}()
	return compileParsed(tool, schema, tp)
}

// schemaCompiles counts compileSchemaDoc's calls, for the tests that hold a
// schema to being compiled once.
var schemaCompiles atomic.Int64

// schemaTapes are tapes for reading schema texts, reused: a tool's
// creation reads one.
var schemaTapes = sync.Pool{New: func() any { return new(jsontext.Tape) }}

// parseSchemaTape reads schema into a tape from schemaTapes, or is nil when
// the tape declines it (not JSON, deeper than MaxSchemaDepth, an escaped or
// repeated key, invalid UTF-8, a lone surrogate, trailing data): then the
// slow checks decide, and word any refusal. Put the tape back when done.
func parseSchemaTape(schema []byte) *jsontext.Tape {
	tp := schemaTapes.Get().(*jsontext.Tape)
	if end, ok := tp.Parse(schema, MaxSchemaDepth); ok && jsontext.OnlySpace(schema[end:]) {
		return tp
	}
	schemaTapes.Put(tp)
	return nil
}

// compileSchemaDoc is CompileSchema without the recover, for the fuzz target.
func compileSchemaDoc(tool string, schema json.RawMessage) (*CompiledSchema, error) {
	return compileParsed(tool, schema, nil)
}

// compileParsed is compileSchemaDoc of a schema whose tape (parseSchemaTape)
// the caller may have read already (nil: not read). The text is read once:
// a tape that parsed the whole text proves what checkSchemaText and
// loneSurrogate check, and the document is built from it; the slow checks
// and decoder run only when the tape declined, in the order that words the
// same refusal.
func compileParsed(tool string, schema json.RawMessage, tp *jsontext.Tape) (*CompiledSchema, error) {
	schemaCompiles.Add(1)
	if err := CheckSchemaBytes(tool, schema); err != nil {
		return nil, err
	}
	if tp == nil {
		if tp = parseSchemaTape(schema); tp != nil {
			defer schemaTapes.Put(tp)
		}
	}
	var d decodedSchema
	ok := false
	if tp != nil {
		d, ok = buildSchemaTape(schema, tp.Tokens)
	}
	if !ok {
		var err error
		if d, err = decodeSchemaSlowly(tool, schema); err != nil {
			return nil, err
		}
	}
	doc := d.doc
	switch doc.(type) {
	case map[string]any, bool:
	default:
		return nil, Errorf(CodeInvalidSchema, tool, "parameters schema must be a JSON object or boolean, got %s", jsontext.KindOf(doc))
	}

	refs, local := localRefsOf(doc, d.keys)
	if local && d.keys&keysWalk != 0 { // without such a keyword, checkWalk finds nothing (walkKeyword)
		if bound := checkWalk(doc, refs); bound != nil {
			return nil, schemaIssueError(tool, bound.path, bound.keyword, bound.msg)
		}
	}
	return finishCompile(tool, schema, doc, d.props, local)
}

// decodeSchemaSlowly checks and decodes a schema text the tape declined:
// its UTF-8 and nesting, then encoding/json's tokens (which word what is
// wrong), then its escapes.
func decodeSchemaSlowly(tool string, schema json.RawMessage) (decodedSchema, error) {
	if err := checkSchemaText(tool, schema); err != nil {
		return decodedSchema{}, err
	}
	doc, props, err := decodeSchemaTokens(schema)
	var bound *boundError
	if errors.As(err, &bound) {
		return decodedSchema{}, schemaIssueError(tool, bound.path, bound.keyword, bound.msg)
	}
	if err != nil {
		return decodedSchema{}, schemaTextError(tool, "parameters schema is not valid: "+err.Error(), err)
	}
	if ptr, msg, lone := loneSurrogate(schema, "parameters schema"); lone {
		return decodedSchema{}, schemaIssueError(tool, ptr, "loneSurrogate", msg)
	}
	return decodedSchema{doc: doc, props: props, keys: keysAll}, nil
}

// finishCompile compiles the validator now when the metaschema check is
// unsure of doc, and keeps what Required and Properties answer.
func finishCompile(tool string, schema json.RawMessage, doc any, props []string, local bool) (*CompiledSchema, error) {
	// A schema the metaschema check is sure of needs the validator only
	// when the fast path cannot answer: its compile waits until then. Any
	// other is compiled now, which reports what is wrong with it. The fast
	// path and the coercion plan are built on first need (parts).
	var compiled validatorSchema
	lazy := local && sureValid(doc)
	if !lazy {
		var err *Error
		if compiled, err = compileValidator(tool, schema, doc, local); err != nil {
			return nil, err
		}
	}

	cs := &CompiledSchema{raw: append(json.RawMessage(nil), schema...), doc: doc, properties: props, full: &fullValidator{}, lazy: &lazyParts{}}
	if !lazy {
		cs.full.ready.Store(&validatorSlot{compiled})
	}
	if m, ok := doc.(map[string]any); ok {
		if req, ok := m["required"].([]any); ok {
			cs.hasRequired = true
			cs.required = make([]string, 0, len(req))
			for _, r := range req {
				if s, ok := r.(string); ok {
					cs.required = append(cs.required, s)
				}
			}
		}
	}
	return cs, nil
}

// fullValidator is a schema compiled with the validator, at once or on
// first need (under a mutex: a CompiledSchema is used concurrently).
type fullValidator struct {
	ready  atomic.Pointer[validatorSlot]
	mu     sync.Mutex
	failed string // why a deferred compile failed, for good
}

// validatorSlot holds a compiled schema once there is one.
type validatorSlot struct{ schema validatorSchema }

// validator returns the schema compiled with the validator, compiling it
// now if CompileSchema let it wait. When the validator cannot be reached
// (a remote one not loaded), the error says so and a later call tries again.
func (s *CompiledSchema) validator(tool string) (validatorSchema, *Error) {
	if slot := s.full.ready.Load(); slot != nil {
		return slot.schema, nil
	}
	s.full.mu.Lock()
	defer s.full.mu.Unlock()
	if slot := s.full.ready.Load(); slot != nil {
		return slot.schema, nil
	}
	if s.full.failed == "" {
		sch, err := compileValidator(tool, s.raw, s.doc, true)
		switch {
		case err == nil:
			s.full.ready.Store(&validatorSlot{sch})
			return sch, nil
		case validatorUnavailable(err):
			err.Tool = tool
			return nil, err
		}
		s.full.failed = err.Message // sureValid was wrong: a bug, reported rather than hidden
	}
	return nil, Errorf(CodeInternal, tool, "parameters schema failed its deferred compile: %s", s.full.failed)
}

// checkSchemaText refuses, before anything is parsed, a schema text over
// MaxSchemaBytes, not valid UTF-8, or nesting deeper than MaxSchemaDepth.
func checkSchemaText(tool string, schema json.RawMessage) error {
	if err := CheckSchemaBytes(tool, schema); err != nil {
		return err
	}
	if !utf8.Valid(schema) {
		return Errorf(CodeInvalidSchema, tool, "parameters schema is not valid UTF-8")
	}
	if jsontext.Scan(schema, MaxSchemaDepth, false).TooDeep {
		return schemaIssueError(tool, "", "maxDepth",
			fmt.Sprintf("parameters schema nests deeper than %d levels of objects and arrays", MaxSchemaDepth))
	}
	return nil
}

// schemaIssueError is an invalid-schema error with one issue.
func schemaIssueError(tool, path, keyword, msg string) *Error {
	return &Error{Code: CodeInvalidSchema, Tool: tool, Message: clipText(msg, MaxErrorMessageBytes),
		Issues: []Issue{{Path: path, Keyword: keyword, Message: clipText(msg, MaxIssueMessageBytes)}}}
}

// schemaTextError is an invalid-schema error without issues, its message
// clipped to MaxErrorMessageBytes.
func schemaTextError(tool, msg string, cause error) *Error {
	return &Error{Code: CodeInvalidSchema, Tool: tool, Message: clipText(msg, MaxErrorMessageBytes), Cause: cause}
}

// Required returns the root's "required" names in schema order, and false
// when the schema has no "required" (LionAGI's required_fields raises then).
// The slice is a copy.
func (s *CompiledSchema) Required() ([]string, bool) {
	if s == nil || !s.hasRequired {
		return nil, false
	}
	return append([]string{}, s.required...), true
}

// Properties returns the names of the root's "properties" in schema order
// (nil when there are none). Properties reached through $ref or allOf are not
// listed. The slice is a copy.
func (s *CompiledSchema) Properties() []string {
	if s == nil || len(s.properties) == 0 {
		return nil
	}
	return append([]string{}, s.properties...)
}

// MentionsAdditionalProperties reports whether the root schema, or a schema
// it reaches through $ref or allOf, has "additionalProperties" (or its
// 2020-12 counterpart for composed schemas, "unevaluatedProperties"). When it
// does not, Normalize drops top-level keys the schema does not name.
func (s *CompiledSchema) MentionsAdditionalProperties() bool {
	return s != nil && s.parts().keepAllKeys
}

// Raw returns the schema JSON as it was compiled (a copy).
func (s *CompiledSchema) Raw() json.RawMessage {
	if s == nil {
		return nil
	}
	return append(json.RawMessage(nil), s.raw...)
}

// sortedSchemaKeys returns the keys of m, sorted.
func sortedSchemaKeys(m map[string]any) []string { return sortedKeys(m) }

// compiledFrom reports whether c was compiled from exactly the bytes raw
// (a nil c was compiled from nothing): a schema compiled already need not
// be compiled again to be refused.
func (c *CompiledSchema) compiledFrom(raw json.RawMessage) bool {
	return c != nil && bytes.Equal(c.raw, raw)
}
