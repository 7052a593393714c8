package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsontext"

	"github.com/toolgate/toolgate/core"
)

// Limits of one server's tools/list.
const (
	// MaxListPages is the most tools/list pages read from one server (the TS
	// SDK's DEFAULT_LIST_MAX_PAGES); a server that pages further is refused.
	MaxListPages = 64
	// MaxServerTools is the most tools one server may advertise.
	MaxServerTools = 1000
)

// wireNamePattern is the MCP spec's tool name rule (2025-11-25, SEP-986).
var wireNamePattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,128}$`)

// checkWireName refuses a wire tool name that breaks the MCP rule
// (invalid-tool, the message starting with what) or that seen holds already
// (duplicate-tool, the message from twice), and records it in seen.
func checkWireName(cfg *ServerConfig, name string, seen map[string]bool, what, twice string) error {
	if !wireNamePattern.MatchString(name) {
		return serverError(core.CodeInvalidTool, cfg.Name, cfg,
			"%s %s is not a valid MCP tool name (1 to 128 of A-Z a-z 0-9 . _ -)", what, cfg.quote(name, 140))
	}
	if seen[name] {
		return serverError(core.CodeDuplicateTool, cfg.Name, cfg, twice, name)
	}
	seen[name] = true
	return nil
}

// descriptor is one validated tool of a tools/list answer.
type descriptor struct {
	wire        string
	description json.RawMessage // a JSON string, or null when the server sent none
	inputSchema json.RawMessage // a JSON object, compacted
	compiled    *core.CompiledSchema
	output      *core.CompiledSchema // the compiled outputSchema; nil when none
	annotations json.RawMessage      // the "annotations" object as sent (compacted); nil when none
	ann         *Annotations         // its hints; nil when none
	headers     []paramHeader        // its x-mcp-header annotations (modern wire only; mcpheader.go)
	filtered    bool                 // the Filter dropped it: only wire is set
	raw         json.RawMessage      // the whole descriptor, compacted (nil for a declared tool)
	sum         descriptorSum        // the SHA-256 of the descriptor as sent (reuse.go)
	reused      *core.Tool           // the registered tool a refresh keeps for it (reuse.go); only wire and sum are set
}

// discover lists every tool of the server page by page (on the modern
// wire a fresh page comes from the pool's list cache: listcache.go) (at most
// MaxListPages pages, no cursor repeated, at most MaxServerTools tools) and
// validates every descriptor, applying f (nil keeps all): a tool f drops
// is returned with only its name and filtered set (see validateDescriptors
// for what it is still checked for). It changes nothing anywhere: the
// caller registers the result or nothing. A descriptor whose sum reuse
// holds, for the version spoken, comes back as reused (reuse.go).
func (p *Pool) discover(ctx context.Context, cfg *ServerConfig, sec *Security, f *Filter, reuse reusable) (*discovered, error) {
	var raws []json.RawMessage
	modern, version := false, ""
	err := p.run(ctx, cfg, sec, nil, "", func(ctx context.Context, e *entry, c *conn) error {
		raws = raws[:0]
		modern = c.sess.isModern()
		version = c.sess.protocolVersion()
		cursor := ""
		seen := map[string]bool{}
		pace := newPacer()
		for page := 1; ; page++ {
			if page > MaxListPages {
				return serverError(core.CodeTransport, cfg.Name, cfg,
					"tools/list goes on for more than %d pages; refusing the server's tools", MaxListPages)
			}
			raw, err := p.listPageOf(ctx, e, c, cursor) // listcache.go
			if err != nil {
				return err
			}
			pace.step() // pace.go: a page of up to maxMessageBytes is parsed next
			tools, next, err := parsePage(cfg, raw, &pace)
			if err != nil {
				return err
			}
			pace.step()
			raws = append(raws, tools...)
			if len(raws) > MaxServerTools {
				return serverError(core.CodeTransport, cfg.Name, cfg,
					"the server advertises more than %d tools; refusing them all", MaxServerTools)
			}
			if next == "" {
				return nil
			}
			if seen[next] || next == cursor {
				return serverError(core.CodeTransport, cfg.Name, cfg,
					"tools/list page %d repeats the cursor %s; refusing the server's tools",
					page, cfg.quote(next, 60))
			}
			seen[next] = true
			cursor = next
		}
	})
	if err != nil {
		return nil, err
	}
	descs, warnings, err := validateDescriptors(cfg, raws, f, modern, func(sum descriptorSum) *core.Tool { return reuse.take(sum, version) })
	if err != nil {
		return nil, err
	}
	return &discovered{descs: descs, warnings: warnings, version: version}, nil
}

// discovered is what discovery found: the tools, the warnings about those
// left out, and the protocol version spoken.
type discovered struct {
	descs    []descriptor
	warnings []*core.Error
	version  string
}

// parsePage reads one tools/list result: its tools and its nextCursor (a
// pace point between its two passes over the page).
func parsePage(cfg *ServerConfig, raw json.RawMessage, pace *pacer) ([]json.RawMessage, string, error) {
	bad := func(why string) error {
		return serverError(core.CodeTransport, cfg.Name, cfg, "malformed tools/list result: %s", why)
	}
	var fields map[string]json.RawMessage
	raw = bytes.TrimSpace(raw)
	if jsontext.Kind(raw) != "object" || json.Unmarshal(raw, &fields) != nil {
		return nil, "", bad("not a JSON object")
	}
	pace.step()
	var tools []json.RawMessage
	if v, ok := fields["tools"]; !ok || jsontext.Kind(v) != "array" || json.Unmarshal(v, &tools) != nil {
		return nil, "", bad(`"tools" is not an array`)
	}
	var next string
	if v, ok := fields["nextCursor"]; ok && jsontext.Kind(v) != "null" {
		if jsontext.Kind(v) != "string" || json.Unmarshal(v, &next) != nil {
			return nil, "", bad(`"nextCursor" is not a string`)
		}
	}
	return tools, next, nil
}

// validateDescriptors checks every advertised tool, in order. It refuses
// the server at the first tool that cannot even be named: with
// invalid-tool, a descriptor that is not an object, a name that is not a
// string matching the MCP rule ^[A-Za-z0-9._-]{1,128}$, a description (of
// a tool the filter keeps) that is neither a string nor null; with
// duplicate-tool, a name advertised twice (names are case-sensitive:
// "Search" and "search" are two tools).
//
// A tool whose schemas cannot be used is left out instead, as a filtered
// one, and reported in the warnings (its siblings are kept: one badly
// described tool does not take the server's others down): with
// invalid-schema, an inputSchema that is missing, not an object, of a
// "type" other than "object", or that does not compile (core.CompileSchema:
// a $ref outside the schema, to file: or https:, is refused and nothing is
// read), or an outputSchema that is not an object or does not compile; from
// a modern server, with invalid-tool and Rule RuleMCPHeader, one whose
// x-mcp-header annotations break a rule of docs/mcp-headers.md. A warning's
// Tool is the wire name.
//
// A tool f does not keep (f nil keeps all) is checked only for being an
// object with a valid name advertised once (its name is what the filter
// reads) and comes back as {wire, filtered: true}: its description and
// schemas are not read, so a broken tool can be filtered out without
// refusing the server.
//
// A descriptor for whose sum reuse (nil: none) returns a registered tool
// is only checked for its name being advertised once, and comes back as
// {wire, sum, reused}: a refresh keeps that tool (reuse.go).
func validateDescriptors(cfg *ServerConfig, raws []json.RawMessage, f *Filter, modern bool, reuse func(descriptorSum) *core.Tool) ([]descriptor, []*core.Error, error) {
	out := make([]descriptor, 0, len(raws))
	seen := make(map[string]bool, len(raws))
	var warnings []*core.Error
	pace := newPacer()
	for i, raw := range raws {
		pace.step() // pace.go
		sum := sumOf(raw)
		if reuse != nil {
			if t := reuse(sum); t != nil {
				wire := t.Callable.(*proxy).wire
				if err := checkWireName(cfg, wire, seen, "the tool name", "the server advertises the tool %q twice"); err != nil {
					return nil, nil, err
				}
				out = append(out, descriptor{wire: wire, sum: sum, reused: t})
				continue
			}
		}
		fields, ok := jsontext.Members(raw) // the members' bytes, none decoded
		if !ok {
			return nil, nil, serverError(core.CodeInvalidTool, cfg.Name, cfg, "tool %d of tools/list is not an object", i)
		}
		v := fields["name"]
		if jsontext.Kind(v) != "string" {
			return nil, nil, serverError(core.CodeInvalidTool, cfg.Name, cfg, "tool %d of tools/list has no string \"name\"", i)
		}
		name := jsontext.Unquote(bytes.TrimSpace(v))
		if err := checkWireName(cfg, name, seen, "the tool name", "the server advertises the tool %q twice"); err != nil {
			return nil, nil, err
		}
		d := descriptor{wire: name, description: json.RawMessage("null"), raw: compactJSON(raw), sum: sum}
		if d.annotations, d.ann = parseAnnotations(fields["annotations"]); !f.keeps(name, d.ann) {
			out = append(out, descriptor{wire: name, filtered: true})
			continue
		}
		if v, ok := fields["description"]; ok {
			switch jsontext.Kind(v) {
			case "string", "null":
				d.description = compactJSON(v)
			default:
				return nil, nil, serverError(core.CodeInvalidTool, cfg.Name, cfg,
					"the description of tool %q is %s; want a string", name, jsontext.Kind(v))
			}
		}
		if w := d.readSchemas(cfg, fields, modern); w != nil {
			w.Tool = name
			warnings = append(warnings, w)
			out = append(out, descriptor{wire: name, filtered: true})
			continue
		}
		out = append(out, d)
	}
	return out, warnings, nil
}

// readSchemas reads and compiles the tool's inputSchema (and, on the modern
// wire, its x-mcp-header annotations) and outputSchema into d; it returns
// the warning that leaves the tool out (see validateDescriptors), or nil.
func (d *descriptor) readSchemas(cfg *ServerConfig, fields map[string]json.RawMessage, modern bool) *core.Error {
	name := d.wire
	schema, ok := fields["inputSchema"]
	if !ok || jsontext.Kind(schema) != "object" {
		return leftOut(cfg, core.CodeInvalidSchema, name, fmt.Sprintf(
			"its inputSchema must be a JSON Schema object, got %s", jsontext.Kind(schema)))
	}
	if t, ok := jsontext.Lookup(schema, "type"); ok && string(compactJSON(t)) != `"object"` {
		return leftOut(cfg, core.CodeInvalidSchema, name, `its inputSchema must have "type": "object" (arguments are an object)`)
	}
	d.inputSchema = compactJSON(schema)
	if modern {
		var rerr *headerRuleError
		if d.headers, rerr = parseParamHeaders(d.inputSchema); rerr != nil {
			return headerWarning(cfg, name, rerr)
		}
	}
	cs, err := core.CompileSchema(name, d.inputSchema)
	if err != nil {
		return schemaWarning(cfg, name, "inputSchema", err)
	}
	d.compiled = cs
	if d.output, err = outputSchemaOf(cfg, name, fields["outputSchema"]); err != nil {
		return schemaWarning(cfg, name, "outputSchema", err)
	}
	return nil
}

// leftOut is the warning of code about tool, left out because of why.
func leftOut(cfg *ServerConfig, code core.Code, tool, why string) *core.Error {
	e := serverError(code, cfg.Name, cfg, "tool %s is left out: %s", cfg.quote(tool, 140), why)
	e.Tool = tool
	return e
}

// schemaWarning is the invalid-schema warning of a tool whose which
// schema (inputSchema, outputSchema) did not compile: core's error (its
// issues kept) reworded to name the server and the tool.
func schemaWarning(cfg *ServerConfig, tool, which string, err error) *core.Error {
	ce := *core.AsError(err)
	ce.Code = core.CodeInvalidSchema
	ce.Tool = tool
	ce.Message = cfg.scrub(fmt.Sprintf("server %s: tool %s is left out: its %s: %s",
		strconv.QuoteToASCII(cfg.Name), strconv.QuoteToASCII(tool), which, ce.Message))
	return &ce
}

// compactJSON returns v without insignificant whitespace (v is valid JSON).
func compactJSON(v json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return append(json.RawMessage(nil), v...)
	}
	return b.Bytes()
}

// prefixed returns err (a *core.Error from core about the wire tool, or
// "" for none) as an error of the server: Tool is the server's name, the
// message names the server and the tool, and secrets are redacted.
func prefixed(cfg *ServerConfig, tool string, err error) error {
	ce := core.AsError(err)
	c := *ce
	c.Tool = cfg.Name
	msg := "server " + strconv.QuoteToASCII(cfg.Name) + ": "
	if tool != "" {
		msg += "tool " + strconv.QuoteToASCII(tool) + ": "
	}
	c.Message = cfg.scrub(msg + ce.Message)
	return &c
}

// outputSchemaOf compiles a tool's outputSchema (nil when absent or null):
// invalid-schema when it is not an object or does not compile.
func outputSchemaOf(cfg *ServerConfig, name string, schema json.RawMessage) (*core.CompiledSchema, error) {
	if len(schema) == 0 || jsontext.Kind(schema) == "null" {
		return nil, nil
	}
	if jsontext.Kind(schema) != "object" {
		return nil, serverError(core.CodeInvalidSchema, cfg.Name, cfg,
			"the outputSchema of tool %q must be a JSON Schema object, got %s", name, jsontext.Kind(schema))
	}
	cs, err := core.CompileSchema(name, compactJSON(schema))
	if err != nil {
		return nil, prefixed(cfg, name, err)
	}
	return cs, nil
}

// RuleMCPHeader is the Rule of the invalid-tool warning about a discovered
// tool left out because its x-mcp-header annotations break the 2026-07-28
// rules (docs/mcp-headers.md).
const RuleMCPHeader = "x-mcp-header"

// headerWarning is the warning about tool, left out for rerr.
func headerWarning(cfg *ServerConfig, tool string, rerr *headerRuleError) *core.Error {
	e := serverError(core.CodeInvalidTool, cfg.Name, cfg, "tool %s is left out: %s", cfg.quote(tool, 140), cfg.cut(rerr.Message, 300))
	e.Tool = tool
	e.Rule = RuleMCPHeader
	return e
}
