package provider

import (
	"fmt"
	"unicode/utf8"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// object closes an object schema, lists every property in required and
// makes each optional one nullable.
func (w *strictWalk) object(o *schemaObj, at strictAt, id int32) {
	if at.nest+1 > strictMaxNesting {
		w.refuse(at.path, "maxNesting", fmt.Sprintf("objects may be nested at most %d levels", strictMaxNesting))
		return
	}
	props := o.obj("properties")
	if o.has("properties") && props == nil {
		w.refuse(pointerTo(at.path, "properties"), "properties", "properties must be an object of schemas")
		return
	}
	if !w.close(o, at, props) {
		return
	}
	required, ok := w.requiredSet(o, at, props)
	if !ok {
		return
	}
	if props == nil {
		return
	}
	n := &w.nodes[id]
	n.props, n.nulled, n.keys = map[string]int32{}, map[string]bool{}, props.keys
	out := newSchemaObj()
	inner := strictAt{path: at.path, depth: at.depth, nest: at.nest + 1}
	for _, name := range props.keys {
		w.properties++
		w.stringSize += utf8.RuneCountInString(name)
		if w.properties > strictMaxProperties {
			w.refuse(pointerTo(at.path, "properties", name), "maxTotalProperties", fmt.Sprintf("a schema may have at most %d object properties in all", strictMaxProperties))
			return
		}
		orig := props.vals[name]
		made := !required[name] && w.optional(orig, name, pointerTo(at.path, "properties", name), id)
		child, cid := w.node(orig, inner.in("properties", name))
		if w.refused != nil {
			return
		}
		w.nodes[id].props[name] = cid
		if made {
			child = nullable(child)
		}
		out.set(name, child)
	}
	o.set("properties", out)
	w.listRequired(o, props, required)
}

// close sets additionalProperties false, refusing an object that allows
// other properties on purpose (a schema or true), and a nested object with
// no properties that is not closed (a map, which strict mode cannot
// express).
func (w *strictWalk) close(o *schemaObj, at strictAt, props *schemaObj) bool {
	ap, has := o.get("additionalProperties")
	switch {
	case has && ap == false:
		return true
	case has:
		w.refuse(pointerTo(at.path, "additionalProperties"), "additionalProperties", "strict mode closes every object; one that allows other properties cannot be expressed")
		return false
	case at.path != "" && (props == nil || len(props.keys) == 0):
		w.refuse(at.path, "additionalProperties", "an object with no properties of its own (a map) cannot be expressed, as strict mode closes every object")
		return false
	}
	o.set("additionalProperties", false)
	w.change(at.path, ChangeStrictClosed, "additionalProperties", "additionalProperties set to false, as strict mode requires")
	return true
}

// requiredSet returns the names o requires, refusing a required name that
// is not a property (a closed object could never have it).
func (w *strictWalk) requiredSet(o *schemaObj, at strictAt, props *schemaObj) (map[string]bool, bool) {
	set := map[string]bool{}
	v, has := o.get("required")
	if !has {
		return set, true
	}
	list, ok := v.([]any)
	if !ok {
		w.refuse(pointerTo(at.path, "required"), "required", "required must be a list of names")
		return nil, false
	}
	for _, e := range list {
		name, ok := e.(string)
		if !ok || props == nil || !props.has(name) {
			w.refuse(pointerTo(at.path, "required"), "required", fmt.Sprintf("required names %s, which is not one of the properties of this closed object", rawJSON(e)))
			return nil, false
		}
		set[name] = true
	}
	return set, true
}

// listRequired writes required: the names already there in their order,
// then the others in property order. An already complete list is kept.
func (w *strictWalk) listRequired(o *schemaObj, props *schemaObj, required map[string]bool) {
	if len(required) == len(props.keys) && (o.has("required") || len(props.keys) == 0) {
		return
	}
	list := []any{}
	if old, ok := o.vals["required"].([]any); ok {
		list = append(list, old...)
	}
	for _, name := range props.keys {
		if !required[name] {
			list = append(list, name)
		}
	}
	o.set("required", list)
}

// optional reports an optional property listed in required and whether it
// is to be made nullable, recording the null for removal: not when it
// already accepted null (then a null the model sends is the caller's value
// and stays).
func (w *strictWalk) optional(orig any, name, path string, id int32) bool {
	if w.acceptsNull(orig, 0) {
		w.change(path, ChangeStrictRequired, "required", fmt.Sprintf("property %q listed in required; it already accepts null, so a null sent for it is kept", name))
		return false
	}
	w.nodes[id].nulled[name] = true
	w.change(path, ChangeStrictRequired, "required", fmt.Sprintf("optional property %q listed in required and made nullable; a null sent for it is removed before validation", name))
	return true
}

// nullable returns schema s also accepting null: "null" added to its type
// (and to its enum), else a null branch added to its anyOf, or an anyOf made
// around it (a $ref, a const, an enum without a type).
func nullable(v any) any {
	s, ok := v.(*schemaObj)
	if !ok {
		return v
	}
	enum, hasEnum := s.vals["enum"].([]any)
	plain := (hasEnum || !s.has("enum")) && !s.has("const") && !s.has("$ref") && !s.has("anyOf")
	if _, typed := typeNames(s); plain && typed {
		c := s.clone()
		switch t := s.vals["type"].(type) {
		case string:
			c.set("type", []any{t, "null"})
		case []any:
			c.set("type", append(append([]any(nil), t...), "null"))
		}
		if hasEnum {
			c.set("enum", append(append([]any(nil), enum...), nil))
		}
		return c
	}
	null := newSchemaObj()
	null.set("type", "null")
	if branches, ok := s.vals["anyOf"].([]any); ok {
		c := s.clone()
		c.set("anyOf", append(append([]any(nil), branches...), null))
		return c
	}
	wrap := newSchemaObj()
	wrap.set("anyOf", []any{s, null})
	return wrap
}

// acceptsNull reports whether the original schema v accepts null, following
// local references (a cycle, or a reference that does not resolve, counts as
// not accepting it).
func (w *strictWalk) acceptsNull(v any, depth int) bool {
	if depth > core.MaxSchemaDepth {
		return false
	}
	o, ok := v.(*schemaObj)
	if !ok {
		return v == true
	}
	if names, ok := typeNames(o); ok && !containsString(names, "null") {
		return false
	} else if !ok && o.has("type") {
		return false
	}
	if e, ok := o.get("enum"); ok && !listHasNull(e) {
		return false
	}
	if c, ok := o.get("const"); ok && c != nil {
		return false
	}
	if ref, ok := o.vals["$ref"].(string); ok && !w.refAcceptsNull(ref, depth) {
		return false
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if list, ok := o.vals[kw].([]any); ok && !w.anyAcceptsNull(list, depth) {
			return false
		}
	}
	return true
}

// refAcceptsNull is acceptsNull of a $ref's target, computed once per
// reference (a reference met again while computed counts as not accepting
// null), so that definitions referring to each other cost no more than one
// visit each.
func (w *strictWalk) refAcceptsNull(ref string, depth int) bool {
	if w.nullRefs == nil {
		w.nullRefs = map[string]int8{}
	}
	switch w.nullRefs[ref] {
	case 1:
		return false
	case 2:
		return true
	case 3:
		return false
	}
	w.nullRefs[ref] = 1
	ok := w.acceptsNull(w.resolveOriginal(ref), depth+1)
	w.nullRefs[ref] = 3
	if ok {
		w.nullRefs[ref] = 2
	}
	return ok
}

func (w *strictWalk) anyAcceptsNull(list []any, depth int) bool {
	for _, b := range list {
		if w.acceptsNull(b, depth+1) {
			return true
		}
	}
	return false
}

func listHasNull(v any) bool {
	list, _ := v.([]any)
	for _, e := range list {
		if e == nil {
			return true
		}
	}
	return false
}

// resolveOriginal returns the original schema a local $ref names ("#" or a
// root definition), or nil.
func (w *strictWalk) resolveOriginal(ref string) any {
	if ref == "#" {
		return w.root
	}
	for _, kw := range []string{"$defs", "definitions"} {
		prefix := "#/" + kw + "/"
		if len(ref) > len(prefix) && ref[:len(prefix)] == prefix {
			if defs := w.root.obj(kw); defs != nil {
				return defs.vals[jsontext.Unescape(ref[len(prefix):])]
			}
		}
	}
	return nil
}
