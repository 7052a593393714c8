package provider

import (
	"encoding/json"
	"errors"
	"fmt"
)

// StrictRestore undoes, on a call's arguments, what OpenAI's strict mode
// made a model send: strict mode requires every property, so each property
// that was optional was made nullable, and a model that means to leave it
// out sends null. StrictRestore records exactly which properties, at which
// object nodes of the schema, were made nullable; Apply removes a null given
// for one of them and nothing else (a null for a property that accepted
// null before is the caller's value and is kept). It is made by the strict
// transform of an export and is read-only, safe for concurrent use.
type StrictRestore struct {
	nodes []strictNode // nodes[0] is the root object
}

// strictNode is the restore of one schema node: the properties made
// nullable, and where to look below it.
type strictNode struct {
	ref      int32            // follow to this node (a $ref), or -1
	nulled   map[string]bool  // properties made nullable here
	props    map[string]int32 // the node of each property's schema
	keys     []string         // property names, for anyOf branch choice
	items    int32            // the node of the items schema, or -1
	anyOf    []int32          // the node of each anyOf branch
	isObject bool             // "type" names object
	isArray  bool             // "type" names array
	needs    bool             // a null may be removed at or below this node
}

// strictSchema rewrites a tool's parameters schema for OpenAI's strict mode:
// every object closed (additionalProperties false), every property listed
// in required, each optional one made nullable, oneOf written as anyOf, and
// keywords strict mode does not accept dropped or described (see
// docs/provider-transforms.md). It returns the schema, the restore of the
// nulls it introduced, and the changes made, with paths into params.
//
// A schema strict mode cannot express (allOf, not, if/then/else,
// dependentRequired, dependentSchemas, patternProperties, an open object,
// a tuple, a $ref other than to the root or its definitions, a node with no
// type, past strict mode's limits, …) is refused: out and restore are nil
// and changes is one ChangeStrictRefused naming the keyword and path. err is
// only for params that are not a JSON object. A schema that is already
// strict passes unchanged, with no changes.
func strictSchema(tool string, params json.RawMessage) (out json.RawMessage, restore *StrictRestore, changes []Change, err error) {
	doc, err := parseSchemaTree(params)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("parameters schema of %q: %w", tool, err)
	}
	root, ok := doc.(*schemaObj)
	if !ok {
		return nil, nil, nil, errors.New("parameters schema of " + fmt.Sprintf("%q", tool) + " is not a JSON object")
	}
	w := newStrictWalk(tool, root)
	res := w.run()
	if w.refused != nil {
		return nil, nil, []Change{*w.refused}, nil
	}
	r := &StrictRestore{nodes: w.nodes}
	r.markNeeds()
	if bad := w.ambiguousUnion(r); bad != nil {
		return nil, nil, []Change{*bad}, nil
	}
	return appendSchemaTree(nil, res), r, w.changes, nil
}
